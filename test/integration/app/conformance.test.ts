/**
 * Conformance fixes (issue 10 §4) through the composition root against the scripted agent, v1 and v2: a
 * rejected prompt, wire order of agent requests and updates, Stop (which elicitations it cancels, and that it
 * reaches an agent working on its own), what a reattach receives before its response, an elicitation with a
 * required field Bosun cannot show, a cancelled plan entry, and a session that cannot continue.
 */
import { describe, expect, it } from 'vitest'
import type { MessageEntry, SessionState, ToolCallEntry } from '../../../common/session/types'
import { must, servicesPerTest, type TestServices } from '../../support/services'

const startServices = servicesPerTest()

async function start(v2: boolean, scenario = 'conformance') {
  const services = await startServices([{ id: 'agent', name: 'Agent', scenario, v2 }])
  const { sessionId } = must(await services.handlers.newSession({ agentId: 'agent', cwd: services.workspace }))
  return { ...services, sessionId }
}

async function stateOf({ handlers }: TestServices, sessionId: string): Promise<SessionState> {
  return must(await handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
}

const text = (prompt: string) => [{ type: 'text' as const, text: prompt }]
const userMessages = (state: SessionState) => state.entries.filter((e): e is MessageEntry => e.kind === 'user_message')
const agentText = (state: SessionState) =>
  state.entries
    .filter((e): e is MessageEntry => e.kind === 'agent_message')
    .flatMap((e) => e.content)
    .map((b) => (b.type === 'text' ? (b as { text: string }).text : ''))
    .join('\n')

/** Resolves once the session's state (main's copy, as batches reach the renderer) satisfies `predicate`. */
function until(services: TestServices, sessionId: string, predicate: (state: SessionState) => boolean): Promise<SessionState> {
  return new Promise((resolve) => {
    const check = async () => {
      const state = await stateOf(services, sessionId)
      if (predicate(state)) resolve(state)
      else void services.sink.next('sessionActions', (b) => b.sessionId === sessionId && b.seq > state.seq).then(check)
    }
    void check()
  })
}

describe.each([
  ['v1', false],
  ['v2', true],
])('conformance with the %s scripted agent', (_label, v2) => {
  it('a prompt the agent rejects is shown as not sent, with the error’s details, and the failure carries them', async () => {
    const services = await start(v2)
    const result = await services.handlers.prompt({ sessionId: services.sessionId, prompt: text('reject') })
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.error).toMatchObject({ kind: 'rpc-error', code: -32602, message: 'Prompt too long' })
      expect(result.error.data).toEqual({ details: 'The prompt has 5000 tokens;\nthe limit is 4096.' })
    }
    const state = await stateOf(services, services.sessionId)
    const [message] = userMessages(state)
    expect(message!.notSent).toEqual({ message: 'Prompt too long', code: -32602, details: 'The prompt has 5000 tokens;\nthe limit is 4096.' })
    // The agent was idle and never said otherwise: the turn is as it last reported, no completion counted.
    expect(state.turn.state).toBe('idle')
    expect(state.turn.completedTurns).toBe(v2 ? 0 : 1)
    // Told once, on the message (not again as the turn's error).
    expect(state.turn.error ?? null).toBeNull()

    // Resending works, and is a new message that was sent.
    expect(must(await services.handlers.prompt({ sessionId: services.sessionId, prompt: text('hello') })).stopReason).toBe('end_turn')
    const after = userMessages(await stateOf(services, services.sessionId))
    expect(after).toHaveLength(2)
    expect(after[1]!.notSent).toBeUndefined()
  })

  it('applies agent requests and session/update in wire order: a permission’s tool-call patch never lands over a newer status', async () => {
    const services = await start(v2)
    // One write on the agent's side, so both lines reach Bosun in one chunk: the request first, then the update.
    expect(must(await services.handlers.prompt({ sessionId: services.sessionId, prompt: text(v2 ? 'order-v2' : 'order') })).stopReason).toBe('end_turn')
    const state = await until(services, services.sessionId, (s) => agentText(s).includes('started make') && Object.keys(s.permissions).length === 1)
    const tool = state.entries.find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.toolCallId === 'call-o')!
    // On the wire: tool_call pending, request_permission (its toolCall says pending), tool_call_update in_progress.
    expect(tool.status).toBe('in_progress')
    expect(tool.permissionIds).toHaveLength(1)
    const [pending] = must(await services.handlers.listPendingPermissions(undefined))
    must(await services.handlers.respondPermission({ requestId: pending!.requestId, optionId: 'reject-once' }))
    await until(services, services.sessionId, (s) => Object.values(s.permissions).every((p) => p.status === 'answered'))
  })

  it('Stop cancels the turn’s elicitations; v2 leaves the background work’s one open for the agent', async () => {
    const services = await start(v2)
    const turn = services.handlers.prompt({ sessionId: services.sessionId, prompt: text('stop-elicitations') })
    const asked = await until(services, services.sessionId, (s) => Object.keys(s.elicitations).length === 2)
    const byTool = (s: SessionState, toolCallId: string) => Object.values(s.elicitations).find((e) => e.toolCallId === toolCallId)!
    expect(asked.turn.background).toEqual(v2 ? [{ type: 'tool_call', toolCallId: 'bg-1' }] : null)

    must(await services.handlers.cancel({ sessionId: services.sessionId }))
    expect(must(await turn).stopReason).toBe('cancelled')
    const after = await until(services, services.sessionId, (s) => agentText(s).includes('elicitation response: {"action":"cancel"}'))
    expect(byTool(after, 'fg-1').status).toBe('cancelled')
    expect(byTool(after, 'bg-1').status).toBe(v2 ? 'pending' : 'cancelled')
    // The background tool call is not marked cancelled locally either (v2).
    const bg = after.entries.find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.toolCallId === 'bg-1')!
    expect(bg.status).toBe(v2 ? 'in_progress' : 'cancelled')
    if (v2) {
      must(await services.handlers.respondElicitation({ elicitationRequestId: byTool(after, 'bg-1').elicitationRequestId, action: 'decline' }))
      await until(services, services.sessionId, (s) => agentText(s).includes('elicitation response: {"action":"decline"}'))
    }
  })

  it('a required field of an unknown type: the form is shown, accept is refused, decline reaches the agent', async () => {
    const services = await start(v2)
    const turn = services.handlers.prompt({ sessionId: services.sessionId, prompt: text('unknown-field') })
    const asked = await until(services, services.sessionId, (s) => Object.keys(s.elicitations).length === 1)
    const [elicitation] = Object.values(asked.elicitations)
    expect(elicitation!.status).toBe('pending')
    const accepted = await services.handlers.respondElicitation({ elicitationRequestId: elicitation!.elicitationRequestId, action: 'accept', content: { note: 'blue' } })
    expect(accepted.ok).toBe(false)
    if (!accepted.ok) expect(accepted.error.message).toMatch(/cannot show this kind of field \(_color\)/)
    must(await services.handlers.respondElicitation({ elicitationRequestId: elicitation!.elicitationRequestId, action: 'decline' }))
    expect(must(await turn).stopReason).toBe('end_turn')
    const state = await stateOf(services, services.sessionId)
    expect(agentText(state)).toContain('elicitation response: {"action":"decline"}')
    expect(state.elicitations[elicitation!.elicitationRequestId]!.status).toBe('declined')
  })

  it('keeps a plan entry’s cancelled status', async () => {
    const services = await start(v2)
    must(await services.handlers.prompt({ sessionId: services.sessionId, prompt: text('plan-cancelled') }))
    const state = await until(services, services.sessionId, (s) => s.plans.length === 1)
    expect(state.plans[0]!.entries.map((e) => e.status)).toEqual(['completed', 'cancelled', 'pending'])
  })

  it('reattaching after a restart applies what the agent sends before the response (v1 load: not the replayed history)', async () => {
    const services = await start(v2, 'conformance-resume')
    must(await services.handlers.restartAgent({ agentId: 'agent' }))
    expect(must(await services.handlers.prompt({ sessionId: services.sessionId, prompt: text('hello') })).stopReason).toBe('end_turn')
    const state = await stateOf(services, services.sessionId)
    expect(state.title).toBe('Resumed title')
    expect(agentText(state)).not.toContain('replayed history')
    expect(state.entries.some((e) => e.kind === 'unknown')).toBe(false)
    // v2: the agent's state_update before the response was applied before the prompt (a turn later reports its own).
    const actions = services.sink.of('sessionActions').filter((b) => b.sessionId === services.sessionId).flatMap((b) => b.actions)
    const reported = actions.findIndex((a) => a.type === 'updates' && a.updates.some((u) => u.sessionUpdate === 'state_update' && Array.isArray(u.background) && u.background.length === 1))
    const prompted = actions.findIndex((a) => a.type === 'local_prompt')
    expect(reported >= 0).toBe(v2)
    if (v2) expect(reported).toBeLessThan(prompted)
  })
})

describe('conformance, v2 subagents', () => {
  it('a subagent session its parent announced asks its permission in the parent, shows its tool calls there, and leaves the parent’s turn and options alone', async () => {
    const services = await start(true)
    const turn = services.handlers.prompt({ sessionId: services.sessionId, prompt: text('subagent-v2') })
    const asked = await until(services, services.sessionId, (s) => Object.keys(s.permissions).length === 1)
    const [pending] = must(await services.handlers.listPendingPermissions(undefined))
    // Asked in the parent session (its inbox entry and its card), not refused as an unknown session.
    expect(pending).toMatchObject({ sessionId: services.sessionId, title: 'touch marker' })
    const tool = asked.entries.find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.toolCallId === 'sub-call')!
    expect(tool.permissionIds).toHaveLength(1)
    expect(tool.subagent).toBe('Subagent: Survey the files')
    must(await services.handlers.respondPermission({ requestId: pending!.requestId, optionId: 'allow-once' }))
    expect(must(await turn).stopReason).toBe('end_turn')
    const state = await until(services, services.sessionId, (s) => agentText(s).includes('parent done') && s.turn.state === 'idle')
    expect(agentText(state)).toContain('permission outcome: {"optionId":"allow-once","outcome":"selected"}')
    expect(state.entries.find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.toolCallId === 'sub-call')!.status).toBe('completed')
    // The child's own options and words are not the parent's; its idle did not end the parent's turn early.
    expect(state.configOptions.some((o) => o.id === 'agent')).toBe(false)
    expect(agentText(state)).not.toContain('child words')
    expect(state.turn.completedTurns).toBe(1)
  })
})

describe('conformance, v1 only', () => {
  it('a prompt the agent answers and then ends with an error (a rate limit after partial output) was sent: the turn ran and ended with that error', async () => {
    const services = await start(false)
    const result = await services.handlers.prompt({ sessionId: services.sessionId, prompt: text('error-after-output') })
    // Not a refused message: the composer keeps nothing to send again, as when a v2 agent's turn ends with an error.
    expect(result).toEqual({ ok: true, value: { stopReason: null } })
    const state = await stateOf(services, services.sessionId)
    expect(userMessages(state)[0]!.notSent).toBeUndefined()
    expect(agentText(state)).toBe('API Error: Request rejected (429)')
    expect(state.turn).toMatchObject({ state: 'idle', error: { code: -32603 } })
    expect(state.entries.at(-1)).toMatchObject({ kind: 'turn_error', code: -32603 })
  })
})

describe('conformance, v2 only', () => {
  it('a prompt rejected while the agent reports running stays running until the agent’s own idle; Stop reaches it', async () => {
    const services = await start(true)
    const result = await services.handlers.prompt({ sessionId: services.sessionId, prompt: text('reject-while-running') })
    expect(result.ok).toBe(false)
    let state = await stateOf(services, services.sessionId)
    expect(userMessages(state)[0]!.notSent).toMatchObject({ message: 'A hook refused the prompt' })
    expect(state.turn.state).toBe('running')

    // No prompt is in flight, but the agent is working: Stop sends session/cancel, and the agent's idle ends it.
    must(await services.handlers.cancel({ sessionId: services.sessionId }))
    state = await until(services, services.sessionId, (s) => s.turn.state === 'idle')
    expect(state.turn.stopReason).toBe('cancelled')
  })

  it('Stop sends session/cancel when the agent works on its own after a turn', async () => {
    const services = await start(true)
    expect(must(await services.handlers.prompt({ sessionId: services.sessionId, prompt: text('own-work') })).stopReason).toBe('end_turn')
    await until(services, services.sessionId, (s) => s.turn.state === 'running' && agentText(s).includes('following up on my own'))
    must(await services.handlers.cancel({ sessionId: services.sessionId }))
    const state = await until(services, services.sessionId, (s) => s.turn.state === 'idle')
    expect(state.turn.stopReason).toBe('cancelled')
    const cancels = must(await services.handlers.listInspectorMessages({ agentId: 'agent' })).messages.filter((m) => m.direction === 'out' && m.method === 'session/cancel')
    expect(cancels).toHaveLength(1)
  })
})

describe('conformance, v1 only', () => {
  it('advertises session.configOptions.boolean, the capability that lets Bosun send boolean values', async () => {
    const services = await start(false)
    const messages = must(await services.handlers.listInspectorMessages({ agentId: 'agent' })).messages
    // Offered v2 first, answered 1: started again with a v1 offer, whose client capabilities carry it.
    const initialize = messages.filter((m) => m.direction === 'out' && m.method === 'initialize').at(-1)!
    expect((initialize.message as { params: { protocolVersion: number; clientCapabilities: unknown } }).params).toMatchObject({
      protocolVersion: 1,
      clientCapabilities: { session: { configOptions: { boolean: {} } } },
    })
  })

  it('a session its restarted agent cannot continue says so, and keeps saying it', async () => {
    const services = await start(false, 'conformance-no-resume')
    must(await services.handlers.restartAgent({ agentId: 'agent' }))
    const result = await services.handlers.prompt({ sessionId: services.sessionId, prompt: text('hello') })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.message).toMatch(/can neither load nor resume sessions/)
    // The window says it where the person types, and knows from the answer not to say it again in a notice.
    if (!result.ok) expect(result.error.data).toEqual({ cannotContinue: true })
    const state = await stateOf(services, services.sessionId)
    expect(state.cannotContinue?.reason).toMatch(/cannot continue/)
    expect(userMessages(state)).toEqual([])
  })
})
