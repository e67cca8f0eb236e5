/**
 * A hostile agent's edge cases through the whole app, in one turn (hostile-agent mode `script`): JSON-RPC ids and
 * envelopes, updates of any shape, file paths out of the folder (relative, `..`, /proc, symlinks, a FIFO, /dev/zero),
 * absurd read windows, terminals with no output room, a cwd outside or made-up ids, and link questions with schemes
 * Bosun never opens. Each request gets one answer (the FIFO's too, which never blocks), and the session goes on.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { brokenSessions, hostilePerTest, must, repeatUntil, tallyPerFile } from './harness'

const tally = tallyPerFile('edges')
const start = hostilePerTest()

const S = '{session}'
const update = (body: unknown) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: S, update: body } })
const ask = (id: number, method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method, params })
const read = (id: number, path: string, extra: object = {}) => ask(id, 'fs/read_text_file', { sessionId: S, path, ...extra })
const url = (id: number, address: string) => ask(id, 'elicitation/create', { sessionId: S, mode: 'url', message: `open ${id}`, url: address, elicitationId: `e${id}` })

/** The lines the agent writes, and the answer each request should get: a JSON-RPC error code, or `ok`. */
const LINES: string[] = [
  '{"jsonrpc":"2.0","id":1e400,"method":"terminal/create","params":{"sessionId":"{session}","command":"true"}}',
  '{"jsonrpc":"2.0","id":-5,"method":"fs/read_text_file","params":{"sessionId":"{session}","path":"{cwd}/a.txt"}}',
  JSON.stringify({ jsonrpc: '2.0', id: 'with-id', method: 'session/update', params: { sessionId: S, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'a notification sent as a request' } } } }),
  JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: [1, 2] }),
  JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: 'not an object' }),
  update('not an object'),
  update({ sessionUpdate: 'tool_call_update', toolCallId: 'never-announced', status: 'completed' }),
  update({ sessionUpdate: 'agent_message_chunk', content: 'not a block' }),
  update({ sessionUpdate: 'plan', entries: 'not a list' }),
  update({ sessionUpdate: 'tool_call', toolCallId: { an: 'object' }, title: 5 }),
  update({ sessionUpdate: 'usage_update', used: 'NaN', size: null }),
  update({ sessionUpdate: '__proto__', x: 1 }),
  update({ sessionUpdate: 'tool_call', toolCallId: '__proto__', title: 'proto', status: 'in_progress' }),
  update({ sessionUpdate: 'tool_call', toolCallId: 'constructor', title: 'ctor', status: 'in_progress', content: [{ type: 'terminal', terminalId: '__proto__' }] }),
  read(20, 'a.txt'),
  read(21, '{cwd}/../../etc/passwd'),
  read(22, '/proc/self/environ'),
  read(23, '{cwd}/link-out'),
  read(24, '{cwd}/fifo'),
  read(25, '{cwd}/a.txt', { line: -1 }),
  read(26, '{cwd}/a.txt', { line: 1e308, limit: 1e308 }),
  read(27, '{cwd}/zero-link'),
  ask(28, 'fs/write_text_file', { sessionId: S, path: '{cwd}/fifo', content: 'x' }),
  ask(29, 'fs/write_text_file', { sessionId: S, path: '{cwd}/link-out', content: 'x' }),
  ask(30, 'terminal/create', { sessionId: S, command: 'echo', args: ['hi'], outputByteLimit: 0 }),
  ask(31, 'terminal/create', { sessionId: S, command: 'true', cwd: '/' }),
  ask(32, 'terminal/create', { sessionId: S, command: 'true', env: [{ name: 'A=B', value: 'x' }] }),
  ask(33, 'terminal/output', { sessionId: S, terminalId: '__proto__' }),
  ask(34, 'terminal/release', { sessionId: S, terminalId: 'constructor' }),
  ask(35, 'terminal/wait_for_exit', { sessionId: S, terminalId: 'hasOwnProperty' }),
  url(36, 'javascript:alert(1)'),
  url(37, 'file:///etc/passwd'),
  url(38, 'data:text/html,<script>alert(1)</script>'),
  url(39, `https://example.com/${'a'.repeat(200_000)}`),
  ask(40, 'session/request_permission', 'not an object'),
  ask(41, 'session/request_permission', [1]),
  '{"jsonrpc":"2.0","id":42,"method":"fs/read_text_file","params":{"sessionId":"{session}","path":"{cwd}/a.txt","__proto__":{"path":"/etc/passwd"}}}',
]
const INVALID_PARAMS = -32602
const EXPECTED: Record<string, number | 'ok'> = {
  '-5': 'ok',
  'with-id': -32601,
  20: INVALID_PARAMS,
  21: INVALID_PARAMS,
  22: INVALID_PARAMS,
  23: INVALID_PARAMS,
  24: INVALID_PARAMS,
  25: INVALID_PARAMS,
  26: 'ok',
  27: INVALID_PARAMS,
  28: INVALID_PARAMS,
  29: INVALID_PARAMS,
  30: 'ok',
  31: INVALID_PARAMS,
  32: INVALID_PARAMS,
  33: -32002,
  34: -32002,
  35: -32002,
  36: 'ok',
  37: 'ok',
  38: 'ok',
  39: 'ok',
  40: INVALID_PARAMS,
  41: INVALID_PARAMS,
  42: 'ok',
}

it('gets one answer for each request, none of them out of the folder, and the session goes on', async () => {
  const setup = await start('script')
  // Read by the agent beside its report, at the prompt.
  writeFileSync(join(setup.testHome.home, 'script.json'), JSON.stringify(LINES))
  const ws = setup.workspace
  writeFileSync(join(ws, 'a.txt'), 'one\ntwo\nthree\n')
  symlinkSync('/etc/passwd', join(ws, 'link-out'))
  symlinkSync('/dev/zero', join(ws, 'zero-link'))
  execFileSync('mkfifo', [join(ws, 'fifo')])
  const passwd = readFileSync('/etc/passwd', 'utf8')
  const sessionId = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: ws })).sessionId
  const turn = setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })
  // The link questions wait for the person, who cancels them.
  const cancelLinks = async () => {
    for (const session of must(await setup.handlers.getSnapshot(undefined)).sessions) {
      for (const e of Object.values(session.elicitations)) if (e.status === 'pending') await setup.handlers.respondElicitation({ elicitationRequestId: e.elicitationRequestId, action: 'cancel' })
    }
  }
  expect(must(await repeatUntil(setup, turn, cancelLinks)).stopReason).toBe('end_turn')
  tally.inputs += LINES.length
  const seen = (setup.reports().find((r) => r.seen)?.seen ?? []) as { id: unknown; error?: { code: number }; result?: { content?: string } }[]
  const answers = new Map<string, (number | 'ok')[]>()
  for (const answer of seen) answers.set(String(answer.id), [...(answers.get(String(answer.id)) ?? []), answer.error ? answer.error.code : 'ok'])
  for (const [id, expected] of Object.entries(EXPECTED)) expect({ id, answers: answers.get(id) }).toEqual({ id, answers: [expected] })
  // 1e400 is Infinity: answered -32600 under id null, and no terminal ran for it.
  expect(answers.get('null')).toEqual([-32600])
  expect(seen.find((a) => a.id === 42)?.result?.content).toBe('one\ntwo\nthree\n')
  expect(readFileSync('/etc/passwd', 'utf8')).toBe(passwd)
  const state = must(await setup.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
  const toolCalls = state.entries.filter((e) => e.kind === 'tool_call').map((e) => (e as { toolCallId: string }).toolCallId)
  expect(toolCalls).toEqual(expect.arrayContaining(['never-announced', '__proto__', 'constructor']))
  // One terminal only: echo's (the one for id 1e400 never started).
  expect(Object.keys(state.terminals ?? {}).length).toBe(1)
  tally.sessionsBroken += await brokenSessions(setup)
}, 60_000)
