/**
 * The renderer's whole state in one small framework-free store: agents, sessions (each produced by the
 * session reducer), request-scoped elicitations and the selection. `subscribe`/`getSnapshot` fit React's
 * `useSyncExternalStore`; every applied change makes a new top-level object and notifies once.
 */
import { applyActions, rebuildIndex, SessionBatches } from '../../common/session/reducer'
import { derivedTitle } from '../../common/session/title'
import type { AgentRuntimeView, ElicitationView, PermissionRequestView, SessionAction, SessionState } from '../../common/session/types'
import { restartsSilence } from './activity'
import { whenTranscriptCaughtUp } from './render-progress'

export interface AppState {
  agents: Record<string, AgentRuntimeView>
  sessions: Record<string, SessionState>
  /** Elicitations tied to a pending request (e.g. `session/new`) rather than a session. */
  requestScopedElicitations: Record<string, ElicitationView>
  selectedSessionId: string | null
  /**
   * Per session, when (the store's clock) the renderer last applied news from its agent or started waiting on
   * it (`restartsSilence`): the session screen's stall notice counts the silence from it.
   */
  lastActivityAt: Record<string, number>
  /** A snapshot from main has been applied: until then, no agents listed does not mean none are defined. */
  loaded: boolean
}

/** What `sessions:getSnapshot` returns. */
export interface AppSnapshot {
  agents: AgentRuntimeView[]
  sessions: SessionState[]
}

/** One batch of reducer actions from main (`sessions:sessionActions`). */
export interface SessionActionsBatch {
  sessionId: string
  seq: number
  /** The batches `fromSeq`…`seq` merged into one (main merges them for a page that fell behind); absent: just `seq`. */
  fromSeq?: number
  actions: SessionAction[]
}

/** What the store applied since it last said so: the newest `seq` per session (`AppStore.onDidApply`). */
export type AppliedBatches = { sessionId: string; seq: number }[]

/**
 * What was applied is said at most this often (ms; the last of it always, this long after): main has room for far more
 * than a page applies in that time (main/web/view-flow.ts).
 */
const APPLIED_REPORT_INTERVAL_MS = 100

/** Sessions per {@link AppStore.onDidApply} report, at most (the call that carries it to main takes no more). */
export const MAX_APPLIED_PER_REPORT = 1024

/**
 * What happened to a batch: `applied`; `stale` (its `seq` is not newer than the session's: already in the
 * snapshot); `gap` (applied, but batches were missed: the caller should fetch a fresh snapshot);
 * `unknown-session`.
 */
export type BatchResult = 'applied' | 'stale' | 'gap' | 'unknown-session'

export interface AppStore {
  getSnapshot(): AppState
  subscribe(listener: () => void): () => void
  applySnapshot(snapshot: AppSnapshot): void
  applySessionActions(batch: SessionActionsBatch): BatchResult
  /**
   * Queues a batch from main; queued batches are applied over animation frames, a few milliseconds of
   * work per frame (a big batch in slices), and listeners hear at most once per frame. When rendering is
   * slow, applied agent updates are shown every few frames rather than every frame (see
   * {@link FrameScheduler.afterRender}); a batch with anything else (a turn's start or end, a request) is
   * shown in the frame that applies it. A batch that starts a turn also ends its frame, so the person's
   * message and "Working" are painted before the agent's first update. `onGap` runs when batches were
   * missed (fetch a fresh snapshot).
   */
  enqueueSessionActions(batch: SessionActionsBatch, onGap?: () => void): void
  /** Applies everything queued now (tests; before reading state that must be current). */
  flushQueued(): void
  addSession(session: SessionState): void
  /** A session's whole state from main, sent instead of batches the page fell behind on: it replaces the copy here. */
  resyncSession(session: SessionState): void
  /**
   * Says which batches were applied (or covered by a snapshot or a resync), at most once per frame: main sends the page
   * only so much it has not applied yet.
   */
  onDidApply(listener: (applied: AppliedBatches) => void): () => void
  removeSession(sessionId: string): void
  setAgentStatus(agent: AgentRuntimeView): void
  selectSession(sessionId: string | null): void
  addRequestScopedElicitation(elicitation: ElicitationView): void
  resolveRequestScopedElicitation(elicitationRequestId: string, status: ElicitationView['status']): void
}

export function createAppState(): AppState {
  return { agents: {}, sessions: {}, requestScopedElicitations: {}, selectedSessionId: null, lastActivityAt: {}, loaded: false }
}

/** When queued work runs: the next animation frame, and a clock to keep each frame's share short. */
export interface FrameScheduler {
  request(callback: () => void): void
  now(): number
  /**
   * Runs `callback` once what the frame started has been rendered: React's commit and the browser's style,
   * layout and paint of that frame. The store times this to learn what showing its changes costs. Without
   * it, changes are shown every frame.
   */
  afterRender?(callback: () => void): void
}

export interface AppStoreOptions {
  frames?: FrameScheduler
  /** Reducer work per frame before yielding to paint (default 8 ms; less on a frame that also renders, by what rendering costs). */
  frameBudgetMs?: number
  /** Updates per reducer call when a batch is applied in slices (default 1,024: main sends less per batch, so only other hosts slice). */
  sliceUpdates?: number
  /** The clock of `lastActivityAt` (default `Date.now`; tests pass a fake one). */
  clock?: () => number
}

/**
 * requestAnimationFrame where there is one; a timer as well, since a hidden page gets no frames and its
 * queue must still drain (at the browser's throttled timer pace).
 */
function defaultFrames(): FrameScheduler {
  const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now())
  if (typeof requestAnimationFrame !== 'function') return { request: (callback) => void setTimeout(callback, 0), now }
  // A message posted from a frame callback is a task of its own, so it runs after that frame's render and paint.
  let channel: MessageChannel | undefined
  const rendered: (() => void)[] = []
  return {
    now,
    afterRender(callback) {
      if (typeof MessageChannel !== 'function') return
      if (!channel) {
        channel = new MessageChannel()
        channel.port1.onmessage = () => {
          // The frame is painted; the transcript's deferred render of what was shown may still be running.
          for (const done of rendered.splice(0)) whenTranscriptCaughtUp(done)
        }
      }
      rendered.push(callback)
      if (rendered.length === 1) channel.port2.postMessage(null)
    },
    request(callback) {
      let done = false
      const run = () => {
        if (done) return
        done = true
        cancelAnimationFrame(frame)
        clearTimeout(timer)
        callback()
      }
      const frame = requestAnimationFrame(run)
      const timer = setTimeout(run, 100)
    },
  }
}

/** A queued batch, possibly half applied (`action`/`update` say where the next slice starts). */
interface QueuedBatch {
  batch: SessionActionsBatch
  onGap: (() => void) | undefined
  action: number
  update: number
}

const startsTurn = (action: SessionAction) => action.type === 'local_prompt' || action.type === 'turn_started'

/**
 * While batches keep coming, applied work is shown once per this many times what showing it costs, so a
 * frame never renders twice the work. What is measured is React's commit; the browser's style, layout and
 * paint that follow it cost about as much again, so 6 keeps rendering to about a third of the page's time in
 * a flood (with 3 it took half: 100k-update flood in the browser host, 5 interleaved runs, page CPU 555 → 434
 * ms and layouts 38 → 26 at the median). Cheap renders still show every frame.
 */
const RENDER_SHARE = 6
/** However slow rendering is, applied work is shown at least this often during a flood (ms). */
const MAX_RENDER_INTERVAL_MS = 250
/** A frame that renders still applies at least this share of the budget. */
const MIN_BUDGET_SHARE = 0.25

export function createAppStore(initial: AppState = createAppState(), options: AppStoreOptions = {}): AppStore {
  let state = initial
  const listeners = new Set<() => void>()
  const frames = options.frames ?? defaultFrames()
  const budgetMs = options.frameBudgetMs ?? 8
  const sliceUpdates = options.sliceUpdates ?? 1024
  const clock = options.clock ?? Date.now
  const queue: QueuedBatch[] = []
  let frameRequested = false
  /** Sessions whose turn started and whose agent has not been heard from since (its first batch is shown at once). */
  const awaitingFirstUpdate = new Set<string>()
  /** Sessions with queued work applied but not yet shown (`state.sessions` plus that work), or null. */
  let unshown: Record<string, SessionState> | null = null
  /**
   * Sessions of `unshown` whose queued work is being applied and not made a state yet (`seq`: of the last whole
   * batch applied): the entries are copied once per showing, not once per batch.
   */
  let open: Map<string, { batches: SessionBatches; seq: number }> | null = null
  /** When applied but unshown work brought news from the agent, by session (merged into `lastActivityAt` when shown). */
  let unshownActivity: Record<string, number> | null = null
  /** What showing applied work last cost (render, style, layout, paint; smoothed), and when it was last shown. */
  let renderCostMs = 0
  let shownAt = -Infinity
  let reportedAt = -Infinity
  let reportTimer: ReturnType<typeof setTimeout> | undefined
  /** Says what was applied at most every APPLIED_REPORT_INTERVAL_MS: one call per frame through a flood would be hundreds. */
  const reportSoon = () => {
    if (applied === null || reportTimer !== undefined) return
    const wait = APPLIED_REPORT_INTERVAL_MS - (frames.now() - reportedAt)
    const report = () => {
      reportTimer = undefined
      reportedAt = frames.now()
      reportApplied()
    }
    if (wait <= 0) report()
    else reportTimer = setTimeout(report, wait)
  }
  /** Batches applied (or skipped: already in the state) and not reported yet: the newest seq per session. */
  let applied: Map<string, number> | null = null
  const applyListeners = new Set<(applied: AppliedBatches) => void>()
  const noteApplied = (sessionId: string, seq: number) => {
    applied ??= new Map()
    if ((applied.get(sessionId) ?? -1) < seq) applied.set(sessionId, seq)
  }
  const reportApplied = () => {
    if (applied === null) return
    const list = [...applied].map(([sessionId, seq]) => ({ sessionId, seq }))
    applied = null
    for (let i = 0; i === 0 || i < list.length; i += MAX_APPLIED_PER_REPORT) {
      const part = list.slice(i, i + MAX_APPLIED_PER_REPORT)
      for (const listener of [...applyListeners]) listener(part)
    }
  }

  const set = (next: AppState) => {
    state = next
    // Copy first: a listener may unsubscribe (or subscribe) while we notify.
    for (const listener of [...listeners]) listener()
  }

  /** Applied work not shown yet, every session made a state (null: none); nothing is left unshown. */
  const takeUnshown = (): Record<string, SessionState> | null => {
    const sessions = unshown
    if (sessions !== null && open !== null) {
      for (const [sessionId, { batches, seq }] of open) {
        const session = batches.finish()
        // A new object of ours: it keeps main's seq (a batch partly applied keeps the last whole one's).
        session.seq = seq
        sessions[sessionId] = session
      }
    }
    unshown = null
    open = null
    return sessions
  }

  /** Shows applied work before any other change, which starts from it (React renders both changes once). */
  const absorb = () => {
    const sessions = takeUnshown()
    if (sessions === null) return
    set({ ...state, sessions, ...takeActivity() })
  }

  const takeActivity = (): { lastActivityAt?: Record<string, number> } => {
    if (unshownActivity === null) return {}
    const lastActivityAt = { ...state.lastActivityAt, ...unshownActivity }
    unshownActivity = null
    return { lastActivityAt }
  }

  /** Shows applied work now, and learns what that cost when the frame has been rendered. */
  const show = () => {
    const sessions = takeUnshown()
    if (sessions === null) return
    const start = frames.now()
    shownAt = start
    set({ ...state, sessions, ...takeActivity() })
    frames.afterRender?.(() => {
      const cost = Math.min(frames.now() - start, 1_000)
      renderCostMs = renderCostMs === 0 ? cost : renderCostMs * 0.7 + cost * 0.3
    })
  }

  /** The next slice of a queued batch: whole non-update actions, and up to `sliceUpdates` updates. */
  const takeSlice = (item: QueuedBatch): SessionAction[] => {
    const actions = item.batch.actions
    const slice: SessionAction[] = []
    let budget = sliceUpdates
    while (item.action < actions.length && budget > 0) {
      const action = actions[item.action]!
      if (action.type === 'updates' && Array.isArray(action.updates) && action.updates.length - item.update > budget) {
        slice.push({ type: 'updates', updates: action.updates.slice(item.update, item.update + budget) })
        item.update += budget
        break
      }
      if (action.type === 'updates' && Array.isArray(action.updates)) {
        slice.push(item.update > 0 ? { type: 'updates', updates: action.updates.slice(item.update) } : action)
        budget -= action.updates.length - item.update
      } else slice.push(action)
      item.action++
      item.update = 0
    }
    return slice
  }

  /**
   * Applies queued batches until the budget is spent (at least one slice) into `unshown`. True when a batch
   * held more than the agent's updates (the person's message, Working, the turn's end, a request): it is
   * shown in this frame.
   */
  const drain = (budget: number): boolean => {
    const start = frames.now()
    // Our own copy while nothing was shown since the last drain: mutated in place.
    const sessions: Record<string, SessionState> = unshown ?? { ...state.sessions }
    const gaps = new Set<() => void>()
    let changed = false
    let urgent = false
    while (queue.length > 0 && (!changed || frames.now() - start < budget)) {
      const item = queue[0]!
      const { sessionId, seq } = item.batch
      const session = sessions[sessionId]
      let applying = open?.get(sessionId)
      const at = applying?.seq ?? session?.seq ?? 0
      const fresh = item.action === 0 && item.update === 0
      const first = item.batch.fromSeq ?? seq
      if (!session || (fresh && seq <= at) || !Array.isArray(item.batch.actions)) {
        // Unknown (removed) session, or already in a snapshot: nothing to apply.
        queue.shift()
        noteApplied(sessionId, seq)
        continue
      }
      if (fresh && first <= at) {
        // Merged batches the state already has part of (a snapshot came between): they cannot be split, so a fresh snapshot.
        queue.shift()
        if (item.onGap) gaps.add(item.onGap)
        continue
      }
      if (fresh && first !== at + 1 && item.onGap) gaps.add(item.onGap)
      const turnStarts = fresh && item.batch.actions.some(startsTurn)
      if (fresh && !urgent) urgent = item.batch.actions.some((action) => action.type !== 'updates')
      if (turnStarts) awaitingFirstUpdate.add(sessionId)
      else if (awaitingFirstUpdate.delete(sessionId)) {
        // The agent's first words of a turn are shown in the frame they are applied in, whatever rendering costs.
        urgent = true
      }
      const slice = takeSlice(item)
      if (!applying) (open ??= new Map()).set(sessionId, (applying = { batches: new SessionBatches(session), seq: session.seq }))
      // A batch's notices are numbered as applyActions numbers them, from the seq before it plus one.
      if (fresh) applying.batches.begin(at + 1)
      applying.batches.apply(slice)
      // News from the agent restarts its silence when it was applied (shown with the work, below).
      if (slice.some(restartsSilence)) (unshownActivity ??= {})[sessionId] = clock()
      const done = item.action >= item.batch.actions.length
      // Main's seq: the last slice of a batch takes the batch's.
      if (done) applying.seq = seq
      changed = true
      if (done) {
        queue.shift()
        noteApplied(sessionId, seq)
      }
      // The person's message and Working get a frame of their own, before the agent's updates.
      if (turnStarts) break
    }
    if (changed) unshown = sessions
    for (const onGap of gaps) onGap()
    return urgent
  }

  /**
   * After a snapshot: a session it shows unchanged keeps its time; a new or changed one counts from now (what
   * changed may be news from the agent, and when it came is not in the snapshot).
   */
  const activitySince = (sessions: Record<string, SessionState>): Record<string, number> => {
    const now = clock()
    const times: Record<string, number> = {}
    for (const [id, session] of Object.entries(sessions)) {
      const known = state.sessions[id]
      const since = state.lastActivityAt[id]
      times[id] = known && since !== undefined && session.seq <= known.seq ? since : now
    }
    return times
  }

  const flushQueued = () => {
    while (queue.length > 0) drain(Infinity)
    show()
    reportApplied()
  }

  const onFrame = () => {
    frameRequested = false
    // Showing work costs `renderCostMs`: show it every RENDER_SHARE times that (every frame while rendering is
    // cheap), and let a frame that shows it apply that much less, so the frame's whole task stays short.
    // Nothing left to apply (no batch came since the last frame): what is applied is shown at once, so the last
    // words of a stream never wait for the share.
    const due = queue.length === 0 || frames.now() - shownAt >= Math.min(MAX_RENDER_INTERVAL_MS, renderCostMs * RENDER_SHARE)
    const budget = due ? Math.max(budgetMs * MIN_BUDGET_SHARE, budgetMs - renderCostMs) : budgetMs
    const urgent = drain(budget)
    if (urgent || due) show()
    if (queue.length > 0 || unshown !== null) requestFrame()
    reportSoon()
  }

  const requestFrame = () => {
    if (frameRequested) return
    frameRequested = true
    frames.request(onFrame)
  }

  return {
    getSnapshot: () => state,

    enqueueSessionActions(batch, onGap) {
      queue.push({ batch, onGap, action: 0, update: 0 })
      requestFrame()
    },

    flushQueued,

    subscribe(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },

    applySnapshot(snapshot) {
      // The snapshot replaces the sessions: applied work not yet shown is dropped with them (the queue stays, by seq).
      unshown = null
      open = null
      unshownActivity = null
      const agents: Record<string, AgentRuntimeView> = {}
      for (const agent of snapshot.agents) agents[agent.agentId] = agent
      const sessions: Record<string, SessionState> = {}
      for (const session of snapshot.sessions) sessions[session.sessionId] = rebuildIndex(session)
      const selected = state.selectedSessionId
      set({
        ...state,
        agents,
        sessions,
        selectedSessionId: selected !== null && sessions[selected] ? selected : null,
        lastActivityAt: activitySince(sessions),
        loaded: true,
      })
      // Said even with no session: main then knows this page says what it applied, and holds back what it cannot take.
      applied ??= new Map()
      for (const session of snapshot.sessions) noteApplied(session.sessionId, session.seq)
      reportApplied()
    },

    applySessionActions({ sessionId, seq, fromSeq, actions }) {
      // Keep main's order: whatever is queued goes first.
      if (queue.length > 0) flushQueued()
      absorb()
      const session = state.sessions[sessionId]
      noteApplied(sessionId, seq)
      reportApplied()
      if (!session) return 'unknown-session'
      if (seq <= session.seq) return 'stale'
      const first = fromSeq ?? seq
      // Merged batches the state already has part of cannot be split: the caller fetches a fresh snapshot.
      if (first <= session.seq) return 'gap'
      const gap = first !== session.seq + 1
      let next = applyActions(session, actions)
      // Keep our seq equal to main's so later batches and snapshots compare correctly even after a gap.
      if (next.seq !== seq) next = rebuildIndex({ ...next, seq })
      const lastActivityAt = Array.isArray(actions) && actions.some(restartsSilence) ? { ...state.lastActivityAt, [sessionId]: clock() } : state.lastActivityAt
      set({ ...state, sessions: { ...state.sessions, [sessionId]: next }, lastActivityAt })
      return gap ? 'gap' : 'applied'
    },

    addSession(session) {
      absorb()
      const current = state.sessions[session.sessionId]
      // A snapshot may already hold a newer copy of the session.
      if (current && current.seq > session.seq) return
      set({
        ...state,
        sessions: { ...state.sessions, [session.sessionId]: rebuildIndex(session) },
        lastActivityAt: { ...state.lastActivityAt, [session.sessionId]: state.lastActivityAt[session.sessionId] ?? clock() },
      })
    },

    resyncSession(session) {
      absorb()
      const current = state.sessions[session.sessionId]
      noteApplied(session.sessionId, session.seq)
      reportApplied()
      // Gone here (removed, or a snapshot without it), or newer already.
      if (!current || current.seq > session.seq) return
      set({
        ...state,
        sessions: { ...state.sessions, [session.sessionId]: rebuildIndex(session) },
        // Whatever it brings came from the agent since the page last heard of it.
        lastActivityAt: session.seq > current.seq ? { ...state.lastActivityAt, [session.sessionId]: clock() } : state.lastActivityAt,
      })
    },

    onDidApply(listener) {
      applyListeners.add(listener)
      return () => {
        applyListeners.delete(listener)
      }
    },

    removeSession(sessionId) {
      absorb()
      awaitingFirstUpdate.delete(sessionId)
      if (!state.sessions[sessionId]) return
      const { [sessionId]: _removed, ...sessions } = state.sessions
      const { [sessionId]: _lastActivity, ...lastActivityAt } = state.lastActivityAt
      set({ ...state, sessions, lastActivityAt, selectedSessionId: state.selectedSessionId === sessionId ? null : state.selectedSessionId })
    },

    setAgentStatus(agent) {
      absorb()
      set({ ...state, agents: { ...state.agents, [agent.agentId]: agent } })
    },

    selectSession(sessionId) {
      absorb()
      if (state.selectedSessionId === sessionId) return
      set({ ...state, selectedSessionId: sessionId })
    },

    addRequestScopedElicitation(elicitation) {
      absorb()
      set({
        ...state,
        requestScopedElicitations: { ...state.requestScopedElicitations, [elicitation.elicitationRequestId]: elicitation },
      })
    },

    resolveRequestScopedElicitation(elicitationRequestId, status) {
      absorb()
      const current = state.requestScopedElicitations[elicitationRequestId]
      if (!current) return
      set({
        ...state,
        requestScopedElicitations: { ...state.requestScopedElicitations, [elicitationRequestId]: { ...current, status } },
      })
    },
  }
}

// ---------------------------------------------------------------------------------------------------------
// Selectors
// ---------------------------------------------------------------------------------------------------------

/** One thing waiting for the person, with the names the inbox shows. */
export type InboxItem =
  | { kind: 'permission'; id: string; createdAt: number; agentId: string; agentName: string; sessionId: string; sessionTitle: string | null; request: PermissionRequestView }
  | { kind: 'elicitation'; id: string; createdAt: number; agentId: string; agentName: string; sessionId: string | null; sessionTitle: string | null; elicitation: ElicitationView }

let inboxCache: { state: AppState; items: InboxItem[] } | null = null

/**
 * Every pending permission and elicitation of every session and agent, plus the request-scoped elicitations,
 * oldest first. Memoised on the state object, so it is safe to call from render.
 */
export function selectInbox(state: AppState): InboxItem[] {
  if (inboxCache && inboxCache.state === state) return inboxCache.items
  const items: InboxItem[] = []
  const agentName = (agentId: string, fallback: string) => state.agents[agentId]?.name ?? fallback
  for (const session of Object.values(state.sessions)) {
    for (const request of Object.values(session.permissions)) {
      if (request.status !== 'pending') continue
      items.push({
        kind: 'permission',
        id: request.requestId,
        createdAt: request.createdAt,
        agentId: request.agentId,
        agentName: agentName(request.agentId, request.agentName),
        sessionId: session.sessionId,
        sessionTitle: derivedTitle(session),
        request,
      })
    }
    for (const elicitation of Object.values(session.elicitations)) {
      if (elicitation.status !== 'pending') continue
      items.push(elicitationItem(elicitation, agentName(elicitation.agentId, elicitation.agentName), session))
    }
  }
  for (const elicitation of Object.values(state.requestScopedElicitations)) {
    if (elicitation.status !== 'pending') continue
    const session = elicitation.sessionId !== null ? state.sessions[elicitation.sessionId] : undefined
    items.push(elicitationItem(elicitation, agentName(elicitation.agentId, elicitation.agentName), session))
  }
  // Same millisecond: the broker's arrival order (ids are strings, so `…:n:10` would sort before `…:n:9`).
  items.sort((a, b) => a.createdAt - b.createdAt || arrivalOf(a) - arrivalOf(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  inboxCache = { state, items }
  return items
}

/**
 * How many requests of one session wait for the person (its sidebar badge): pending permissions and pending
 * elicitations, as the inbox counts them. claude-agent-acp asks its questions (AskUserQuestion) as elicitations.
 */
export function waitingOnPerson(session: SessionState): number {
  let count = 0
  for (const request of Object.values(session.permissions)) if (request.status === 'pending') count++
  for (const elicitation of Object.values(session.elicitations)) if (elicitation.status === 'pending') count++
  return count
}

/** The broker's arrival order of a permission; elicitations (and requests from before it existed) come after. */
function arrivalOf(item: InboxItem): number {
  return item.kind === 'permission' && typeof item.request.arrival === 'number' ? item.request.arrival : Number.MAX_SAFE_INTEGER
}

function elicitationItem(elicitation: ElicitationView, agentName: string, session: SessionState | undefined): InboxItem {
  return {
    kind: 'elicitation',
    id: elicitation.elicitationRequestId,
    createdAt: elicitation.createdAt,
    agentId: elicitation.agentId,
    agentName,
    sessionId: elicitation.sessionId,
    sessionTitle: session ? derivedTitle(session) : null,
    elicitation,
  }
}

/** How many things wait for the person (the badge count). */
export function selectPendingCount(state: AppState): number {
  return selectInbox(state).length
}

/** The selected session, if any. */
export function selectSelectedSession(state: AppState): SessionState | null {
  return state.selectedSessionId !== null ? (state.sessions[state.selectedSessionId] ?? null) : null
}
