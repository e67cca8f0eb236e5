/**
 * H18, I1: a compaction keeps its `_meta` (it was dropped): omitted leaves it, an object patches it by top-level key (a
 * `null` key removes that key), `null` clears it, in v1 and v2 alike (as its `summary` and `error`).
 */
import { describe, expect, it } from 'vitest'
import type { CompactionEntry } from '../../../common/session/types'
import { session, updates } from '../state/helpers'

const compaction = (s: ReturnType<typeof session>) => s.entries.find((e): e is CompactionEntry => e.kind === 'compaction')!

describe.each([1, 2] as const)('compaction _meta (v%s)', (version) => {
  it('is kept, patched by key, left alone when omitted, cleared by null', () => {
    let s = updates(session(version), { sessionUpdate: 'compaction_update', compactionId: 'c', status: 'in_progress', _meta: { traceparent: 't1', model: 'm' } })
    expect(compaction(s)._meta).toEqual({ traceparent: 't1', model: 'm' })
    s = updates(s, { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c', content: { type: 'text', text: 'sum' } })
    s = updates(s, { sessionUpdate: 'compaction_update', compactionId: 'c', status: 'completed' })
    expect(compaction(s)._meta).toEqual({ traceparent: 't1', model: 'm' })
    s = updates(s, { sessionUpdate: 'compaction_update', compactionId: 'c', status: 'completed', _meta: { model: null, tokens: 12 } })
    expect(compaction(s)._meta).toEqual({ traceparent: 't1', tokens: 12 })
    s = updates(s, { sessionUpdate: 'compaction_update', compactionId: 'c', status: 'completed', _meta: null })
    expect(compaction(s)).toEqual({ kind: 'compaction', id: 'compaction:c', compactionId: 'c', status: 'completed', summary: [{ type: 'text', text: 'sum' }] })
  })

  it('a `_meta` too large to keep is dropped, the rest of the update applies', () => {
    const s = updates(session(version), { sessionUpdate: 'compaction_update', compactionId: 'c', status: 'failed', error: 'boom', _meta: { blob: 'x'.repeat(1_000_000) } })
    expect(compaction(s)).toMatchObject({ status: 'failed', error: 'boom' })
    expect(compaction(s)._meta).toBeUndefined()
  })
})
