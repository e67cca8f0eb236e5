/**
 * The strict-send validator (test/support/acp-wire-schema.ts) itself: it accepts what the schema allows and
 * refuses the shapes a client gets wrong (checklist G1's seed-001 "common mistakes", I2 extra fields, I6 nulls,
 * E1 v1 `mcpServers`, E13 v2 `type`, B6 ids, A10 batches), so the integration tour's empty problem list means
 * something.
 */
import { describe, expect, it } from 'vitest'
import { checkClientLine, checkWireLog } from '../../support/acp-wire-schema'

const line = (message: unknown) => JSON.stringify(message)
const request = (method: string, params: unknown, id: unknown = 1) => line({ jsonrpc: '2.0', id, method, params })
const answer = (result: unknown, id: unknown = 5) => line({ jsonrpc: '2.0', id, result })
const check = (version: 1 | 2, text: string, answered?: string) => checkClientLine(version, text, () => answered)

describe('checkClientLine', () => {
  it('accepts well-formed v1 and v2 requests, notifications and answers', () => {
    expect(check(1, request('initialize', { protocolVersion: 1, clientInfo: { name: 'b', version: '1' }, clientCapabilities: { fs: { readTextFile: true, writeTextFile: false }, terminal: true, elicitation: { form: {} }, _meta: { x: 1 } } }))).toEqual([])
    expect(check(2, request('initialize', { protocolVersion: 2, info: { name: 'b', version: '1' }, capabilities: { auth: { terminal: {} }, elicitation: { form: {}, url: {} } } }))).toEqual([])
    expect(check(1, request('session/new', { cwd: '/w', mcpServers: [{ name: 'm', command: '/bin/m', args: [], env: [] }] }, 'a'))).toEqual([])
    expect(check(2, request('session/set_config_option', { sessionId: 's', configId: 'mode', type: 'id', value: 'code' }))).toEqual([])
    expect(check(1, line({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's' } }))).toEqual([])
    expect(check(1, answer({ outcome: { outcome: 'selected', optionId: 'allow' } }), 'session/request_permission')).toEqual([])
    expect(check(2, answer({ outcome: { outcome: 'cancelled' } }), 'session/request_permission')).toEqual([])
    expect(check(1, answer({ action: 'accept', content: { name: 'x', n: 2, tags: ['a'] } }), 'elicitation/create')).toEqual([])
    expect(check(1, answer({}), 'fs/write_text_file')).toEqual([])
    expect(check(1, answer({ output: 'hi', truncated: false, exitStatus: { exitCode: 0, signal: null } }), 'terminal/output')).toEqual([])
    expect(check(2, line({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request', data: { anything: true } } }))).toEqual([])
    expect(check(1, request('_bosun/custom', { any: 'thing' }))).toEqual([])
  })

  it('refuses the seed’s permission answers that are not the nested outcome', () => {
    expect(check(1, answer({ optionId: 'allow' }), 'session/request_permission')).not.toEqual([])
    expect(check(1, answer({ behavior: 'allow', updatedInput: {} }), 'session/request_permission')).not.toEqual([])
    expect(check(2, answer({ outcome: 'selected', optionId: 'allow' }), 'session/request_permission')).not.toEqual([])
  })

  it('refuses fields the schema does not have, at the root of a message and inside its params or result', () => {
    expect(check(1, line({ jsonrpc: '2.0', id: 1, method: 'session/cancel', params: { sessionId: 's' }, extra: 1 }))).toContain('unexpected top-level key "extra"')
    expect(check(1, request('session/prompt', { sessionId: 's', prompt: [{ type: 'text', text: 'x', html: '<b>' }] })).join()).toMatch(/unevaluated properties \(html\)/)
    expect(check(2, answer({ outcome: { outcome: 'selected', optionId: 'a', data: { patch: 1 } } }), 'session/request_permission').join()).toMatch(/\(data\)/)
    expect(check(2, request('initialize', { protocolVersion: 2, info: { name: 'b', version: '1' }, capabilities: { fs: { readTextFile: true } } })).join()).toMatch(/\(fs\)/)
  })

  it('refuses wrong shapes of the negotiated version', () => {
    // v1 `session/new` needs `mcpServers`; v2 `initialize` needs `info`; a v2 select value needs its `type`.
    expect(check(1, request('session/new', { cwd: '/w' }))).not.toEqual([])
    expect(check(1, request('session/new', { cwd: '/w', mcpServers: null }))).not.toEqual([])
    expect(check(2, request('initialize', { protocolVersion: 2, clientInfo: { name: 'b', version: '1' } }))).not.toEqual([])
    expect(check(2, request('session/set_config_option', { sessionId: 's', configId: 'mode', value: 'code' }))).not.toEqual([])
    // A v1-only method on v2.
    expect(check(2, request('session/set_mode', { sessionId: 's', modeId: 'code' }))).toEqual(['session/set_mode is not a client → agent request of v2'])
  })

  it('refuses bad envelopes: null or fractional ids, batches, a missing jsonrpc, a response with both result and error', () => {
    expect(check(2, request('session/list', {}, null))).not.toEqual([])
    expect(check(1, request('session/list', {}, 1.5))).not.toEqual([])
    expect(check(1, line([{ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's' } }]))).not.toEqual([])
    expect(check(1, line({ id: 1, method: 'session/list', params: {} }))).toContain('jsonrpc is not "2.0"')
    expect(check(1, line({ jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'x' } }))).not.toEqual([])
    expect(check(1, line({ jsonrpc: '2.0', id: 1, error: { code: 'x', message: 'y' } }))).not.toEqual([])
  })
})

describe('checkWireLog', () => {
  const wire = (...entries: [dir: 'in' | 'out', message: unknown][]) => entries.map(([dir, message]) => JSON.stringify({ dir, line: JSON.stringify(message) })).join('\n')
  const init = request('initialize', { protocolVersion: 1, clientInfo: { name: 'b', version: '1' } }, 0)
  const initialized = { jsonrpc: '2.0', id: 0, result: { protocolVersion: 1 } }
  const ask = { jsonrpc: '2.0', id: 9, method: 'session/request_permission', params: { sessionId: 's', toolCall: { toolCallId: 't' }, options: [] } }
  const cancelled = { jsonrpc: '2.0', id: 9, result: { outcome: { outcome: 'cancelled' } } }

  it('passes a clean exchange and names what was sent', () => {
    const checked = checkWireLog(1, wire(['in', JSON.parse(init)], ['out', initialized], ['out', ask], ['in', cancelled]))
    expect(checked.problems).toEqual([])
    expect([...checked.methods]).toEqual(['initialize', '→ session/request_permission'])
  })

  it('finds a request before initialize was answered, an id reused while pending, and a request answered twice', () => {
    const early = checkWireLog(1, wire(['in', JSON.parse(init)], ['in', JSON.parse(request('session/new', { cwd: '/w', mcpServers: [] }, 1))]))
    expect(early.problems).toEqual(['session/new sent before initialize was answered'])
    const reused = checkWireLog(1, wire(['in', JSON.parse(init)], ['out', initialized], ['in', JSON.parse(request('session/list', {}, 1))], ['in', JSON.parse(request('session/list', {}, 1))]))
    expect(reused.problems).toEqual(['id 1 reused while a request with it is pending'])
    const twice = checkWireLog(1, wire(['in', JSON.parse(init)], ['out', initialized], ['out', ask], ['in', cancelled], ['in', cancelled]))
    expect(twice.problems).toEqual(['answers 9, a request the agent did not send or one already answered'])
  })

  it('checks each answer against the request it answers', () => {
    const wrong = checkWireLog(1, wire(['in', JSON.parse(init)], ['out', initialized], ['out', ask], ['in', { jsonrpc: '2.0', id: 9, result: { optionId: 'allow' } }]))
    expect(wrong.problems.join()).toMatch(/session\/request_permission result/)
  })
})
