import { describe, expect, it } from 'vitest'
import { applyActions, rebuildIndex } from '../../../common/session/reducer'
import type { ElicitationView, PermissionRequestView } from '../../../common/session/types'
import { apply, deepFreeze, messages, session, summary, text, tool, updates } from './helpers'

function permission(overrides: Partial<PermissionRequestView> = {}): PermissionRequestView {
  return {
    requestId: 'r1',
    agentId: 'a1',
    agentName: 'Claude',
    sessionId: 's1',
    title: 'Approve edit?',
    subject: { type: 'tool_call', toolCallId: 't1' },
    toolCallId: 't1',
    options: [
      { optionId: 'yes', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
    ],
    createdAt: 1000,
    status: 'pending',
    ...overrides,
  }
}

function elicitation(overrides: Partial<ElicitationView> = {}): ElicitationView {
  return {
    elicitationRequestId: 'e1',
    agentId: 'a1',
    agentName: 'Claude',
    sessionId: 's1',
    mode: 'form',
    message: 'Which branch?',
    createdAt: 2000,
    status: 'pending',
    ...overrides,
  }
}

describe('turns (F4, F12)', () => {
  it('v1 turn_started → running; turn_ended → idle with stopReason, counted once', () => {
    let s = apply(session(1), { type: 'turn_started' })
    expect(s.turn.state).toBe('running')
    s = apply(s, { type: 'turn_ended', stopReason: 'end_turn' })
    expect(s.turn).toMatchObject({ state: 'idle', stopReason: 'end_turn', completedTurns: 1 })
    s = apply(s, { type: 'turn_ended', stopReason: 'end_turn' })
    expect(s.turn.completedTurns).toBe(1)
  })

  it('v1 refusal marks the last user prompt and everything the agent answered to it excluded, and nothing of the turns before', () => {
    let s = apply(session(1), { type: 'local_prompt', content: [text('one')] }, { type: 'turn_started' })
    s = updates(
      s,
      { sessionUpdate: 'agent_message_chunk', content: text('sure') },
      { sessionUpdate: 'tool_call', toolCallId: 'before', title: 'read', status: 'completed' },
    )
    s = apply(s, { type: 'turn_ended', stopReason: 'end_turn' })
    s = apply(s, { type: 'local_prompt', content: [text('two')] }, { type: 'turn_started' })
    s = updates(
      s,
      { sessionUpdate: 'agent_thought_chunk', content: text('hmm') },
      { sessionUpdate: 'agent_message_chunk', content: text('let me') },
      { sessionUpdate: 'tool_call', toolCallId: 'during', title: 'edit', status: 'in_progress' },
      { sessionUpdate: 'agent_message_chunk', content: text('no') },
    )
    s = apply(s, { type: 'turn_ended', stopReason: 'refusal' })
    expect(s.entries.map((e) => [e.kind, 'excluded' in e ? (e.excluded ?? false) : false])).toEqual([
      ['user_message', false],
      ['agent_message', false],
      ['tool_call', false],
      ['user_message', true],
      ['agent_thought', true],
      ['agent_message', true],
      ['tool_call', true],
      ['agent_message', true],
      ['turn_stop', false],
    ])
  })

  it('v1: a turn that ended early without an error keeps a mark of how it ended (stopped, refused, a limit), once', () => {
    let s = apply(session(1), { type: 'local_prompt', content: [text('one')] }, { type: 'turn_started' })
    s = updates(s, { sessionUpdate: 'agent_message_chunk', content: text('Half') })
    s = apply(s, { type: 'cancel_requested' }, { type: 'turn_ended', stopReason: 'cancelled' })
    s = apply(s, { type: 'turn_ended', stopReason: 'cancelled' })
    s = apply(s, { type: 'local_prompt', content: [text('two')] }, { type: 'turn_started' })
    s = apply(s, { type: 'turn_ended', stopReason: 'max_tokens' })
    // A normal end, an error (its own mark) and a reason nobody knows leave no stop mark.
    s = apply(s, { type: 'local_prompt', content: [text('three')] }, { type: 'turn_started' }, { type: 'turn_ended', stopReason: 'end_turn' })
    s = apply(s, { type: 'local_prompt', content: [text('four')] }, { type: 'turn_started' }, { type: 'turn_ended', stopReason: 'a_future_reason' })
    s = apply(s, { type: 'local_prompt', content: [text('five')] }, { type: 'turn_started' })
    s = updates(s, { sessionUpdate: 'agent_message_chunk', content: text('x') })
    s = apply(s, { type: 'turn_ended', stopReason: null, error: { message: 'Boom' } })
    expect(summary(s.entries)).toEqual([
      'user_message:one',
      'agent_message:Half',
      'turn_stop:cancelled',
      'user_message:two',
      'turn_stop:max_tokens',
      'user_message:three',
      'user_message:four',
      'user_message:five',
      'agent_message:x',
      'turn_error:Boom',
    ])
  })

  it('a Stop is marked as a stop however the agent answered it (end_turn, an error: kept as what it said), or that it never answered it', () => {
    let s = apply(session(1), { type: 'local_prompt', content: [text('one')] }, { type: 'turn_started' })
    s = apply(s, { type: 'cancel_requested' }, { type: 'turn_ended', stopReason: 'end_turn' })
    s = apply(s, { type: 'local_prompt', content: [text('two')] }, { type: 'turn_started' })
    s = apply(s, { type: 'cancel_requested' }, { type: 'turn_ended', stopReason: null, error: { message: 'Aborted by user', code: -32800 } })
    // An agent that never answered the Stop: the turn ended when Bosun stopped its process (no code: Bosun's words).
    s = apply(s, { type: 'local_prompt', content: [text('three')] }, { type: 'turn_started' })
    s = apply(s, { type: 'cancel_requested' }, { type: 'turn_ended', stopReason: null, error: { message: 'Gemini CLI was stopped.' } })
    expect(s.entries.filter((e) => e.kind === 'turn_stop')).toEqual([
      { kind: 'turn_stop', id: 'turn-stop#1', reason: 'cancelled' },
      { kind: 'turn_stop', id: 'turn-stop#3', reason: 'cancelled', detail: 'Aborted by user' },
      { kind: 'turn_stop', id: 'turn-stop#5', reason: 'cancelled', detail: 'Gemini CLI was stopped.', unanswered: true },
    ])
  })

  it('a turn the agent cancelled without a Stop is marked as that, not as stopped when asked (codex-acp after a rejected command)', () => {
    let s = apply(session(1), { type: 'local_prompt', content: [text('one')] }, { type: 'turn_started' }, { type: 'turn_ended', stopReason: 'cancelled' })
    s = apply(s, { type: 'local_prompt', content: [text('two')] })
    expect(s.entries[1]).toEqual({ kind: 'turn_stop', id: 'turn-stop#1', reason: 'cancelled', unasked: true })
  })

  it('v2: the idle state_update that ends a stopped turn marks it once; repeated idles do not', () => {
    let s = apply(session(2), { type: 'local_prompt', content: [text('one')] }, { type: 'turn_started' })
    s = updates(s, { sessionUpdate: 'state_update', state: 'running' }, { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: text('partial') })
    s = apply(s, { type: 'cancel_requested' })
    s = updates(s, { sessionUpdate: 'state_update', state: 'idle', stopReason: 'cancelled' }, { sessionUpdate: 'state_update', state: 'idle', stopReason: 'cancelled' })
    s = apply(s, { type: 'turn_ended', stopReason: null })
    expect(summary(s.entries)).toEqual(['user_message:one', 'agent_message:partial', 'turn_stop:cancelled'])
    s = apply(s, { type: 'local_prompt', content: [text('two')] }, { type: 'turn_started' })
    s = updates(s, { sessionUpdate: 'state_update', state: 'running' }, { sessionUpdate: 'state_update', state: 'idle', stopReason: 'max_turn_requests' })
    expect(summary(s.entries).slice(3)).toEqual(['user_message:two', 'turn_stop:max_turn_requests'])
  })

  it('v1: a turn that ended with an error after partial output keeps a mark of it after the next turn starts', () => {
    let s = apply(session(1), { type: 'local_prompt', content: [text('one')] }, { type: 'turn_started' })
    s = updates(s, { sessionUpdate: 'agent_message_chunk', content: text('Half an ans') })
    s = apply(s, { type: 'turn_ended', stopReason: null, error: { message: 'Rate limited', code: 429 } })
    s = apply(s, { type: 'turn_ended', stopReason: null, error: { message: 'Rate limited', code: 429 } })
    s = apply(s, { type: 'local_prompt', content: [text('two')] }, { type: 'turn_started' })
    expect(s.turn.error).toBeNull()
    expect(summary(s.entries)).toEqual(['user_message:one', 'agent_message:Half an ans', 'turn_error:Rate limited', 'user_message:two'])
    expect(s.entries[2]).toMatchObject({ kind: 'turn_error', code: 429 })
    // The agent's next chunk is a message of its own, not the end of the one before the mark.
    s = updates(s, { sessionUpdate: 'agent_message_chunk', content: text('ok') })
    expect(summary(s.entries).at(-1)).toBe('agent_message:ok')
  })

  it('v1: no mark for an error shown on the prompt as not sent, nor for an error answering a stop', () => {
    let s = apply(session(1), { type: 'local_prompt', content: [text('one')] }, { type: 'turn_started' })
    s = apply(s, { type: 'prompt_rejected', error: { message: 'Bad' } }, { type: 'turn_ended', stopReason: null, error: { message: 'Bad' } })
    s = apply(s, { type: 'local_prompt', content: [text('two')] }, { type: 'turn_started' })
    s = updates(s, { sessionUpdate: 'agent_message_chunk', content: text('partial') })
    s = apply(s, { type: 'cancel_requested' }, { type: 'turn_ended', stopReason: null, error: { message: 'Aborted' } })
    expect(s.entries.some((e) => e.kind === 'turn_error')).toBe(false)
  })

  it('v2: a turn that ended with an error is marked once, though both the idle state_update and the prompt outcome tell it', () => {
    let s = apply(session(2), { type: 'local_prompt', content: [text('one')] }, { type: 'turn_started' })
    s = updates(s, { sessionUpdate: 'state_update', state: 'running' }, { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: text('partial') })
    s = updates(s, { sessionUpdate: 'state_update', state: 'idle', stopReason: 'error', error: { message: 'Overloaded', code: 529 } })
    s = apply(s, { type: 'turn_ended', stopReason: 'error', error: { message: 'Overloaded', code: 529 } })
    expect(summary(s.entries)).toEqual(['user_message:one', 'agent_message:partial', 'turn_error:Overloaded'])
    // Bosun ends the turn of an agent that died: no idle error from the agent, only Bosun's.
    s = apply(s, { type: 'local_prompt', content: [text('two')] }, { type: 'turn_started' })
    s = updates(s, { sessionUpdate: 'state_update', state: 'running' }, { sessionUpdate: 'state_update', state: 'idle' })
    s = apply(s, { type: 'turn_ended', stopReason: null, error: { message: 'The agent stopped.' } })
    expect(summary(s.entries).slice(3)).toEqual(['user_message:two', 'turn_error:The agent stopped.'])
  })

  it('v2 turn_ended (the prompt response) does not make the session idle (F6/F7)', () => {
    let s = updates(session(2), { sessionUpdate: 'state_update', state: 'running' })
    s = apply(s, { type: 'turn_ended', stopReason: null })
    expect(s.turn.state).toBe('running')
  })

  it('cancel_requested marks unfinished tool calls of the current turn cancelled, and only those', () => {
    let s = apply(session(1), { type: 'local_prompt', content: [text('one')] })
    s = updates(s, { sessionUpdate: 'tool_call', toolCallId: 'old', title: 'old', status: 'in_progress' })
    s = apply(s, { type: 'local_prompt', content: [text('two')] })
    s = updates(
      s,
      { sessionUpdate: 'tool_call', toolCallId: 'a', title: 'a', status: 'in_progress' },
      { sessionUpdate: 'tool_call', toolCallId: 'b', title: 'b', status: 'completed' },
      { sessionUpdate: 'tool_call', toolCallId: 'c', title: 'c' },
    )
    s = apply(s, { type: 'cancel_requested' })
    expect(['old', 'a', 'b', 'c'].map((id) => tool(s, id).status)).toEqual(['in_progress', 'cancelled', 'completed', 'cancelled'])
    // Updates keep applying after cancel.
    s = updates(s, { sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'completed' })
    expect(tool(s, 'a').status).toBe('completed')
  })

  it('v1: a stop the person asked for stays on the ended turn, whatever stop reason the agent gave; the next turn starts without it', () => {
    let s = apply(session(1), { type: 'turn_started' })
    s = apply(s, { type: 'cancel_requested' })
    expect(s.turn.stopRequested).toBe(true)
    // OpenCode answers a cancel with end_turn.
    s = apply(s, { type: 'turn_ended', stopReason: 'end_turn' })
    expect(s.turn).toMatchObject({ state: 'idle', stopReason: 'end_turn', stopRequested: true })
    s = apply(s, { type: 'turn_started' })
    expect(s.turn.stopRequested).toBeUndefined()
    s = apply(s, { type: 'turn_ended', stopReason: 'end_turn' })
    expect(s.turn.stopRequested).toBeUndefined()
    // A cancel while idle asks nothing of a turn.
    expect(apply(s, { type: 'cancel_requested' }).turn.stopRequested).toBeUndefined()
  })

  it('v2: the stop is kept through the idle state_update and cleared when the agent runs again', () => {
    let s = updates(session(2), { sessionUpdate: 'state_update', state: 'running' })
    s = apply(s, { type: 'cancel_requested' })
    s = updates(s, { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' })
    expect(s.turn).toMatchObject({ state: 'idle', stopReason: 'end_turn', stopRequested: true })
    s = updates(s, { sessionUpdate: 'state_update', state: 'running' })
    expect(s.turn.stopRequested).toBeUndefined()
  })

  it.each([1, 2] as const)('v%i agent_gone: every unfinished tool call of the session (earlier turns too) ends cancelled', (version) => {
    // v2 announces tool calls with tool_call_update (an unknown id creates the entry).
    const kind = version === 1 ? 'tool_call' : 'tool_call_update'
    let s = apply(session(version), { type: 'local_prompt', content: [text('one')] })
    s = updates(s, { sessionUpdate: kind, toolCallId: 'old', title: 'old', status: 'in_progress' })
    s = apply(s, { type: 'local_prompt', content: [text('two')] })
    s = updates(
      s,
      { sessionUpdate: kind, toolCallId: 'a', title: 'a', status: 'pending' },
      { sessionUpdate: kind, toolCallId: 'b', title: 'b', status: 'failed' },
      { sessionUpdate: kind, toolCallId: 'c', title: 'c', status: 'completed' },
    )
    s = apply(s, { type: 'agent_gone' })
    expect(['old', 'a', 'b', 'c'].map((id) => tool(s, id).status)).toEqual(['cancelled', 'cancelled', 'failed', 'completed'])
  })
})

describe('permissions (G2, G3)', () => {
  it('v2: a permission asked while the agent reports only running is shown; answering one does not set the turn to running (G10)', () => {
    let s = updates(session(2), { sessionUpdate: 'state_update', state: 'running' })
    s = apply(s, { type: 'permission_requested', request: permission() })
    s = apply(s, { type: 'permission_requested', request: permission({ requestId: 'r2' }) })
    // No requires_action came: both still show, and the turn is what the agent said.
    expect(s.permissions.r1!.status).toBe('pending')
    expect(tool(s, 't1').permissionIds).toEqual(['r1', 'r2'])
    expect(s.turn.state).toBe('running')
    s = updates(s, { sessionUpdate: 'state_update', state: 'requires_action' })
    s = apply(s, { type: 'permission_resolved', requestId: 'r1', status: 'answered', resolution: { by: 'person', optionId: 'yes', at: 5 } })
    // One answered, one still waits: the turn stays as the agent last reported it until it says otherwise.
    expect(s.turn.state).toBe('requires_action')
    expect(s.permissions.r2!.status).toBe('pending')
    s = apply(s, { type: 'permission_resolved', requestId: 'r2', status: 'answered', resolution: { by: 'person', optionId: 'yes', at: 6 } })
    expect(s.turn.state).toBe('requires_action')
    s = updates(s, { sessionUpdate: 'state_update', state: 'running' })
    expect(s.turn.state).toBe('running')
  })

  it('a permission for an unannounced tool call creates the tool call and attaches the request', () => {
    let s = apply(session(1), {
      type: 'permission_requested',
      request: permission(),
      toolCallPatch: { toolCallId: 't1', title: 'Edit a.rs', kind: 'edit' },
    })
    expect(summary(s.entries)).toEqual(['tool_call:t1'])
    expect(tool(s, 't1')).toMatchObject({ title: 'Edit a.rs', toolKind: 'edit', permissionIds: ['r1'] })
    expect(s.permissions.r1!.status).toBe('pending')
    // A later tool_call merges into the same row.
    s = updates(s, { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit a.rs', status: 'in_progress' })
    expect(summary(s.entries)).toEqual(['tool_call:t1'])
    expect(tool(s, 't1').permissionIds).toEqual(['r1'])
  })

  it("never writes the request's title into the tool call (v2 title 'Approve edit?' vs tool 'Edit a.rs')", () => {
    let s = updates(session(2), { sessionUpdate: 'tool_call_update', toolCallId: 't1', title: 'Edit a.rs' })
    s = apply(s, { type: 'permission_requested', request: permission(), toolCallPatch: { toolCallId: 't1', status: 'pending' } })
    expect(tool(s, 't1').title).toBe('Edit a.rs')
    expect(s.permissions.r1!.title).toBe('Approve edit?')
  })

  it('a permission without a tool call is a standalone entry (v2 command subject)', () => {
    const request = permission({ subject: { type: 'command', command: 'rm -rf build', cwd: '/work' }, toolCallId: null })
    let s = apply(session(2), { type: 'permission_requested', request })
    expect(summary(s.entries)).toEqual(['permission:r1'])
    s = apply(s, { type: 'permission_requested', request })
    expect(summary(s.entries)).toEqual(['permission:r1'])
  })

  it('two requests for one tool call are both attached and resolved independently (G8)', () => {
    let s = apply(
      session(1),
      { type: 'permission_requested', request: permission() },
      { type: 'permission_requested', request: permission({ requestId: 'r2' }) },
    )
    expect(tool(s, 't1').permissionIds).toEqual(['r1', 'r2'])
    s = apply(s, { type: 'permission_resolved', requestId: 'r2', status: 'cancelled', resolution: { by: 'cancel', at: 5 } })
    expect([s.permissions.r1!.status, s.permissions.r2!.status]).toEqual(['pending', 'cancelled'])
    expect(tool(s, 't1').decidedBy).toBeUndefined()
  })

  it("keeps the diffs a request showed when a later update replaces the content without them (OpenCode's write)", () => {
    const diff = { type: 'diff', path: '/w/notes.md', oldText: '', newText: '# Notes\n' }
    let s = updates(session(1), { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'write', kind: 'edit', status: 'pending' })
    s = apply(s, { type: 'permission_requested', request: permission(), toolCallPatch: { toolCallId: 't1', status: 'pending', content: [diff] } })
    expect(tool(s, 't1').askedDiffs).toEqual([diff])
    s = updates(s, { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'Wrote file successfully.' } }] })
    // The content is what the agent said last; what the request showed stays beside it.
    expect(tool(s, 't1').content).toEqual([{ type: 'content', content: { type: 'text', text: 'Wrote file successfully.' } }])
    expect(tool(s, 't1').askedDiffs).toEqual([diff])
    // A request without a diff keeps none.
    const plain = apply(session(1), { type: 'permission_requested', request: permission(), toolCallPatch: { toolCallId: 't1', content: [{ type: 'content', content: { type: 'text', text: 'rm x' } }] } })
    expect(tool(plain, 't1').askedDiffs).toBeUndefined()
  })

  it("keeps the plan a call showed when the request about it comes with the call's first, empty content and input (Claude's ExitPlanMode)", () => {
    // claude-agent-acp 0.101.0 (/tmp/agents12/claude-exitplan.jsonl): the tool call, the update with the plan, then the
    // request with the call as it first was.
    const plan = '# Rename OLDNAME\n\n1. Read `big.ts`.\n2. Rename with one Edit (replace_all).\n'
    const first = { toolCallId: 't1', name: 'ExitPlanMode', rawInput: {}, status: 'pending', title: 'Approve Plan', kind: 'switch_mode', content: [] }
    let s = updates(session(1), { sessionUpdate: 'tool_call', ...first })
    s = updates(s, { sessionUpdate: 'tool_call_update', toolCallId: 't1', rawInput: { plan }, content: [{ type: 'content', content: { type: 'text', text: plan } }] })
    s = apply(s, { type: 'permission_requested', request: permission(), toolCallPatch: first })
    expect(tool(s, 't1')).toMatchObject({ status: 'pending', rawInput: { plan }, content: [{ type: 'content', content: { type: 'text', text: plan } }], permissionIds: ['r1'] })
    // A request that does bring content or input still replaces them.
    s = apply(s, { type: 'permission_requested', request: permission({ requestId: 'r2' }), toolCallPatch: { toolCallId: 't1', rawInput: { plan: 'other' }, content: [{ type: 'content', content: { type: 'text', text: 'other' } }] } })
    expect(tool(s, 't1')).toMatchObject({ rawInput: { plan: 'other' }, content: [{ type: 'content', content: { type: 'text', text: 'other' } }] })
  })

  it('resolved by rule sets decidedBy on the tool call', () => {
    let s = apply(session(1), { type: 'permission_requested', request: permission() })
    s = apply(s, {
      type: 'permission_resolved',
      requestId: 'r1',
      status: 'answered',
      resolution: { by: 'rule', optionId: 'always', note: 'Edit in /work', at: 5 },
    })
    expect(s.permissions.r1).toMatchObject({ status: 'answered', resolution: { by: 'rule', optionId: 'always' } })
    expect(tool(s, 't1').decidedBy).toEqual({ kind: 'rule', label: 'Edit in /work', optionKind: 'allow_always' })
  })

  it('dismissing a request on a tool card decides nothing: no "Allowed by you", the request keeps its note', () => {
    let s = apply(session(1), { type: 'permission_requested', request: permission() })
    s = apply(s, { type: 'permission_resolved', requestId: 'r1', status: 'cancelled', resolution: { by: 'person', note: 'Dismissed', at: 5 } })
    expect(tool(s, 't1').decidedBy).toBeUndefined()
    expect(s.permissions.r1).toMatchObject({ status: 'cancelled', resolution: { by: 'person', note: 'Dismissed' } })
    // A chosen option still decides it.
    s = apply(s, { type: 'permission_requested', request: permission({ requestId: 'r2' }) })
    s = apply(s, { type: 'permission_resolved', requestId: 'r2', status: 'answered', resolution: { by: 'person', optionId: 'yes', optionKind: 'allow_once', at: 6 } })
    expect(tool(s, 't1').decidedBy).toEqual({ kind: 'person', label: 'Allow once', optionKind: 'allow_once' })
  })

  it('resolving an unknown request is a no-op', () => {
    const s = apply(session(1), { type: 'permission_resolved', requestId: 'nope', status: 'answered', resolution: { by: 'person', at: 1 } })
    expect(s.permissions).toEqual({})
  })
})

describe('elicitations, auto-approve', () => {
  it('attaches to the tool call when it has a toolCallId, otherwise a standalone entry', () => {
    let s = apply(
      session(2),
      { type: 'elicitation_requested', elicitation: elicitation({ toolCallId: 't9' }) },
      { type: 'elicitation_requested', elicitation: elicitation({ elicitationRequestId: 'e2' }) },
    )
    expect(summary(s.entries)).toEqual(['tool_call:t9', 'elicitation:e2'])
    expect(tool(s, 't9').elicitationIds).toEqual(['e1'])
    s = apply(s, { type: 'elicitation_resolved', elicitationRequestId: 'e2', status: 'declined' })
    expect(s.elicitations.e2!.status).toBe('declined')
  })

  it('a request-scoped elicitation (no session) is stored but adds no timeline entry', () => {
    const s = apply(session(2), { type: 'elicitation_requested', elicitation: elicitation({ sessionId: null }) })
    expect(s.entries).toEqual([])
    expect(s.elicitations.e1!.status).toBe('pending')
  })

  it('set_auto_approve', () => {
    expect(apply(session(1), { type: 'set_auto_approve', value: true }).autoApprove).toBe(true)
  })
})

describe('purity, sharing and the index', () => {
  it('shares untouched parts and copies only touched entries', () => {
    let s = updates(
      session(1),
      { sessionUpdate: 'tool_call', toolCallId: 'a', title: 'a' },
      { sessionUpdate: 'tool_call', toolCallId: 'b', title: 'b' },
    )
    const next = updates(s, { sessionUpdate: 'tool_call_update', toolCallId: 'b', status: 'completed' })
    expect(next.entries).not.toBe(s.entries)
    expect(next.entries[0]).toBe(s.entries[0])
    expect(next.entries[1]).not.toBe(s.entries[1])
    expect(next.permissions).toBe(s.permissions)
    expect(next.turn).toBe(s.turn)
    s = next
    expect(tool(s, 'b').status).toBe('completed')
  })

  it('works on a state that came through JSON (index rebuilt)', () => {
    const s = updates(session(2), { sessionUpdate: 'agent_message_chunk', messageId: 'm', content: text('a') })
    const cloned = JSON.parse(JSON.stringify(s))
    const next = updates(rebuildIndex(cloned), { sessionUpdate: 'agent_message_chunk', messageId: 'm', content: text('b') })
    expect(summary(next.entries)).toEqual(['agent_message:ab'])
    const viaStructuredClone = updates(structuredClone(s), { sessionUpdate: 'agent_message_chunk', messageId: 'm', content: text('c') })
    expect(summary(viaStructuredClone.entries)).toEqual(['agent_message:ac'])
  })

  it('two different batches applied to the same base state do not disturb each other', () => {
    const base = updates(session(2), { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: text('x') })
    const left = updates(base, { sessionUpdate: 'tool_call_update', toolCallId: 'L', title: 'left' })
    const right = updates(base, { sessionUpdate: 'agent_message_chunk', messageId: 'm2', content: text('y') })
    const left2 = updates(left, { sessionUpdate: 'tool_call_update', toolCallId: 'L', status: 'completed' })
    const right2 = updates(right, { sessionUpdate: 'agent_message_chunk', messageId: 'm2', content: text('z') })
    expect(summary(left2.entries)).toEqual(['agent_message:x', 'tool_call:L'])
    expect(tool(left2, 'L').status).toBe('completed')
    expect(summary(right2.entries)).toEqual(['agent_message:x', 'agent_message:yz'])
  })

  it('garbage actions never throw and still bump seq', () => {
    const base = deepFreeze(session(1))
    const next = applyActions(base, [null, 3, { type: 'nope' }, { type: 'permission_requested' }, { type: 'updates' }] as never)
    expect(next.seq).toBe(1)
    expect(next.entries).toEqual([])
  })

  it('streams 20,000 chunks in one batch into one text block', () => {
    const list = Array.from({ length: 20_000 }, (_, i) => ({ sessionUpdate: 'agent_message_chunk', messageId: 'm', content: text(String(i % 10)) }))
    const s = applyActions(session(2), [{ type: 'updates', updates: list }])
    expect(messages(s)).toHaveLength(1)
    expect(messages(s)[0]!.content).toHaveLength(1)
    expect((messages(s)[0]!.content[0] as { text: string }).text).toHaveLength(20_000)
  })
})
