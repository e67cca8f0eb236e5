/**
 * A hostile agent's terminals together (hostile-agent mode `term-many`): ten commands at once, each printing 6 MB with
 * the largest output limit Bosun takes (4 MiB). What Bosun retains for `terminal/output` is shared out per session
 * (SESSION_OUTPUT_BYTES), not 4 MiB per terminal for as many as 64: each says `truncated`, the first ones keep their
 * whole 4 MiB, and the session goes on.
 */
import { expect, it } from 'vitest'
import { MAX_OUTPUT_BYTE_LIMIT, SESSION_OUTPUT_BYTES } from '../../../main/terminals/terminal-handlers'
import { brokenSessions, hostilePerTest, must, tallyPerFile } from './harness'

const tally = tallyPerFile('terminals')
const start = hostilePerTest()
const MB = 1024 * 1024

it('ten terminals printing 6 MB each: what they retain together is bounded per session, each says truncated', async () => {
  const count = 10
  const setup = await start('term-many', { count })
  const sessionId = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })).sessionId
  expect(must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })).stopReason).toBe('end_turn')
  tally.inputs += count
  const retained = setup.reports().find((r) => r.retained)?.retained as { chars: number; truncated: boolean }[]
  expect(retained).toHaveLength(count)
  expect(retained.every((r) => r.truncated)).toBe(true)
  // The first terminals get the whole limit they asked for; together they stay within the session's share (was 40 MiB).
  expect(retained[0]!.chars).toBe(MAX_OUTPUT_BYTE_LIMIT)
  const total = retained.reduce((n, r) => n + r.chars, 0)
  expect(total).toBeLessThanOrEqual(SESSION_OUTPUT_BYTES + count * 64 * 1024)
  // What the cards show stays bounded too.
  const state = must(await setup.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
  const shown = Object.values(state.terminals ?? {}).reduce((n, t) => n + ((t as { output?: string }).output?.length ?? 0), 0)
  expect(shown).toBeLessThanOrEqual(16 * MB + count * 64 * 1024)
  expect(JSON.stringify(state.entries)).toContain('after terminals')
  tally.sessionsBroken += await brokenSessions(setup)
}, 120_000)

it('a terminal running `yes` for 3 s: its card is sent the newest output at a bounded rate, and the session stays within its limit', async () => {
  // A session limit of 16 MiB: `yes` sent whole to its card passed it in about two seconds, and the session stopped.
  const setup = await start('term-yes', { count: 3_000, extraArgs: ['--variant', 'default'], limits: { maxSessionBytes: 16 * MB } })
  const sessionId = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })).sessionId
  expect(must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })).stopReason).toBe('end_turn')
  tally.inputs++
  const state = must(await setup.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
  expect(state.cannotContinue ?? null).toBeNull()
  expect(JSON.stringify(state.entries)).toContain('after yes')
  // What the card was sent: a burst, then the newest few KiB a flush, then the retained tail once `yes` was killed.
  const sent = setup.sink
    .of('sessionActions')
    .flatMap((batch) => batch.actions)
    .reduce((n, action) => n + (action.type === 'client_terminal' ? JSON.stringify(action.update).length : 0), 0)
  expect(sent).toBeLessThan(4 * MB)
  const card = Object.values(state.terminals ?? {})[0] as { output?: string; exitStatus?: unknown } | undefined
  expect(card?.exitStatus).toBeDefined()
  // (the retained tail: more than the newest few KiB a flood's flush sends)
  expect(card?.output).toMatch(/^[y\r\n]+$/)
  expect(card?.output?.length).toBeGreaterThan(100 * 1024)
  // The agent's own read of it is not cut by that: its whole default limit.
  expect(setup.reports().find((r) => r.outputChars)?.outputChars).toBe(String(MB))
  tally.sessionsBroken += await brokenSessions(setup)
}, 60_000)
