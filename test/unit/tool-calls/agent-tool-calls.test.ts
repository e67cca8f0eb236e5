/**
 * Main's guard for v2 `tool_call/cancel` (E15, a MUST NOT): what the renderer asks is checked against the state main
 * holds, and nothing reaches the agent unless the session is v2, attached, and the call is known, not final and
 * advertising `capabilities.cancel` now. The agent's answer: accepted (cancelling until a final status or the
 * deadline), -32602 (a quiet note), anything else (an error value). Real reducer, a fake connection, time by hand.
 */
import { describe, expect, it } from 'vitest'
import { AgentToolCalls } from '../../../main/tool-calls/agent-tool-calls'
import { RpcError } from '../../../main/base/errors'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import { toolCallOf } from '../../../common/session/background'
import type { AcpClientConnection } from '../../../main/acp/types'
import type { SessionAction, SessionState } from '../../../common/session/types'
import { ManualScheduler } from '../agents/manual-scheduler'

function setup(options: { version?: 1 | 2; answer?: () => Promise<void>; attached?: boolean; subagents?: Set<string> } = {}) {
  let state: SessionState = createSessionState({ sessionId: 's', agentId: 'a', protocolVersion: options.version ?? 2, cwd: '/w' })
  const push = (action: SessionAction) => {
    state = applyActions(state, [action])
  }
  const update = (fields: Record<string, unknown>) => push({ type: 'updates', updates: [{ sessionUpdate: 'tool_call_update', toolCallId: 'c1', ...fields }] })
  update({ title: 'Build', status: 'in_progress', capabilities: { cancel: {} } })
  const sent: unknown[] = []
  const connection = {
    cancelToolCall: async (acpSessionId: string, toolCallId: string) => {
      sent.push({ acpSessionId, toolCallId })
      await options.answer?.()
    },
  } as unknown as AcpClientConnection
  const scheduler = new ManualScheduler()
  const calls = new AgentToolCalls(
    { state: (id) => (id === 's' ? state : undefined), connectionOf: () => (options.attached === false ? undefined : { connection, acpSessionId: 'acp-s' }), push: (_id, action) => push(action), isSubagentOf: (id, child) => id === 's' && (options.subagents?.has(child) ?? false) },
    undefined,
    scheduler,
    10_000,
  )
  return { calls, scheduler, sent, update, push, state: () => state, c1: () => toolCallOf(state, 'c1')! }
}

describe('AgentToolCalls: main decides whether tool_call/cancel may be sent', () => {
  it('sends exactly the agent session and the call id once advertised; accepted shows cancelling, the turn untouched', async () => {
    const t = setup()
    const turn = t.state().turn
    expect(await t.calls.cancel('s', 'c1')).toEqual({ ok: true, value: { accepted: true } })
    expect(t.sent).toEqual([{ acpSessionId: 'acp-s', toolCallId: 'c1' }])
    expect(t.c1()).toMatchObject({ cancel: 'requested', status: 'in_progress' })
    expect(t.state().turn).toBe(turn)
    // Already accepted: a second ask sends nothing.
    expect(await t.calls.cancel('s', 'c1')).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(t.sent).toHaveLength(1)
    t.update({ status: 'cancelled', capabilities: null })
    t.scheduler.advance(10_000)
    expect(t.c1()).toMatchObject({ cancel: 'requested', status: 'cancelled' })
  })

  it("a subagent's tool call, shown in its parent's transcript, is cancelled in the subagent's session; not once the parent no longer follows it", async () => {
    const subagents = new Set(['child-1'])
    const t = setup({ subagents })
    t.push({ type: 'updates', updates: [{ sessionUpdate: 'subagent_update', sessionId: 'child-1', title: 'Survey', state: { state: 'running' } }] })
    // As main routes it: the subagent's update, marked with its session.
    t.push({ type: 'updates', updates: [{ sessionUpdate: 'tool_call_update', toolCallId: 'sub-1', title: 'Grep', status: 'in_progress', capabilities: { cancel: {} }, fromSubagent: 'child-1' }] })
    expect(toolCallOf(t.state(), 'sub-1')).toMatchObject({ subagent: 'Subagent: Survey', subagentSessionId: 'child-1' })
    expect(await t.calls.cancel('s', 'sub-1')).toEqual({ ok: true, value: { accepted: true } })
    expect(t.sent).toEqual([{ acpSessionId: 'child-1', toolCallId: 'sub-1' }])

    t.push({ type: 'updates', updates: [{ sessionUpdate: 'tool_call_update', toolCallId: 'sub-2', title: 'Read', status: 'in_progress', capabilities: { cancel: {} }, fromSubagent: 'child-1' }] })
    subagents.clear()
    expect(await t.calls.cancel('s', 'sub-2')).toMatchObject({ ok: false, error: { kind: 'invalid-argument', message: expect.stringContaining('subagent') } })
    expect(t.sent).toHaveLength(1)
  })

  it('refuses without sending: unknown session, v1, unknown call, withdrawn capability, final status, agent not attached', async () => {
    const t = setup()
    expect(await t.calls.cancel('other', 'c1')).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    expect(await t.calls.cancel('s', 'nope')).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    expect(await t.calls.cancel('s', 'constructor')).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    t.update({ capabilities: null })
    expect(await t.calls.cancel('s', 'c1')).toMatchObject({ ok: false, error: { kind: 'invalid-argument', message: expect.stringContaining('does not offer') } })
    t.update({ capabilities: { cancel: {} }, status: 'completed' })
    expect(await t.calls.cancel('s', 'c1')).toMatchObject({ ok: false, error: { kind: 'invalid-argument', message: expect.stringContaining('already ended') } })
    expect(t.sent).toEqual([])
    const v1 = setup({ version: 1 })
    expect(await v1.calls.cancel('s', 'c1')).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(v1.sent).toEqual([])
    const detached = setup({ attached: false })
    expect(await detached.calls.cancel('s', 'c1')).toMatchObject({ ok: false, error: { kind: 'agent-not-running' } })
  })

  it("the agent's -32602 is a quiet note on the call, not an error; other errors are error values and note nothing", async () => {
    const refused = setup({ answer: () => Promise.reject(new RpcError(-32602, 'Tool call c1 is not cancellable')) })
    expect(await refused.calls.cancel('s', 'c1')).toEqual({ ok: true, value: { accepted: false } })
    expect(refused.c1()).toMatchObject({ cancel: 'refused', status: 'in_progress' })
    expect(refused.scheduler.pending).toEqual([])
    const broken = setup({ answer: () => Promise.reject(new RpcError(-32603, 'Internal error')) })
    expect(await broken.calls.cancel('s', 'c1')).toMatchObject({ ok: false, error: { kind: 'rpc-error', code: -32603 } })
    expect(broken.c1().cancel).toBeUndefined()
  })

  it('one request in flight per call: a second click while the agent has not answered sends nothing', async () => {
    let answer!: () => void
    const t = setup({ answer: () => new Promise<void>((resolve) => (answer = resolve)) })
    const first = t.calls.cancel('s', 'c1')
    expect(await t.calls.cancel('s', 'c1')).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    answer()
    expect(await first).toMatchObject({ ok: true })
    expect(t.sent).toHaveLength(1)
  })

  it('an agent that accepts and never reports a final status: cancelling ends at the deadline, Cancel is offered again', async () => {
    const t = setup()
    await t.calls.cancel('s', 'c1')
    expect(t.scheduler.pending).toEqual([10_000])
    t.scheduler.advance(9_999)
    expect(t.c1().cancel).toBe('requested')
    t.scheduler.advance(1)
    expect(t.c1().cancel).toBe('unconfirmed')
    expect(await t.calls.cancel('s', 'c1')).toMatchObject({ ok: true })
    expect(t.sent).toHaveLength(2)
    expect(t.c1().cancel).toBe('requested')
    expect(t.scheduler.pending).toEqual([10_000])
    t.calls.dispose()
    expect(t.scheduler.pending).toEqual([])
  })
})
