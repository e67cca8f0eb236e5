/** A login through a model gateway (`_meta.gateway`): which methods take one, and which addresses are sent. */
import { describe, expect, it } from 'vitest'
import type { AuthMethodSummary } from '../../../main/acp/types'
import { gatewayBaseUrl, gatewayOf } from '../../../main/agents-tools/service'

const method = (meta: unknown): AuthMethodSummary => ({ id: 'gateway', name: 'Gateway', type: 'agent', raw: { id: 'gateway', name: 'Gateway', _meta: meta } })

describe('gateway logins', () => {
  it('a method with an object `_meta.gateway` takes one, with its protocol when named', () => {
    expect(gatewayOf(method({ gateway: { protocol: 'google', restartRequired: 'false' } }))).toEqual({ protocol: 'google' })
    expect(gatewayOf(method({ gateway: {} }))).toEqual({})
    expect(gatewayOf(method({ gateway: { protocol: 'x'.repeat(100) } }))!.protocol).toHaveLength(64)
    for (const meta of [undefined, null, {}, { gateway: true }, { gateway: 'google' }, { gateway: [] }, { gateway: null }]) expect(gatewayOf(method(meta))).toBeUndefined()
  })

  it('sends an absolute http(s) address without credentials in it', () => {
    expect(gatewayBaseUrl(' https://gw.example.com/v1 ')).toEqual({ ok: true, value: 'https://gw.example.com/v1' })
    expect(gatewayBaseUrl('http://127.0.0.1:8080')).toEqual({ ok: true, value: 'http://127.0.0.1:8080' })
    for (const bad of ['gw.example.com', '/v1', 'file:///etc/passwd', 'javascript:alert(1)', 'ftp://gw.example.com', 'https://user:pw@gw.example.com', 'https://token@gw.example.com']) {
      expect(gatewayBaseUrl(bad)).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    }
  })
})
