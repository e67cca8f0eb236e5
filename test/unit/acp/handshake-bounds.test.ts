/** What Bosun keeps of an agent's `initialize` answer is bounded (HANDSHAKE_LIMITS), whatever the agent sent. */
import { describe, expect, it } from 'vitest'
import { HANDSHAKE_LIMITS, normaliseHandshake } from '../../../main/acp/handshake'

const hello = (extra: Record<string, unknown>) => normaliseHandshake({ protocolVersion: 1, agentCapabilities: {}, ...extra }, 1, 1)

describe('handshake bounds', () => {
  it('cuts the name, title and version, and marks the cut', () => {
    const { agentInfo } = hello({ agentInfo: { name: 'n'.repeat(10_000), title: 'ok', version: 'v'.repeat(300) } })
    expect(agentInfo!.name).toHaveLength(HANDSHAKE_LIMITS.infoChars)
    expect(agentInfo!.name.endsWith('…')).toBe(true)
    expect(agentInfo!.title).toBe('ok')
    expect(agentInfo!.version).toHaveLength(HANDSHAKE_LIMITS.infoChars)
  })

  it('keeps the first methods, skips an id too long to send back, and cuts names and descriptions', () => {
    const authMethods = [
      { id: 'i'.repeat(HANDSHAKE_LIMITS.authIdChars + 1), name: 'Too long an id' },
      { id: 'a', name: 'A'.repeat(1_000), description: 'd'.repeat(100_000) },
      ...Array.from({ length: 100 }, (_, i) => ({ id: `m${i}`, name: `M${i}` })),
    ]
    const methods = hello({ authMethods }).authMethods
    expect(methods).toHaveLength(HANDSHAKE_LIMITS.authMethods)
    expect(methods[0]!.id).toBe('a')
    expect(methods[0]!.name).toHaveLength(HANDSHAKE_LIMITS.authNameChars)
    expect(methods[0]!.description).toHaveLength(HANDSHAKE_LIMITS.authDescriptionChars)
  })

  it('a method whose id was listed before is left out, whatever it runs: its button would have run the first', () => {
    const methods = hello({
      authMethods: [
        { id: 'login', name: 'Sign in', type: 'terminal', args: ['--login'] },
        { id: 'login', name: 'Sign in (other)', type: 'terminal', args: ['--evil'] },
        { id: 'big', name: 'Big', type: 'terminal', args: ['x'.repeat(HANDSHAKE_LIMITS.authArgChars + 1)] },
        { id: 'big', name: 'Big again', type: 'terminal', args: ['--fine'] },
        { id: 'key', name: 'Key' },
      ],
    }).authMethods
    expect(methods.map((m) => [m.id, m.name])).toEqual([
      ['login', 'Sign in'],
      ['key', 'Key'],
    ])
    expect(methods[0]!.args).toEqual(['--login'])
  })

  it('a terminal method with args or env too big to keep is left out; another method keeps none of them', () => {
    const many = Array.from({ length: HANDSHAKE_LIMITS.authArgs + 1 }, () => 'x')
    const methods = hello({
      authMethods: [
        { id: 't1', name: 'T1', type: 'terminal', args: many },
        { id: 't2', name: 'T2', type: 'terminal', args: ['x'.repeat(HANDSHAKE_LIMITS.authArgChars + 1)] },
        { id: 't3', name: 'T3', type: 'terminal', env: Object.fromEntries(Array.from({ length: HANDSHAKE_LIMITS.authEnvEntries + 1 }, (_, i) => [`E${i}`, '1'])) },
        { id: 'ok', name: 'OK', type: 'terminal', args: ['--login'], env: { A: '1' } },
        { id: 'agent', name: 'Agent', args: many },
      ],
    }).authMethods
    expect(methods.map((m) => m.id)).toEqual(['ok', 'agent'])
    expect(methods[0]).toMatchObject({ args: ['--login'], env: { A: '1' } })
    expect(methods[1]).not.toHaveProperty('args')
  })

  it('keeps only the small extension fields it reads later, not the whole method or the whole answer', () => {
    const handshake = hello({
      authMethods: [{ id: 'k', name: 'Key', varName: 'ACME_KEY', _meta: { 'api-key': { provider: 'x' } }, huge: 'h'.repeat(1_000_000) }, { id: 'm', name: 'Meta', _meta: { blob: 'b'.repeat(HANDSHAKE_LIMITS.authRawChars) } }],
    })
    expect(handshake.authMethods[0]!.raw).toEqual({ id: 'k', name: 'Key', varName: 'ACME_KEY', _meta: { 'api-key': { provider: 'x' } } })
    expect(handshake.authMethods[1]!.raw).toEqual({ id: 'm', name: 'Meta' })
    expect(handshake).not.toHaveProperty('raw')
  })
})
