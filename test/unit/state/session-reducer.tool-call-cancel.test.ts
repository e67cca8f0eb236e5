/**
 * v2 `tool_call/cancel` (E15) in the session model: the cancel capability a tool call advertises now (set by an
 * update, removed by `capabilities: null`, never by a final call; a subagent's call keeps its session), and what became of Bosun's cancel
 * (accepted, unconfirmed, refused) without touching the turn.
 */
import { describe, expect, it } from 'vitest'
import { canCancelToolCall, toolCallOf } from '../../../common/session/background'
import { apply, session, tool, updates } from './helpers'

const call = (fields: Record<string, unknown>) => ({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', ...fields })
const running = () => updates(session(2), call({ title: 'Build', status: 'in_progress', capabilities: { cancel: {} } }))

describe('tool call cancel capability (E15)', () => {
  it('is offered while the latest update advertises it; null withdraws it, an omitted field keeps it', () => {
    let s = running()
    expect(canCancelToolCall(tool(s, 'c1'))).toBe(true)
    s = updates(s, call({ content: [{ type: 'content', content: { type: 'text', text: 'compiling' } }] }))
    expect(canCancelToolCall(tool(s, 'c1'))).toBe(true)
    s = updates(s, call({ capabilities: null }))
    expect(tool(s, 'c1').capabilities).toBeUndefined()
    expect(canCancelToolCall(tool(s, 'c1'))).toBe(false)
    s = updates(s, call({ capabilities: { cancel: {} } }))
    expect(canCancelToolCall(tool(s, 'c1'))).toBe(true)
    // `cancel: null` inside the object means unsupported, as does a malformed value.
    expect(canCancelToolCall(tool(updates(s, call({ capabilities: { cancel: null } })), 'c1'))).toBe(false)
    expect(canCancelToolCall(tool(updates(s, call({ capabilities: { cancel: true } })), 'c1'))).toBe(false)
    expect(canCancelToolCall(tool(updates(s, call({ capabilities: 'cancel' })), 'c1'))).toBe(false)
  })

  it('never for a final call, whatever it still advertises; a subagent call is offered and keeps its session for the request', () => {
    for (const status of ['completed', 'failed', 'cancelled']) expect(canCancelToolCall(tool(updates(running(), call({ status })), 'c1'))).toBe(false)
    for (const status of ['pending', 'paused', '_custom']) expect(canCancelToolCall(tool(updates(running(), call({ status })), 'c1'))).toBe(true)
    const sub = updates(session(2), { sessionUpdate: 'subagent_update', sessionId: 'child-1', title: 'Survey' }, { sessionUpdate: 'tool_call_update', toolCallId: 'c2', status: 'in_progress', capabilities: { cancel: {} }, fromSubagent: 'child-1' })
    expect(tool(sub, 'c2')).toMatchObject({ subagent: 'Subagent: Survey', subagentSessionId: 'child-1' })
    expect(canCancelToolCall(tool(sub, 'c2'))).toBe(true)
    expect(canCancelToolCall(undefined)).toBe(false)
  })

  it('toolCallOf finds the call by id (own ids only)', () => {
    const s = running()
    expect(toolCallOf(s, 'c1')?.title).toBe('Build')
    expect(toolCallOf(s, 'nope')).toBeUndefined()
    expect(toolCallOf(s, '__proto__')).toBeUndefined()
  })
})

describe('tool_call_cancel (E15)', () => {
  it('requested until a final status; the turn is not touched', () => {
    let s = updates(running(), { sessionUpdate: 'state_update', state: 'running' })
    const turn = s.turn
    s = apply(s, { type: 'tool_call_cancel', toolCallId: 'c1', cancel: 'requested' })
    expect(tool(s, 'c1')).toMatchObject({ cancel: 'requested', status: 'in_progress' })
    expect(s.turn).toBe(turn)
    s = updates(s, call({ status: 'cancelled', capabilities: null }))
    expect(tool(s, 'c1')).toMatchObject({ cancel: 'requested', status: 'cancelled' })
    expect(canCancelToolCall(tool(s, 'c1'))).toBe(false)
  })

  it('unconfirmed only while requested and not final; refused is kept; unknown ids and values are ignored', () => {
    let s = running()
    s = apply(s, { type: 'tool_call_cancel', toolCallId: 'c1', cancel: 'unconfirmed' })
    expect(tool(s, 'c1').cancel).toBeUndefined()
    s = apply(s, { type: 'tool_call_cancel', toolCallId: 'c1', cancel: 'requested' }, { type: 'tool_call_cancel', toolCallId: 'c1', cancel: 'unconfirmed' })
    expect(tool(s, 'c1').cancel).toBe('unconfirmed')
    // A deadline that fires after the final status changes nothing.
    let done = apply(running(), { type: 'tool_call_cancel', toolCallId: 'c1', cancel: 'requested' })
    done = updates(done, call({ status: 'completed' }))
    done = apply(done, { type: 'tool_call_cancel', toolCallId: 'c1', cancel: 'unconfirmed' })
    expect(tool(done, 'c1').cancel).toBe('requested')
    s = apply(s, { type: 'tool_call_cancel', toolCallId: 'c1', cancel: 'refused' })
    expect(tool(s, 'c1').cancel).toBe('refused')
    const before = s.entries
    s = apply(s, { type: 'tool_call_cancel', toolCallId: 'nope', cancel: 'requested' }, { type: 'tool_call_cancel', toolCallId: 'c1', cancel: 'bogus' as never })
    expect(s.entries).toEqual(before)
    expect(s.entries).toHaveLength(1)
  })
})
