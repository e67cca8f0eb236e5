/**
 * Persists what the reducer applied, off the hot path: the sessions service hands over each session's
 * newest state after every batch (O(1): a reference), and a timer writes everything that changed since the
 * last write in one transaction. Entries are found by reference: the reducer copies an entry it touches
 * and never moves or removes one, so `written.entries[i] !== latest.entries[i]` is exactly "changed".
 * A message streamed in a thousand chunks is therefore written once per tick, merged.
 *
 * Only open sessions are tracked; a closed one is written and forgotten once the store confirms the write. A
 * failed write (disk full, read-only home) is reported once and retried later; the sessions keep working in memory
 * meanwhile, and a session closed meanwhile is kept (at most {@link MAX_CLOSED_UNSAVED}) and written with the rest.
 */
import type { IDisposable } from '../base/lifecycle'
import type { Logger } from '../base/log'
import type { Scheduler } from '../sessions/action-batcher'
import type { Entry, SessionState } from '../../common/session/types'
import type { HistorySummary } from '../../common/contract/history'
import { isHistoryOff, type EntryRow, type HistoryStore, type RawSessionWrite, type SessionRow, type SessionWrite, type StoredSession } from './history-store'
import { derivedTitle } from '../../common/session/title'
import { encodeEntry, encodeSessionState, sessionStateFields } from './entry-codec'
import { growthOf } from './entry-growth'

/** `stateJson` when the store encodes: the session-wide fields were handed over with `written`. */
const HANDED_OVER = '\u0000handed over'

/** At most this much is lost when Bosun is killed (plus the write itself). */
export const WRITE_INTERVAL_MS = 250
/** After a failed write, wait this long before trying again. */
const RETRY_INTERVAL_MS = 5_000
/**
 * While writes fail, the open sessions that changed are kept beside the history (`rescue`) at most this often, so a
 * crash or a kill loses at most about this much of them. Less often when keeping them costs more: see
 * {@link RESCUE_SHARE}.
 */
export const RESCUE_INTERVAL_MS = 30_000
/** Keeping the open sessions aside takes at most this share of main's time (a long session costs more each time). */
const RESCUE_SHARE = 0.02
/**
 * Closed sessions whose last changes the store has not confirmed (its writes fail), kept to be written once they work:
 * as many as may be open at once. Past it the oldest is given up, logged.
 */
export const MAX_CLOSED_UNSAVED = 100

interface Tracked {
  latest: SessionState
  /** Reads the newest state when `latest` may lag behind it (batches the sessions service has not applied yet). */
  current?: (() => SessionState) | undefined
  /** The state as last handed to the store (null: never): the next write holds what changed since. */
  written: SessionState | null
  /** The state the store confirmed (a write on the history thread succeeds or fails later). */
  acked: SessionState | null
  createdAt: number
  /**
   * When the session last did something the history lists it by: a new entry or a change of an entry, its title or
   * its turn state. Other changes are written without moving it (an agent that stopped, a usage update, Bosun quitting).
   */
  updatedAt: number
  capabilities: string | null
  /** The encoded session-wide state of `written`, reused while those fields keep their identity. */
  stateJson: string | null
  /** Title and turn state last written: a change tells the list to refresh. */
  listed: string | null
  /** The entries of the last raw write, by position: the store keeps them too, a message's growth is taken against them. */
  posted: Map<number, Entry>
  /**
   * The position after the last stored row, while the store may hold rows past the session's entries (a session opened
   * from the history whose entries were read into fewer): each write removes them until one is confirmed.
   */
  storedEnd?: number
  /**
   * The entries a session opened from the history was given (read again from its rows): written, but no news, so
   * they do not make it the most recently updated session (opening one to read it is not using it).
   */
  opened?: Entry[]
  /** The session was closed: it is kept only until the store confirms its last state (then forgotten). */
  closed?: true
  /**
   * Handed to `rescue` while writes failed: closed then, or kept aside while open (a crash before the store has it
   * does not lose it). Its copy goes once a write that holds at least that state is confirmed.
   */
  rescued?: true
  /** The state last handed to `rescue` while the session was open: unchanged, it is not kept again. */
  rescuedState?: SessionState
  /** The sequence number of the last write posted before it was kept aside: a later one holds what was kept. */
  rescuedAfterWrite?: number
}

const realScheduler: Scheduler = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

/** The fields of a state besides its entries that we store: unchanged references mean unchanged JSON. */
const sameSessionFields = (a: SessionState, b: SessionState) =>
  a.title === b.title &&
  a.infoMeta === b.infoMeta &&
  a.plans === b.plans &&
  a.availableCommands === b.availableCommands &&
  a.modes === b.modes &&
  a.models === b.models &&
  a.configOptions === b.configOptions &&
  a.usage === b.usage &&
  a.terminals === b.terminals &&
  a.permissions === b.permissions &&
  a.elicitations === b.elicitations &&
  a.turn === b.turn &&
  a.autoApprove === b.autoApprove &&
  a.updatedAt === b.updatedAt

export class HistoryRecorder implements IDisposable {
  private readonly tracked = new Map<string, Tracked>()
  private readonly dirty = new Set<string>()
  private handle: unknown = undefined
  private failing = false
  /** Writes posted so far (each write's sequence number). */
  private writes = 0
  /** When the open sessions may next be kept aside while writes fail (`rescue`). */
  private rescueDue = 0
  private disposed = false

  constructor(
    private readonly store: HistoryStore,
    private readonly options: {
      logger: Logger
      /** A write failed (message, and the error) or works again (null). */
      onProblem?: (message: string | null, error?: unknown) => void
      /** The list of sessions changed (new session, title, turn state). */
      onListChanged?: () => void
      intervalMs?: number
      scheduler?: Scheduler
      now?: () => number
      /**
       * While the history cannot be written, the sessions whose newest state the store has not confirmed, as the store
       * would give them, to keep elsewhere (`rescue.ts`): at quit (`quit`), at a session's close (`closed`), and the open
       * ones that changed every {@link RESCUE_INTERVAL_MS} or so (`open`). Without it they are lost.
       */
      rescue?: (sessions: StoredSession[], when: 'quit' | 'closed' | 'open') => void
      /** A session handed to `rescue` at its close is in the store now (or was deleted): its rescued copy can go. */
      rescueDone?: (sessionId: string) => void
    },
  ) {}

  private get scheduler(): Scheduler {
    return this.options.scheduler ?? realScheduler
  }

  private now(): number {
    return (this.options.now ?? Date.now)()
  }

  /**
   * Starts tracking an open session. `written` is the state the database already holds (a session opened
   * from history); absent for a new one.
   */
  track(state: SessionState, info: { capabilities?: unknown; createdAt?: number; updatedAt?: number; written?: SessionState; storedEnd?: number } = {}): void {
    if (this.disposed) return
    this.tracked.set(state.sessionId, {
      latest: state,
      written: info.written ?? null,
      acked: info.written ?? null,
      createdAt: info.createdAt ?? this.now(),
      updatedAt: info.updatedAt ?? this.now(),
      capabilities: info.capabilities !== undefined ? JSON.stringify(info.capabilities) : null,
      stateJson: null,
      listed: info.written ? this.listKey(info.written) : null,
      posted: new Map(),
      ...(info.storedEnd !== undefined && info.storedEnd > state.entries.length ? { storedEnd: info.storedEnd } : {}),
      ...(info.written ? { opened: state.entries } : {}),
    })
    if (info.written !== state) this.markDirty(state.sessionId)
  }

  /**
   * A batch was applied: remember the newest state; the next tick writes it. `current`: the newest state is read
   * from it when written (the batch was sent and is not applied to `state` yet).
   */
  changed(state: SessionState, current?: () => SessionState): void {
    const tracked = this.tracked.get(state.sessionId)
    if (!tracked || tracked.closed) return
    tracked.latest = state
    tracked.current = current
    this.markDirty(state.sessionId)
  }

  /**
   * The session was closed: write what is left and stop holding it once the store has it. Until the store confirms
   * it (a write on the history thread, or writes that fail), its last state is kept and written with the rest: a session
   * closed while the disk is full is saved once it is not.
   */
  forget(sessionId: string): void {
    const tracked = this.tracked.get(sessionId)
    if (!tracked || tracked.closed) return
    if (this.dirty.has(sessionId)) this.writeNow([sessionId])
    if (this.confirmed(sessionId, tracked)) return this.release(sessionId, tracked)
    tracked.closed = true
    // Its newest state was read by that write: what is written again is that one.
    if (tracked.current) tracked.latest = tracked.current()
    tracked.current = undefined
    // A closed session changes no more: kept beside the history now, it survives a crash too (an open one is kept at quit).
    if (this.failing && this.options.rescue) {
      this.options.rescue([storedSession(tracked.latest, tracked)], 'closed')
      tracked.rescued = true
      delete tracked.rescuedAfterWrite
    }
    const closed = [...this.tracked].filter(([, t]) => t.closed)
    if (closed.length <= MAX_CLOSED_UNSAVED) return
    const [oldest, given] = closed[0]!
    this.options.logger.warn(`history: gave up saving the last changes of closed session ${oldest} (${MAX_CLOSED_UNSAVED} closed sessions wait for the history to be written)`)
    this.release(oldest, given)
  }

  /** Whether the store confirmed the session's newest state, and nothing is left to write. */
  private confirmed(sessionId: string, tracked: Tracked): boolean {
    return tracked.acked === tracked.latest && !this.dirty.has(sessionId)
  }

  /** Stops holding the session; the store lets go of the entries it kept for the session's growth. */
  private release(sessionId: string, tracked: Tracked): void {
    if (tracked.posted.size) this.store.release?.(sessionId)
    this.tracked.delete(sessionId)
    this.dirty.delete(sessionId)
  }

  /** Stops tracking without writing (the session was deleted). */
  drop(sessionId: string): void {
    const tracked = this.tracked.get(sessionId)
    if (!tracked) return
    this.release(sessionId, tracked)
    if (tracked.rescued) this.options.rescueDone?.(sessionId)
  }

  /**
   * A closed session whose last state the store has not confirmed, opened again (from the history): it is no longer
   * held here, and comes back as the store would give it once written (the caller tracks it again, to be written whole).
   * Undefined when none is held.
   */
  takeClosed(sessionId: string): StoredSession | undefined {
    const tracked = this.tracked.get(sessionId)
    if (!tracked?.closed) return undefined
    this.release(sessionId, tracked)
    return storedSession(tracked.latest, tracked)
  }

  /** The closed sessions waiting for their write, as the history lists them: the store has not got them yet. */
  closedSummaries(): HistorySummary[] {
    const listed: HistorySummary[] = []
    for (const tracked of this.tracked.values()) {
      if (!tracked.closed || tracked.latest.entries.length === 0) continue
      const { capabilities: _capabilities, turnState, ...row } = sessionRow(tracked.latest, tracked)
      listed.push({ ...row, archived: false, interrupted: turnState !== 'idle' })
    }
    return listed
  }

  /** Whether a session of this id is held: open, or closed and not saved yet (a new session must not take its id). */
  holds(sessionId: string): boolean {
    return this.tracked.has(sessionId)
  }

  /** Whether the session is tracked as open (a closed one waiting for its write is not). */
  isTracked(sessionId: string): boolean {
    const tracked = this.tracked.get(sessionId)
    return tracked !== undefined && !tracked.closed
  }

  /** Writes everything pending now (quit, tests). */
  flush(): void {
    this.cancelTimer()
    this.writeNow([...this.dirty])
  }

  private markDirty(sessionId: string): void {
    this.dirty.add(sessionId)
    if (this.handle === undefined && !this.disposed) {
      this.handle = this.scheduler.setTimeout(() => this.tick(), this.failing ? RETRY_INTERVAL_MS : (this.options.intervalMs ?? WRITE_INTERVAL_MS))
    }
  }

  private listKey(state: SessionState): string {
    return `${derivedTitle(state) ?? ''}\u0000${state.turn.state}`
  }

  private writeNow(ids: string[]): void {
    // A store on its own thread encodes there: main only finds what changed.
    const raw = this.store.writeRaw !== undefined
    const writes: SessionWrite[] = []
    const rawWrites: RawSessionWrite[] = []
    const done: { tracked: Tracked; state: SessionState; stateJson: string; posted: Map<number, Entry>; seq: number }[] = []
    const seq = ++this.writes
    let listChanged = false
    const now = this.now()
    for (const id of ids) {
      const tracked = this.tracked.get(id)
      if (!tracked) continue
      if (tracked.current) tracked.latest = tracked.current()
      const { latest, written } = tracked
      const entries: EntryRow[] = []
      const rawEntries: RawSessionWrite['entries'] = []
      const posted = new Map<number, Entry>()
      if (written?.entries !== latest.entries) {
        const before = written?.entries ?? []
        for (let i = 0; i < latest.entries.length; i++) {
          const entry = latest.entries[i]!
          if (before[i] === entry) continue
          if (raw) {
            // The store has the version posted last time: a streamed message sends only its new end.
            const last = tracked.posted.get(i)
            const grown = last !== undefined && last === before[i] ? growthOf(last, entry) : null
            rawEntries.push(grown ? { position: i, grown } : { position: i, entry })
            posted.set(i, entry)
          } else entries.push(entryRow(entry, i))
        }
      }
      const unchanged = tracked.stateJson !== null && written !== null && sameSessionFields(written, latest)
      const stateJson = unchanged ? tracked.stateJson! : raw ? HANDED_OVER : encodeSessionState(latest)
      const listed = this.listKey(latest)
      if (listed !== tracked.listed || written === null) listChanged = true
      if (written === null || (written.entries !== latest.entries && latest.entries !== tracked.opened) || listed !== tracked.listed) tracked.updatedAt = now
      // Once the entries moved on from those, nothing more is kept of them.
      if (tracked.opened !== undefined && latest.entries !== tracked.opened) delete tracked.opened
      const session = sessionRow(latest, tracked)
      // Rows past the entries (stored before they were read into fewer) go, until a longer session has written over them.
      const end = tracked.storedEnd !== undefined && latest.entries.length < tracked.storedEnd ? { entriesEnd: latest.entries.length } : {}
      if (raw) rawWrites.push({ session: { ...session, ...(unchanged ? {} : { state: sessionStateFields(latest) }) }, entries: rawEntries, ...end })
      else writes.push({ session: { ...session, state: stateJson }, entries, ...end })
      done.push({ tracked, state: latest, stateJson, posted, seq })
    }
    for (const id of ids) this.dirty.delete(id)
    if (done.length === 0) return
    const epoch = this.epoch
    let result: void | Promise<void>
    try {
      result = raw ? this.store.writeRaw!(rawWrites) : this.store.write(writes)
    } catch (error) {
      // Nothing was handed over: write these again with the rest.
      for (const id of ids) if (this.tracked.has(id)) this.dirty.add(id)
      this.failed(error, epoch)
      return
    }
    // Later writes hold only what changed since this one; a failure (now or later) goes back to the last confirmed state.
    for (const { tracked, state, stateJson, posted } of done) {
      tracked.written = state
      tracked.stateJson = stateJson
      tracked.listed = this.listKey(state)
      tracked.posted = posted
    }
    if (result) {
      result.then(
        () => this.succeeded(done, epoch, listChanged),
        (error: unknown) => this.failed(error, epoch),
      )
    } else this.succeeded(done, epoch, listChanged)
  }

  /** Bumped by a failure: outcomes of the writes posted before it are stale (everything since is written again). */
  private epoch = 0

  private succeeded(done: { tracked: Tracked; state: SessionState; seq: number }[], epoch: number, listChanged: boolean): void {
    if (epoch !== this.epoch || this.disposed) return
    for (const { tracked, state, seq } of done) {
      tracked.acked = state
      delete tracked.storedEnd
      // Written once: later writes keep the stored capabilities (null).
      tracked.capabilities = null
      // Kept aside while open, and the store now has at least what was kept: the copy can go.
      if (tracked.rescued && !tracked.closed && tracked.rescuedAfterWrite !== undefined && seq > tracked.rescuedAfterWrite && this.tracked.get(state.sessionId) === tracked) {
        delete tracked.rescued
        delete tracked.rescuedState
        delete tracked.rescuedAfterWrite
        this.options.rescueDone?.(state.sessionId)
      }
      // Closed, and now saved: nothing more is kept of it.
      if (tracked.closed && this.tracked.get(state.sessionId) === tracked && this.confirmed(state.sessionId, tracked)) {
        this.release(state.sessionId, tracked)
        if (tracked.rescued) this.options.rescueDone?.(state.sessionId)
      }
    }
    if (this.failing) {
      this.failing = false
      this.options.logger.info('history writes work again')
      this.options.onProblem?.(null)
    }
    if (listChanged) this.options.onListChanged?.()
  }

  private failed(error: unknown, epoch: number): void {
    if (epoch !== this.epoch || this.disposed) return
    this.epoch++
    // Everything since the last confirmed write is written again (rows are upserts by position).
    for (const [id, tracked] of this.tracked) {
      if (tracked.written === tracked.acked) continue
      tracked.written = tracked.acked
      tracked.stateJson = null
      tracked.listed = tracked.acked ? this.listKey(tracked.acked) : null
      // Written again whole: the store may lack what a growth would be taken against.
      tracked.posted = new Map()
      this.dirty.add(id)
    }
    if (!this.failing) {
      this.failing = true
      // History off since it opened: its words already say what happens (the file is tried again).
      const message = isHistoryOff(error)
        ? String((error as Error).message)
        : `Bosun could not save the history (${error instanceof Error ? error.message : String(error)}). Sessions keep working; what they do is saved once writing works again.`
      this.options.logger.warn(message)
      this.options.onProblem?.(message, error)
    }
    if (this.handle === undefined) this.handle = this.scheduler.setTimeout(() => this.tick(), RETRY_INTERVAL_MS)
  }

  /** The timer: writes what changed; while writes fail, also keeps the open sessions aside when that is due. */
  private tick(): void {
    this.handle = undefined
    this.writeNow([...this.dirty])
    if (this.failing) this.keepOpenAside()
  }

  /**
   * While writes fail: the open sessions that changed since they were last kept go to `rescue`, so a crash or a kill
   * does not lose them (a quit keeps them anyway). At most every {@link RESCUE_INTERVAL_MS}, and less often when it
   * takes longer, so that it stays within {@link RESCUE_SHARE} of main's time.
   */
  private keepOpenAside(): void {
    const rescue = this.options.rescue
    const now = this.now()
    if (!rescue || now < this.rescueDue) return
    const started = performance.now()
    const kept: Tracked[] = []
    for (const tracked of this.tracked.values()) {
      if (tracked.closed || tracked.acked === tracked.latest || tracked.rescuedState === tracked.latest) continue
      kept.push(tracked)
    }
    if (kept.length === 0) return
    rescue(
      kept.map((tracked) => storedSession(tracked.latest, tracked)),
      'open',
    )
    for (const tracked of kept) {
      tracked.rescued = true
      tracked.rescuedState = tracked.latest
      tracked.rescuedAfterWrite = this.writes
    }
    this.rescueDue = now + Math.max(RESCUE_INTERVAL_MS, (performance.now() - started) / RESCUE_SHARE)
  }

  private cancelTimer(): void {
    if (this.handle !== undefined) this.scheduler.clearTimeout(this.handle)
    this.handle = undefined
  }

  /**
   * Quitting while the history cannot be written (writes fail, or the store says it is off): the sessions whose newest
   * state the store has not confirmed go to `rescue`. A store that works is trusted with the last write.
   */
  private rescueUnsaved(): void {
    const rescue = this.options.rescue
    if (!rescue) return
    let off = this.failing
    if (!off) {
      try {
        off = this.store.isOff?.() === true
      } catch {
        off = true
      }
    }
    if (!off) return
    const unsaved: StoredSession[] = []
    for (const tracked of this.tracked.values()) if (tracked.acked !== tracked.latest) unsaved.push(storedSession(tracked.latest, tracked))
    if (unsaved.length > 0) rescue(unsaved, 'quit')
  }

  dispose(): void {
    if (this.disposed) return
    this.flush()
    this.rescueUnsaved()
    this.disposed = true
    this.cancelTimer()
    this.tracked.clear()
    this.dirty.clear()
  }
}

/** A session's row as the recorder writes it (without its encoded state): what it holds, with the times it keeps. */
function sessionRow(state: SessionState, tracked: Tracked): Omit<SessionRow, 'state'> {
  return {
    sessionId: state.sessionId,
    agentId: state.agentId,
    acpSessionId: state.acpSessionId,
    cwd: state.cwd,
    title: derivedTitle(state),
    createdAt: tracked.createdAt,
    updatedAt: tracked.updatedAt,
    protocolVersion: state.protocolVersion,
    capabilities: tracked.capabilities,
    turnState: state.turn.state,
  }
}

/** A session as the store would give it once written whole (nothing of the person's: no custom title, not archived). */
const storedSession = (state: SessionState, tracked: Tracked): StoredSession => ({
  row: { ...sessionRow(state, tracked), state: encodeSessionState(state), customTitle: null, archived: false },
  entries: state.entries.map((entry, position) => entryRow(entry, position)),
})

/** An entry encoded at its position, as the store keeps it. */
const entryRow = (entry: Entry, position: number): EntryRow => ({ position, entryId: entry.id, kind: entry.kind, ...encodeEntry(entry) })
