import { describe, expect, it } from 'vitest'
import { REDACTED, SecretSet, encodedForms, redactStructure } from '../../../main/agents-tools/redaction'
import { seededRandom } from '../../support/seeded-random'

describe('SecretSet', () => {
  it('replaces every occurrence of every secret of every source, longest first', () => {
    const secrets = new SecretSet()
    secrets.set('a', ['sk-alpha-123', 'sk-alpha-123-long'])
    secrets.set('b', ['token-bbbb'])
    expect(secrets.redactText('x sk-alpha-123-long y sk-alpha-123 z token-bbbb token-bbbb')).toBe(
      `x ${REDACTED} y ${REDACTED} z ${REDACTED} ${REDACTED}`,
    )
    secrets.set('a', [])
    expect(secrets.redactText('sk-alpha-123 token-bbbb')).toBe(`sk-alpha-123 ${REDACTED}`)
  })

  it('ignores values too short to be secrets (they would shred every message)', () => {
    const secrets = new SecretSet()
    secrets.set('a', ['ab', ''])
    expect(secrets.size).toBe(0)
    expect(secrets.redactText('abab')).toBe('abab')
  })

  it('finds a secret in serialized JSON in its escaped form', () => {
    const secrets = new SecretSet()
    const value = 'pa"ss\\word\n1'
    secrets.set('a', [value])
    const json = JSON.stringify({ text: `key ${value}` })
    const redacted = secrets.redactJson(json)
    expect(redacted).not.toContain(JSON.stringify(value).slice(1, -1))
    expect(JSON.parse(redacted)).toEqual({ text: `key ${REDACTED}` })
  })

  it('redacts every string inside a value, copying only what changes', () => {
    const secrets = new SecretSet()
    expect(secrets.redactDeep({ a: 'sk-alpha-123' })).toEqual({ a: 'sk-alpha-123' })
    secrets.set('a', ['sk-alpha-123'])
    const untouched = { kind: 'tool_call', items: [1, true, null, { text: 'fine' }] }
    const input = {
      untouched,
      updates: [{ content: { type: 'text', text: 'key=sk-alpha-123.' } }, 'sk-alpha-123'],
      ['env:sk-alpha-123']: 'x',
    }
    const frozen = JSON.stringify(input)
    const out = secrets.redactDeep(input)
    expect(out).toEqual({
      untouched,
      updates: [{ content: { type: 'text', text: `key=${REDACTED}.` } }, REDACTED],
      [`env:${REDACTED}`]: 'x',
    })
    expect(out.untouched).toBe(untouched)
    expect(JSON.stringify(input)).toBe(frozen)
  })

  it('says how much of a chunk end could be the start of a secret', () => {
    const secrets = new SecretSet()
    secrets.set('a', ['secret-value'])
    expect(secrets.pendingPrefixLength('log line secr')).toBe(4)
    expect(secrets.pendingPrefixLength('log line\n')).toBe(0)
    // A whole secret is not a prefix to hold (it is redacted now).
    expect(secrets.pendingPrefixLength('secret-value')).toBe(0)
  })

  it('holds exactly the longest chunk end that starts any form of any secret (the slow definition, on random text)', () => {
    const secrets = new SecretSet()
    secrets.set('a', ['sk-abab-0123', 'abcabcab'])
    secrets.set('b', ['aaaa-bbbb-cccc'])
    const forms = [...new Set(['sk-abab-0123', 'abcabcab', 'aaaa-bbbb-cccc', ...encodedForms('sk-abab-0123'), ...encodedForms('abcabcab'), ...encodedForms('aaaa-bbbb-cccc')])]
    const definition = (text: string) => {
      let longest = 0
      for (const value of forms) for (let n = Math.min(value.length - 1, text.length); n > longest; n--) if (text.endsWith(value.slice(0, n))) longest = n
      return longest
    }
    const random = seededRandom(7)
    const alphabet = 'ab-sk0123c'
    let held = 0
    for (let i = 0; i < 3_000; i++) {
      let text = ''
      for (let length = random(30); text.length < length; ) text += alphabet[random(alphabet.length)]
      // Often end on the start of a form, so long holds are tried too.
      if (i % 3 === 0) text += forms[random(forms.length)]!.slice(0, random(20))
      const expected = definition(text)
      if (expected > 0) held++
      expect(secrets.pendingPrefixLength(text)).toBe(expected)
    }
    expect(held).toBeGreaterThan(500)
  })
})

describe('redactStructure', () => {
  it('hides MCP env and header values wherever mcpServers appear, keeping names, without touching the input', () => {
    const message = {
      jsonrpc: '2.0',
      id: 3,
      method: 'session/new',
      params: {
        cwd: '/w',
        mcpServers: [
          { name: 'stdio', command: 'x', args: [], env: [{ name: 'TOKEN', value: 'v1' }] },
          { type: 'http', name: 'web', url: 'https://x', headers: [{ name: 'Authorization', value: 'Bearer v2' }] },
          { name: 'map', env: { A: 'v3' } },
        ],
      },
    }
    const copy = structuredClone(message)
    const out = redactStructure(message, { kind: 'request', method: 'session/new' }) as typeof message
    expect(message).toEqual(copy)
    expect(out.params.mcpServers[0]!.env).toEqual([{ name: 'TOKEN', value: REDACTED }])
    expect(out.params.mcpServers[1]!.headers).toEqual([{ name: 'Authorization', value: REDACTED }])
    expect(out.params.mcpServers[2]!.env).toEqual({ A: REDACTED })
    expect(out.params.cwd).toBe('/w')
  })

  it('returns the same object when there is nothing to hide (no deep copy on the common path)', () => {
    const message = { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { text: 'hi' } } }
    expect(redactStructure(message, { kind: 'notification', method: 'session/update' })).toBe(message)
  })

  it('hides auth params except the method id, and auth results', () => {
    const request = { id: 1, method: 'auth/login', params: { methodId: 'm', token: 'abc', _meta: { x: 1 } } }
    expect(redactStructure(request, { kind: 'request', method: 'auth/login' })).toEqual({
      id: 1,
      method: 'auth/login',
      params: { methodId: 'm', token: REDACTED, _meta: REDACTED },
    })
    const response = { id: 1, result: { account: { email: 'me@x' } } }
    expect(redactStructure(response, { kind: 'response', method: 'auth/status' })).toEqual({ id: 1, result: { account: REDACTED } })
    expect(redactStructure({ id: 1, result: {} }, { kind: 'response', method: 'authenticate' })).toEqual({ id: 1, result: {} })
  })

  it("hides the person's elicitation answers (content values)", () => {
    const answer = { id: 'e1', result: { action: 'accept', content: { name: 'Ada', apiKey: 'k' } } }
    expect(redactStructure(answer, { kind: 'response', method: 'elicitation/create' })).toEqual({
      id: 'e1',
      result: { action: 'accept', content: { name: REDACTED, apiKey: REDACTED } },
    })
  })
})
