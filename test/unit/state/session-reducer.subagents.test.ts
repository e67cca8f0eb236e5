/**
 * v2 subagents on the parent's transcript: one card per announced subagent (a tool card), its mirrored state as the
 * status, the brief and the report between the two as its text; a message about no announced subagent shown generically.
 */
import { describe, expect, it } from 'vitest'
import { runningBackgroundWork } from '../../../common/session/background'
import { FROM_SUBAGENT, MAX_SUBAGENT_BLOCKS } from '../../../common/session/reducer/subagents'
import type { ToolCallEntry } from '../../../common/session/types'
import { session, updates } from './helpers'

const announce = (fields: Record<string, unknown>) => ({ sessionUpdate: 'subagent_update', sessionId: 'child-1', ...fields })
const message = (fields: Record<string, unknown>) => ({ sessionUpdate: 'session_message', messageId: 'm1', ...fields })
const texts = (card: ToolCallEntry) => card.content.map((c) => (c as { content?: { text?: string } }).content?.text ?? c.type)

describe('subagent_update and session_message (v2)', () => {
  it('claude-agent-acp’s sequence: one card, running then done, with the brief and the report', () => {
    const s = updates(
      session(2),
      announce({ title: 'Survey the files', description: 'general-purpose', capabilities: { cancel: {} }, state: { state: 'running', background: [] } }),
      message({ messageId: 'toolu_1', senderSessionId: 's1', recipientSessionId: 'child-1', content: [{ type: 'text', text: 'List the files.' }], recipientMessageId: 'toolu_1' }),
      announce({ state: { state: 'requires_action', background: [] } }),
      announce({ state: { state: 'idle', stopReason: 'end_turn', background: [] } }),
      message({ messageId: 'toolu_1:reply', senderSessionId: 'child-1', recipientSessionId: 's1', content: [{ type: 'text', text: 'Three files.' }] }),
    )
    expect(s.entries).toHaveLength(1)
    const card = s.entries[0] as ToolCallEntry
    expect(card).toMatchObject({ kind: 'tool_call', title: 'Subagent: Survey the files', status: 'completed' })
    expect(texts(card)).toEqual(['Asked of the subagent:', 'List the files.', 'The subagent answered:', 'Three files.'])
  })

  it('running while it works; cancelled when it stopped so; the description when it has no title', () => {
    let s = updates(session(2), announce({ description: 'general-purpose', state: { state: 'running' } }))
    expect(s.entries[0]).toMatchObject({ title: 'Subagent: general-purpose', status: 'in_progress' })
    s = updates(s, announce({ state: { state: 'idle', stopReason: 'cancelled' } }))
    expect(s.entries[0]).toMatchObject({ status: 'cancelled' })
    // `null` state: the report is gone, the status stays as it was.
    s = updates(s, announce({ state: null }))
    expect(s.entries[0]).toMatchObject({ status: 'cancelled' })
  })

  it('a tool call main marks as a subagent’s names that subagent’s card; a mark naming no announced subagent names none', () => {
    const s = updates(
      session(2),
      announce({ title: 'Survey the files' }),
      { sessionUpdate: 'tool_call_update', toolCallId: 'c1', title: 'ls', [FROM_SUBAGENT]: 'child-1' },
      { sessionUpdate: 'tool_call_update', toolCallId: 'c2', title: 'cat', [FROM_SUBAGENT]: 'child-9' },
    )
    const call = (id: string) => s.entries.find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.toolCallId === id)!
    expect(call('c1').subagent).toBe('Subagent: Survey the files')
    expect(call('c2').subagent).toBeUndefined()
    // The mark is not an agent field shown "as it is".
    expect(call('c1').extra).toBeUndefined()
  })

  it('a subagent listed as background work is that subagent, with its card; it runs until its card says it is done', () => {
    const listed = { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn', background: [{ type: 'subagent', sessionId: 'child-1' }, { type: 'subagent', sessionId: 'child-9' }] }
    let s = updates(session(2), announce({ title: 'Background survey', state: { state: 'running' } }), listed)
    const items = runningBackgroundWork(s)
    expect(items).toMatchObject([
      { type: 'subagent', sessionId: 'child-1', toolCall: { title: 'Subagent: Background survey' }, running: true },
      { type: 'subagent', sessionId: 'child-9', running: true },
    ])
    s = updates(s, announce({ state: { state: 'idle', stopReason: 'end_turn' } }))
    expect(runningBackgroundWork(s).map((i) => i.type === 'subagent' && i.sessionId)).toEqual(['child-9'])
  })

  it('a message naming no announced subagent is kept and shown generically', () => {
    const s = updates(session(2), message({ senderSessionId: 'other', recipientSessionId: 's1', content: [{ type: 'text', text: 'hi' }] }))
    expect(s.entries[0]).toMatchObject({ kind: 'unknown', sessionUpdate: 'session_message' })
  })

  it('a card keeps a bounded number of blocks', () => {
    let s = updates(session(2), announce({ title: 'Chatty' }))
    const many = Array.from({ length: 100 }, (_, n) => ({ type: 'text', text: `part ${n}` }))
    s = updates(s, message({ senderSessionId: 'child-1', recipientSessionId: 's1', content: many }), message({ senderSessionId: 'child-1', recipientSessionId: 's1', content: many }))
    expect((s.entries[0] as ToolCallEntry).content).toHaveLength(MAX_SUBAGENT_BLOCKS)
  })
})
