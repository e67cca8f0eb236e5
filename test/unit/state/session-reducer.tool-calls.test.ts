import { describe, expect, it } from 'vitest'
import type { SessionState, ToolCallEntry } from '../../../common/session/types'
import { apply, session, summary, tool, updates } from './helpers'
import { MAX_TOOL_EXTRA_FIELDS } from '../../../common/session/reducer/tool-calls'
import { boundJson } from '../../../common/bounded'

const full = {
  toolCallId: 't',
  title: 'Edit a.rs',
  name: 'Edit',
  kind: 'edit',
  status: 'in_progress',
  content: [{ type: 'content', content: { type: 'text', text: 'x' } }],
  locations: [{ path: '/work/a.rs', line: 3 }],
  rawInput: { file: 'a.rs' },
  rawOutput: { ok: true },
  _meta: { a: 1, b: 2 },
}

function withFull(version: 1 | 2): SessionState {
  return updates(session(version), { sessionUpdate: version === 1 ? 'tool_call' : 'tool_call_update', ...full })
}

/** The field as the UI reads it. */
function field(t: ToolCallEntry, key: string): unknown {
  if (key === 'kind') return t.toolKind
  return (t as unknown as Record<string, unknown>)[key]
}

// [field, value for "set", expected after null in v1 (= unchanged), expected after null in v2 (= cleared)]
const table: [string, unknown, unknown, unknown][] = [
  ['title', 'New title', 'Edit a.rs', null],
  ['name', 'Write', 'Edit', undefined],
  ['kind', 'execute', 'edit', 'other'],
  ['status', 'completed', 'in_progress', 'pending'],
  ['content', [{ type: 'diff', path: '/work/a.rs', oldText: 'a', newText: 'b' }], full.content, []],
  ['locations', [{ path: '/work/b.rs' }], full.locations, []],
  ['rawInput', { other: 1 }, full.rawInput, undefined],
  ['rawOutput', 'done', full.rawOutput, undefined],
]

describe('tool_call_update patch semantics (H6, H21): omit / null / value per field per version', () => {
  for (const version of [1, 2] as const) {
    for (const [key, value, afterNullV1, afterNullV2] of table) {
      it(`v${version} ${key}: omitted keeps, value replaces, null ${version === 1 ? 'keeps' : 'clears'}`, () => {
        const base = withFull(version)
        const original = field(tool(base, 't'), key)

        const omitted = updates(base, { sessionUpdate: 'tool_call_update', toolCallId: 't' })
        expect(field(tool(omitted, 't'), key)).toEqual(original)

        const set = updates(base, { sessionUpdate: 'tool_call_update', toolCallId: 't', [key]: value })
        expect(field(tool(set, 't'), key)).toEqual(value)

        const nulled = updates(base, { sessionUpdate: 'tool_call_update', toolCallId: 't', [key]: null })
        expect(field(tool(nulled, 't'), key)).toEqual(version === 1 ? afterNullV1 : afterNullV2)
      })
    }
  }

  it('v2 _meta patches by top-level key; a null key removes it; _meta:null clears', () => {
    let s = withFull(2)
    s = updates(s, { sessionUpdate: 'tool_call_update', toolCallId: 't', _meta: { a: null, c: { deep: 1 } } })
    expect(tool(s, 't')._meta).toEqual({ b: 2, c: { deep: 1 } })
    s = updates(s, { sessionUpdate: 'tool_call_update', toolCallId: 't', _meta: null })
    expect(tool(s, 't')._meta).toBeUndefined()
  })

  it("_meta is bounded as other _meta is: a key too large alone is not kept (claude-agent-acp's whole tool result in v1), the rest is", () => {
    const file = 'line of the file\n'.repeat(2_000)
    let s = updates(withFull(1), {
      sessionUpdate: 'tool_call_update',
      toolCallId: 't',
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: file } }],
      _meta: { claudeCode: { toolName: 'Read', toolResponse: { type: 'text', file: { content: file } } }, trace: 'abc' },
    })
    expect(tool(s, 't')._meta).toEqual({ a: 1, b: 2, trace: 'abc' })
    // The rest of the update applied.
    expect(tool(s, 't').status).toBe('completed')
    expect(tool(s, 't').content).toEqual([{ type: 'content', content: { type: 'text', text: file } }])
    // Small keys that add up past the bound: the patch is dropped whole, what was kept stays.
    const many = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`k${i}`, 'x'.repeat(3_000)]))
    s = updates(s, { sessionUpdate: 'tool_call_update', toolCallId: 't', _meta: many })
    expect(tool(s, 't')._meta).toEqual({ a: 1, b: 2, trace: 'abc' })
    // A (v2) terminal's _meta is bounded the same way.
    const v2 = updates(session(2), { sessionUpdate: 'terminal_update', terminalId: 'term-1', command: 'ls', _meta: { log: file, id: 7 } })
    expect(v2.terminals['term-1']?._meta).toEqual({ id: 7 })
  })

  it('v1 _meta:null keeps the old value', () => {
    const s = updates(withFull(1), { sessionUpdate: 'tool_call_update', toolCallId: 't', _meta: null })
    expect(tool(s, 't')._meta).toEqual({ a: 1, b: 2 })
  })

  it('v2 capabilities: an object replaces, null removes', () => {
    let s = updates(session(2), { sessionUpdate: 'tool_call_update', toolCallId: 't', capabilities: { cancel: {} } })
    expect(tool(s, 't').capabilities).toEqual({ cancel: {} })
    s = updates(s, { sessionUpdate: 'tool_call_update', toolCallId: 't', capabilities: null })
    expect(tool(s, 't').capabilities).toBeUndefined()
  })
})

describe('tool call creation', () => {
  it('v1: a repeated tool_call for the same id is an upsert, never a second row (H5)', () => {
    const s = updates(
      session(1),
      { sessionUpdate: 'tool_call', toolCallId: 't', title: 'Read', kind: 'read' },
      { sessionUpdate: 'tool_call', toolCallId: 't', title: 'Read a.ts', status: 'in_progress' },
    )
    expect(summary(s.entries)).toEqual(['tool_call:t'])
    expect(tool(s, 't')).toMatchObject({ title: 'Read a.ts', toolKind: 'read', status: 'in_progress' })
  })

  it.each([1, 2] as const)('v%i: an update for an unknown id creates the entry with defaults (placeholder title null)', (version) => {
    const s = updates(session(version), { sessionUpdate: 'tool_call_update', toolCallId: 'new', status: 'in_progress' })
    expect(tool(s, 'new')).toMatchObject({ id: 'tool:new', title: null, toolKind: 'other', status: 'in_progress', content: [], locations: [] })
  })

  it('keeps unknown status and kind as sent (UI maps them to in-progress / other)', () => {
    const s = updates(session(2), { sessionUpdate: 'tool_call_update', toolCallId: 't', status: '_queued', kind: '_browser', title: 'x' })
    expect(tool(s, 't')).toMatchObject({ status: '_queued', toolKind: '_browser', title: 'x' })
  })

  it('keeps unknown and invalid content items as generic blocks, without rejecting the update', () => {
    const s = updates(session(1), {
      sessionUpdate: 'tool_call',
      toolCallId: 't',
      title: 'x',
      content: [{ type: 'content', content: { type: 'text', text: 'ok' } }, { type: 'code', code: 'y' }, { type: 'diff' }, 7],
    })
    expect(tool(s, 't').content).toEqual([
      { type: 'content', content: { type: 'text', text: 'ok' } },
      { type: 'code', code: 'y' },
      { type: 'invalid', original: { type: 'diff' } },
      { type: 'invalid', original: 7 },
    ])
  })

  it('drops locations without a path', () => {
    const s = updates(session(1), { sessionUpdate: 'tool_call', toolCallId: 't', title: 'x', locations: [{ path: '/a' }, { line: 2 }, null] })
    expect(tool(s, 't').locations).toEqual([{ path: '/a' }])
  })

  it('counts the locations main’s list bound cut (its marker is the last item), and forgets the count when a later list is whole', () => {
    const many = Array.from({ length: 10_005 }, (_, i) => ({ path: `/f${i}` }))
    const cut = boundJson({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'x', locations: many })
    const s = updates(session(1), cut)
    expect(tool(s, 't').locations).toHaveLength(10_000)
    expect(tool(s, 't').locationsNotKept).toBe(5)
    const whole = updates(s, { sessionUpdate: 'tool_call_update', toolCallId: 't', locations: [{ path: '/a' }] })
    expect(tool(whole, 't').locationsNotKept).toBeUndefined()
  })

  it('keeps a location whose line is not a 1-based integer, without the line (0, negative, a fraction, a string mean no line)', () => {
    const locations = [{ path: '/a', line: 0 }, { path: '/b', line: -3 }, { path: '/c', line: 'x' }, { path: '/d', line: 1.5 }, { path: '/e', line: 7, _meta: { k: 1 } }, { path: '/f', line: null }]
    for (const version of [1, 2] as const) {
      const s = updates(session(version), { sessionUpdate: version === 1 ? 'tool_call' : 'tool_call_update', toolCallId: 't', title: 'x', locations })
      expect(tool(s, 't').locations).toEqual([{ path: '/a' }, { path: '/b' }, { path: '/c' }, { path: '/d' }, { path: '/e', line: 7, _meta: { k: 1 } }, { path: '/f', line: null }])
    }
  })

  it('ignores a tool_call_update without a toolCallId', () => {
    const s = updates(session(1), { sessionUpdate: 'tool_call_update', status: 'completed' })
    expect(s.entries).toEqual([])
  })
})

describe('tool_call_content_chunk (H22)', () => {
  const item = (t: string) => ({ type: 'content', content: { type: 'text', text: t } })

  it('chunk x, chunk y, update content [z], chunk w → [z, w]', () => {
    const s = updates(
      session(2),
      { sessionUpdate: 'tool_call_content_chunk', toolCallId: 't', content: item('x') },
      { sessionUpdate: 'tool_call_content_chunk', toolCallId: 't', content: item('y') },
      { sessionUpdate: 'tool_call_update', toolCallId: 't', content: [item('z')] },
      { sessionUpdate: 'tool_call_content_chunk', toolCallId: 't', content: item('w') },
    )
    expect(tool(s, 't').content).toEqual([item('z'), item('w')])
  })

  it('same order, one update per batch', () => {
    let s = session(2)
    for (const u of [
      { sessionUpdate: 'tool_call_content_chunk', toolCallId: 't', content: item('x') },
      { sessionUpdate: 'tool_call_content_chunk', toolCallId: 't', content: item('y') },
    ])
      s = updates(s, u)
    expect(tool(s, 't').content).toEqual([item('x'), item('y')])
    s = updates(s, { sessionUpdate: 'tool_call_update', toolCallId: 't', content: null })
    expect(tool(s, 't').content).toEqual([])
  })

  it('a v1 session takes it too (a v2 shape from a newer v1 agent)', () => {
    const s = updates(session(1), { sessionUpdate: 'tool_call_content_chunk', toolCallId: 't', content: item('x') })
    expect(tool(s, 't').content).toEqual([item('x')])
  })
})

describe('tool call ids the history cannot keep as they are', () => {
  it('an id with a lone surrogate is kept as the history keeps it (U+FFFD), so later updates with the raw id still find the tool call', () => {
    let s = updates(session(), { sessionUpdate: 'tool_call', toolCallId: 'sur\ud800', title: 'Run', kind: 'execute', status: 'pending' })
    expect(s.entries.filter((e) => e.kind === 'tool_call').map((e) => (e as ToolCallEntry).toolCallId)).toEqual(['sur\ufffd'])
    s = updates(s, { sessionUpdate: 'tool_call_update', toolCallId: 'sur\ud800', status: 'completed' })
    // One tool call, completed: as it would be after a restore from the history, whose id is the same.
    expect(s.entries.filter((e) => e.kind === 'tool_call')).toHaveLength(1)
    expect(tool(s, 'sur\ufffd').status).toBe('completed')
    // An ordinary id is left exactly as it is.
    expect(tool(updates(s, { sessionUpdate: 'tool_call', toolCallId: 'call-1', title: 'x' }), 'call-1').toolCallId).toBe('call-1')
  })
})

describe('fields of a tool call Bosun does not know', () => {
  it('are kept by key (patched, v2 null removes one), bounded in number, and never clobber the known ones', () => {
    let s = updates(session(2), { sessionUpdate: 'tool_call_update', toolCallId: 't', title: 'x', parentToolCallId: 'p1', _futureField: { a: 1 } })
    expect(tool(s, 't')).toMatchObject({ title: 'x', extra: { parentToolCallId: 'p1', _futureField: { a: 1 } } })
    s = updates(s, { sessionUpdate: 'tool_call_update', toolCallId: 't', parentToolCallId: null, _futureField: { b: 2 } })
    expect(tool(s, 't').extra).toEqual({ _futureField: { b: 2 } })
    s = updates(s, { sessionUpdate: 'tool_call_update', toolCallId: 't', _futureField: null })
    expect(tool(s, 't')).not.toHaveProperty('extra')
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`f${i}`, i]))
    s = updates(s, { sessionUpdate: 'tool_call_update', toolCallId: 't', ...many, __proto__: 'own' } as never)
    expect(Object.keys(tool(s, 't').extra!)).toHaveLength(MAX_TOOL_EXTRA_FIELDS)
    expect(tool(s, 't').toolCallId).toBe('t')
  })

  it('v1 keeps them too (null there means "unchanged")', () => {
    let s = updates(session(1), { sessionUpdate: 'tool_call', toolCallId: 't', title: 'x', parentToolCallId: 'p1' })
    s = updates(s, { sessionUpdate: 'tool_call_update', toolCallId: 't', parentToolCallId: null })
    expect(tool(s, 't').extra).toEqual({ parentToolCallId: 'p1' })
  })
})

describe('a tool call without permissions, forms, content or locations', () => {
  it('shares one empty list with the others (a session keeps every tool call), and adding to one copies it for that call alone', () => {
    let s = updates(session(1), { sessionUpdate: 'tool_call', toolCallId: 'a', title: 'A' }, { sessionUpdate: 'tool_call', toolCallId: 'b', title: 'B' })
    const [a, b] = s.entries as ToolCallEntry[]
    expect(a!.permissionIds).toBe(b!.permissionIds)
    expect(a!.locations).toBe(b!.elicitationIds)
    expect(Object.isFrozen(a!.content)).toBe(true)
    const request = { requestId: 'p1', agentId: 'x', agentName: 'X', sessionId: s.sessionId, toolCallId: 'a', title: 'Run?', subject: { type: 'none' }, options: [], createdAt: 1, status: 'pending' }
    s = apply(s, { type: 'permission_requested', request } as never)
    const [a2, b2] = s.entries as ToolCallEntry[]
    expect(a2!.permissionIds).toEqual(['p1'])
    expect(b2!.permissionIds).toEqual([])
    expect(b!.permissionIds).toEqual([])
    s = updates(s, { sessionUpdate: 'tool_call_update', toolCallId: 'b', locations: [{ path: '/w/b.ts' }], content: [{ type: 'content', content: { type: 'text', text: 'x' } }] })
    const [a3, b3] = s.entries as ToolCallEntry[]
    expect(b3!.locations).toEqual([{ path: '/w/b.ts' }])
    expect(a3!.locations).toEqual([])
    expect(a3!.content).toEqual([])
  })
})
