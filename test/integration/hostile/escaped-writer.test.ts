/**
 * A hostile agent leaves a grandchild outside its process group (setsid) that shares its stdout and writes messages
 * for its session after the agent exited (hostile-agent mode `escaped-writer`). The grandchild carries the agent's run
 * tag in its environment, so it is killed with the agent (run-tag.ts). One that emptied its environment is not found:
 * Bosun reads what came before the exit was handled, then closes its end of the pipe, so the grandchild's writes fail,
 * nothing of it reaches the session after the agent is reported gone, and Bosun holds no pipe for a process it cannot see.
 */
import { afterEach, expect, it } from 'vitest'
import { alive, brokenSessions, hostilePerTest, must, tallyPerFile, untilDead } from './harness'

const tally = tallyPerFile('escaped-writer')
const start = hostilePerTest()
const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

it.runIf(process.platform === 'linux')('kills the grandchild that left the agent’s process group with the agent, found by the run tag it inherited', async () => {
  // The grandchild would write for 60 s.
  const setup = await start('escaped-writer', { count: 60_000 })
  const sessionId = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })).sessionId
  const gone = setup.sink.next('sessionActions', (batch) => batch.sessionId === sessionId && batch.actions.some((a) => a.type === 'agent_gone'))
  expect(must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })).stopReason).toBe('end_turn')
  const escaped = setup.reports().find((r) => r.escaped)?.escaped as number
  cleanups.push(() => alive(escaped) && process.kill(escaped, 'SIGKILL'))
  await gone
  await untilDead([escaped])
  tally.inputs++
  // Killed, not ended by a failed write: it reported nothing.
  expect(setup.reports().find((r) => 'pipeClosed' in r)).toBeUndefined()
  tally.orphans += alive(escaped) ? 1 : 0
  tally.sessionsBroken += await brokenSessions(setup)
}, 30_000)

it('closes the agent’s output after its exit: an escaped grandchild without the tag has its writes fail and none reach the session after the exit', async () => {
  // The grandchild would write for 60 s; the test ends when its writes fail.
  const setup = await start('escaped-writer', { count: 60_000, extraArgs: ['--variant', 'clean-env'] })
  const sessionId = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })).sessionId
  const gone = setup.sink.next('sessionActions', (batch) => batch.sessionId === sessionId && batch.actions.some((a) => a.type === 'agent_gone'))
  const turn = must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] }))
  expect(turn.stopReason).toBe('end_turn')
  const escaped = setup.reports().find((r) => r.escaped)?.escaped as number
  cleanups.push(() => alive(escaped) && process.kill(escaped, 'SIGKILL'))
  await gone
  const heard = async () => {
    const state = must(await setup.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
    return (JSON.stringify(state.entries).match(/from the grandchild/g) ?? []).length
  }
  const atExit = await heard()
  await untilDead([escaped])
  tally.inputs++
  expect(setup.reports().find((r) => 'pipeClosed' in r)).toMatchObject({ pipeClosed: true })
  expect(await heard()).toBe(atExit)
  tally.orphans += alive(escaped) ? 1 : 0
  tally.sessionsBroken += await brokenSessions(setup)
}, 30_000)
