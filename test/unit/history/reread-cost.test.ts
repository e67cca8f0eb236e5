/**
 * Reading again the lines a v2 session stored before subagents were understood (restore.ts) costs in proportion to
 * the session: each line is applied to a state holding only the card it names, never to the whole session before it
 * (that made opening a 12k-entry session with 2,000 such lines take a third of a second on main's thread). Counted,
 * not timed: the entries each reducer call is given.
 */
import { describe, expect, it } from 'vitest'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import type { Entry, SessionAction, SessionState, ToolCallEntry } from '../../../common/session/types'
import { reread } from '../../../main/history/restore'

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
})
