/**
 * `reopenSession`: a session built again on its agent, as closing it and opening it from the history does
 * (`session/close` where offered, then `session/resume` or `session/load`), for an agent that applies a sign-in only
 * to sessions built after it (claude-agent-acp's gateway login). The transcript stays; a busy session, or one whose
 * agent can neither resume nor load, is not reopened (it would be lost).
 */
import { describe, expect, it } from 'vitest'
import type { Scenario } from '../../agents/scenario'
import { must } from '../../support/must'
import { agentLog, historyHarness, type Run } from '../history/restart'

const harness = historyHarness()

const scenario = (capabilities: Record<string, unknown>): Scenario => ({
  initialize: { capabilities, authMethods: [{ id: 'gateway', name: 'Custom model gateway' }] },
  session: { promptRequiresAuth: true, authOnlyForLaterSessions: true },
  prompts: { default: [{ type: 'text', text: 'Hello, signed-in session.' }], slow: [{ type: 'text', text: 'Working' }, { type: 'wait_for_cancel' }] },
})

const send = (run: Run, sessionId: string, text: string) => run.handlers.prompt({ sessionId, prompt: [{ type: 'text', text }] })

/** A session started signed out, signed in from, and still refused. */
async function refusedAfterSignIn(capabilities: Record<string, unknown>) {
  const home = harness.home([{ id: 'gw', name: 'Gateway', scenario: harness.scenario(scenario(capabilities)) }])
  const run = await harness.start(home)
  const { sessionId } = must(await run.handlers.newSession({ agentId: 'gw', cwd: home.workspace }))
  expect(await send(run, sessionId, 'before')).toMatchObject({ ok: false, error: { code: -32000 } })
  must(await run.handlers.loginAgent({ agentId: 'gw', methodId: 'gateway' }))
  expect(await send(run, sessionId, 'before')).toMatchObject({ ok: false, error: { code: -32000 } })
  return { home, run, sessionId }
}

describe('reopenSession', () => {
  it.each([
    { label: 'v1 that resumes and closes', capabilities: { loadSession: true, sessionCapabilities: { resume: {}, close: {} } }, close: true, method: 'session/resume' },
    { label: 'v1 that only loads', capabilities: { loadSession: true }, close: false, method: 'session/load' },
  ])('$label: builds the session again, the transcript stays, and the agent takes its messages', async ({ capabilities, close, method }) => {
    const { home, run, sessionId } = await refusedAfterSignIn(capabilities)
    const before = must(await run.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
    must(await run.handlers.reopenSession({ sessionId }))
    await expect.poll(() => agentLog(home, 'gw')).toContain(`REATTACH ${method}`)
    const log = agentLog(home, 'gw')
    // Closed first where the agent offers it, as a close from the history does; the same agent session id either way.
    if (close) expect(log.indexOf('CLOSE sess-1')).toBeLessThan(log.indexOf(`REATTACH ${method} sess-1`))
    else expect(log).not.toContain('CLOSE ')
    expect(must(await send(run, sessionId, 'after')).stopReason).toBe('end_turn')
    const after = must(await run.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
    expect(after.entries.slice(0, before.entries.length).map((e) => e.id)).toEqual(before.entries.map((e) => e.id))
    expect(after.cannotContinue ?? null).toBeNull()
  })

  it('an agent that can neither resume nor load: refused, and the session is left as it was (not closed on the agent)', async () => {
    const { home, run, sessionId } = await refusedAfterSignIn({})
    const result = await run.handlers.reopenSession({ sessionId })
    expect(result).toMatchObject({ ok: false, error: { message: expect.stringMatching(/neither resume nor load/) } })
    expect(agentLog(home, 'gw')).not.toMatch(/CLOSE |REATTACH /)
    // Still attached: the next message goes to the agent (which still refuses it), not to a reattach.
    expect(await send(run, sessionId, 'again')).toMatchObject({ ok: false, error: { code: -32000 } })
  })

  it('a session whose turn runs is not reopened; an unknown one is not found', async () => {
    const home = harness.home([{ id: 'gw', name: 'Gateway', scenario: harness.scenario({ ...scenario({ loadSession: true }), session: {} }) }])
    const run = await harness.start(home)
    const { sessionId } = must(await run.handlers.newSession({ agentId: 'gw', cwd: home.workspace }))
    const turn = send(run, sessionId, 'slow')
    await run.sink.next('sessionActions', (e) => e.sessionId === sessionId && e.actions.some((a) => a.type === 'updates'))
    expect(await run.handlers.reopenSession({ sessionId })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/busy/) } })
    must(await run.handlers.cancel({ sessionId }))
    await turn
    expect(await run.handlers.reopenSession({ sessionId: 'nope' })).toMatchObject({ ok: false, error: { kind: 'not-found' } })
  })
})
