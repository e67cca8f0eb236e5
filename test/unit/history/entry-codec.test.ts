import { describe, expect, it } from 'vitest'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import type { Entry, MessageEntry } from '../../../common/session/types'
import { bounded, encodeEntry, encodeSessionState, grownPlainBody, MAX_DEPTH, MAX_STRING, plainBody, sessionStateFields, withinBounds } from '../../../main/history/entry-codec'
import { seededRandom } from '../../support/seeded-random'
import { applyGrowth } from '../../../main/history/entry-growth'
import { restoreSessionState } from '../../../main/history/restore'
import { cleanText } from '../../../common/session/title'
import { buildFloodUpdates } from '../../agents/flood-updates'

const slow = (entry: Entry) => JSON.stringify(bounded(entry))
const message = (text: string, more: Record<string, unknown> = {}, block: Record<string, unknown> = {}): Entry =>
  ({ kind: 'agent_message', id: 'm1', messageId: 'm1', content: [{ type: 'text', text, ...block }], ...more }) as Entry

const tool = (more: Record<string, unknown> = {}): Entry =>
  ({ kind: 'tool_call', id: 'tool:c1', toolCallId: 'c1', title: 'Edit', toolKind: 'edit', status: 'completed', content: [], locations: [], permissionIds: [], elicitationIds: [], ...more }) as Entry

/** `depth` objects nested in one another, innermost `{ leaf: 1 }`. */
const nested = (depth: number): unknown => (depth === 0 ? { leaf: 1 } : { next: nested(depth - 1) })

describe('withinBounds', () => {
  it('is true only where bounded() copies the value as it is (the same JSON), so the history thread can skip the copy', () => {
    const random = seededRandom(3)
    const strings = ['', 'a', 'plain text', '😀', 'lone \uD83D', 'NUL \u0000', 'x'.repeat(MAX_STRING), 'x'.repeat(MAX_STRING + 1), '__proto__', 'toJSON']
    const leaf = (): unknown => [strings[random(strings.length)], 0, -0, 1.5, NaN, Infinity, true, null, undefined][random(9)]
    const value = (depth: number): unknown => {
      const roll = random(10)
      if (depth > 3 || roll < 4) return leaf()
      if (roll < 7) return Array.from({ length: random(4) }, () => value(depth + 1))
      const record: Record<string, unknown> = {}
      for (let i = random(4); i > 0; i--) Object.defineProperty(record, strings[random(strings.length)]!.slice(0, 2000) || 'k', { value: value(depth + 1), enumerable: true, writable: true, configurable: true })
      return record
    }
    let fast = 0
    for (let i = 0; i < 3000; i++) {
      const v = value(0)
      if (!withinBounds(v)) continue
      fast++
      expect(JSON.stringify(v)).toBe(JSON.stringify(bounded(v)))
    }
    expect(fast).toBeGreaterThan(500)
  })

  it('leaves to bounded() what it would cut or clean: long, dirty or too many strings and keys, deep or wide containers, a too large whole, class instances', () => {
    const cases: [unknown, boolean][] = [
      [tool({ title: 'x'.repeat(MAX_STRING) }), true],
      [tool({ title: 'x'.repeat(MAX_STRING + 1) }), false],
      [tool({ title: 'a \u0000' }), false],
      [tool({ title: 'a \uDC00' }), false],
      [tool({ rawInput: { ['k\u0000']: 1 } }), false],
      [tool({ rawInput: { ['k'.repeat(1025)]: 1 } }), false],
      [tool({ rawInput: Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, i])) }), false],
      [tool({ rawInput: Array.from({ length: 5001 }, () => 1) }), false],
      [tool({ rawInput: nested(MAX_DEPTH - 3) }), true],
      [tool({ rawInput: nested(MAX_DEPTH) }), false],
      [tool({ content: Array.from({ length: 8 }, () => ({ type: 'diff', path: '/p', oldText: 'x'.repeat(MAX_STRING / 2), newText: '' })) }), false],
      [tool({ rawInput: new Date(0) }), false],
      [tool({ rawInput: new Map() }), false],
      [tool({ rawInput: Object.create(null) as object }), true],
    ]
    for (const [entry, expected] of cases) {
      expect(withinBounds(entry)).toBe(expected)
      expect(encodeEntry(entry as Entry).body).toBe(slow(entry as Entry))
    }
  })

  it('takes the flood\'s tool calls, which the history thread then writes without a copy', () => {
    let state = createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' })
    state = applyActions(state, [{ type: 'updates', updates: buildFloodUpdates(400) as never }])
    const calls = state.entries.filter((e) => e.kind === 'tool_call')
    expect(calls.length).toBeGreaterThan(10)
    for (const call of calls) expect(withinBounds(call)).toBe(true)
  })
})

describe('encodeEntry', () => {
  it('writes every entry exactly as bounded() makes it, plain messages by their shortcut included', () => {
    let state = createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' })
    state = applyActions(state, [{ type: 'local_prompt', content: [{ type: 'text', text: 'hello' }] }, { type: 'updates', updates: buildFloodUpdates(400) as never }])
    const entries: Entry[] = [
      ...state.entries,
      message('with an emoji 😀'),
      message('a lone \uD83D surrogate'),
      message('a NUL \u0000 here'),
      message('x'.repeat(MAX_STRING + 10)),
      message('y'.repeat(MAX_STRING / 2)),
      message('annotated', {}, { annotations: { priority: 1 } }),
      message('meta', { _meta: { a: 1 } }),
      message('not sent', { notSent: null, local: true, excluded: false }),
      message('undefined field', { messageId: undefined }),
      message('dirty id', { messageId: 'id \u0000 \uDC00' }),
      { kind: 'agent_thought', id: 't', content: Array.from({ length: 6000 }, () => ({ type: 'text', text: 'a' })) } as Entry,
      { kind: 'user_message', id: 'u', content: [{ type: 'image', data: 'aGk=', mimeType: 'image/png' }] } as Entry,
      Object.assign(Object.create({ inherited: 'x' }) as object, { kind: 'agent_message', id: 'p', content: [] }) as Entry,
    ]
    for (const entry of entries) expect(encodeEntry(entry).body).toBe(slow(entry))
    // The cleaning still happens where it must.
    expect(JSON.parse(encodeEntry(message('a NUL \u0000 here')).body).content[0].text).toBe('a NUL \uFFFD here')
    expect(encodeEntry(message('x'.repeat(MAX_STRING + 10))).body).toContain('[truncated 10 characters]')
  })
})

describe('keys named like members of Object.prototype', () => {
  it('are stored as the agent sent them: a "__proto__" key is data, not lost on the way to the history', () => {
    const raw = JSON.parse('{"sessionUpdate":"_acme","__proto__":{"kept":1},"constructor":"c","nested":{"__proto__":[2]}}') as Record<string, unknown>
    const entry = { kind: 'unknown', id: 'unknown#0', sessionUpdate: '_acme', raw } as Entry
    expect(JSON.parse(encodeEntry(entry).body)).toEqual(JSON.parse(JSON.stringify(entry)))
    expect(encodeEntry(entry).body).toContain('"__proto__":{"kept":1}')
    expect(encodeEntry(entry).body).toContain('"nested":{"__proto__":[2]}')
  })
})

describe('notices are transient (checklist H17)', () => {
  const withNotice = () =>
    applyActions(createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' }), [
      { type: 'updates', updates: [{ sessionUpdate: 'session_info_update', title: 'Kept' }, { sessionUpdate: 'notice', severity: 'warning', title: 'Rate limited' }] as never },
    ])

  it('are not written with the session', () => {
    const state = withNotice()
    expect(state.notices).toHaveLength(1)
    const fields = sessionStateFields(state)
    expect(fields).not.toHaveProperty('notices')
    expect(fields).toMatchObject({ title: 'Kept' })
  })

  it('are not restored from a row written before they were left out', () => {
    const state = withNotice()
    const row = { sessionId: 'a/s1', agentId: 'a', acpSessionId: 's1', cwd: '/w', title: 'Kept', createdAt: 1, updatedAt: 2, protocolVersion: 1 as const, capabilities: null, turnState: 'idle', customTitle: null, archived: false }
    const { state: restored } = restoreSessionState({ row: { ...row, state: JSON.stringify({ ...sessionStateFields(state), notices: state.notices }) }, entries: [] })
    expect(restored.title).toBe('Kept')
    expect(restored.notices).toEqual([])
  })
})

describe('a terminal with a long output', () => {
  it('is stored with the end of its output (how the command ended), marked as cut, not its start', () => {
    let lines = ''
    for (let n = 1; lines.length <= 2 * MAX_STRING; n++) lines += `row ${n} of a very long output\n`
    const state = applyActions(createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' }), [
      {
        type: 'updates',
        updates: [
          { sessionUpdate: 'tool_call', toolCallId: 'c', title: 'seq', kind: 'execute', status: 'completed', _meta: { terminal_info: { terminal_id: 'c' } } },
          { sessionUpdate: 'tool_call_update', toolCallId: 'c', _meta: { terminal_output: { terminal_id: 'c', data: lines }, terminal_exit: { terminal_id: 'c', exit_code: 0 } } },
          { sessionUpdate: 'tool_call', toolCallId: 'd', title: 'ls', kind: 'execute', status: 'completed', _meta: { terminal_info: { terminal_id: 'd' }, terminal_output: { terminal_id: 'd', data: 'a\nb\n' } } },
        ] as never,
      },
    ])
    const stored = JSON.parse(encodeSessionState(state)) as { terminals: Record<string, { output: string; truncated?: boolean; exitStatus?: unknown }> }
    const kept = stored.terminals.c!
    expect(kept.output.length).toBeLessThanOrEqual(MAX_STRING)
    expect(kept.output.endsWith('of a very long output\n')).toBe(true)
    expect(lines.endsWith(kept.output)).toBe(true)
    expect(kept.output).toMatch(/^row \d+ of/)
    expect(kept).toMatchObject({ truncated: true, exitStatus: { exitCode: 0, signal: null } })
    expect(stored.terminals.d).toMatchObject({ output: 'a\nb\n' })
    expect(stored.terminals.d).not.toHaveProperty('truncated')
    // The session itself keeps all of it.
    expect(state.terminals.c!.output).toBe(lines)
  })
})

describe('auto-approve', () => {
  it('is off in a restored session, whatever the row holds: the broker asks there until the person turns it on again', () => {
    const state = { ...applyActions(createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' }), [{ type: 'updates', updates: [{ sessionUpdate: 'session_info_update', title: 'Kept' }] as never }]), autoApprove: true }
    const row = { sessionId: 'a/s1', agentId: 'a', acpSessionId: 's1', cwd: '/w', title: 'Kept', createdAt: 1, updatedAt: 2, protocolVersion: 1 as const, capabilities: null, turnState: 'idle', customTitle: null, archived: false }
    const { state: restored } = restoreSessionState({ row: { ...row, state: JSON.stringify(sessionStateFields(state)) }, entries: [] })
    expect(JSON.parse(JSON.stringify(sessionStateFields(state)))).toMatchObject({ autoApprove: true })
    expect(restored.autoApprove).toBe(false)
    expect(restored.title).toBe('Kept')
  })
})

describe('cleaning only what needs it', () => {
  it('bounded() cleans every string as cleanText() does, whether or not it was cut', () => {
    const pair = '\uD83D\uDE00'
    const strings = [
      'plain text',
      `an emoji ${pair}`,
      'a lone high \uD83D surrogate',
      'a lone low \uDE00 surrogate',
      'a NUL \u0000 here',
      `${'p'.repeat(MAX_STRING - 1)}${pair}`, // the cut splits the pair: its high half is left alone
      `${'q'.repeat(MAX_STRING + 5)}\u0000`, // cut before the NUL
      `\u0000${'r'.repeat(MAX_STRING + 5)}`, // a NUL in what is kept
    ]
    for (const text of strings) {
      const cut = text.length > MAX_STRING ? `${text.slice(0, MAX_STRING)}… [truncated ${text.length - MAX_STRING} characters]` : text
      expect(bounded(text)).toBe(cleanText(cut))
      expect(bounded({ [text.slice(0, 40)]: 1 })).toEqual({ [cleanText(text.slice(0, 40))]: 1 })
    }
  })

  it('writes a message too long for the shortcut as bounded() makes it, cleaned wherever its dirt is', () => {
    const half = MAX_STRING / 2
    for (const text of [`${'a'.repeat(half)}\u0000`, `\u0000${'b'.repeat(half)}`, `${'c'.repeat(half + 3)}\uDC00`, `${'d'.repeat(MAX_STRING)}\uD800`]) {
      const entry = message(text)
      expect(encodeEntry(entry).body).toBe(slow(entry))
      expect(encodeEntry(entry).body).not.toMatch(/\\u0000|\\ud[89a-f][0-9a-f]{2}/i)
    }
    // Split over blocks: the sum is what counts.
    const blocks = { kind: 'agent_message', id: 'm2', content: [{ type: 'text', text: 'e'.repeat(half) }, { type: 'image', data: 'aGk=' }, { type: 'text', text: '\u0000' }] } as Entry
    expect(encodeEntry(blocks).body).toBe(slow(blocks))
  })
})

describe('a growing message’s body', () => {
  const grow = (entry: Entry, text: string): Entry => applyGrowth(entry, { text, blocks: [] })

  it('is extended by the new text alone, to exactly the body encodeEntry writes for the grown message', () => {
    const texts = ['plain ', 'a "quote" and a \\ backslash ', 'tab\tnew\nline\r', 'é 中文 \u2028 \u2029 ', '\u0001\u001f control ', '</script> ', '']
    const shapes: Entry[] = [
      message('start '),
      message('start ', { messageId: undefined }),
      message('start ', { local: true, excluded: false, notSent: undefined }),
      { kind: 'agent_thought', id: 't', content: [{ text: 'text first ', type: 'text' }] } as Entry,
      { kind: 'user_message', id: 'u', content: [{ type: 'text', text: 'one ' }, { type: 'text', text: 'two ' }], messageId: 'u1', local: true } as Entry,
      { content: [{ type: 'text', text: 'content first ' }], kind: 'agent_message', id: 'c', messageId: 'a "b" \\ c' } as Entry,
    ]
    for (const shape of shapes) {
      let entry = shape
      let body = plainBody(entry)!
      expect(body.body).toBe(encodeEntry(entry).body)
      for (let i = 0; i < 40; i++) {
        const text = texts[i % texts.length]! + i
        entry = grow(entry, text)
        body = grownPlainBody(body, text, (entry as MessageEntry).content.length)!
        expect(body.body).toBe(encodeEntry(entry).body)
        expect(body).toEqual(plainBody(entry))
      }
    }
  })

  it('is not made from the one before once the message leaves the shortcut (too long, a surrogate, a NUL): encodeEntry writes it whole', () => {
    const start = plainBody(message('x'.repeat(1000)))!
    expect(grownPlainBody(start, 'y'.repeat(MAX_STRING / 2), 1)).toBeNull()
    expect(grownPlainBody(start, 'an emoji 😀', 1)).toBeNull()
    expect(grownPlainBody(start, 'half \uD83D', 1)).toBeNull()
    expect(grownPlainBody(start, 'a NUL \u0000', 1)).toBeNull()
    expect(grownPlainBody(start, 'fine', 1)!.body).toBe(encodeEntry(message(`${'x'.repeat(1000)}fine`)).body)
    // Not plain to begin with: no body to grow.
    expect(plainBody(message('annotated', {}, { annotations: { priority: 1 } }))).toBeNull()
    expect(plainBody({ kind: 'agent_message', id: 'i', content: [{ type: 'text', text: 'a' }, { type: 'image', data: 'aGk=' }] } as Entry)).toBeNull()
    expect(plainBody({ kind: 'tool_call', id: 'tool:c', toolCallId: 'c' } as Entry)).toBeNull()
  })
})
