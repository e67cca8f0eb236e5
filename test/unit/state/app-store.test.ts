import { describe, expect, it, vi } from 'vitest'
import { createAppStore, selectInbox, selectPendingCount, waitingOnPerson } from '../../../renderer/state/app-store'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import type { AgentRuntimeView, ElicitationView, PermissionRequestView, SessionAction, SessionState } from '../../../common/session/types'

const agent = (agentId: string, name: string): AgentRuntimeView => ({ agentId, name, status: 'ready' })
const chunk = (t: string): SessionAction => ({ type: 'updates', updates: [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: t } }] })

function sessionOf(sessionId: string, agentId: string, title: string | null = null): SessionState {
  return { ...createSessionState({ sessionId, agentId, protocolVersion: 1, cwd: '/w' }), title }
}

function permission(requestId: string, sessionId: string, agentId: string, createdAt: number): PermissionRequestView {
  return {
    requestId,
    agentId,
    agentName: 'stale name',
    sessionId,
    title: 'Run?',
    subject: { type: 'none' },
    options: [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }],
    createdAt,
    status: 'pending',
  }
}

function elicitation(id: string, sessionId: string | null, agentId: string, createdAt: number): ElicitationView {
  return { elicitationRequestId: id, agentId, agentName: 'x', sessionId, mode: 'form', message: 'm', createdAt, status: 'pending' }
}

describe('app store', () => {
  it('is not loaded until main\'s first snapshot is applied, even an empty one; agents and sessions alone do not count', () => {
    const store = createAppStore()
    expect(store.getSnapshot().loaded).toBe(false)
    store.setAgentStatus(agent('a1', 'Claude'))
    store.addSession(sessionOf('s1', 'a1'))
    expect(store.getSnapshot().loaded).toBe(false)
    store.applySnapshot({ agents: [], sessions: [] })
    expect(store.getSnapshot().loaded).toBe(true)
  })

  it('applies batches with a newer seq, skips stale ones (snapshot reconciliation), reports gaps', () => {
    // Main's copy of the session: three batches applied, the snapshot taken after the second.
    let main = sessionOf('s1', 'a1')
    const batches = [chunk('a'), chunk('b'), chunk('c')].map((action) => {
      main = applyActions(main, [action])
      return { sessionId: 's1', seq: main.seq, actions: [action] }
    })
    const snapshot = applyActions(applyActions(sessionOf('s1', 'a1'), [chunk('a')]), [chunk('b')])

    const store = createAppStore()
    store.applySnapshot({ agents: [agent('a1', 'Claude')], sessions: [snapshot] })
    // Batches 1 and 2 arrived while the snapshot was in flight: both already in it.
    expect(batches.map((b) => store.applySessionActions(b))).toEqual(['stale', 'stale', 'applied'])
    const s1 = store.getSnapshot().sessions.s1!
    expect(s1.seq).toBe(3)
    expect(s1.entries).toHaveLength(1)
    expect(s1.entries[0]).toMatchObject({ content: [{ type: 'text', text: 'abc' }] })

    expect(store.applySessionActions({ sessionId: 's1', seq: 7, actions: [chunk('d')] })).toBe('gap')
    expect(store.getSnapshot().sessions.s1!.seq).toBe(7)
    expect(store.applySessionActions({ sessionId: 'nope', seq: 1, actions: [] })).toBe('unknown-session')
  })

  it('notifies once per applied batch, not for stale ones; unsubscribe works', () => {
    const store = createAppStore()
    store.addSession(sessionOf('s1', 'a1'))
    const listener = vi.fn()
    const unsubscribe = store.subscribe(listener)
    const before = store.getSnapshot()
    store.applySessionActions({ sessionId: 's1', seq: 1, actions: [chunk('a'), chunk('b')] })
    expect(listener).toHaveBeenCalledTimes(1)
    expect(store.getSnapshot()).not.toBe(before)
    store.applySessionActions({ sessionId: 's1', seq: 1, actions: [chunk('again')] })
    expect(listener).toHaveBeenCalledTimes(1)
    unsubscribe()
    store.applySessionActions({ sessionId: 's1', seq: 2, actions: [chunk('c')] })
    expect(listener).toHaveBeenCalledTimes(1)
  })

  it('getSnapshot is stable between changes (useSyncExternalStore contract)', () => {
    const store = createAppStore()
    expect(store.getSnapshot()).toBe(store.getSnapshot())
  })

  it('add/remove session, agent status, selection', () => {
    const store = createAppStore()
    store.addSession(sessionOf('s1', 'a1'))
    store.selectSession('s1')
    store.setAgentStatus(agent('a1', 'Claude'))
    expect(store.getSnapshot()).toMatchObject({ selectedSessionId: 's1', agents: { a1: { name: 'Claude' } } })
    // An older copy does not replace a newer one.
    store.applySessionActions({ sessionId: 's1', seq: 1, actions: [chunk('a')] })
    store.addSession(sessionOf('s1', 'a1'))
    expect(store.getSnapshot().sessions.s1!.seq).toBe(1)
    store.removeSession('s1')
    expect(store.getSnapshot()).toMatchObject({ sessions: {}, selectedSessionId: null })
  })

  it('inbox: every pending permission and elicitation of every session plus request-scoped ones, oldest first, with names', () => {
    const store = createAppStore()
    let a = sessionOf('sa', 'a1', 'Fix bug')
    let b = sessionOf('sb', 'a2', null)
    a = applyActions(a, [
      { type: 'permission_requested', request: permission('p-new', 'sa', 'a1', 300) },
      { type: 'permission_requested', request: permission('p-done', 'sa', 'a1', 50) },
      { type: 'permission_resolved', requestId: 'p-done', status: 'answered', resolution: { by: 'person', at: 60 } },
    ])
    b = applyActions(b, [
      // No title from the agent: the session is named by its first prompt, as the sidebar and the header name it.
      { type: 'local_prompt', content: [{ type: 'text', text: 'Tidy  the\nimports' }] },
      { type: 'permission_requested', request: permission('p-old', 'sb', 'a2', 100) },
      { type: 'elicitation_requested', elicitation: elicitation('e-b', 'sb', 'a2', 200) },
    ])
    store.applySnapshot({ agents: [agent('a1', 'Claude'), agent('a2', 'Codex')], sessions: [a, b] })
    store.addRequestScopedElicitation(elicitation('e-req', null, 'a1', 150))

    const inbox = selectInbox(store.getSnapshot())
    expect(inbox.map((i) => [i.kind, i.id, i.agentName, i.sessionTitle])).toEqual([
      ['permission', 'p-old', 'Codex', 'Tidy the imports'],
      ['elicitation', 'e-req', 'Claude', null],
      ['elicitation', 'e-b', 'Codex', 'Tidy the imports'],
      ['permission', 'p-new', 'Claude', 'Fix bug'],
    ])
    expect(selectPendingCount(store.getSnapshot())).toBe(4)
    // Memoised per state object.
    expect(selectInbox(store.getSnapshot())).toBe(inbox)

    store.resolveRequestScopedElicitation('e-req', 'accepted')
    expect(selectPendingCount(store.getSnapshot())).toBe(3)
  })

  it('inbox: requests of the same millisecond keep the broker’s arrival order, across sessions (not the id string order)', () => {
    const store = createAppStore()
    const at = (id: string, sessionId: string, arrival: number) => ({ ...permission(id, sessionId, 'a1', 500), arrival })
    const a = applyActions(sessionOf('sa', 'a1'), [
      { type: 'permission_requested', request: at('a1#1:n:10', 'sa', 10) },
      { type: 'permission_requested', request: at('a1#1:n:2', 'sa', 2) },
    ])
    const b = applyActions(sessionOf('sb', 'a1'), [{ type: 'permission_requested', request: at('a1#1:n:9', 'sb', 9) }])
    store.applySnapshot({ agents: [agent('a1', 'Claude')], sessions: [a, b] })
    store.addRequestScopedElicitation(elicitation('e-same-ms', null, 'a1', 500))
    expect(selectInbox(store.getSnapshot()).map((i) => i.id)).toEqual(['a1#1:n:2', 'a1#1:n:9', 'a1#1:n:10', 'e-same-ms'])
  })
})

describe('app store: batches applied over animation frames', () => {
  /** Frames run when the test says; each reducer call advances the clock by `costMs`. */
  function manualFrames(costMs = 0) {
    let time = 0
    const callbacks: (() => void)[] = []
    return {
      frames: {
        request: (callback: () => void) => void callbacks.push(callback),
        now: () => (time += costMs),
      },
      get pending() {
        return callbacks.length
      },
      runFrame() {
        const due = callbacks.splice(0)
        due.forEach((callback) => callback())
      },
    }
  }
  const text = (state: SessionState) => state.entries.map((e) => (e.kind === 'agent_message' ? e.content.map((b) => (b as { text: string }).text).join('') : e.kind)).join('|')

  it('queues batches, applies them in the next frame and notifies once for the frame', () => {
    const clock = manualFrames()
    const store = createAppStore(undefined, { frames: clock.frames })
    store.addSession(sessionOf('s1', 'a1'))
    const listener = vi.fn()
    store.subscribe(listener)
    store.enqueueSessionActions({ sessionId: 's1', seq: 1, actions: [chunk('a')] })
    store.enqueueSessionActions({ sessionId: 's1', seq: 2, actions: [chunk('b')] })
    expect(store.getSnapshot().sessions.s1!.seq).toBe(0)
    expect(clock.pending).toBe(1)
    clock.runFrame()
    expect(listener).toHaveBeenCalledTimes(1)
    expect(store.getSnapshot().sessions.s1!.seq).toBe(2)
    expect(text(store.getSnapshot().sessions.s1!)).toBe('ab')
    expect(clock.pending).toBe(0)
  })

  it('spreads a huge batch over frames in slices, within the frame budget, to the same state as one reducer call', () => {
    const clock = manualFrames(1)
    const store = createAppStore(undefined, { frames: clock.frames, frameBudgetMs: 8, sliceUpdates: 100 })
    store.addSession(sessionOf('s1', 'a1'))
    const updates = Array.from({ length: 5_000 }, (_, i) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `${i} ` } }))
    const batch = { sessionId: 's1', seq: 1, actions: [{ type: 'turn_started' } as SessionAction, { type: 'updates', updates } as SessionAction, { type: 'turn_ended', stopReason: 'end_turn' } as SessionAction] }
    store.enqueueSessionActions(batch)
    const seen: number[] = []
    store.subscribe(() => seen.push(store.getSnapshot().sessions.s1!.seq))
    let frames = 0
    while (clock.pending > 0) {
      clock.runFrame()
      frames++
    }
    // About 8 slices of 100 per frame: many frames, each bounded; seq moves only with the last slice.
    expect(frames).toBeGreaterThan(5)
    expect(seen.slice(0, -1).every((seq) => seq === 0)).toBe(true)
    const final = store.getSnapshot().sessions.s1!
    expect(final.seq).toBe(1)
    const whole = applyActions(sessionOf('s1', 'a1'), batch.actions)
    expect(text(final)).toBe(text(whole))
    expect(final.turn).toEqual(whole.turn)
  })

  it('numbers the notices of a batch spread over slices as main numbers them (one reducer call over the whole batch)', () => {
    const clock = manualFrames(1)
    const store = createAppStore(undefined, { frames: clock.frames, frameBudgetMs: 8, sliceUpdates: 100 })
    store.addSession(sessionOf('s1', 'a1'))
    const updates = Array.from({ length: 300 }, (_, i) =>
      i % 50 === 25 ? { sessionUpdate: 'notice', severity: 'info', title: `notice ${i}` } : { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `${i} ` } },
    )
    const batch = { sessionId: 's1', seq: 1, actions: [{ type: 'updates', updates } as SessionAction] }
    store.enqueueSessionActions(batch)
    store.flushQueued()
    const whole = applyActions(sessionOf('s1', 'a1'), batch.actions)
    expect(store.getSnapshot().sessions.s1!.notices).toEqual(whole.notices)
    expect(new Set(whole.notices.map((n) => n.id)).size).toBe(6)
  })

  it('reaches main’s state, applying many batches over frames and slices before showing them', () => {
    const clock = manualFrames(1)
    const store = createAppStore(undefined, { frames: clock.frames, frameBudgetMs: 8, sliceUpdates: 7 })
    store.addSession(sessionOf('s1', 'a1'))
    let main = sessionOf('s1', 'a1')
    for (let seq = 1; seq <= 60; seq++) {
      const updates = Array.from({ length: 1 + (seq % 13) }, (_, i) =>
        i === 3 ? { sessionUpdate: 'notice', severity: 'info', title: `n${seq}` } : i % 4 === 1 ? { sessionUpdate: 'tool_call', toolCallId: `t${seq}-${i}`, title: 'Read' } : { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `${seq}.${i} ` } },
      )
      const actions: SessionAction[] = seq % 10 === 0 ? [{ type: 'updates', updates }, { type: 'turn_ended', stopReason: 'end_turn' }] : [{ type: 'updates', updates }]
      main = applyActions(main, actions)
      store.enqueueSessionActions({ sessionId: 's1', seq, actions })
      if (seq % 4 === 0) clock.runFrame()
    }
    while (clock.pending > 0) clock.runFrame()
    expect(store.getSnapshot().sessions.s1).toEqual(main)
  })

  it('gives the person’s message and Working a frame of their own before the agent’s updates', () => {
    const clock = manualFrames()
    const store = createAppStore(undefined, { frames: clock.frames })
    store.addSession(sessionOf('s1', 'a1'))
    store.enqueueSessionActions({ sessionId: 's1', seq: 1, actions: [{ type: 'local_prompt', content: [{ type: 'text', text: 'hi' }] }, { type: 'turn_started' }] })
    store.enqueueSessionActions({ sessionId: 's1', seq: 2, actions: [chunk('reply')] })
    clock.runFrame()
    const first = store.getSnapshot().sessions.s1!
    expect(first.entries.map((e) => e.kind)).toEqual(['user_message'])
    expect(first.turn.state).toBe('running')
    clock.runFrame()
    expect(store.getSnapshot().sessions.s1!.entries.map((e) => e.kind)).toEqual(['user_message', 'agent_message'])
  })

  it('skips stale and unknown-session batches, calls onGap for a gap, and keeps order with a direct apply', () => {
    const clock = manualFrames()
    const store = createAppStore(undefined, { frames: clock.frames })
    store.addSession({ ...sessionOf('s1', 'a1'), seq: 5 })
    const onGap = vi.fn()
    store.enqueueSessionActions({ sessionId: 's1', seq: 5, actions: [chunk('stale')] }, onGap)
    store.enqueueSessionActions({ sessionId: 'nope', seq: 1, actions: [chunk('x')] }, onGap)
    store.enqueueSessionActions({ sessionId: 's1', seq: 8, actions: [chunk('after a gap')] }, onGap)
    // A direct apply first applies what is queued (main's order).
    expect(store.applySessionActions({ sessionId: 's1', seq: 9, actions: [chunk('!')] })).toBe('applied')
    expect(onGap).toHaveBeenCalledTimes(1)
    expect(text(store.getSnapshot().sessions.s1!)).toBe('after a gap!')
    expect(store.getSnapshot().sessions.s1!.seq).toBe(9)
  })
})

describe('app store: showing applied work costs what rendering costs', () => {
  /** Frames 16 ms apart; a frame that showed something takes `renderMs` more before `afterRender` runs. */
  function renderingFrames(renderMs: number) {
    let time = 0
    const callbacks: (() => void)[] = []
    const rendered: (() => void)[] = []
    return {
      frames: {
        request: (callback: () => void) => void callbacks.push(callback),
        now: () => time,
        afterRender: (callback: () => void) => void rendered.push(callback),
      },
      get pending() {
        return callbacks.length
      },
      runFrame() {
        time += 16
        callbacks.splice(0).forEach((callback) => callback())
        if (rendered.length > 0) time += renderMs
        rendered.splice(0).forEach((callback) => callback())
      },
    }
  }
  const text = (state: SessionState) => state.entries.map((e) => (e.kind === 'agent_message' ? e.content.map((b) => (b as { text: string }).text).join('') : e.kind)).join('|')

  it('shows a flood of agent updates every few frames when rendering is slow, and the turn’s start and end at once', () => {
    const clock = renderingFrames(30)
    const store = createAppStore(undefined, { frames: clock.frames })
    store.addSession(sessionOf('s1', 'a1'))
    const shown: number[] = []
    store.subscribe(() => shown.push(store.getSnapshot().sessions.s1!.seq))

    store.enqueueSessionActions({ sessionId: 's1', seq: 1, actions: [{ type: 'local_prompt', content: [{ type: 'text', text: 'go' }] }, { type: 'turn_started' }] })
    clock.runFrame()
    expect(shown).toEqual([1])
    expect(store.getSnapshot().sessions.s1!.turn.state).toBe('running')

    // One batch per frame, 40 frames: shown about every 180 ms (six times the 30 ms a render costs), not 40 times.
    for (let seq = 2; seq <= 41; seq++) {
      store.enqueueSessionActions({ sessionId: 's1', seq, actions: [chunk(`${seq} `)] })
      clock.runFrame()
    }
    const duringFlood = shown.length - 1
    expect(duringFlood).toBeGreaterThan(3)
    expect(duringFlood).toBeLessThan(20)
    // What is shown is always a whole batch, in main's order.
    expect(shown).toEqual([...shown].sort((a, b) => a - b))

    store.enqueueSessionActions({ sessionId: 's1', seq: 42, actions: [{ type: 'turn_ended', stopReason: 'end_turn' }] })
    clock.runFrame()
    const final = store.getSnapshot().sessions.s1!
    expect(final.seq).toBe(42)
    expect(final.turn.state).toBe('idle')
    expect(shown.at(-1)).toBe(42)
    const whole = Array.from({ length: 40 }, (_, i) => `${i + 2} `).join('')
    expect(text(final)).toBe(`user_message|${whole}`)
    expect(clock.pending).toBe(0)
  })

  it('shows the agent’s first words of a turn in the frame they are applied in, even when rendering is slow', () => {
    const clock = renderingFrames(40)
    const store = createAppStore(undefined, { frames: clock.frames })
    store.addSession(sessionOf('s1', 'a1'))
    // Rendering is known to be slow: a flood before this turn.
    for (let seq = 1; seq <= 4; seq++) {
      store.enqueueSessionActions({ sessionId: 's1', seq, actions: [chunk(`${seq} `)] })
      clock.runFrame()
    }
    while (clock.pending > 0) clock.runFrame()
    store.enqueueSessionActions({ sessionId: 's1', seq: 5, actions: [{ type: 'local_prompt', content: [{ type: 'text', text: 'go' }] }, { type: 'turn_started' }] })
    clock.runFrame()
    expect(store.getSnapshot().sessions.s1!.seq).toBe(5)
    // The first batch of the agent's answer arrives with more behind it: shown at once, not after six renders' time.
    store.enqueueSessionActions({ sessionId: 's1', seq: 6, actions: [chunk('first')] })
    store.enqueueSessionActions({ sessionId: 's1', seq: 7, actions: [chunk(' second')] })
    clock.runFrame()
    expect(store.getSnapshot().sessions.s1!.seq).toBeGreaterThanOrEqual(6)
  })

  /** Chunk `a` shown, chunk `b` applied but waiting behind a render that costs `renderMs`. */
  function secondChunkWaiting(renderMs: number) {
    const clock = renderingFrames(renderMs)
    const store = createAppStore(undefined, { frames: clock.frames })
    store.addSession(sessionOf('s1', 'a1'))
    store.enqueueSessionActions({ sessionId: 's1', seq: 1, actions: [chunk('a')] })
    clock.runFrame()
    store.enqueueSessionActions({ sessionId: 's1', seq: 2, actions: [chunk('b')] })
    clock.runFrame()
    expect(store.getSnapshot().sessions.s1!.seq).toBe(1)
    return { clock, store }
  }

  it('shows applied updates within a few frames though nothing else arrives, and every frame while rendering is cheap', () => {
    const { clock: slow, store } = secondChunkWaiting(40)
    let frames = 0
    while (slow.pending > 0) {
      slow.runFrame()
      frames++
    }
    // The next frame finds nothing new to apply: what waits is shown then, whatever rendering costs.
    expect(frames).toBeLessThanOrEqual(2)
    expect(text(store.getSnapshot().sessions.s1!)).toBe('ab')

    const cheap = renderingFrames(2)
    const other = createAppStore(undefined, { frames: cheap.frames })
    other.addSession(sessionOf('s1', 'a1'))
    const listener = vi.fn()
    other.subscribe(listener)
    for (let seq = 1; seq <= 10; seq++) {
      other.enqueueSessionActions({ sessionId: 's1', seq, actions: [chunk('x')] })
      cheap.runFrame()
      expect(other.getSnapshot().sessions.s1!.seq).toBe(seq)
    }
    expect(listener).toHaveBeenCalledTimes(10)
  })

  it('shows applied work before any other change, and a direct apply keeps main’s order', () => {
    const { store } = secondChunkWaiting(50)
    store.selectSession('s1')
    expect(store.getSnapshot().selectedSessionId).toBe('s1')
    expect(text(store.getSnapshot().sessions.s1!)).toBe('ab')
    expect(store.applySessionActions({ sessionId: 's1', seq: 3, actions: [chunk('c')] })).toBe('applied')
    expect(text(store.getSnapshot().sessions.s1!)).toBe('abc')
  })
})

describe('waitingOnPerson (a session’s sidebar badge)', () => {
  it('counts a pending question (elicitation) like a pending permission, as the inbox does; answered ones do not count', () => {
    // claude-agent-acp's AskUserQuestion: an elicitation on its tool call, no permission request.
    const asked = { ...elicitation('e1', 's1', 'a1', 1), toolCallId: 'ask' }
    let session = applyActions(sessionOf('s1', 'a1'), [{ type: 'elicitation_requested', elicitation: asked }])
    expect(waitingOnPerson(session)).toBe(1)
    session = applyActions(session, [{ type: 'permission_requested', request: permission('p1', 's1', 'a1', 2) }])
    expect(waitingOnPerson(session)).toBe(2)
    session = applyActions(session, [{ type: 'elicitation_resolved', elicitationRequestId: 'e1', status: 'accepted' }])
    expect(waitingOnPerson(session)).toBe(1)
  })
})

describe('app store: saying what was applied (main sends a page only so much it has not applied)', () => {
  const manual = () => {
    const callbacks: (() => void)[] = []
    let now = 0
    return {
      frames: { request: (callback: () => void) => void callbacks.push(callback), now: () => now },
      frame: () => callbacks.splice(0).forEach((callback) => callback()),
      advance: (ms: number) => (now += ms),
    }
  }

  it('says so from its first snapshot, even an empty one, then at most every 100 ms and the last of it on a timer', () => {
    vi.useFakeTimers()
    try {
      const clock = manual()
      const store = createAppStore(undefined, { frames: clock.frames })
      const said: { sessionId: string; seq: number }[][] = []
      store.onDidApply((applied) => said.push(applied))
      store.applySnapshot({ agents: [], sessions: [] })
      expect(said).toEqual([[]])
      store.addSession(sessionOf('s1', 'a1'))
      store.enqueueSessionActions({ sessionId: 's1', seq: 1, actions: [chunk('a')] })
      clock.frame()
      expect(said).toEqual([[], [{ sessionId: 's1', seq: 1 }]])
      store.enqueueSessionActions({ sessionId: 's1', seq: 2, actions: [chunk('b')] })
      store.enqueueSessionActions({ sessionId: 's1', seq: 3, actions: [chunk('c')] })
      clock.advance(16)
      clock.frame()
      // Applied, not said yet (said 16 ms ago): said when the 100 ms are up, the newest seq only.
      expect(said).toHaveLength(2)
      clock.advance(100)
      vi.advanceTimersByTime(100)
      expect(said).toEqual([[], [{ sessionId: 's1', seq: 1 }], [{ sessionId: 's1', seq: 3 }]])
    } finally {
      vi.useRealTimers()
    }
  })

  it('applies merged batches (fromSeq…seq) as one, numbering notices from fromSeq; part of them already here is a gap', () => {
    const store = createAppStore()
    store.applySnapshot({ agents: [], sessions: [sessionOf('s1', 'a1')] })
    const notice: SessionAction = { type: 'updates', updates: [{ sessionUpdate: 'notice', severity: 'warning', title: 'n' }] }
    expect(store.applySessionActions({ sessionId: 's1', seq: 3, fromSeq: 1, actions: [notice, chunk('a'), chunk('b')] })).toBe('applied')
    const session = store.getSnapshot().sessions.s1!
    expect(session.seq).toBe(3)
    expect(session.notices.map((n) => n.id)).toEqual(['notice-1-0'])
    expect(store.applySessionActions({ sessionId: 's1', seq: 5, fromSeq: 3, actions: [chunk('c')] })).toBe('gap')
    expect(store.getSnapshot().sessions.s1!.seq).toBe(3)
  })

  it('takes a session sent whole when it is newer, and says it has it', () => {
    const store = createAppStore()
    const said: { sessionId: string; seq: number }[][] = []
    store.onDidApply((applied) => said.push(applied))
    store.applySnapshot({ agents: [], sessions: [sessionOf('s1', 'a1')] })
    const whole = applyActions(applyActions(sessionOf('s1', 'a1'), [chunk('a')]), [chunk('b')])
    store.resyncSession(whole)
    expect(store.getSnapshot().sessions.s1!.seq).toBe(2)
    expect(said.at(-1)).toEqual([{ sessionId: 's1', seq: 2 }])
    // An older copy changes nothing, and is said too (main waits for it).
    store.resyncSession(sessionOf('s1', 'a1'))
    expect(store.getSnapshot().sessions.s1!.seq).toBe(2)
    expect(said.at(-1)).toEqual([{ sessionId: 's1', seq: 0 }])
  })
})
