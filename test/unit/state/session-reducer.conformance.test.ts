/**
 * Reducer side of the conformance fixes (issue 10 §4): a refused prompt (`prompt_rejected`), Bosun's optimistic
 * v2 "running" and the agent's own state, the optimistic cancel leaving background tool calls alone, and
 * `cannot_continue`.
 */
import { describe, expect, it } from 'vitest'
import type { MessageEntry, ToolCallEntry } from '../../../common/session/types'
import { apply, session, updates } from './helpers'

const prompt = (text: string) => ({ type: 'local_prompt' as const, content: [{ type: 'text' as const, text }] })
const rejected = { type: 'prompt_rejected' as const, error: { message: 'Prompt too long', code: -32602, details: 'limit 4096' } }
const users = (s: { entries: unknown[] }) => s.entries.filter((e): e is MessageEntry => (e as MessageEntry).kind === 'user_message')

describe('prompt_rejected', () => {
  it('v2: the message is marked not sent and the turn goes back to what the agent last reported (idle), no completion', () => {
    let s = apply(session(2), prompt('hi'), { type: 'turn_started' })
    expect(s.turn).toMatchObject({ state: 'running', unconfirmedFrom: { state: 'idle' } })
    s = apply(s, rejected)
    expect(users(s)[0]!.notSent).toEqual({ message: 'Prompt too long', code: -32602, details: 'limit 4096' })
    expect(s.turn.state).toBe('idle')
    expect(s.turn.completedTurns).toBe(0)
    expect(s.turn.unconfirmedFrom).toBeUndefined()
    expect(s.pendingEcho).toBeNull()
  })

  it('v2: once the agent reported running itself, a rejection does not end its work; its idle does', () => {
    let s = apply(session(2), prompt('hi'), { type: 'turn_started' })
    s = updates(s, { sessionUpdate: 'state_update', state: 'running' })
    expect(s.turn.unconfirmedFrom).toBeUndefined()
    s = apply(s, rejected)
    expect(s.turn.state).toBe('running')
    expect(users(s)[0]!.notSent?.message).toBe('Prompt too long')
    s = updates(s, { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' })
    expect(s.turn).toMatchObject({ state: 'idle', completedTurns: 1 })
  })

  it('v2: a message the agent inserted (it carries its id) is never marked not sent', () => {
    let s = apply(session(2), { ...prompt('hi'), messageId: 'm1' }, { type: 'turn_started' })
    s = apply(s, rejected)
    expect(users(s)[0]!.notSent).toBeUndefined()
  })

  it('v1: not sent only when the agent answered nothing else to it', () => {
    let s = apply(session(1), prompt('hi'), { type: 'turn_started' }, rejected, { type: 'turn_ended', stopReason: null, error: { message: 'Prompt too long' } })
    expect(users(s)[0]!.notSent?.message).toBe('Prompt too long')
    // The turn is over; its error is shown on the message, not a second time under the transcript.
    expect(s.turn).toMatchObject({ state: 'idle', error: null })
    s = apply(s, prompt('again'), { type: 'turn_started' })
    s = updates(s, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'partial' } })
    s = apply(s, rejected, { type: 'turn_ended', stopReason: null, error: { message: 'Prompt too long' } })
    expect(users(s)[1]!.notSent).toBeUndefined()
    expect(s.turn.error).toEqual({ message: 'Prompt too long' })
  })

  it('v1: an error that may come after the agent took the message (no code, internal, its own) says so; a refusal code does not', () => {
    const failWith = (error: { message: string; code?: number }) => users(apply(session(1), prompt('hi'), { type: 'turn_started' }, { type: 'prompt_rejected', error }))[0]!.notSent
    expect(failWith({ message: 'Internal error', code: -32603 })).toEqual({ message: 'Internal error', code: -32603, mayHaveTaken: true })
    expect(failWith({ message: 'Overloaded' })).toMatchObject({ mayHaveTaken: true })
    expect(failWith({ message: 'Rate limited', code: 429 })).toMatchObject({ mayHaveTaken: true })
    for (const code of [-32000, -32700, -32600, -32601, -32602]) expect(failWith({ message: 'No', code })).not.toHaveProperty('mayHaveTaken')
    // v2 tells the two apart (a taken message is inserted): a rejection is a refusal whatever its code.
    const v2 = apply(session(2), prompt('hi'), { type: 'turn_started' }, { type: 'prompt_rejected', error: { message: 'Internal error', code: -32603 } })
    expect(users(v2)[0]!.notSent).toEqual({ message: 'Internal error', code: -32603 })
  })

  it('ignores malformed errors and bounds long ones', () => {
    const s = apply(session(2), prompt('hi'), { type: 'turn_started' }, { type: 'prompt_rejected', error: { message: 7 } as never })
    expect(users(s)[0]!.notSent).toBeUndefined()
    const long = apply(session(2), prompt('hi'), { type: 'prompt_rejected', error: { message: 'x'.repeat(10_000), details: 'y'.repeat(10_000) } })
    expect(users(long)[0]!.notSent!.message.length).toBeLessThan(4200)
    expect(users(long)[0]!.notSent!.details!.length).toBeLessThan(4200)
  })
})

describe('cancel_requested and background work (F12, F14)', () => {
  it('marks the turn’s unfinished tool calls cancelled, not those the agent lists as background work', () => {
    let s = apply(session(2), prompt('go'))
    s = updates(
      s,
      { sessionUpdate: 'state_update', state: 'running', background: [{ type: 'tool_call', toolCallId: 'bg' }] },
      { sessionUpdate: 'tool_call_update', toolCallId: 'bg', title: 'watch', status: 'in_progress' },
      { sessionUpdate: 'tool_call_update', toolCallId: 'fg', title: 'edit', status: 'in_progress' },
    )
    s = apply(s, { type: 'cancel_requested' })
    const status = (id: string) => s.entries.find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.toolCallId === id)!.status
    expect(status('fg')).toBe('cancelled')
    expect(status('bg')).toBe('in_progress')
  })

  it('v1: a stopped call the agent then reports failed stays cancelled (claude-agent-acp); its other fields are applied, and a failure without a Stop is one', () => {
    let s = apply(session(1), prompt('go'), { type: 'turn_started' })
    s = updates(s, { sessionUpdate: 'tool_call', toolCallId: 'run', title: 'Terminal', kind: 'execute', status: 'pending' })
    s = apply(s, { type: 'cancel_requested' })
    s = updates(s, { sessionUpdate: 'tool_call_update', toolCallId: 'run', status: 'failed', rawOutput: 'stopped while running' })
    const call = (id: string) => s.entries.find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.toolCallId === id)!
    expect(call('run')).toMatchObject({ status: 'cancelled', rawOutput: 'stopped while running' })
    // A completion is the agent's word: the call may have ended before the Stop reached it.
    s = updates(s, { sessionUpdate: 'tool_call', toolCallId: 'late', title: 'Read', status: 'pending' })
    s = apply(s, { type: 'cancel_requested' })
    s = updates(s, { sessionUpdate: 'tool_call_update', toolCallId: 'late', status: 'completed' })
    expect(call('late').status).toBe('completed')
    s = apply(s, { type: 'turn_ended', stopReason: 'cancelled' }, prompt('again'), { type: 'turn_started' })
    s = updates(s, { sessionUpdate: 'tool_call', toolCallId: 'next', title: 'Terminal', status: 'pending' }, { sessionUpdate: 'tool_call_update', toolCallId: 'next', status: 'failed' })
    expect(call('next').status).toBe('failed')
  })
})

describe('cannot_continue', () => {
  it('sets and clears the reason', () => {
    let s = apply(session(1), { type: 'cannot_continue', reason: 'The agent restarted and can neither load nor resume sessions.' })
    expect(s.cannotContinue).toEqual({ reason: 'The agent restarted and can neither load nor resume sessions.' })
    s = apply(s, { type: 'cannot_continue', reason: null })
    expect(s.cannotContinue).toBeNull()
  })
})
