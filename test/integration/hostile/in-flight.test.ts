/**
 * A hostile agent keeps thousands of its requests waiting at once (hostile-agent mode `wait-flood`: every one a
 * `terminal/wait_for_exit` of a command that runs for ten minutes). Main holds a bounded number of them; the rest are
 * refused at once with an error, the ones held are answered when the person stops the turn, and the session goes on.
 */
import { expect, it } from 'vitest'
import { brokenSessions, hostilePerTest, must, nextUpdate, tallyPerFile } from './harness'

const tally = tallyPerFile('in-flight')
const start = hostilePerTest()

it('holds at most the bound of an agent’s requests at once and refuses the rest at once', async () => {
  // 8,192 by default; a smaller bound here keeps the test light (what is held does not depend on the bound's size).
  const bound = 300
  const waits = bound + 200
  const setup = await start('wait-flood', { count: waits, limits: { maxRequestsInFlight: bound } })
  const sessionId = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })).sessionId
  const sent = nextUpdate(setup, sessionId, (u) => JSON.stringify(u).includes('waits sent'))
  const turn = setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })
  await sent
  // Stopping the turn kills the session's command: every wait main still holds is answered with its exit.
  must(await setup.handlers.cancel({ sessionId }))
  must(await turn)
  await nextUpdate(setup, sessionId, (u) => JSON.stringify(u).includes('after waits'))
  tally.inputs += waits
  const answered = setup.reports().find((r) => r.waits)?.waits as Record<string, number>
  // The prompt was in flight too (it is Bosun's request, not the agent's) and the terminal was made before: the
  // waits held are the bound, the rest refused (-32603) as they came.
  expect(answered).toEqual({ ok: bound, '-32603': waits - bound })
  tally.sessionsBroken += await brokenSessions(setup)
}, 60_000)
