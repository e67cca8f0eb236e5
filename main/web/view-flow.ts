/**
 * Flow control for one view of the sessions: a browser-host page (its socket) or the Electron window's page. Both
 * hosts wire it the same way (no electron here): every event goes through {@link ViewFlow.emit}, and the page's
 * `sessionActionsApplied` calls go to {@link ViewFlow.applied}.
 *
 * The page says which batches it has applied. Main sends it at most {@link ViewFlowOptions.maxInFlightBytes} of
 * `sessionActions` it has not applied yet; what comes while that much is out is held here, a session's batches merged
 * into larger ones (its text chunks joined), and sent as the page catches up: a page that falls behind gets fewer,
 * larger batches instead of a growing queue. Past {@link ViewFlowOptions.maxHeldBytes} held, a session's held batches
 * are dropped, and so is what comes for it next, and the page gets the session's whole state (`sessionState`) once it
 * has applied what was sent of it: main's memory for the view stays bounded however long a flood lasts, and the page
 * ends with the same state.
 *
 * A page that has never said what it applied (one that does not know the call) gets every event as it comes, as
 * before: its transport bounds what it may leave unread (the web host drops its socket, and it reloads the state).
 */
import type { CallHandlers, EventName, EventPayload } from '../../common/contract'
import { coalesceTextChunks } from '../../common/session/coalesce'
import { numbersNotices } from '../../common/session/reducer'
import type { SessionAction, SessionState } from '../../common/session/types'

/**
 * Bytes of `sessionActions` sent to a page and not applied by it yet, at most (one batch more may go). Above what a page
 * that keeps up leaves unapplied in a flood (the bench's 100k-update flood is 9 MiB in all): with 4 MiB the page waited
 * on its own word to come back through a main busy reading the flood, and the flood took longer to show (3 interleaved
 * runs on a loaded machine, Enter → Idle 8.1 → 13.8 s at the median).
 */
export const MAX_IN_FLIGHT_BYTES = 16 * 1024 * 1024
/** Bytes of batches held for a page that is behind, at most, before sessions are resent whole instead. */
export const MAX_HELD_BYTES = 32 * 1024 * 1024
/** A merged batch takes no more batches past this size: one message stays a short task for the page to parse and apply. */
export const MAX_MERGED_BYTES = 1024 * 1024

type ActionsPayload = EventPayload<'sessionActions'>

export interface ViewFlowOptions {
  /**
   * Sends one event to the page now. `frame`: the event as the host already encoded it (the same for every page),
   * when it is the payload as emitted. Returns the bytes sent (what counts against the window).
   */
  deliver<N extends EventName>(name: N, payload: EventPayload<N>, frame?: string): number
  /** The session's whole state now, with every batch emitted so far applied; undefined when it is gone. */
  stateOf(sessionId: string): SessionState | undefined
  maxInFlightBytes?: number
  maxHeldBytes?: number
  maxMergedBytes?: number
}

/** Batches of one session merged into one, waiting for the page: `fromSeq`…`seq`. */
interface Merged {
  fromSeq: number
  seq: number
  actions: SessionAction[]
  bytes: number
  /** The payload as emitted while this holds one batch only (sent as it is, with the host's shared frame). */
  original: { payload: ActionsPayload; frame: string | undefined } | undefined
}

interface Held {
  batches: Merged[]
  bytes: number
}

export class ViewFlow {
  private readonly maxInFlight: number
  private readonly maxHeld: number
  private readonly maxMerged: number
  /** Whether the page has said what it applied: until then it gets everything as it comes, uncounted. */
  private acking = false
  /** Per session, what was sent and not applied yet, oldest first. */
  private readonly inFlight = new Map<string, { seq: number; bytes: number }[]>()
  private inFlightBytes = 0
  /** Per session, batches waiting for room (insertion order: the order sessions are served in). */
  private readonly held = new Map<string, Held>()
  private heldBytes = 0
  /** Sessions to send whole once the page has applied what it was sent of them (nothing of theirs is held). */
  private readonly resync = new Set<string>()
  /**
   * Per session, the size of its state when it was last sent whole. It is sent whole again only once more than that is
   * held for it: a page that cannot keep up with a flood gets ever fewer states, not one per {@link maxHeld}, and what is
   * held for it stays below its session's size (bounded by the session's budget) besides {@link maxHeld}.
   */
  private readonly wholeBytes = new Map<string, number>()
  private pumping = false
  private disposed = false

  constructor(private readonly options: ViewFlowOptions) {
    this.maxInFlight = options.maxInFlightBytes ?? MAX_IN_FLIGHT_BYTES
    this.maxHeld = options.maxHeldBytes ?? MAX_HELD_BYTES
    this.maxMerged = options.maxMergedBytes ?? MAX_MERGED_BYTES
  }

  /** What main holds for this page: sent and not applied, and waiting to be sent (tests, figures). */
  get bytes(): { inFlight: number; held: number } {
    return { inFlight: this.inFlightBytes, held: this.heldBytes }
  }

  /**
   * One event for the page. `bytes`: its size (for `sessionActions`; the host's frame length, or an estimate);
   * `frame`: the host's encoding of it, if any.
   */
  emit<N extends EventName>(name: N, payload: EventPayload<N>, bytes: number, frame?: string): void {
    if (this.disposed) return
    if (name !== 'sessionActions' || !this.acking) {
      if (name === 'sessionRemoved') this.forget((payload as EventPayload<'sessionRemoved'>).sessionId)
      this.options.deliver(name, payload, frame)
      return
    }
    const batch = payload as ActionsPayload
    const { sessionId } = batch
    // The state sent later has it.
    if (this.resync.has(sessionId)) return
    const held = this.held.get(sessionId)
    if (held === undefined && this.inFlightBytes < this.maxInFlight) {
      this.send(sessionId, batch.seq, () => this.options.deliver('sessionActions', batch, frame))
      return
    }
    this.hold(sessionId, batch, bytes, frame)
    if (this.heldBytes > this.maxHeld) this.resyncLargest()
  }

  /** The page applied these (newest `seq` per session): what was sent of them no longer counts, and more may go. */
  applied(applied: readonly { sessionId: string; seq: number }[]): void {
    if (this.disposed) return
    this.acking = true
    for (const { sessionId, seq } of applied) {
      const sent = this.inFlight.get(sessionId)
      if (!sent) continue
      let done = 0
      while (done < sent.length && sent[done]!.seq <= seq) this.inFlightBytes -= sent[done++]!.bytes
      if (done === sent.length) this.inFlight.delete(sessionId)
      else sent.splice(0, done)
    }
    this.pump()
  }

  dispose(): void {
    this.disposed = true
    this.inFlight.clear()
    this.held.clear()
    this.resync.clear()
    this.wholeBytes.clear()
    this.inFlightBytes = this.heldBytes = 0
  }

  private send(sessionId: string, seq: number, deliver: () => number): void {
    const bytes = deliver()
    let sent = this.inFlight.get(sessionId)
    if (!sent) this.inFlight.set(sessionId, (sent = []))
    sent.push({ seq, bytes })
    this.inFlightBytes += bytes
  }

  private hold(sessionId: string, batch: ActionsPayload, bytes: number, frame: string | undefined): void {
    let held = this.held.get(sessionId)
    if (!held) this.held.set(sessionId, (held = { batches: [], bytes: 0 }))
    held.bytes += bytes
    this.heldBytes += bytes
    const last = held.batches[held.batches.length - 1]
    // A batch that numbers notices by its seq starts a merged batch of its own (its seq is the one they are numbered from).
    if (last === undefined || last.bytes >= this.maxMerged || numbersNotices(batch.actions)) {
      held.batches.push({ fromSeq: batch.fromSeq ?? batch.seq, seq: batch.seq, actions: batch.actions, bytes, original: { payload: batch, frame } })
      return
    }
    if (last.original) {
      // From now on the merged batch owns its arrays: the emitted ones are main's copy of the session's batches too.
      last.actions = last.actions.map(ownCopy)
      last.original = undefined
    }
    for (const action of batch.actions) {
      const tail = last.actions[last.actions.length - 1]
      if (action.type === 'updates' && tail?.type === 'updates' && Array.isArray(action.updates)) for (const update of action.updates) tail.updates.push(update)
      else last.actions.push(ownCopy(action))
    }
    last.seq = batch.seq
    last.bytes += bytes
  }

  /** Sends what was held, oldest first, while there is room; then the sessions to send whole whose batches were all applied. */
  private pump(): void {
    if (this.pumping) return
    this.pumping = true
    try {
      while (this.inFlightBytes < this.maxInFlight && !this.disposed) {
        const next = this.held.entries().next()
        if (next.done) break
        const [sessionId, held] = next.value
        const merged = held.batches.shift()!
        held.bytes -= merged.bytes
        this.heldBytes -= merged.bytes
        // The session's turn comes again after the others'.
        this.held.delete(sessionId)
        if (held.batches.length > 0) this.held.set(sessionId, held)
        this.send(sessionId, merged.seq, () => this.deliverMerged(sessionId, merged))
      }
      for (const sessionId of [...this.resync]) {
        if (this.inFlightBytes >= this.maxInFlight || this.disposed) break
        if (this.inFlight.has(sessionId)) continue
        // Reading the state may flush the session's queued batches to the views (emit, above): they are in it, and dropped.
        const state = this.options.stateOf(sessionId)
        this.resync.delete(sessionId)
        if (!state) continue
        this.send(sessionId, state.seq, () => {
          const bytes = this.options.deliver('sessionState', { session: state })
          this.wholeBytes.set(sessionId, bytes)
          return bytes
        })
      }
    } finally {
      this.pumping = false
    }
  }

  private deliverMerged(sessionId: string, merged: Merged): number {
    if (merged.original) return this.options.deliver('sessionActions', merged.original.payload, merged.original.frame)
    // Runs of text across the merged batches become one chunk each: what makes a late page's work smaller.
    const actions = merged.actions.map((action) =>
      action.type === 'updates' && Array.isArray(action.updates) && action.updates.length > 1 ? { type: 'updates' as const, updates: coalesceTextChunks(action.updates) } : action,
    )
    return this.options.deliver('sessionActions', { sessionId, seq: merged.seq, fromSeq: merged.fromSeq, actions })
  }

  /**
   * The session holding the most (more than its state when last sent whole) is sent whole later instead: its held batches
   * go, and so does what comes for it.
   */
  private resyncLargest(): void {
    let largest: [string, Held] | undefined
    for (const entry of this.held) {
      if (entry[1].bytes > (this.wholeBytes.get(entry[0]) ?? 0) && (!largest || entry[1].bytes > largest[1].bytes)) largest = entry
    }
    if (!largest) return
    this.held.delete(largest[0])
    this.heldBytes -= largest[1].bytes
    this.resync.add(largest[0])
  }

  private forget(sessionId: string): void {
    const held = this.held.get(sessionId)
    if (held) this.heldBytes -= held.bytes
    this.held.delete(sessionId)
    this.resync.delete(sessionId)
    this.wholeBytes.delete(sessionId)
    for (const { bytes } of this.inFlight.get(sessionId) ?? []) this.inFlightBytes -= bytes
    this.inFlight.delete(sessionId)
  }
}

/** An action the merged batch may append to (an `updates` action gets an array of its own). */
function ownCopy(action: SessionAction): SessionAction {
  return action.type === 'updates' && Array.isArray(action.updates) ? { type: 'updates', updates: [...action.updates] } : action
}

/**
 * The calls a page makes, its `sessionActionsApplied` going to its own flow: the host knows which page called (the
 * socket, or the window's page once ipc.ts checked the sender), so the services' handlers cannot answer it.
 */
export function handlersForView(handlers: CallHandlers, flow: ViewFlow): CallHandlers {
  return {
    ...handlers,
    sessionActionsApplied: async ({ applied }) => {
      flow.applied(applied)
      return { ok: true, value: undefined }
    },
  }
}
