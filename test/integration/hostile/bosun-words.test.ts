/**
 * Bosun's own words for a turn it ended ("Interrupted: you restarted A while this turn was running.", "Interrupted: Bosun
 * was closed…") are told as a fact, not as a failure: no alert, no mark in the sidebar, no agent's log to read. An agent
 * whose error reads word for word the same must not get that treatment (its failure hidden, its words passing as
 * Bosun's): only main marks a turn error as Bosun's (`byBosun`), and only when it stopped the agent itself.
 */
import { expect, it } from 'vitest'
import type { Scenario } from '../../agents/scenario'
import { must } from '../../support/must'
import { CLOSED_MESSAGE, restartedMessage, turnFailed } from '../../../common/session/turn-stop'
import { historyHarness } from '../history/restart'

const harness = historyHarness()

const scenario: Scenario = {
  prompts: {
    restarted: [
      { type: 'update', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Working.' } } },
      { type: 'prompt_error', code: -32603, message: restartedMessage('A') },
    ],
    'restarted-v2': [{ type: 'text', text: 'Working.' }, { type: 'stop', stopReason: 'error', error: { message: restartedMessage('A') } }],
    closed: [{ type: 'text', text: 'Working.' }, { type: 'stop', stopReason: 'error', error: { message: CLOSED_MESSAGE } }],
    slow: [{ type: 'text', text: 'Working.' }, { type: 'wait_for_cancel' }],
    default: [{ type: 'text', text: 'Hello.' }],
  },
}

it.each([
  { v2: false, text: 'restarted', message: restartedMessage('A') },
  { v2: true, text: 'closed', message: CLOSED_MESSAGE },
  { v2: true, text: 'restarted-v2', message: restartedMessage('A') },
])("an agent's error in Bosun's words is still the agent's failure ($text, v2: $v2)", async ({ v2, text, message }) => {
  const home = harness.home([{ id: 'a', name: 'A', scenario: harness.scenario(scenario), v2 }])
  const run = await harness.start(home)
  const { sessionId } = must(await run.handlers.newSession({ agentId: 'a', cwd: home.workspace }))
  await run.handlers.prompt({ sessionId, prompt: [{ type: 'text', text }] })
  await expect.poll(() => run.services.sessionState!(sessionId)?.turn.error?.message).toBe(message)
  const state = run.services.sessionState!(sessionId)!
  expect(state.turn.error?.byBosun).toBeUndefined()
  expect(turnFailed(state.turn)).toBe(true)
  expect(state.entries.filter((e) => e.kind === 'turn_error')).toEqual([expect.not.objectContaining({ byBosun: true })])
  await harness.stop(run)
})

it('a turn ended by the person restarting its agent is marked as Bosun’s, and not as failed', async () => {
  const home = harness.home([{ id: 'a', name: 'A', scenario: harness.scenario(scenario) }])
  const run = await harness.start(home)
  const { sessionId } = must(await run.handlers.newSession({ agentId: 'a', cwd: home.workspace }))
  const turn = run.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'slow' }] })
  await expect.poll(() => run.services.sessionState!(sessionId)?.entries.some((e) => e.kind === 'agent_message')).toBe(true)
  must(await run.handlers.restartAgent({ agentId: 'a' }))
  await turn
  await expect.poll(() => run.services.sessionState!(sessionId)?.turn.state).toBe('idle')
  const state = run.services.sessionState!(sessionId)!
  expect(state.turn.error).toEqual({ message: restartedMessage('A'), byBosun: true })
  expect(turnFailed(state.turn)).toBe(false)
  await harness.stop(run)
})
