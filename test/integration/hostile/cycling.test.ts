/**
 * Starting and stopping an agent 100 times (a session, a turn, close, Stop): every process, pipe, timer and file
 * handle of a cycle goes with it, so main holds after the hundredth what it held after the first; the control agent
 * still runs a turn.
 */
import { expect, it } from 'vitest'
import { activeResources, brokenSessions, hostilePerTest, must, tallyPerFile } from './harness'

const tally = tallyPerFile('cycling')
const start = hostilePerTest()
const CYCLES = 100
/** Handles of one kind that may be in flight when the counts are read, beside those a cycle leaves. */
const IN_FLIGHT = 2

it('holds no more processes, pipes or timers after 100 start/stop cycles than after one', async () => {
  const setup = await start('well-behaved')
  const cycle = async () => {
    const sessionId = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })).sessionId
    expect(must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'hi' }] })).stopReason).toBe('end_turn')
    must(await setup.handlers.closeSession({ sessionId }))
    must(await setup.handlers.stopAgent({ agentId: 'hostile' }))
  }
  await cycle()
  const before = { resources: activeResources(), listeners: process.listenerCount('exit') + process.listenerCount('SIGTERM') + process.listenerCount('SIGINT') }
  for (let i = 0; i < CYCLES - 1; i++) await cycle()
  tally.inputs += CYCLES
  expect(process.listenerCount('exit') + process.listenerCount('SIGTERM') + process.listenerCount('SIGINT')).toBe(before.listeners)
  // A leak grows with the cycles (99 more of a kind); what is in flight at the moment of reading (the history thread's
  // port while a write is pending, a batch timer, a file read) is one or two either way, so that much is let through.
  // The last cycle's pipes close a moment after its agent's exit (Bosun's end of stdout once it has ended): on a loaded
  // machine they were still open when Stop answered (PipeWrap 4 → 7), so the counts are read until they settle.
  const grown = () =>
    Object.entries(activeResources())
      .filter(([kind, count]) => count > (before.resources[kind] ?? 0) + IN_FLIGHT)
      .map(([kind, count]) => `${kind}: ${before.resources[kind] ?? 0} after one cycle, ${count} after ${CYCLES}`)
  await expect.poll(grown).toEqual([])
  expect(must(await setup.handlers.getSnapshot(undefined)).agents.find((a) => a.agentId === 'hostile')?.status).toBe('stopped')
  tally.sessionsBroken += await brokenSessions(setup)
}, 180_000)
