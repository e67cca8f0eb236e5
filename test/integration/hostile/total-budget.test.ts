/**
 * Agents that each stay under one session's bound still add up: the open sessions together may take a bounded amount
 * from their agents. The session whose output passes it is stopped as one past its own bound is (its turn ended, the
 * person told why); the others go on, and closing a session gives its share back. Each session here is the first of
 * a new process of the hostile agent (mode `script`: seven message chunks of 1 MiB, then a normal reply).
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { brokenSessions, hostilePerTest, must, tallyPerFile } from './harness'

const tally = tallyPerFile('total-budget')
const start = hostilePerTest()
const MiB = 1024 * 1024
const chunk = JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: '{session}', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x'.repeat(MiB) } } } })

it('stops the session that passes what the open sessions may take together, and a closed session gives its share back', async () => {
  const setup = await start('script', { limits: { maxSessionBytes: 10 * MiB, maxTotalSessionBytes: 12 * MiB } })
  writeFileSync(join(setup.testHome.home, 'script.json'), JSON.stringify(Array.from({ length: 7 }, () => chunk)))
  /** A session of a fresh process of the hostile agent, after its turn of 7 MiB. */
  const floodedSession = async () => {
    must(await setup.handlers.restartAgent({ agentId: 'hostile' }))
    const sessionId = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })).sessionId
    const turn = must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] }))
    tally.inputs += 7
    return { sessionId, turn, state: must(await setup.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)! }
  }

  const first = await floodedSession()
  expect(first.turn.stopReason).toBe('end_turn')
  expect(first.state.cannotContinue).toBeFalsy()

  // 14 MiB together: under one session's 10 MiB, past the 12 MiB of all.
  // (The agent answered its prompt right after its output: the turn may have ended before the limit was met.)
  const second = await floodedSession()
  expect(second.state.cannotContinue?.reason).toMatch(/The open sessions reached Bosun's limit of 12(\.0)? MiB of agent output together/)
  expect(second.state.notices.map((n) => n.title)).toContainEqual(expect.stringMatching(/^The open sessions reached their limit of 12(\.0)? MiB$/))
  const firstNow = must(await setup.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === first.sessionId)!
  expect(firstNow.cannotContinue).toBeFalsy()

  // Both closed: the next session has the whole budget again.
  must(await setup.handlers.closeSession({ sessionId: first.sessionId }))
  must(await setup.handlers.closeSession({ sessionId: second.sessionId }))
  const third = await floodedSession()
  expect(third.turn.stopReason).toBe('end_turn')
  expect(third.state.cannotContinue).toBeFalsy()
  tally.sessionsBroken += await brokenSessions(setup)
}, 60_000)
