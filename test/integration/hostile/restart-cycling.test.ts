/**
 * Restarting an agent 50 times in a row with a session open, a message after each restart (the session is brought
 * back with session/load each time): main holds after the fiftieth what it held after the first (processes, pipes,
 * timers, file descriptors, process listeners), and the session's transcript has every turn once.
 */
import { readdirSync } from 'node:fs'
import { expect, it } from 'vitest'
import { activeResources, brokenSessions, hostilePerTest, must, tallyPerFile } from './harness'

const tally = tallyPerFile('restart-cycling')
const start = hostilePerTest()
const RESTARTS = 50
const IN_FLIGHT = 2

/** The event loop's resources by kind, with the open file descriptors and the process's listeners. */
function held(): Record<string, number> {
  return {
    ...activeResources(),
    'file descriptors': readdirSync('/proc/self/fd').length,
    'process listeners': process.eventNames().reduce((n, name) => n + process.listenerCount(name), 0),
  }
}

it.skipIf(process.platform !== 'linux')('restarts an agent 50 times with a session open: nothing grows, every turn is kept once', async () => {
  const setup = await start('well-behaved')
  const sessionId = must(await setup.handlers.newSession({ agentId: 'control', cwd: setup.workspace })).sessionId
  const cycle = async (i: number) => {
    must(await setup.handlers.restartAgent({ agentId: 'control' }))
    expect(must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: `turn ${i}` }] })).stopReason).toBe('end_turn')
  }
  await cycle(0)
  const before = held()
  for (let i = 1; i < RESTARTS; i++) await cycle(i)
  tally.inputs += RESTARTS
  const grown = () =>
    Object.entries(held())
      .filter(([kind, count]) => count > (before[kind] ?? 0) + IN_FLIGHT)
      .map(([kind, count]) => `${kind}: ${before[kind] ?? 0} after one restart, ${count} after ${RESTARTS}`)
  await expect.poll(grown).toEqual([])
  const state = must(await setup.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
  const prompts = state.entries.flatMap((e) => (e.kind === 'user_message' ? [JSON.stringify(e.content)] : []))
  expect(prompts).toHaveLength(RESTARTS)
  expect(new Set(prompts).size).toBe(RESTARTS)
  // (The scripted agent numbers its sessions from sess-1 again after each restart: the one open here is closed first.)
  must(await setup.handlers.closeSession({ sessionId }))
  tally.sessionsBroken += await brokenSessions(setup)
}, 180_000)
