import { describe, expect, it } from 'vitest'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import type { SessionAction, SessionState } from '../../../common/session/types'
import { canCancelToolCall, toolCallOf } from '../../../common/session/background'
import { createLogger } from '../../../main/base/log'
import type { Scheduler } from '../../../main/sessions/action-batcher'
import { NullHistoryStore, type SessionWrite, type StoredSession } from '../../../main/history/history-store'
import { HistoryRecorder, MAX_CLOSED_UNSAVED } from '../../../main/history/recorder'
import { INTERRUPTED_MESSAGE, restoreSessionState, settled } from '../../../main/history/restore'
import { encodeEntry, encodeSessionState } from '../../../main/history/entry-codec'

function manualScheduler() {
  const timers = new Map<number, { fn: () => void; ms: number }>()
  let next = 1
  const scheduler: Scheduler = {
    setTimeout: (fn, ms) => {
      timers.set(next, { fn, ms })
      return next++
    },
    clearTimeout: (id) => void timers.delete(id as number),
  }
  return {
    scheduler,
    delays: () => [...timers.values()].map((t) => t.ms),
    runAll: () => {
      const due = [...timers.values()]
      timers.clear()
      for (const t of due) t.fn()
    },
  }
}

class RecordingStore extends NullHistoryStore {
  readonly writes: SessionWrite[][] = []
  failing = false
  override write(writes: SessionWrite[]): void {
    if (this.failing) throw new Error('SQLITE_FULL: database or disk is full')
    this.writes.push(structuredClone(writes))
  }
}

const logger = createLogger('test', () => {})
const chunk = (text: string) => ({ sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text } })

function setup() {
  const clock = manualScheduler()
  const store = new RecordingStore()
  const problems: (string | null)[] = []
  let listChanges = 0
  const recorder = new HistoryRecorder(store, {
    logger,
    scheduler: clock.scheduler,
    onProblem: (p) => problems.push(p),
    onListChanged: () => listChanges++,
    now: () => 42,
  })
  let state = createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' })
  recorder.track(state, { capabilities: { loadSession: true } })
  const apply = (...actions: SessionAction[]) => {
    state = applyActions(state, actions)
    recorder.changed(state)
  }
  return { clock, store, recorder, problems, apply, listChanges: () => listChanges, state: () => state }
}

describe('HistoryRecorder', () => {
  it('writes a streamed message once per tick, merged, in one transaction, and only what changed', () => {
    const { clock, store, apply, listChanges } = setup()
    apply({ type: 'local_prompt', content: [{ type: 'text', text: 'hello there' }] }, { type: 'turn_started' })
    for (let i = 0; i < 100; i++) apply({ type: 'updates', updates: [chunk(`part ${i} `)] })
    expect(store.writes).toHaveLength(0)
    clock.runAll()
    expect(store.writes).toHaveLength(1)
    const [write] = store.writes[0]!
    expect(write!.session).toMatchObject({ sessionId: 'a/s1', title: 'hello there', turnState: 'running', capabilities: '{"loadSession":true}' })
    expect(write!.entries.map((e) => e.kind)).toEqual(['user_message', 'agent_message'])
    expect(JSON.parse(write!.entries[1]!.body).content[0].text).toContain('part 99')
    expect(listChanges()).toBe(1)

    apply({ type: 'updates', updates: [chunk('more')] }, { type: 'turn_ended', stopReason: 'end_turn' })
    clock.runAll()
    expect(store.writes).toHaveLength(2)
    // Only the message changed; the prompt is not written again.
    expect(store.writes[1]![0]!.entries.map((e) => e.position)).toEqual([1])
    expect(store.writes[1]![0]!.session.turnState).toBe('idle')
    expect(listChanges()).toBe(2)
  })

  it('writes the newest state a session’s `current` reads, when it was handed one that lags behind (batches not applied yet)', () => {
    const { clock, store, recorder, apply, state } = setup()
    apply({ type: 'local_prompt', content: [{ type: 'text', text: 'hello there' }] }, { type: 'turn_started' })
    const applied = state()
    const newest = applyActions(applied, [{ type: 'updates', updates: [chunk('later')] }, { type: 'turn_ended', stopReason: 'end_turn' }])
    let reads = 0
    recorder.changed(applied, () => (reads++, newest))
    expect(reads).toBe(0)
    clock.runAll()
    expect(reads).toBe(1)
    const [write] = store.writes.at(-1)!
    expect(write!.entries.map((e) => e.kind)).toEqual(['user_message', 'agent_message'])
    expect(write!.session.turnState).toBe('idle')
  })

  it('moves a session’s time for what the history lists it by (its transcript, title, turn state), not for other changes', () => {
    const clock = manualScheduler()
    const store = new RecordingStore()
    let now = 1_000
    const recorder = new HistoryRecorder(store, { logger, scheduler: clock.scheduler, now: () => now })
    let state = createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' })
    const apply = (...actions: SessionAction[]) => recorder.changed((state = applyActions(state, actions)))
    recorder.track(state)
    apply({ type: 'local_prompt', content: [{ type: 'text', text: 'hello' }] }, { type: 'turn_started' }, { type: 'updates', updates: [chunk('hi')] }, { type: 'turn_ended', stopReason: 'end_turn' })
    clock.runAll()
    // Later, only the agent's usage changes and the agent goes away (Bosun quitting): written, at the same time.
    now = 9_000
    apply({ type: 'updates', updates: [{ sessionUpdate: 'usage_update', used: 10, size: 100 }] }, { type: 'agent_gone' })
    clock.runAll()
    now = 20_000
    apply({ type: 'updates', updates: [chunk(' again')] })
    clock.runAll()
    expect(store.writes.map((w) => w[0]!.session.updatedAt)).toEqual([1_000, 1_000, 20_000])
    recorder.dispose()
  })

  it('reports a failing write once, retries later, and writes everything once it works again', () => {
    const { clock, store, apply, problems, recorder } = setup()
    store.failing = true
    apply({ type: 'local_prompt', content: [{ type: 'text', text: 'one' }] })
    clock.runAll()
    apply({ type: 'updates', updates: [chunk('two')] })
    clock.runAll()
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(/could not save the history.*disk is full/)
    expect(clock.delays()).toEqual([5_000])
    store.failing = false
    clock.runAll()
    expect(problems).toEqual([expect.any(String), null])
    expect(store.writes).toHaveLength(1)
    expect(store.writes[0]![0]!.entries.map((e) => e.kind)).toEqual(['user_message', 'agent_message'])
    recorder.dispose()
  })

  it('keeps a session closed while writes fail, and writes it once they work again', () => {
    const { clock, store, apply, problems, recorder } = setup()
    store.failing = true
    apply({ type: 'local_prompt', content: [{ type: 'text', text: 'closed while the disk is full' }] })
    apply({ type: 'updates', updates: [chunk('the answer')] })
    recorder.forget('a/s1')
    expect(store.writes).toHaveLength(0)
    expect(problems).toHaveLength(1)
    // No longer open, but its id is still held (a new session must not take it).
    expect(recorder.isTracked('a/s1')).toBe(false)
    expect(recorder.holds('a/s1')).toBe(true)
    clock.runAll()
    expect(store.writes).toHaveLength(0)
    store.failing = false
    clock.runAll()
    expect(problems).toEqual([expect.any(String), null])
    expect(store.writes).toHaveLength(1)
    expect(store.writes[0]![0]!.session.title).toBe('closed while the disk is full')
    expect(store.writes[0]![0]!.entries.map((e) => e.kind)).toEqual(['user_message', 'agent_message'])
    // Saved: nothing more is held of it, and nothing more is written.
    expect(recorder.holds('a/s1')).toBe(false)
    clock.runAll()
    expect(store.writes).toHaveLength(1)
    recorder.dispose()
  })

  it('gives a closed, unsaved session back whole when it is opened again, and writes it whole from then on', () => {
    const { clock, store, apply, recorder } = setup()
    store.failing = true
    apply({ type: 'local_prompt', content: [{ type: 'text', text: 'reopen me' }] }, { type: 'updates', updates: [chunk('kept')] })
    recorder.forget('a/s1')
    const stored = recorder.takeClosed('a/s1')!
    expect(stored.row).toMatchObject({ sessionId: 'a/s1', title: 'reopen me', capabilities: '{"loadSession":true}' })
    expect(stored.entries.map((e) => e.kind)).toEqual(['user_message', 'agent_message'])
    expect(JSON.parse(stored.entries[1]!.body).content[0].text).toBe('kept')
    expect(recorder.holds('a/s1')).toBe(false)
    expect(recorder.takeClosed('a/s1')).toBeUndefined()
    // Tracked again as a new one: everything is written once the store works.
    const { state } = restoreSessionState(stored)
    recorder.track(state, { capabilities: { loadSession: true } })
    store.failing = false
    clock.runAll()
    expect(store.writes.at(-1)![0]!.entries.map((e) => e.position)).toEqual([0, 1])
    recorder.dispose()
  })

  it('holds at most MAX_CLOSED_UNSAVED closed sessions that wait for their write', () => {
    const clock = manualScheduler()
    const store = new RecordingStore()
    store.failing = true
    const recorder = new HistoryRecorder(store, { logger, scheduler: clock.scheduler, now: () => 42 })
    for (let i = 0; i <= MAX_CLOSED_UNSAVED; i++) {
      const state = createSessionState({ sessionId: `a/s${i}`, acpSessionId: `s${i}`, agentId: 'a', protocolVersion: 1, cwd: '/w' })
      recorder.track(state)
      recorder.changed(applyActions(state, [{ type: 'local_prompt', content: [{ type: 'text', text: `n${i}` }] }]))
      recorder.forget(`a/s${i}`)
    }
    expect(recorder.holds('a/s0')).toBe(false)
    expect(recorder.holds('a/s1')).toBe(true)
    expect(recorder.holds(`a/s${MAX_CLOSED_UNSAVED}`)).toBe(true)
    store.failing = false
    clock.runAll()
    expect(store.writes.flat().map((w) => w.session.sessionId)).toHaveLength(MAX_CLOSED_UNSAVED)
    recorder.dispose()
  })

  it('writes what is pending when a session is closed, then holds nothing of it', () => {
    const { store, apply, recorder } = setup()
    apply({ type: 'local_prompt', content: [{ type: 'text', text: 'bye' }] })
    recorder.forget('a/s1')
    expect(store.writes).toHaveLength(1)
    expect(recorder.isTracked('a/s1')).toBe(false)
  })
})

/** A store whose writes finish later (like the one on the history thread): each is a promise settled by the test. */
class AsyncStore extends NullHistoryStore {
  readonly writes: { writes: SessionWrite[]; resolve: () => void; reject: (error: Error) => void }[] = []
  override write(writes: SessionWrite[]): Promise<void> {
    return new Promise<void>((resolve, reject) => this.writes.push({ writes: structuredClone(writes), resolve, reject }))
  }
}

describe('HistoryRecorder with writes that finish later', () => {
  it('sends only what changed since the last write, and after a late failure writes everything since the last confirmed one', async () => {
    const clock = manualScheduler()
    const store = new AsyncStore()
    const problems: (string | null)[] = []
    const recorder = new HistoryRecorder(store, { logger, scheduler: clock.scheduler, onProblem: (p) => problems.push(p), now: () => 42 })
    let state = createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' })
    recorder.track(state, { capabilities: { loadSession: true } })
    const apply = (...actions: SessionAction[]) => {
      state = applyActions(state, actions)
      recorder.changed(state)
    }
    const settle = () => new Promise<void>((resolve) => setImmediate(resolve))

    apply({ type: 'local_prompt', content: [{ type: 'text', text: 'one' }] })
    clock.runAll()
    store.writes[0]!.resolve()
    await settle()
    apply({ type: 'updates', updates: [chunk('two')] })
    clock.runAll()
    apply({ type: 'local_prompt', content: [{ type: 'text', text: 'three' }] })
    clock.runAll()
    // Posted before the outcome of the second is known: only the new entry.
    expect(store.writes.map((w) => w.writes[0]!.entries.map((e) => e.position))).toEqual([[0], [1], [2]])
    expect(store.writes[1]!.writes[0]!.session.capabilities).toBeNull()

    store.writes[1]!.reject(new Error('SQLITE_FULL: database or disk is full'))
    store.writes[2]!.resolve()
    await settle()
    expect(problems).toEqual([expect.stringMatching(/could not save the history.*disk is full/)])
    expect(clock.delays()).toEqual([5_000])
    clock.runAll()
    // Everything after the last confirmed write (the prompt at 0), again.
    expect(store.writes[3]!.writes[0]!.entries.map((e) => e.position)).toEqual([1, 2])
    store.writes[3]!.resolve()
    await settle()
    expect(problems).toEqual([expect.any(String), null])
    recorder.dispose()
  })

  it('holds a closed session until the store confirms its last write, and writes it again when that write fails', async () => {
    const clock = manualScheduler()
    const store = new AsyncStore()
    const recorder = new HistoryRecorder(store, { logger, scheduler: clock.scheduler, now: () => 42 })
    const state = createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' })
    recorder.track(state)
    recorder.changed(applyActions(state, [{ type: 'local_prompt', content: [{ type: 'text', text: 'one' }] }]))
    const settle = () => new Promise<void>((resolve) => setImmediate(resolve))
    recorder.forget('a/s1')
    expect(store.writes).toHaveLength(1)
    expect(recorder.holds('a/s1')).toBe(true)
    store.writes[0]!.reject(new Error('SQLITE_FULL: database or disk is full'))
    await settle()
    clock.runAll()
    expect(store.writes).toHaveLength(2)
    expect(store.writes[1]!.writes[0]!.entries.map((e) => e.position)).toEqual([0])
    store.writes[1]!.resolve()
    await settle()
    expect(recorder.holds('a/s1')).toBe(false)
    recorder.dispose()
  })
})

describe('restoring a stored session', () => {
  function stored(state: SessionState, turnState: string): StoredSession {
    return {
      row: {
        sessionId: state.sessionId,
        agentId: state.agentId,
        acpSessionId: state.acpSessionId,
        cwd: state.cwd,
        title: null,
        customTitle: null,
        createdAt: 1,
        updatedAt: 2,
        protocolVersion: state.protocolVersion,
        capabilities: null,
        turnState,
        state: encodeSessionState(state),
        archived: false,
      },
      entries: state.entries.map((entry, position) => ({ position, entryId: entry.id, kind: entry.kind, body: encodeEntry(entry).body })),
    }
  }

  it.each([1, 2] as const)('shows a turn that was running when Bosun stopped as interrupted (v%i)', (version) => {
    let state = createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: version, cwd: '/w' })
    state = applyActions(state, [
      { type: 'local_prompt', content: [{ type: 'text', text: 'go' }] },
      { type: 'turn_started' },
      ...(version === 2 ? [{ type: 'updates' as const, updates: [{ sessionUpdate: 'state_update', state: 'running' }] }] : []),
      { type: 'updates', updates: [{ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Run tests', status: 'in_progress' }] },
      {
        type: 'permission_requested',
        request: {
          requestId: 'r1',
          agentId: 'a',
          agentName: 'A',
          sessionId: 'a/s1',
          title: 'Run?',
          subject: { type: 'tool_call', toolCallId: 't1' },
          toolCallId: 't1',
          options: [{ optionId: 'ok', name: 'OK', kind: 'allow_once' }],
          createdAt: 1,
          status: 'pending',
        },
      },
    ])
    expect(state.turn.state).not.toBe('idle')
    const { state: restored, settle } = restoreSessionState(stored(state, state.turn.state))
    expect(restored.entries).toEqual(JSON.parse(JSON.stringify(state.entries)))
    const after = settled(restored, settle)
    expect(after.turn.state).toBe('idle')
    expect(after.turn.error?.message).toBe(INTERRUPTED_MESSAGE)
    expect(after.entries.find((e) => e.kind === 'tool_call')).toMatchObject({ status: 'cancelled' })
    expect(after.permissions.r1?.status).toBe('gone')
  })

  it('keeps the mark of a turn that ended with an error through the history, and marks a turn Bosun interrupted', () => {
    let state = createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' })
    state = applyActions(state, [
      { type: 'local_prompt', content: [{ type: 'text', text: 'go' }] },
      { type: 'turn_started' },
      { type: 'updates', updates: [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Half' } }] },
      { type: 'turn_ended', stopReason: null, error: { message: 'Rate limited', code: 429 } },
      { type: 'local_prompt', content: [{ type: 'text', text: 'again' }] },
      { type: 'turn_started' },
    ])
    const { state: restored, settle } = restoreSessionState(stored(state, 'running'))
    const after = settled(restored, settle)
    expect(after.entries.filter((e) => e.kind === 'turn_error')).toEqual([
      { kind: 'turn_error', id: 'turn-error#2', message: 'Rate limited', code: 429 },
      { kind: 'turn_error', id: 'turn-error#4', message: INTERRUPTED_MESSAGE, byBosun: true },
    ])
  })

  it('keeps the mark of a turn that stopped early through the history', () => {
    let state = createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' })
    state = applyActions(state, [
      { type: 'local_prompt', content: [{ type: 'text', text: 'go' }] },
      { type: 'turn_started' },
      { type: 'cancel_requested' },
      // The agent never answered the Stop: Bosun stopped it, which ended the turn (no code: Bosun's words).
      { type: 'turn_ended', stopReason: null, error: { message: 'Claude was stopped.' } },
    ])
    const { state: restored, settle } = restoreSessionState(stored(state, 'idle'))
    expect(settled(restored, settle).entries.filter((e) => e.kind === 'turn_stop')).toEqual([
      { kind: 'turn_stop', id: 'turn-stop#1', reason: 'cancelled', detail: 'Claude was stopped.', unanswered: true },
    ])
  })

  it('restores the usage meter, with or without a window size', () => {
    for (const fields of [{ used: 48_000, size: 200_000, cost: { amount: 0.42, currency: 'USD' } }, { used: 500 }]) {
      const state = applyActions(createSessionState({ sessionId: 'a/s1', agentId: 'a', protocolVersion: 2, cwd: '/w' }), [
        { type: 'updates', updates: [{ sessionUpdate: 'usage_update', ...fields }] },
      ])
      expect(state.usage).not.toBeNull()
      expect(restoreSessionState(stored(state, 'idle')).state.usage).toEqual(state.usage)
    }
  })

  it('settles nothing for a session that was idle', () => {
    const state = applyActions(createSessionState({ sessionId: 'a/s1', agentId: 'a', protocolVersion: 1, cwd: '/w' }), [
      { type: 'local_prompt', content: [{ type: 'text', text: 'go' }] },
    ])
    expect(restoreSessionState(stored(state, 'idle')).settle).toEqual([])
  })

  it("offers no tool call's Cancel of the process that ran it in a session opened from the history (E15)", () => {
    const state = applyActions(createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 2, cwd: '/w' }), [
      {
        type: 'updates',
        updates: [
          { sessionUpdate: 'tool_call_update', toolCallId: 'c1', title: 'Build', status: 'in_progress', capabilities: { cancel: {} } },
          { sessionUpdate: 'tool_call_update', toolCallId: 'c2', title: 'Read', status: 'in_progress' },
          { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn', background: null },
        ],
      },
    ])
    const { state: restored, settle } = restoreSessionState(stored(state, 'idle'))
    expect(canCancelToolCall(toolCallOf(restored, 'c1'))).toBe(true)
    const after = settled(restored, settle)
    expect(canCancelToolCall(toolCallOf(after, 'c1'))).toBe(false)
    expect(toolCallOf(after, 'c1')?.status).toBe('cancelled')
    // Nothing offered: an unfinished call stays as it was (shown as not finished).
    const plain = applyActions(state, [{ type: 'updates', updates: [{ sessionUpdate: 'tool_call_update', toolCallId: 'c1', capabilities: null }] }])
    const reopened = restoreSessionState(stored(plain, 'idle'))
    expect(toolCallOf(settled(reopened.state, reopened.settle), 'c2')?.status).toBe('in_progress')
  })

  it('shows no v2 background work still running in a session opened from the history', () => {
    const state = applyActions(createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 2, cwd: '/w' }), [
      {
        type: 'updates',
        updates: [
          { sessionUpdate: 'terminal_update', terminalId: 't1', command: 'npm run dev', capabilities: { cancel: {} } },
          { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn', background: [{ type: 'terminal', terminalId: 't1' }] },
        ],
      },
    ])
    const { state: restored, settle } = restoreSessionState(stored(state, 'idle'))
    expect(restored.turn.background).toHaveLength(1)
    const after = settled(restored, settle)
    expect(after.turn.background).toBeNull()
    expect(after.terminals.t1?.capabilities).toBeUndefined()
    // Without background reported, a terminal's Cancel does not outlive its agent either.
    const quiet = applyActions(state, [{ type: 'updates', updates: [{ sessionUpdate: 'state_update', state: 'idle', background: null }] }])
    const reopened = restoreSessionState(stored(quiet, 'idle'))
    expect(settled(reopened.state, reopened.settle).terminals.t1?.capabilities).toBeUndefined()
    // A terminal that never reported its exit, with no controls and nothing reported running: not shown as running.
    const plain = applyActions(createSessionState({ sessionId: 'a/s2', agentId: 'a', protocolVersion: 2, cwd: '/w' }), [
      { type: 'updates', updates: [{ sessionUpdate: 'terminal_update', terminalId: 't2', command: 'tail -f log' }, { sessionUpdate: 'terminal_update', terminalId: 't3', exitStatus: { exitCode: 0 } }] },
    ])
    const again = restoreSessionState(stored(plain, 'idle'))
    const shown = settled(again.state, again.settle)
    expect(shown.terminals.t2).toMatchObject({ agentGone: true })
    expect(shown.terminals.t3?.agentGone).toBeUndefined()
  })
})
