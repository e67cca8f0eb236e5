import { describe, expect, it } from 'vitest'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import type { Entry, SessionAction } from '../../../common/session/types'
import { applyGrowth, growthOf, PostedEntries } from '../../../main/history/entry-growth'

function session(protocolVersion: 1 | 2 = 1) {
  let state = createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion, cwd: '/w' })
  return {
    apply: (...actions: SessionAction[]) => (state = applyActions(state, actions)),
    entry: (i: number) => state.entries[i]!,
  }
}
const chunk = (text: string, more: Record<string, unknown> = {}) => ({ type: 'updates' as const, updates: [{ sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text }, ...more }] })

describe('a streamed message’s growth', () => {
  it('is the text appended to its last block and the blocks after it, and rebuilds the entry exactly', () => {
    const s = session()
    s.apply(chunk('Hello'))
    const before = s.entry(0)
    s.apply(chunk(', wor'), chunk('ld'))
    const grown = growthOf(before, s.entry(0))
    expect(grown).toEqual({ text: ', world', blocks: [] })
    expect(applyGrowth(before, grown!)).toEqual(s.entry(0))

    const middle = s.entry(0)
    const image = { type: 'image', data: 'aGk=', mimeType: 'image/png' }
    s.apply({ type: 'updates', updates: [{ sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: image }] }, chunk('after'))
    expect(growthOf(middle, s.entry(0))).toEqual({ text: '', blocks: [image, { type: 'text', text: 'after' }] })
    expect(applyGrowth(middle, growthOf(middle, s.entry(0))!)).toEqual(s.entry(0))
  })

  it('keeps a surrogate pair split across two chunks whole', () => {
    const s = session()
    s.apply(chunk('a\uD83D'))
    const before = s.entry(0)
    s.apply(chunk('\uDE00b'))
    const grown = growthOf(before, s.entry(0))!
    expect(grown.text).toBe('\uDE00b')
    expect((applyGrowth(before, grown) as { content: { text: string }[] }).content[0]!.text).toBe('a😀b')
  })

  it('is null when the message changed otherwise: content replaced, a field changed, another kind', () => {
    const s = session(2)
    s.apply({ type: 'updates', updates: [{ sessionUpdate: 'agent_message', messageId: 'm1', content: [{ type: 'text', text: 'first draft' }] }] })
    const before = s.entry(0)
    s.apply({ type: 'updates', updates: [{ sessionUpdate: 'agent_message', messageId: 'm1', content: [{ type: 'text', text: 'first draft, revised' }] }] })
    // A v2 upsert replaces the content: the old block is not the new one's prefix by identity, but its text is.
    expect(growthOf(before, s.entry(0))).toEqual({ text: ', revised', blocks: [] })
    const revised = s.entry(0)
    s.apply({ type: 'updates', updates: [{ sessionUpdate: 'agent_message', messageId: 'm1', content: [{ type: 'text', text: 'rewritten' }] }] })
    expect(growthOf(revised, s.entry(0))).toBeNull()
    const rewritten = s.entry(0)
    s.apply({ type: 'updates', updates: [{ sessionUpdate: 'agent_message', messageId: 'm1', _meta: { pinned: true } }] })
    expect(growthOf(rewritten, s.entry(0))).toBeNull()

    const annotated: Entry = { kind: 'agent_message', id: 'x', content: [{ type: 'text', text: 'a', annotations: { priority: 1 } }] }
    expect(growthOf(annotated, { ...annotated, content: [{ type: 'text', text: 'ab' }] })).toBeNull()
    const tool: Entry = { kind: 'tool_call', id: 't', toolCallId: 't', title: 'Run', status: 'pending', content: [] } as unknown as Entry
    expect(growthOf(tool, { ...tool, title: 'Run tests' } as Entry)).toBeNull()
    expect(growthOf(annotated, { ...annotated, kind: 'agent_thought' })).toBeNull()
    expect(() => applyGrowth(tool, { text: 'x', blocks: [] })).toThrow(/cannot grow/)
  })

  it('is taken only against what a session’s last write held', () => {
    const posted = new PostedEntries()
    const entry: Entry = { kind: 'agent_message', id: 'x', content: [{ type: 'text', text: 'a' }] }
    posted.set('a/s1', new Map([[3, entry]]))
    expect(posted.get('a/s1', 3)).toBe(entry)
    posted.set('a/s1', new Map())
    expect(posted.get('a/s1', 3)).toBeUndefined()
    expect(posted.size).toBe(0)
  })

  it('keeps only messages as bases: nothing else can grow, and a tool call’s diff is not held for nothing', () => {
    const posted = new PostedEntries()
    const message: Entry = { kind: 'agent_thought', id: 'x', content: [{ type: 'text', text: 'a' }] }
    const tool = { kind: 'tool_call', id: 't', toolCallId: 't', title: 'Edit', status: 'completed', content: [{ type: 'diff', path: '/a', newText: 'x'.repeat(1000) }] } as unknown as Entry
    posted.set('a/s1', new Map([[0, tool], [1, message]]))
    expect(posted.get('a/s1', 0)).toBeUndefined()
    expect(posted.get('a/s1', 1)).toBe(message)
    posted.set('a/s2', new Map([[0, tool]]))
    expect(posted.size).toBe(1)
  })
})
