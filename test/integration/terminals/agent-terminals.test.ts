/**
 * v2 agent-owned terminals through the composition root with the scripted v2 agent as a real child: a turn
 * that ends with background work running, `terminal/cancel` sent only while the terminal advertises
 * `capabilities.cancel` (E16) and refused by main otherwise (nothing reaches the agent), the agent's own
 * refusal as an error value, and the exit status that confirms the cancel. The inspector shows what the agent received.
 */
import { describe, expect, it } from 'vitest'
import { canCancelTerminal, runningBackgroundWork } from '../../../common/session/background'
import type { SessionState } from '../../../common/session/types'
import { must, sentRequests, servicesPerTest, watchSession, type TestServices } from '../../support/services'

const startServices = servicesPerTest()

async function start(): Promise<{ t: TestServices; sessionId: string; state(): Promise<SessionState>; until(p: (s: SessionState) => boolean): Promise<SessionState>; sentCancels(): Promise<unknown[]> }> {
  const t = await startServices([{ id: 'bg', name: 'Background agent', scenario: 'v2-background', v2: true }])
  const { sessionId } = must(await t.handlers.newSession({ agentId: 'bg', cwd: t.workspace }))
  const { state, until } = watchSession(t, sessionId)
  const sentCancels = () => sentRequests(t, 'bg', 'terminal/cancel')
  return { t, sessionId, state, until, sentCancels }
}

describe('v2 terminals and background work with the scripted v2 agent', () => {
  it('a turn that ends with background work running: the session shows which, after the turn ended', async () => {
    const s = await start()
    expect(must(await s.t.handlers.prompt({ sessionId: s.sessionId, prompt: [{ type: 'text', text: 'start' }] })).stopReason).toBe('end_turn')
    const state = await s.until((st) => st.turn.state === 'idle' && st.turn.background !== null)
    expect(state.protocolVersion).toBe(2)
    expect(state.turn.stopReason).toBe('end_turn')
    const running = runningBackgroundWork(state)
    expect(running.map((item) => (item.type === 'terminal' ? item.terminalId : item.type === 'other' ? item.kind : item.type === 'subagent' ? item.sessionId : item.toolCallId))).toEqual(['dev', 'logs', 'flaky', '_acme_cron'])
    // The agent's terminal content on the card of the tool call that embeds it.
    const card = state.entries.find((e) => e.kind === 'tool_call' && e.toolCallId === 'call-dev')
    expect(card).toMatchObject({ status: 'completed', content: [{ type: 'terminal', terminalId: 'dev' }] })
    expect(state.terminals.dev).toMatchObject({ command: 'npm run dev', cwd: s.t.workspace, output: '> vite\nListening on http://localhost:5173\n', size: { cols: 80, rows: 24 } })
    expect(state.terminals.flaky!.extra).toEqual({ zz_future: { x: 1 } })
    expect([canCancelTerminal(state.terminals.dev), canCancelTerminal(state.terminals.logs), canCancelTerminal(state.terminals.flaky)]).toEqual([true, false, true])
  })

  it('terminal/cancel only while advertised: refused by main otherwise, the agent receives exactly {sessionId, terminalId}', async () => {
    const s = await start()
    must(await s.t.handlers.prompt({ sessionId: s.sessionId, prompt: [{ type: 'text', text: 'start' }] }))
    const { acpSessionId } = await s.until((st) => st.turn.background !== null)

    // Not advertised, unknown, in another session: refused as values, and nothing is sent.
    const notAdvertised = await s.t.handlers.cancelTerminal({ sessionId: s.sessionId, terminalId: 'logs' })
    expect(notAdvertised).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(await s.t.handlers.cancelTerminal({ sessionId: s.sessionId, terminalId: 'nope' })).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    expect(await s.t.handlers.cancelTerminal({ sessionId: s.sessionId, terminalId: 'constructor' })).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    expect(await s.t.handlers.cancelTerminal({ sessionId: 'bg/other', terminalId: 'dev' })).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    expect(await s.sentCancels()).toEqual([])

    // Advertised and accepted: sent once, shown as cancelling, stopped only when the exit status arrives (E16).
    expect(must(await s.t.handlers.cancelTerminal({ sessionId: s.sessionId, terminalId: 'dev' }))).toBeUndefined()
    expect(await s.sentCancels()).toEqual([{ sessionId: acpSessionId, terminalId: 'dev' }])
    const cancelling = await s.state()
    expect(cancelling.terminals.dev!.cancelRequested).toBe(true)
    const stopped = await s.until((st) => st.terminals.dev?.exitStatus != null && !st.turn.background?.some((i) => (i as { terminalId?: string }).terminalId === 'dev'))
    expect(stopped.terminals.dev).toMatchObject({ exitStatus: { signal: 'SIGTERM' }, output: '> vite\nListening on http://localhost:5173\n^C\n' })
    expect(stopped.terminals.dev!.capabilities).toBeUndefined()
    // The tool call's status is not the terminal's: cancelling changes neither it nor the turn.
    expect(stopped.entries.find((e) => e.kind === 'tool_call' && e.toolCallId === 'call-dev')).toMatchObject({ status: 'completed' })
    expect(stopped.turn.completedTurns).toBe(cancelling.turn.completedTurns)
    expect(runningBackgroundWork(stopped).map((i) => i.type)).toEqual(['terminal', 'terminal', 'other'])

    // Exited: main refuses a second cancel without asking the agent.
    expect(await s.t.handlers.cancelTerminal({ sessionId: s.sessionId, terminalId: 'dev' })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(await s.sentCancels()).toHaveLength(1)
  })

  it("the agent's own refusal comes back as an error value; a withdrawn capability is refused by main", async () => {
    const s = await start()
    must(await s.t.handlers.prompt({ sessionId: s.sessionId, prompt: [{ type: 'text', text: 'start' }] }))
    await s.until((st) => st.turn.background !== null)
    // Advertised, but the agent answers -32602 (it may: unknown, exited or not cancellable).
    const refused = await s.t.handlers.cancelTerminal({ sessionId: s.sessionId, terminalId: 'flaky' })
    expect(refused).toMatchObject({ ok: false, error: { kind: 'rpc-error', code: -32602 } })
    expect(await s.sentCancels()).toHaveLength(1)
    expect((await s.state()).terminals.flaky!.cancelRequested).toBeUndefined()

    must(await s.t.handlers.prompt({ sessionId: s.sessionId, prompt: [{ type: 'text', text: 'withdraw' }] }))
    const withdrawn = await s.until((st) => st.turn.state === 'idle' && !canCancelTerminal(st.terminals.flaky))
    expect(withdrawn.terminals.flaky!.capabilities).toBeUndefined()
    expect(await s.t.handlers.cancelTerminal({ sessionId: s.sessionId, terminalId: 'flaky' })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(await s.sentCancels()).toHaveLength(1)
  })

  it('v1 sessions are unaffected: no terminal/cancel, whatever is asked', async () => {
    const t = await startServices([{ id: 'one', name: 'V1 agent', scenario: 'terminals' }])
    const { sessionId } = must(await t.handlers.newSession({ agentId: 'one', cwd: t.workspace }))
    expect(await t.handlers.cancelTerminal({ sessionId, terminalId: 'term-1' })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    const sent = must(await t.handlers.listInspectorMessages({ agentId: 'one', method: 'terminal/cancel' })).messages
    expect(sent).toEqual([])
  })
})
