/**
 * Reading again the lines a v2 session stored before subagents were understood (restore.ts) costs in proportion to
 * the session: each line is applied to a state holding only the card it names, never to the whole session before it
 * (that made opening a 12k-entry session with 2,000 such lines take a third of a second on main's thread). Counted,
 * not timed: the entries each reducer call is given.
 */
import { describe, expect, it } from 'vitest'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import type { Entry, SessionAction, SessionState, ToolCallEntry, UnknownEntry } from '../../../common/session/types'
import { reread } from '../../../main/history/restore'
import { seededRandom } from '../../support/seeded-random'

const text = (t: string) => ({ type: 'text', text: t })
const unknown = (position: number, raw: Record<string, unknown>): Entry => ({ kind: 'unknown', id: `unknown#${position}`, sessionUpdate: raw.sessionUpdate as string, raw })

/** 12,000 entries: 500 subagents, each announced, briefed, answered and finished (2,000 lines read again), between messages. */
function bigOldSession(): { template: SessionState; entries: Entry[] } {
  const template = createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 2, cwd: '/w' })
  const entries: Entry[] = []
  const message = () => entries.push({ kind: 'agent_message', id: `agent#${entries.length}`, content: [text('working')] } as Entry)
  for (let k = 0; k < 500; k++) {
    const child = `child-${k}`
    const lines = [
      { sessionUpdate: 'subagent_update', sessionId: child, title: `Task ${k}`, state: { state: 'running' } },
      { sessionUpdate: 'session_message', senderSessionId: 's1', recipientSessionId: child, content: [text(`Brief ${k}`)] },
      { sessionUpdate: 'session_message', senderSessionId: child, recipientSessionId: 's1', content: [text(`Report ${k}`)] },
      { sessionUpdate: 'subagent_update', sessionId: child, state: { state: 'idle', stopReason: 'end_turn' } },
    ]
    for (const line of lines) {
      entries.push(unknown(entries.length, line))
      for (let m = 0; m < 5; m++) message()
    }
  }
  return { template, entries }
}

describe('reading again the lines stored before subagents were understood', () => {
  it('gives each reducer call the card it needs, not the session before it', () => {
    const { template, entries } = bigOldSession()
    expect(entries).toHaveLength(12_000)
    let calls = 0
    let given = 0
    const counting = (state: SessionState, actions: readonly SessionAction[]): SessionState => {
      calls++
      given += state.entries.length
      return applyActions(state, actions)
    }
    const out = reread(template, entries, counting)
    expect(calls).toBe(2_000)
    // At most the one card each (reading each line against all before it gave the reducer about 12 million entries).
    expect(given).toBeLessThanOrEqual(calls)
    // …with the session read as it was: one finished card per subagent, its brief and report as its text.
    expect(out).toHaveLength(10_000 + 500)
    const cards = out.filter((e): e is ToolCallEntry => e.kind === 'tool_call')
    expect(cards).toHaveLength(500)
    expect(cards[7]).toMatchObject({ toolCallId: 'subagent:child-7', title: 'Subagent: Task 7', status: 'completed' })
    expect(JSON.stringify(cards[7]!.content)).toContain('Brief 7')
    expect(JSON.stringify(cards[7]!.content)).toContain('Report 7')
    expect(out.some((e) => e.kind === 'unknown')).toBe(false)
  })

  it('reads as the slow definition does (each line against the whole session before it), on random sessions', () => {
    const template = createSessionState({ sessionId: 'a/s1', acpSessionId: 'me', agentId: 'a', protocolVersion: 2, cwd: '/w' })
    /** The definition: each line is applied on all the entries before it, as read again so far. */
    const definition = (entries: Entry[]): Entry[] => {
      const stored = new Set(entries.flatMap((e) => (e.kind === 'tool_call' && e.toolCallId.startsWith('subagent:') ? [e.toolCallId] : [])))
      let out: Entry[] = []
      for (const entry of entries) {
        const raw = (entry as UnknownEntry).raw as Record<string, unknown> | undefined
        if (entry.kind !== 'unknown' || !raw || (entry.sessionUpdate === 'subagent_update' && stored.has(`subagent:${String(raw.sessionId)}`))) {
          out.push(entry)
          continue
        }
        const next = applyActions({ ...template, entries: out }, [{ type: 'updates', updates: [raw as never] }]).entries
        if (next.length === out.length + 1 && next[out.length]!.kind === 'unknown') out.push(entry)
        else out = next
      }
      return out
    }
    const random = seededRandom(3)
    // Ids the reducer stores changed (a lone surrogate), the same once stored, and empty.
    const ids = ['a', 'b', 'c', '\uD800x', '\uFFFDx', '']
    const card = (id: string): Entry => ({ kind: 'tool_call', id: `tool:subagent:${id}`, toolCallId: `subagent:${id}`, title: 'Stored', toolKind: 'other', status: 'pending', content: [], locations: [], permissionIds: [], elicitationIds: [] })
    for (let round = 0; round < 2_000; round++) {
      const entries: Entry[] = []
      for (let i = 0, n = random(25); i < n; i++) {
        const id = ids[random(ids.length)]!
        const r = random(9)
        if (r < 3) {
          entries.push(unknown(i, { sessionUpdate: 'subagent_update', sessionId: random(8) ? id : 42, title: random(2) ? `T${i}` : null, state: random(2) ? { state: random(2) ? 'idle' : 'running' } : undefined }))
        } else if (r < 6) {
          const mine = random(2) === 0
          const content = random(5) ? Array.from({ length: random(40) }, (_, k) => text(`m${i}.${k}`)) : 'not a list'
          entries.push(unknown(i, { sessionUpdate: 'session_message', senderSessionId: mine ? 'me' : id, recipientSessionId: mine ? id : 'me', content }))
        } else if (r < 7) entries.push(card(id))
        else if (r < 8) entries.push(unknown(i, { sessionUpdate: 'something_new' }))
        else entries.push({ kind: 'agent_message', id: `agent#${i}`, content: [text('hi')] } as Entry)
      }
      expect(reread(template, entries)).toEqual(definition(entries))
    }
  })
})
