/**
 * A hostile agent's file writes that Bosun cannot do exactly (hostile-agent mode `script`): text with a lone surrogate
 * (JSON's `\ud800`, which UTF-8 cannot hold) is refused, not written as U+FFFD under a diff that shows the agent's text;
 * a path through a file as if it were a folder is the agent's mistake (-32602), not Bosun's (-32603); a 10 GB sparse
 * file is refused by its size; content with a NUL (binary) is refused, and so is a file without a write bit, for root too.
 * Each request gets one answer and the session goes on.
 */
import { existsSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { brokenSessions, hostilePerTest, must, tallyPerFile } from './harness'

const tally = tallyPerFile('files')
const start = hostilePerTest()

const ask = (id: number, method: string, params: object) => JSON.stringify({ jsonrpc: '2.0', id, method, params: { sessionId: '{session}', ...params } })
const LINES = [
  ask(1, 'fs/write_text_file', { path: '{cwd}/lone.txt', content: 'a\ud800b' }),
  ask(2, 'fs/write_text_file', { path: '{cwd}/b.txt', content: 'low \udfff only' }),
  ask(3, 'fs/write_text_file', { path: '{cwd}/b.txt/inner.txt', content: 'x' }),
  ask(4, 'fs/write_text_file', { path: '{cwd}/sub/deep/pair.txt', content: 'a pair \ud83d\ude00 is fine' }),
  ask(5, 'fs/read_text_file', { path: '{cwd}/sparse' }),
  ask(6, 'fs/write_text_file', { path: '{cwd}/b.txt', content: 'bee\u0000\u0001binary\n' }),
  ask(7, 'fs/write_text_file', { path: '{cwd}/new-nul.txt', content: '\u0000' }),
  ask(8, 'fs/write_text_file', { path: '{cwd}/ro.txt', content: 'changed\n' }),
]
const INVALID_PARAMS = -32602

it('refuses text UTF-8 cannot hold and a file used as a folder as the agent’s mistakes, writing nothing', async () => {
  const setup = await start('script')
  writeFileSync(join(setup.testHome.home, 'script.json'), JSON.stringify(LINES))
  const ws = setup.workspace
  writeFileSync(join(ws, 'b.txt'), 'bee\n')
  writeFileSync(join(ws, 'ro.txt'), 'original\n', { mode: 0o444 })
  mkdirSync(join(ws, 'sub'))
  writeFileSync(join(ws, 'sparse'), '')
  truncateSync(join(ws, 'sparse'), 10 * 1024 ** 3)
  const sessionId = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: ws })).sessionId
  expect(must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })).stopReason).toBe('end_turn')
  tally.inputs += LINES.length
  const seen = (setup.reports().find((r) => r.seen)?.seen ?? []) as { id: number; error?: { code: number; message: string } }[]
  const answer = (id: number) => seen.filter((a) => a.id === id).map((a) => (a.error ? a.error.code : 'ok'))
  expect([1, 2, 3, 4, 5, 6, 7, 8].map(answer)).toEqual([[INVALID_PARAMS], [INVALID_PARAMS], [INVALID_PARAMS], ['ok'], [INVALID_PARAMS], [INVALID_PARAMS], [INVALID_PARAMS], [INVALID_PARAMS]])
  // A NUL is binary content: refused (Bosun's own read would refuse the file it made), the file and the diff agree.
  expect(seen.find((a) => a.id === 6)?.error?.message).toContain('a NUL character at character 3')
  // A file without a write bit is read-only, for root too (access(W_OK) passes every file for root).
  expect(seen.find((a) => a.id === 8)?.error?.message).toContain('ro.txt is read-only')
  expect(seen.find((a) => a.id === 1)?.error?.message).toContain('lone surrogate at character 1')
  expect(seen.find((a) => a.id === 3)?.error?.message).toContain('a folder on its way is a file')
  // Nothing written but the pair, exactly.
  expect(existsSync(join(ws, 'lone.txt'))).toBe(false)
  expect(readFileSync(join(ws, 'b.txt'), 'utf8')).toBe('bee\n')
  expect(existsSync(join(ws, 'new-nul.txt'))).toBe(false)
  expect(readFileSync(join(ws, 'ro.txt'), 'utf8')).toBe('original\n')
  expect(readFileSync(join(ws, 'sub/deep/pair.txt'), 'utf8')).toBe('a pair \ud83d\ude00 is fine')
  // One diff: the pair's.
  const state = must(await setup.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
  const diffs = state.entries.flatMap((e) => (e.kind === 'tool_call' ? (e.content ?? []) : [])).filter((c) => c.type === 'diff')
  expect(diffs.map((d) => (d as { path: string }).path)).toEqual([join(ws, 'sub/deep/pair.txt')])
  tally.sessionsBroken += await brokenSessions(setup)
}, 60_000)
