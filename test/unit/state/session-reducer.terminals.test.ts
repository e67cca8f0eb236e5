/**
 * v2 agent-owned terminals (H25, E16) and background work (F10): the `terminal_update` shapes, unknown fields,
 * the cancel capability appearing and disappearing, and what the session shows as still running.
 */
import { describe, expect, it } from 'vitest'
import { backgroundWork, canCancelTerminal, runningBackgroundWork } from '../../../common/session/background'
import { MAX_TERMINAL_EXTRA_KEYS, MAX_TERMINAL_OUTPUT_CHARS, withTerminalOutputTail } from '../../../common/session/reducer/tool-calls'
import { agentTerminalCall, apply, session, updates } from './helpers'

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64')
const term = (fields: Record<string, unknown>) => ({ sessionUpdate: 'terminal_update', terminalId: 't1', ...fields })

describe('terminal_update (H25)', () => {
  it('a full snapshot: command, cwd, output, size, exit status', () => {
    const s = updates(
      session(2),
      term({ command: 'npm test', cwd: '/work', output: { data: b64('ok\n') }, size: { cols: 100, rows: 30 } }),
      term({ exitStatus: { exitCode: 0 } }),
    )
    expect(s.terminals.t1).toEqual({
      terminalId: 't1',
      command: 'npm test',
      cwd: '/work',
      output: 'ok\n',
      size: { cols: 100, rows: 30 },
      exitStatus: { exitCode: 0 },
    })
  })

  it('the first update may carry only the id; the tool call may embed the terminal before or after it', () => {
    let s = updates(session(2), { sessionUpdate: 'tool_call_update', toolCallId: 'c1', content: [{ type: 'terminal', terminalId: 't1' }] })
    expect(s.terminals.t1).toBeUndefined()
    s = updates(s, term({}))
    expect(s.terminals.t1).toEqual({ terminalId: 't1', output: '' })
    // Terminal exit is independent of the tool call's status.
    s = updates(s, term({ exitStatus: { exitCode: 1 } }))
    expect(s.entries[0]).toMatchObject({ status: 'pending' })
  })

  it('exitStatus: int64 negative codes and signals; malformed fields fall back to null; unknown keys kept', () => {
    let s = updates(session(2), term({ exitStatus: { exitCode: -1073741510, signal: null } }))
    expect(s.terminals.t1!.exitStatus).toEqual({ exitCode: -1073741510, signal: null })
    expect(s.terminals.t1!.exitStatus).toBeTruthy()
    s = updates(s, term({ exitStatus: { exitCode: '3', signal: { name: 'TERM' }, _meta: { x: 1 }, coreDumped: true } }))
    expect(s.terminals.t1!.exitStatus).toEqual({ _meta: { x: 1 }, coreDumped: true })
    // An exit status with nothing known still means exited.
    s = updates(s, term({ exitStatus: {} }))
    expect(s.terminals.t1!.exitStatus).toEqual({})
    s = updates(s, term({ exitStatus: 'done' }))
    expect(s.terminals.t1!.exitStatus).toEqual({})
    s = updates(s, term({ exitStatus: null }))
    expect(s.terminals.t1!.exitStatus).toBeNull()
  })

  it('a malformed output or size leaves that field as it was and applies the rest', () => {
    let s = updates(session(2), term({ output: { data: b64('kept') }, size: { cols: 80, rows: 24 } }))
    s = updates(s, term({ output: { data: '%%%' }, size: { cols: 0, rows: 24 }, command: 'ls' }))
    expect(s.terminals.t1).toMatchObject({ output: 'kept', size: { cols: 80, rows: 24 }, command: 'ls' })
    s = updates(s, term({ output: 'raw text', size: null }))
    expect(s.terminals.t1).toMatchObject({ output: 'kept', size: null })
    s = updates(s, term({ output: null }))
    expect(s.terminals.t1!.output).toBe('')
  })

  it('unknown fields are kept and patched by key; _meta patches by key; null removes', () => {
    let s = updates(session(2), term({ _future: { a: 1 }, zz_state: 'warming', _meta: { trace: 'x', keep: 1 } }))
    expect(s.terminals.t1).toMatchObject({ extra: { _future: { a: 1 }, zz_state: 'warming' }, _meta: { trace: 'x', keep: 1 } })
    s = updates(s, term({ zz_state: 'hot', _meta: { trace: null } }))
    expect(s.terminals.t1).toMatchObject({ extra: { _future: { a: 1 }, zz_state: 'hot' }, _meta: { keep: 1 } })
    s = updates(s, term({ zz_state: null, _future: null, _meta: null }))
    expect(s.terminals.t1!.extra).toBeUndefined()
    expect(s.terminals.t1!._meta).toBeUndefined()
  })

  it('unknown fields are bounded per terminal; known-to-be-kept keys still update', () => {
    const many = Object.fromEntries(Array.from({ length: MAX_TERMINAL_EXTRA_KEYS + 10 }, (_, i) => [`_k${i}`, i]))
    let s = updates(session(2), term(many))
    expect(Object.keys(s.terminals.t1!.extra!)).toHaveLength(MAX_TERMINAL_EXTRA_KEYS)
    s = updates(s, term({ _k0: 'changed', _new: 1 }))
    expect(s.terminals.t1!.extra!._k0).toBe('changed')
    expect(s.terminals.t1!.extra!._new).toBeUndefined()
    // A `__proto__` field is data like any other.
    s = updates(session(2), term(JSON.parse('{"__proto__": {"polluted": 1}}') as Record<string, unknown>))
    expect(Object.getPrototypeOf(s.terminals.t1!.extra)).toBe(Object.prototype)
    expect(Object.keys(s.terminals.t1!.extra!)).toEqual(['__proto__'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    s = updates(s, term({ _meta: JSON.parse('{"__proto__": {"polluted": 1}}') as Record<string, unknown> }))
    expect(Object.getPrototypeOf(s.terminals.t1!._meta)).toBe(Object.prototype)
    expect(Object.keys(s.terminals.t1!._meta!)).toEqual(['__proto__'])
  })

  it('output past the bound keeps its end and says it was cut; a new snapshot starts over', () => {
    const line = 'y\n'.repeat(512 * 1024)
    let s = session(2)
    for (let i = 0; i < 3; i++) s = updates(s, { sessionUpdate: 'terminal_output_chunk', terminalId: 't1', data: b64(line) })
    const t = s.terminals.t1!
    expect(t.output.length).toBeLessThanOrEqual(MAX_TERMINAL_OUTPUT_CHARS)
    expect(t.output.length).toBeGreaterThan(MAX_TERMINAL_OUTPUT_CHARS - 4096)
    expect(t.output.startsWith('y\n')).toBe(true)
    expect(t.truncated).toBe(true)
    s = updates(s, term({ output: { data: b64('fresh') } }))
    expect(s.terminals.t1).toMatchObject({ output: 'fresh' })
    expect(s.terminals.t1!.truncated).toBeUndefined()
  })
})

describe('the cancel capability (E16)', () => {
  it('appears with capabilities.cancel and disappears when cleared, replaced, malformed or exited', () => {
    let s = updates(session(2), term({ command: 'sleep 100' }))
    expect(canCancelTerminal(s.terminals.t1)).toBe(false)
    s = updates(s, term({ capabilities: { cancel: {} } }))
    expect(canCancelTerminal(s.terminals.t1)).toBe(true)
    // Omitted: unchanged.
    s = updates(s, term({ output: { data: b64('tick') } }))
    expect(canCancelTerminal(s.terminals.t1)).toBe(true)
    // An object replaces the whole previous value.
    s = updates(s, term({ capabilities: { _meta: { x: 1 } } }))
    expect(canCancelTerminal(s.terminals.t1)).toBe(false)
    s = updates(s, term({ capabilities: { cancel: { _meta: { why: 'yes' } } } }))
    expect(canCancelTerminal(s.terminals.t1)).toBe(true)
    s = updates(s, term({ capabilities: null }))
    expect(canCancelTerminal(s.terminals.t1)).toBe(false)
    expect(s.terminals.t1!.capabilities).toBeUndefined()
    // `cancel` must be an object: true, "yes" or null do not advertise it; a malformed capabilities value means none.
    for (const cancel of [true, 'yes', null, 1]) {
      s = updates(s, term({ capabilities: { cancel: {} } }), term({ capabilities: { cancel } }))
      expect(canCancelTerminal(s.terminals.t1)).toBe(false)
    }
    s = updates(s, term({ capabilities: { cancel: {} } }), term({ capabilities: 'cancel' }))
    expect(canCancelTerminal(s.terminals.t1)).toBe(false)
    // Still advertised but exited: nothing left to cancel.
    s = updates(s, term({ capabilities: { cancel: {} } }), term({ exitStatus: { signal: 'SIGTERM' } }))
    expect(canCancelTerminal(s.terminals.t1)).toBe(false)
    expect(canCancelTerminal(undefined)).toBe(false)
  })

  it('terminal_cancel_requested marks a known terminal until its exit status arrives; unknown ids are ignored', () => {
    let s = updates(session(2), term({ capabilities: { cancel: {} } }))
    s = apply(s, { type: 'terminal_cancel_requested', terminalId: 't1' }, { type: 'terminal_cancel_requested', terminalId: 'nope' })
    expect(s.terminals.t1!.cancelRequested).toBe(true)
    expect(s.terminals.nope).toBeUndefined()
    expect(s.terminals.t1!.exitStatus).toBeUndefined()
    s = updates(s, term({ exitStatus: { signal: 'SIGTERM' }, capabilities: null }))
    expect(s.terminals.t1).toMatchObject({ exitStatus: { signal: 'SIGTERM' }, cancelRequested: true })
  })

  it('the agent going away withdraws every capability and the background list', () => {
    let s = updates(session(2), term({ capabilities: { cancel: {} } }), { sessionUpdate: 'state_update', state: 'idle', background: [{ type: 'terminal', terminalId: 't1' }] })
    s = apply(s, { type: 'agent_gone' })
    expect(canCancelTerminal(s.terminals.t1)).toBe(false)
    expect(s.turn.background).toBeNull()
  })

  it('the agent going away: a terminal without an exit status is neither running nor stopping; one that exited stays as it was', () => {
    let s = updates(session(2), term({ capabilities: { cancel: {} } }), { sessionUpdate: 'terminal_update', terminalId: 't2', exitStatus: { exitCode: 0 } })
    s = apply(s, { type: 'terminal_cancel_requested', terminalId: 't1' })
    s = apply(s, { type: 'agent_gone' })
    expect(s.terminals.t1).toMatchObject({ agentGone: true })
    expect(s.terminals.t1!.cancelRequested).toBeUndefined()
    expect(s.terminals.t2!.agentGone).toBeUndefined()
    // The agent (back, the session reattached) reports on it again: it is the agent's again.
    s = updates(s, term({ output: { data: b64('again\n') } }))
    expect(s.terminals.t1!.agentGone).toBeUndefined()
  })

  it('terminal_cancel_unconfirmed ends stopping only while stopping and not exited; unknown ids are ignored', () => {
    let s = updates(session(2), term({ capabilities: { cancel: {} } }))
    s = apply(s, { type: 'terminal_cancel_unconfirmed', terminalId: 't1' }, { type: 'terminal_cancel_unconfirmed', terminalId: 'nope' })
    expect(s.terminals.t1!.cancelUnconfirmed).toBeUndefined()
    expect(s.terminals.nope).toBeUndefined()
    s = apply(s, { type: 'terminal_cancel_requested', terminalId: 't1' }, { type: 'terminal_cancel_unconfirmed', terminalId: 't1' })
    expect(s.terminals.t1).toMatchObject({ cancelUnconfirmed: true })
    expect(s.terminals.t1!.cancelRequested).toBeUndefined()
  })
})

describe('background work (F10)', () => {
  it('omitted, null or malformed = not reported; [] = none', () => {
    let s = updates(session(2), { sessionUpdate: 'state_update', state: 'running' })
    expect(s.turn.background).toBeNull()
    s = updates(s, { sessionUpdate: 'state_update', state: 'idle', background: [] })
    expect(s.turn.background).toEqual([])
    expect(backgroundWork(s)).toEqual([])
    for (const background of [null, 'x', { type: 'terminal' }, [1], [{ terminalId: 't1' }], [{ type: 'terminal', terminalId: 't1' }, null]]) {
      s = updates(s, { sessionUpdate: 'state_update', state: 'idle', background })
      expect(s.turn.background).toBeNull()
      expect(backgroundWork(s)).toBeNull()
    }
  })

  it('idle with a running terminal, a tool call and unknown work: each shown, with what the session knows of it', () => {
    const s = updates(
      session(2),
      { sessionUpdate: 'tool_call_update', toolCallId: 'watch', title: 'Watch files', status: 'in_progress' },
      term({ command: 'npm run dev', capabilities: { cancel: {} } }),
      {
        sessionUpdate: 'state_update',
        state: 'idle',
        stopReason: 'end_turn',
        background: [
          { type: 'terminal', terminalId: 't1' },
          { type: 'tool_call', toolCallId: 'watch' },
          { type: '_acme_cron', every: '5m' },
          { type: 'terminal' },
        ],
      },
    )
    expect(s.turn.state).toBe('idle')
    const items = runningBackgroundWork(s)
    expect(items.map((i) => i.type)).toEqual(['terminal', 'tool_call', 'other', 'terminal'])
    expect(items[0]).toMatchObject({ terminalId: 't1', terminal: { command: 'npm run dev' } })
    expect(items[1]).toMatchObject({ toolCallId: 'watch', toolCall: { title: 'Watch files' } })
    expect(items[2]).toMatchObject({ kind: '_acme_cron', raw: { type: '_acme_cron', every: '5m' } })
    expect(items[3]).toMatchObject({ terminalId: null })
  })

  it('a listed terminal that reported its exit status, or a tool call that finished, no longer runs', () => {
    let s = updates(
      session(2),
      term({ capabilities: { cancel: {} } }),
      { sessionUpdate: 'tool_call_update', toolCallId: 'watch', status: 'paused' },
      { sessionUpdate: 'state_update', state: 'idle', background: [{ type: 'terminal', terminalId: 't1' }, { type: 'tool_call', toolCallId: 'watch' }] },
    )
    expect(runningBackgroundWork(s)).toHaveLength(2)
    s = updates(s, term({ exitStatus: { signal: 'SIGTERM' } }), { sessionUpdate: 'tool_call_update', toolCallId: 'watch', status: 'completed' })
    expect(backgroundWork(s)).toHaveLength(2)
    expect(runningBackgroundWork(s)).toEqual([])
    s = updates(s, { sessionUpdate: 'state_update', state: 'idle', background: [] })
    expect(backgroundWork(s)).toEqual([])
  })

  it('updates keep flowing while idle, and a repeated idle snapshot counts no new completion (F9)', () => {
    let s = updates(session(2), { sessionUpdate: 'state_update', state: 'running' }, { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn', background: [{ type: 'terminal', terminalId: 't1' }] })
    s = updates(s, { sessionUpdate: 'terminal_output_chunk', terminalId: 't1', data: b64('still going') }, { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn', background: [{ type: 'terminal', terminalId: 't1' }] })
    expect(s.turn.completedTurns).toBe(1)
    expect(s.terminals.t1!.output).toBe('still going')
    expect(runningBackgroundWork(s)).toHaveLength(1)
  })

  it('v1 sessions are unaffected: terminal_update is an unknown kind there', () => {
    const s = updates(session(1), term({ capabilities: { cancel: {} } }))
    expect(s.terminals).toEqual({})
    expect(s.entries[0]).toMatchObject({ kind: 'unknown', sessionUpdate: 'terminal_update' })
  })
})

describe('a v1 agent\'s own terminals (the `_meta` terminal extension, as codex-acp sends it)', () => {
  const call = (fields: Record<string, unknown>) => ({ sessionUpdate: 'tool_call_update', toolCallId: 'call_1', ...fields })
  const started = agentTerminalCall

  it('terminal_info announces it, terminal_output_delta / terminal_output append plain text, terminal_exit ends it', () => {
    let s = updates(session(1), started)
    expect(s.terminals.call_1).toEqual({ terminalId: 'call_1', agentRun: true, command: 'ls -la', cwd: '/w', output: '' })
    s = updates(s, call({ _meta: { terminal_output_delta: { terminal_id: 'call_1', data: 'a.txt\n' } } }))
    s = updates(s, call({ _meta: { terminal_output: { terminal_id: 'call_1', data: 'b.txt\n' } } }))
    // codex-acp sends the last output and the exit in one update with the status.
    s = updates(s, call({ status: 'completed', _meta: { terminal_output_delta: { terminal_id: 'call_1', data: 'done\n' }, terminal_exit: { terminal_id: 'call_1', exit_code: 2, signal: null } } }))
    expect(s.terminals.call_1).toMatchObject({ output: 'a.txt\nb.txt\ndone\n', exitStatus: { exitCode: 2, signal: null } })
    expect(s.entries[0]).toMatchObject({ status: 'completed' })
  })

  it('a terminal announced before its command takes the command the raw input brings later (claude-agent-acp)', () => {
    const announced = { ...started, rawInput: {}, title: 'Terminal', _meta: { terminal_info: { terminal_id: 'call_1' } } }
    let s = updates(session(1), announced)
    expect(s.terminals.call_1!.command).toBeUndefined()
    s = updates(s, call({ rawInput: { command: 'ls --color=always' } }), call({ rawInput: { command: 'rm -rf /' } }))
    expect(s.terminals.call_1!.command).toBe('ls --color=always')
  })

  it('never touches a terminal Bosun runs (terminal/create), and ignores malformed parts', () => {
    let s = apply(session(1), { type: 'client_terminal', update: { sessionUpdate: 'terminal_update', terminalId: 'term-1', command: 'npm test' } })
    s = updates(s, call({ _meta: { terminal_info: { terminal_id: 'term-1' }, terminal_output: { terminal_id: 'term-1', data: 'forged' }, terminal_exit: { terminal_id: 'term-1', exit_code: 0 } } }))
    expect(s.terminals['term-1']).toEqual({ terminalId: 'term-1', command: 'npm test', output: '' })
    s = updates(s, call({ _meta: { terminal_output: { terminal_id: 7, data: 'x' } } }), call({ _meta: { terminal_info: 'call_1' } }))
    expect(Object.keys(s.terminals)).toEqual(['term-1'])
    s = updates(s, started, call({ _meta: { terminal_output: { terminal_id: 'call_1', data: 42 }, terminal_exit: { terminal_id: 'call_1', exit_code: 'x', signal: 9 } } }))
    expect(s.terminals.call_1).toMatchObject({ output: '', exitStatus: { exitCode: null, signal: null } })
  })

  it('output past the bound keeps its end', () => {
    const big = 'x'.repeat(MAX_TERMINAL_OUTPUT_CHARS)
    const s = updates(session(1), started, call({ _meta: { terminal_output: { terminal_id: 'call_1', data: big } } }), call({ _meta: { terminal_output: { terminal_id: 'call_1', data: 'tail' } } }))
    expect(s.terminals.call_1!.output.length).toBeLessThanOrEqual(MAX_TERMINAL_OUTPUT_CHARS)
    expect(s.terminals.call_1!.output.endsWith('tail')).toBe(true)
    expect(s.terminals.call_1!.truncated).toBe(true)
  })

  it('v2 sessions take terminals from terminal_update only: the extension is kept as the tool call\'s _meta', () => {
    const s = updates(session(2), { ...started, sessionUpdate: 'tool_call_update' })
    expect(s.terminals).toEqual({})
  })
})

describe('terminal ids are data', () => {
  it('`__proto__` and `constructor` are terminals like any other', () => {
    const s = updates(session(2), { sessionUpdate: 'terminal_update', terminalId: '__proto__', command: 'a' }, { sessionUpdate: 'terminal_output_chunk', terminalId: 'constructor', data: b64('x') })
    expect(Object.getPrototypeOf(s.terminals)).toBe(Object.prototype)
    expect(Object.keys(s.terminals).sort()).toEqual(['__proto__', 'constructor'])
    expect(s.terminals.constructor).toEqual({ terminalId: 'constructor', output: 'x' })
    expect(JSON.parse(JSON.stringify(s.terminals))).toMatchObject({ constructor: { output: 'x' } })
  })
})

describe('withTerminalOutputTail (what main keeps of one report of a command\'s output)', () => {
  it('keeps the end of a long output, from a line start, after a marker; leaves anything else as it is', () => {
    const data = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n')
    const update = { sessionUpdate: 'tool_call_update', toolCallId: 'c', _meta: { terminal_output_delta: { terminal_id: 'c', data }, other: 1 } }
    const cut = withTerminalOutputTail(update, 120)
    const kept = cut._meta.terminal_output_delta.data
    expect(kept.length).toBeLessThanOrEqual(120)
    expect(kept).toMatch(/^…\[truncated by Bosun\] \(\d+ earlier characters\)\nline \d+\n/)
    expect(kept.endsWith('line 98\nline 99')).toBe(true)
    expect(cut._meta.other).toBe(1)
    expect(update._meta.terminal_output_delta.data).toBe(data)
    // Short output, other updates and what is not an update at all come back as they were.
    expect(withTerminalOutputTail(update, data.length)).toBe(update)
    for (const odd of [null, 'x', [1], { sessionUpdate: 'agent_message_chunk', _meta: { terminal_output: { data } } }, { sessionUpdate: 'tool_call_update', _meta: { terminal_output: { data: 7 } } }]) {
      expect(withTerminalOutputTail(odd, 10)).toBe(odd)
    }
    // No line start near the cut: never half of a surrogate pair.
    const emoji = withTerminalOutputTail({ sessionUpdate: 'tool_call_update', _meta: { terminal_output: { data: '😀'.repeat(10_000) } } }, 101)
    expect(emoji._meta.terminal_output.data).not.toMatch(/\n[\uDC00-\uDFFF]/)
  })
})
