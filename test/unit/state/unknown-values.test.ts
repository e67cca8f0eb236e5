/**
 * Checklist I4: an unknown value starting with `_` (custom) and one without (reserved for a future ACP) get the
 * same fallback in every open union Bosun reads: neither is taken for a known value, and neither is dropped.
 */
import { describe, expect, it } from 'vitest'
import { runningBackgroundWork } from '../../../common/session/background'
import { statusBadgeOf, toolKindOf } from '../../../renderer/components/transcript/tool-kind'
import { session, updates } from './helpers'

describe.each(['_x', 'zz_future'])('the unknown value %s (I4)', (value) => {
  it('state_update: busy (unknown), never idle', () => {
    expect(updates(session(2), { sessionUpdate: 'state_update', state: value }).turn.state).toBe('unknown')
  })

  it('notice severity: info', () => {
    expect(updates(session(2), { sessionUpdate: 'notice', severity: value, title: 'n' }).notices.map((n) => n.severity)).toEqual(['info'])
  })

  it('tool call status and kind: kept as sent, shown in progress and as other', () => {
    const s = updates(session(2), { sessionUpdate: 'tool_call_update', toolCallId: 't', title: 'x', status: value, kind: value })
    const call = s.entries.find((e) => e.kind === 'tool_call')
    expect(call).toMatchObject({ status: value, toolKind: value })
    expect(statusBadgeOf(value)).toBe('in_progress')
    expect(toolKindOf(value)).toBe('other')
  })

  it('background work item: still running, its payload kept', () => {
    const s = updates(session(2), { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn', background: [{ type: value, n: 1 }] })
    expect(runningBackgroundWork(s)).toEqual([expect.objectContaining({ type: 'other', kind: value, raw: { type: value, n: 1 } })])
  })

  it('plan type: replaces that plan, kept generically', () => {
    const entries = [{ content: 'a', priority: 'high', status: 'pending' }]
    let s = updates(session(2), { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p', entries } })
    s = updates(s, { sessionUpdate: 'plan_update', plan: { type: value, planId: 'p', steps: 3 } })
    expect(s.plans).toHaveLength(1)
    expect(s.plans[0]).toEqual({ planId: 'p', type: value, entries: [], raw: { type: value, planId: 'p', steps: 3 } })
  })
})
