/**
 * A hostile agent that answers and exits at once: what it wrote before it exited is handled first, so the turn it
 * answered ends as it said (not with its exit), the messages it sent after the answer are kept, and then it is
 * reported as exited.
 */
import { expect, it } from 'vitest'
import { brokenSessions, hostilePerTest, must, tallyPerFile } from './harness'

const tally = tallyPerFile('exit')
const start = hostilePerTest()

it('answers a prompt behind 500 requests, writes five more messages and exits: the turn ends end_turn with all five, then the agent is reported exited', async () => {
  // The 500 requests before the answer keep it in Bosun's queue (one message a turn) well after the exit is seen.
  const setup = await start('exit-mid', { count: 5, extraArgs: ['--variant', '500'] })
  const sessionId = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })).sessionId
  // The session hears that its agent went away once main has handled all the agent wrote.
  const gone = setup.sink.next('sessionActions', (batch) => batch.sessionId === sessionId && batch.actions.some((a) => a.type === 'agent_gone'))
  const turn = await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })
  tally.inputs += 506
  expect(turn).toEqual({ ok: true, value: expect.objectContaining({ stopReason: 'end_turn' }) })
  await gone
  const state = must(await setup.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
  const said = JSON.stringify(state.entries)
  for (let i = 0; i < 5; i++) expect(said).toContain(`after the answer ${i}`)
  expect(said).not.toContain('exited with code 3')
  tally.messagesLost += 5 - [0, 1, 2, 3, 4].filter((i) => said.includes(`after the answer ${i}`)).length
  tally.sessionsBroken += await brokenSessions(setup)
})
