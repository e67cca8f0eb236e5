/**
 * Quitting Bosun while the agent waits for a form (elicitation) or a permission: the agent gets its answer before its
 * stdin ends (a form `cancel`, a permission `cancelled`), and Bosun's log has no "Sending response failed." (the
 * answer was written to a connection already closed, and every quit with a request waiting logged it).
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import type { Scenario } from '../../agents/scenario'
import { must } from '../../support/must'
import { agentLog, historyHarness } from '../history/restart'

const harness = historyHarness()

const scenario: Scenario = {
  prompts: {
    form: [{ type: 'elicitation', params: { mode: 'form', message: 'Which one?', requestedSchema: { type: 'object', properties: { pick: { type: 'string' } } } } }],
    ask: [
      {
        type: 'request_permission',
        params: {
          toolCall: { toolCallId: 't1', title: 'Run ls', kind: 'execute', status: 'pending' },
          options: [
            { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
            { optionId: 'no', name: 'Reject', kind: 'reject_once' },
          ],
        },
      },
    ],
    default: [{ type: 'text', text: 'Hello.' }],
  },
}

let logged: string[] = []
beforeEach(() => {
  logged = []
  const keep = (...args: unknown[]) => void logged.push(args.map(String).join(' '))
  vi.spyOn(console, 'error').mockImplementation(keep)
  vi.spyOn(console, 'warn').mockImplementation(keep)
})
afterEach(() => {
  vi.restoreAllMocks()
})

it.each([
  { name: 'a form', text: 'form', pending: 'elicitations', answered: 'ELICITATION-ANSWER null {"action":"cancel"}' },
  { name: 'a permission request', text: 'ask', pending: 'permissions', answered: 'PERMISSION-OUTCOME {"outcome":"cancelled"}' },
] as const)('quitting with $name waiting: the agent is answered before its stdin ends, and nothing is logged as failed', async ({ text, pending, answered }) => {
  const home = harness.home([{ id: 'a', name: 'A', scenario: harness.scenario(scenario) }])
  const run = await harness.start(home)
  const { sessionId } = must(await run.handlers.newSession({ agentId: 'a', cwd: home.workspace }))
  const turn = run.handlers.prompt({ sessionId, prompt: [{ type: 'text', text }] })
  await expect.poll(() => Object.keys(run.services.sessionState!(sessionId)?.[pending] ?? {}).length).toBe(1)
  await harness.stop(run)
  // The turn ends (the agent is gone); the agent logged the answer it got before its stdin ended.
  expect((await turn).ok).toBe(false)
  expect(agentLog(home, 'a')).toContain(answered)
  expect(logged.filter((line) => /Sending response failed|\berror\b/.test(line))).toEqual([])
  // A permission says why it was not answered: Bosun was closed (it said "The agent exited.", above the turn's own
  // "Interrupted: Bosun was closed…").
  if (pending === 'permissions') {
    const resolved = run.sink.of('sessionActions').flatMap((batch) => batch.actions.filter((a) => a.type === 'permission_resolved'))
    expect(resolved.map((a) => a.type === 'permission_resolved' && a.resolution)).toEqual([expect.objectContaining({ by: 'agent-exit', note: 'Bosun was closed.' })])
  }
}, 60_000)
