import { describe, expect, it } from 'vitest'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import type { SessionAction, SessionState } from '../../../common/session/types'
import { APPLIED_AT_ONCE_BELOW, ENTRIES_PER_PENDING_ACTION, LazyState } from '../../../main/sessions/lazy-state'

const toolCalls = (from: number, count: number): SessionAction => ({
  type: 'updates',
  updates: Array.from({ length: count }, (_, i) => ({ sessionUpdate: 'tool_call', toolCallId: `t${from + i}`, title: `Tool ${from + i}` })) as never,
})

function withEntries(count: number): SessionState {
  return applyActions(createSessionState({ sessionId: 's', agentId: 'a', protocolVersion: 1, cwd: '/p' }), [toolCalls(0, count)])
}

describe('LazyState (main’s copy of a session)', () => {
  it('applies each batch at once while the session is short', () => {
    const lazy = new LazyState(withEntries(10))
    expect(lazy.add([toolCalls(10, 5)])).toBe(2)
    expect(lazy.waiting).toBe(0)
    expect(lazy.last.entries).toHaveLength(15)
  })

  it('lets a long session’s batches wait, and every read of the state sees them applied, as batch by batch', () => {
    const start = withEntries(APPLIED_AT_ONCE_BELOW * 2)
    const lazy = new LazyState(start)
    let expected = start
    const seqs: number[] = []
    for (let i = 0; i < 20; i++) {
      const batch: SessionAction[] = [toolCalls(100_000 + i * 3, 3), { type: 'updates', updates: [{ sessionUpdate: 'notice', severity: 'info', title: `n${i}` }] as never }]
      seqs.push(lazy.add(batch))
      expected = applyActions(expected, batch)
    }
    expect(seqs).toEqual(Array.from({ length: 20 }, (_, i) => start.seq + 1 + i))
    expect(lazy.waiting).toBe(20)
    expect(lazy.last).toBe(start)
    expect(lazy.state).toEqual(expected)
    expect(lazy.waiting).toBe(0)
    expect(lazy.state).toBe(lazy.last)
  })

  it('applies a long session’s batches once they carry an update per few entries: the copies stay a few per update', () => {
    const entries = 40_000
    const lazy = new LazyState(withEntries(entries))
    let applications = 0
    const batches = 1_000
    for (let i = 0; i < batches; i++) {
      lazy.add([toolCalls(100_000 + i * 10, 10)])
      if (lazy.waiting === 0) applications++
    }
    // Each application copies the entries array once: about entries / ENTRIES_PER_PENDING_ACTION updates apart.
    const updates = batches * 10
    expect(applications).toBeLessThanOrEqual(Math.ceil((updates * ENTRIES_PER_PENDING_ACTION) / entries) + 1)
    expect(applications).toBeGreaterThan(0)
    expect(lazy.state.entries).toHaveLength(entries + updates)
  })

  it('a state set replaces it, batches waiting with it', () => {
    const lazy = new LazyState(withEntries(APPLIED_AT_ONCE_BELOW * 2))
    lazy.add([toolCalls(100_000, 1)])
    const other = withEntries(3)
    lazy.state = other
    expect(lazy.waiting).toBe(0)
    expect(lazy.state).toBe(other)
  })
})
