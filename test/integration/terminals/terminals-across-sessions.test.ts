/**
 * An agent's terminals over many sessions: what they retain for `terminal/output` is bounded over all sessions, shared
 * out as one session's is, and so is how many run at once. Each session's own budget was the only bound before: a
 * hundred sessions of one agent could each hold their share (3.2 GB in all) and run 64 PTYs each.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { TerminalHandlers } from '../../../main/terminals/terminal-handlers'
import { attachAgent } from './attach'

const KiB = 1024
const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
})

/** Handlers serving sessions s1…s9 of agent `a`, with small bounds over all of them. */
function harness(bounds: { totalOutputBytes?: number; maxTerminals?: number }) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'bosun-terminals-')))
  const handlers = new TerminalHandlers({
    sessions: { getSession: (agentId, acpSessionId) => (agentId === 'a' && /^s\d$/.test(acpSessionId) ? { sessionId: `bosun-${acpSessionId}`, cwd: dir, roots: [dir] } : undefined) },
    sink: () => undefined,
    ...bounds,
  })
  const agent = attachAgent(handlers)
  cleanups.push(() => {
    agent.dispose()
    handlers.dispose()
    rmSync(dir, { recursive: true, force: true })
  })
  return agent
}

it('three sessions of two terminals, each printing 1 MiB: together they retain what the total allows, not a MiB each', async () => {
  const h = harness({ totalOutputBytes: 2048 * KiB })
  const made: { sessionId: string; terminalId: string }[] = []
  for (const sessionId of ['s1', 's2', 's3']) {
    for (let i = 0; i < 2; i++) {
      const { terminalId } = (await h.call('terminal/create', { sessionId, command: 'sh', args: ['-c', `head -c ${1024 * KiB} /dev/zero | tr '\\0' y`], outputByteLimit: 1024 * KiB })) as { terminalId: string }
      made.push({ sessionId, terminalId })
    }
  }
  await Promise.all(made.map((t) => h.call('terminal/wait_for_exit', t)))
  const outputs = (await Promise.all(made.map((t) => h.call('terminal/output', t)))) as { output: string; truncated: boolean }[]
  // The first two get the whole MiB they asked for; the later ones what is left, at least 64 KiB each.
  expect(outputs.map((o) => o.output.length)).toEqual([1024 * KiB, 1024 * KiB, 64 * KiB, 64 * KiB, 64 * KiB, 64 * KiB])
  expect(outputs.map((o) => o.truncated)).toEqual([false, false, true, true, true, true])
}, 60_000)

it('past the bound over all sessions a terminal is refused, whichever session asks; a release makes room', async () => {
  const h = harness({ maxTerminals: 3 })
  const ids: { sessionId: string; terminalId: string }[] = []
  for (const sessionId of ['s1', 's2', 's3']) ids.push({ sessionId, ...((await h.call('terminal/create', { sessionId, command: 'sleep', args: ['600'] })) as { terminalId: string }) })
  await expect(h.call('terminal/create', { sessionId: 's4', command: 'sleep', args: ['600'] })).rejects.toMatchObject({ code: -32602, message: 'Bosun runs at most 3 agent terminals at once; release some first' })
  await h.call('terminal/release', ids[0]!)
  expect(await h.call('terminal/create', { sessionId: 's4', command: 'true' })).toMatchObject({ terminalId: expect.any(String) })
}, 30_000)
