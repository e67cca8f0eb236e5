/**
 * `reopenSession` from a page that cannot be trusted: many at once for one session, and one while a message goes. The
 * agent is asked to close and rebuild the session once; the other calls are refused as busy, and the session takes
 * its next message.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { Scenario } from '../../agents/scenario'
import { must } from '../../support/must'
import { agentLog, historyHarness } from '../history/restart'

const harness = historyHarness()

const scenario: Scenario = {
  initialize: { capabilities: { loadSession: true, sessionCapabilities: { resume: {}, close: {} } } },
  prompts: { default: [{ type: 'text', text: 'Hello.' }] },
}

it('twenty reopens at once: the agent closes and resumes the session once, the rest are refused, and the session goes on', async () => {
  const home = harness.home([{ id: 'a', name: 'A', scenario: harness.scenario(scenario) }])
  const run = await harness.start(home)
  const { sessionId } = must(await run.handlers.newSession({ agentId: 'a', cwd: home.workspace }))
  const results = await Promise.all(Array.from({ length: 20 }, () => run.handlers.reopenSession({ sessionId })))
  expect(results.filter((r) => r.ok)).toHaveLength(1)
  expect(new Set(results.filter((r) => !r.ok).map((r) => !r.ok && r.error.message))).toEqual(new Set(['The session is busy: reopen it once its turn ended.']))
  // The agent writes its log as it goes: its resume is there once it answered.
  await expect.poll(() => agentLog(home, 'a')).toContain('REATTACH ')
  const log = agentLog(home, 'a')
  expect([(log.match(/CLOSE /g) ?? []).length, (log.match(/REATTACH /g) ?? []).length]).toEqual([1, 1])
  expect(must(await run.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'after' }] })).stopReason).toBe('end_turn')
}, 60_000)

it('a message sent while a reopen closes the session waits for the reopen and goes to the rebuilt session', async () => {
  // The agent forgets a closed session (claude-agent-acp): a message sent to it between the close and the resume was
  // answered "Session not found" and the session said it could not continue; the reopen failed ("changed").
  const home = harness.home([{ id: 'a', name: 'A', scenario: harness.scenario({ ...scenario, session: { closeForgets: true } }) }])
  const run = await harness.start(home)
  const { sessionId } = must(await run.handlers.newSession({ agentId: 'a', cwd: home.workspace }))
  const reopened = run.handlers.reopenSession({ sessionId })
  const prompted = run.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'during' }] })
  expect(await reopened).toEqual({ ok: true, value: undefined })
  expect(await prompted).toEqual({ ok: true, value: { stopReason: 'end_turn' } })
  // The agent's log is written as it goes (its lines may come after the answers).
  await expect.poll(() => agentLog(home, 'a')).toContain('REATTACH ')
  const log = agentLog(home, 'a')
  expect(log.indexOf('CLOSE ')).toBeLessThan(log.indexOf('REATTACH '))
  const state = run.services.sessionState!(sessionId)!
  expect(state.cannotContinue ?? null).toBeNull()
  expect(state.entries.filter((e) => e.kind === 'user_message')).toHaveLength(1)
}, 60_000)

/** Past the microtasks a call takes to reach the sessions service: a prompt called before is waiting by then. */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve))

it.each([
  ['a reopen', 'reopen'],
  ['the agent starting again to bring the session back', 'reattach'],
] as const)('Stop while a message waits for %s withdraws it at once: it is never sent, the session is rebuilt and takes the next one', async (_what, how) => {
  // The agent's starts wait in `initialize` while `go` is missing: the reattach waits for the test.
  const dir = mkdtempSync(join(tmpdir(), 'bosun-go-'))
  const go = join(dir, 'go')
  writeFileSync(go, '')
  const home = harness.home([{ id: 'a', name: 'A', scenario: harness.scenario({ ...scenario, initialize: { ...scenario.initialize, untilFile: go } }) }])
  try {
    const run = await harness.start(home)
    const { sessionId } = must(await run.handlers.newSession({ agentId: 'a', cwd: home.workspace }))
    let rebuilt: Promise<unknown>
    if (how === 'reopen') rebuilt = run.handlers.reopenSession({ sessionId })
    else {
      must(await run.handlers.stopAgent({ agentId: 'a' }))
      rmSync(go)
      rebuilt = Promise.resolve()
    }
    const prompted = run.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'withdrawn' }] })
    await settled()
    must(await run.handlers.cancel({ sessionId }))
    // Answered at the Stop, before the session is ready: before the reopen ends, or while the agent's start is held.
    if (how === 'reopen') expect(await Promise.race([prompted.then(() => 'message'), rebuilt.then(() => 'reopened')])).toBe('message')
    expect(await prompted).toMatchObject({ ok: false, error: { kind: 'cancelled', message: expect.stringContaining('the message was not sent') } })
    writeFileSync(go, '')
    expect(await rebuilt).toMatchObject(how === 'reopen' ? { ok: true } : {})
    const state = () => run.services.sessionState!(sessionId)!
    expect(state().entries.filter((e) => e.kind === 'user_message')).toEqual([])
    expect(state().turn.state).toBe('idle')
    expect(must(await run.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'after' }] })).stopReason).toBe('end_turn')
    const prompts = must(await run.handlers.listInspectorMessages({ agentId: 'a', method: 'session/prompt' })).messages.filter((m) => m.direction === 'out')
    expect(prompts.map((m) => JSON.stringify(m.message))).toEqual([expect.stringContaining('"after"')])
    expect(state().entries.filter((e) => e.kind === 'user_message')).toHaveLength(1)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 60_000)
