/** claude-agent-acp's `_auth/status_update`, read leniently and bounded (main/agents-tools/account.ts). */
import { describe, expect, it } from 'vitest'
import { readAuthStatus } from '../../../main/agents-tools/account'

describe('readAuthStatus', () => {
  it('reads the kinds claude-agent-acp sends: a subscription (email as the detail), a key, a gateway, no one', () => {
    expect(readAuthStatus({ authStatus: { kind: 'account', label: 'Claude Max', account: { plan: 'max', email: 'ada@example.com', organization: 'Acme' } } })).toEqual({
      signedIn: true,
      kind: 'account',
      label: 'Claude Max',
      detail: 'ada@example.com',
    })
    expect(readAuthStatus({ authStatus: { kind: 'api_key', label: 'Anthropic API key', detail: 'ANTHROPIC_API_KEY' } })).toEqual({
      signedIn: true,
      kind: 'api_key',
      label: 'Anthropic API key',
      detail: 'ANTHROPIC_API_KEY',
    })
    expect(readAuthStatus({ authStatus: { kind: 'gateway', label: 'Custom model gateway', detail: 'gw.example', vendor: 'x' } })).toMatchObject({ signedIn: true, detail: 'gw.example' })
    expect(readAuthStatus({ authStatus: { kind: 'none', label: 'Not logged in' } })).toEqual({ signedIn: false, kind: 'none', label: 'Not logged in' })
    // A kind Bosun does not know is shown in the agent's words.
    expect(readAuthStatus({ authStatus: { kind: '_future', label: 'Something new' } })).toEqual({ signedIn: true, kind: '_future', label: 'Something new' })
  })

  it('says nothing for a payload without a readable kind and label', () => {
    for (const params of [undefined, null, 'x', [], {}, { authStatus: null }, { authStatus: [] }, { authStatus: { kind: 'none' } }, { authStatus: { label: 'x' } }, { authStatus: { kind: 7, label: 'x' } }, { authStatus: { kind: 'none', label: '   ' } }]) {
      expect(readAuthStatus(params)).toBeUndefined()
    }
  })

  it('keeps it short and printable: whitespace folded, control characters replaced, long text cut', () => {
    const read = readAuthStatus({ authStatus: { kind: 'account', label: `Claude\n\tMax\u001b[31m${'x'.repeat(500)}`, detail: 'y'.repeat(10_000_000) } })!
    expect(read.label.startsWith('Claude Max\uFFFD[31m')).toBe(true)
    expect(read.label.length).toBeLessThanOrEqual(121)
    expect(read.detail!.length).toBeLessThanOrEqual(201)
    expect(read.label.endsWith('…')).toBe(true)
  })
})
