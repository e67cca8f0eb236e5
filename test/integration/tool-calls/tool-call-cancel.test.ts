/**
 * v2 `tool_call/cancel` (E15) through the composition root with the scripted v2 agent as a real child: sent only
 * while the tool call advertises `capabilities.cancel` and is not final (main refuses otherwise, and nothing reaches
 * the agent), the agent's acceptance confirmed by a final status, its -32602 kept as a quiet note, and neither
 * changing the turn. The inspector shows what the agent received.
 */
import { describe, expect, it } from 'vitest'
import { canCancelToolCall, toolCallOf } from '../../../common/session/background'
import { must, sentRequests, servicesPerTest, watchSession } from '../../support/services'

const startServices = servicesPerTest()

async function start(agent: { scenario: string; v2?: boolean } = { scenario: 'v2-tool-call-cancel', v2: true }) {
  const t = await startServices([{ id: 'tc', name: 'Tool call agent', ...agent }])
  const { sessionId } = must(await t.handlers.newSession({ agentId: 'tc', cwd: t.workspace }))
  const { state, until } = watchSession(t, sessionId)
  const sent = () => sentRequests(t, 'tc', 'tool_call/cancel')
  const cancel = (toolCallId: string) => t.handlers.cancelToolCall({ sessionId, toolCallId })
  return { t, sessionId, state, until, sent, cancel }
}

describe('tool_call/cancel with the scripted v2 agent (E15)', () => {
  it('advertised: sent as exactly {sessionId, toolCallId}; cancelling until the final status; the turn goes on and ends normally', async () => {
    const s = await start()
    // The turn waits for the cancel: its prompt resolves when it ends.
    const turn = s.t.handlers.prompt({ sessionId: s.sessionId, prompt: [{ type: 'text', text: 'build' }] })
    const running = await s.until((st) => canCancelToolCall(toolCallOf(st, 'call-build')) && toolCallOf(st, 'call-read') !== undefined)
    // Not advertised (another running call), unknown, another session's: refused by main, nothing sent.
    expect(await s.cancel('call-read')).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(await s.cancel('nope')).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    expect(await s.t.handlers.cancelToolCall({ sessionId: 'tc/other', toolCallId: 'call-build' })).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    expect(await s.sent()).toEqual([])

    expect(must(await s.cancel('call-build'))).toEqual({ accepted: true })
    expect(await s.sent()).toEqual([{ sessionId: running.acpSessionId, toolCallId: 'call-build' }])
    expect(must(await turn).stopReason).toBe('end_turn')
    const ended = await s.until((st) => st.turn.state === 'idle')
    expect(toolCallOf(ended, 'call-build')).toMatchObject({ status: 'cancelled', cancel: 'requested' })
    expect(toolCallOf(ended, 'call-build')!.capabilities).toBeUndefined()
    // Only that call: the other finished on its own, and the turn ended as the agent said, not cancelled.
    expect(toolCallOf(ended, 'call-read')).toMatchObject({ status: 'completed' })
    expect(ended.turn.stopReason).toBe('end_turn')
    expect(ended.turn.stopRequested).toBeFalsy()
    // Final: main refuses a second cancel without asking the agent.
    expect(await s.cancel('call-build')).toMatchObject({ ok: false, error: { kind: 'invalid-argument', message: expect.stringContaining('already ended') } })
    expect(await s.sent()).toHaveLength(1)
  })

  it('a withdrawn capability (capabilities: null) is refused by main; nothing is sent', async () => {
    const s = await start()
    must(await s.t.handlers.prompt({ sessionId: s.sessionId, prompt: [{ type: 'text', text: 'withdraw' }] }))
    const done = await s.until((st) => st.turn.state === 'idle')
    expect(toolCallOf(done, 'call-lint')).toMatchObject({ status: 'in_progress' })
    expect(canCancelToolCall(toolCallOf(done, 'call-lint'))).toBe(false)
    expect(await s.cancel('call-lint')).toMatchObject({ ok: false, error: { kind: 'invalid-argument', message: expect.stringContaining('does not offer') } })
    expect(await s.sent()).toEqual([])
  })

  it("the agent's -32602 is a quiet note on the card: not an error, and the turn runs on", async () => {
    const s = await start()
    const turn = s.t.handlers.prompt({ sessionId: s.sessionId, prompt: [{ type: 'text', text: 'refuse' }] })
    await s.until((st) => canCancelToolCall(toolCallOf(st, 'call-deploy')))
    expect(must(await s.cancel('call-deploy'))).toEqual({ accepted: false })
    expect(await s.sent()).toHaveLength(1)
    const after = await s.until((st) => toolCallOf(st, 'call-deploy')?.cancel === 'refused')
    expect(after.turn.state).not.toBe('idle')
    expect(after.turn.error ?? null).toBeNull()
    expect(toolCallOf(after, 'call-deploy')).toMatchObject({ status: 'in_progress' })
    must(await s.t.handlers.cancel({ sessionId: s.sessionId }))
    expect(must(await turn).stopReason).toBe('cancelled')
  })

  it("a subagent's tool call, shown in the parent: sent naming the subagent's session, confirmed there and shown on the parent", async () => {
    const s = await start()
    must(await s.t.handlers.prompt({ sessionId: s.sessionId, prompt: [{ type: 'text', text: 'subagent' }] }))
    const idle = await s.until((st) => st.turn.state === 'idle' && canCancelToolCall(toolCallOf(st, 'sub-build')))
    expect(toolCallOf(idle, 'sub-build')).toMatchObject({ subagent: 'Subagent: Build in the background', subagentSessionId: 'child-1' })
    expect(must(await s.cancel('sub-build'))).toEqual({ accepted: true })
    expect(await s.sent()).toEqual([{ sessionId: 'child-1', toolCallId: 'sub-build' }])
    const stopped = await s.until((st) => toolCallOf(st, 'sub-build')?.status === 'cancelled')
    expect(toolCallOf(stopped, 'sub-build')!.capabilities).toBeUndefined()
  })

  it('v1 sessions: no tool_call/cancel, whatever is asked', async () => {
    const s = await start({ scenario: 'terminals' })
    expect(await s.cancel('call-1')).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(await s.sent()).toEqual([])
  })
})
