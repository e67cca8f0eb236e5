/**
 * An agent that stops reading its stdin but keeps it open. Bosun's answers fill the pipe, and whatever the person
 * sends next (a message, Stop's `session/cancel`) waits behind them. Before, only the silence notice said anything,
 * after 30 s, and it read as if the agent were thinking. Now, once the agent has read none of the bytes waiting in
 * its full input for a few seconds, each session of that agent with a turn running says so and tells the person to
 * restart the agent. A message sent into that input says it at once. The notice goes with the agent.
 */
import { expect, it } from 'vitest'
import { INPUT_STALL_TITLE, isInputStallNotice } from '../../../common/session/stop-watchdog'
import { brokenSessions, hostilePerTest, must, nextUpdate, tallyPerFile } from './harness'

const tally = tallyPerFile('input-stall')
const start = hostilePerTest()

it("says in each session with a turn running that the agent reads none of its input, soon and in Bosun's words; a message sent then says it at once", async () => {
  // 'no-read': at the prompt it stops reading and asks 8 requests Bosun answers with 120 KB each (the method's name
  // twice): the agent's input (a socket pair's buffers, a few hundred KB) is full and the rest waits in Bosun's buffer,
  // far below the bound that stops the agent (32 MiB).
  const setup = await start('no-read', { count: 8, limits: { inputStallMs: 200, stallNoticeMs: 60_000 } })
  const { handlers } = setup
  const first = must(await handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })).sessionId
  const second = must(await handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })).sessionId
  const told = (sessionId: string) => nextUpdate(setup, sessionId, (u) => u.sessionUpdate === 'notice' && u.title === INPUT_STALL_TITLE)
  const notices = async (sessionId: string) => must(await handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!.notices.filter(isInputStallNotice)

  const toldFirst = told(first)
  const turn = handlers.prompt({ sessionId: first, prompt: [{ type: 'text', text: 'go' }] })
  await toldFirst
  const [notice] = await notices(first)
  expect(notice).toMatchObject({ severity: 'warning', fromBosun: true })
  expect(notice!.description).toMatch(/^For 1 s it has read nothing of what Bosun sent it \(\d+ KiB wait unread\), so your messages, its answers and Stop do not reach it now\. It may be stuck\. Restart the agent to go on: this ends its turns\.$/)
  // No turn ran in the other session: nothing to say there.
  expect(await notices(second)).toEqual([])

  // A message into that input: said at once (not after another wait), once.
  const toldSecond = told(second)
  const waiting = handlers.prompt({ sessionId: second, prompt: [{ type: 'text', text: 'hello?' }] })
  await toldSecond
  expect((await notices(second)).map((n) => n.title)).toEqual([INPUT_STALL_TITLE])
  expect(await notices(first)).toHaveLength(1)

  // Restarting (here: stopping) the agent ends both turns; its error says what happened, the notice goes.
  must(await handlers.stopAgent({ agentId: 'hostile' }))
  expect((await turn).ok).toBe(false)
  expect((await waiting).ok).toBe(false)
  expect(await notices(first)).toEqual([])
  expect(await notices(second)).toEqual([])
  tally.inputs += 2
  tally.sessionsBroken += await brokenSessions(setup)
})
