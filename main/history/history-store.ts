/**
 * The local database of sessions and their transcripts, behind one small interface (SQLite in
 * `sqlite-history-store.ts`; tests may use anything that implements it). Every method is synchronous and
 * may throw an I/O error (disk full, read-only home): the recorder and the service turn those into values.
 */
import type { IDisposable } from '../base/lifecycle'
import type { HistoryHit, HistorySummary } from '../../common/contract/history'
import type { Entry } from '../../common/session/types'
import type { EntryGrowth } from './entry-growth'

/** The session-wide columns written with every batch. */
export interface SessionRow {
  sessionId: string
  agentId: string
  acpSessionId: string
  cwd: string
  /** The agent's title (`session_info_update`), else the first prompt's text. */
  title: string | null
  createdAt: number
  updatedAt: number
  protocolVersion: 1 | 2
  /** JSON of the agent's capabilities for this session (as Bosun read them at `initialize`); null keeps the stored one. */
  capabilities: string | null
  /** `idle`, or the state of a turn still running when written. */
  turnState: string
  /** JSON of the session-wide state without its entries (plans, permissions, elicitations, modes, usage…), bounded. */
  state: string
}

/** One transcript entry, serialized and bounded by the recorder. */
export interface EntryRow {
  position: number
  entryId: string
  kind: string
  body: string
}

export interface SessionWrite {
  session: SessionRow
  entries: EntryRow[]
  /** The rows from this position on are removed (a session opened from the history holds fewer entries than were stored). */
  entriesEnd?: number
}

/**
 * A write before encoding, for a store that encodes on its own thread: the changed entries as the reducer
 * made them, the session-wide fields only when they changed since the last write (absent: unchanged).
 */
export interface RawSessionWrite {
  session: Omit<SessionRow, 'state'> & { state?: Record<string, unknown> }
  /**
   * Whole entries, or a message's growth since the version of it in this session's previous raw write
   * (`entry-growth.ts`: the store keeps the entries of each session's last raw write to apply it to).
   */
  entries: ({ position: number; entry: Entry } | { position: number; grown: EntryGrowth })[]
  /** As {@link SessionWrite.entriesEnd}. */
  entriesEnd?: number
}

export interface StoredSession {
  row: SessionRow & { customTitle: string | null; archived: boolean }
  /** Entry bodies in transcript order (JSON text, parsed by the caller so one bad row never hides the rest). */
  entries: { position: number; entryId: string; kind: string; body: string }[]
}

export interface HistoryStore extends IDisposable {
  /** The database file, or null for a store that keeps nothing (history unavailable). */
  readonly file: string | null
  /** Writes every session and entry in one transaction. */
  write(writes: SessionWrite[]): void | Promise<void>
  /**
   * Optional: takes the writes before encoding (the recorder then skips `entry-codec` on main's thread, and
   * posts a streamed message's growth instead of the whole message).
   */
  writeRaw?(writes: RawSessionWrite[]): Promise<void>
  /** With `writeRaw`: the session is no longer recorded, the entries kept for its growth can go. */
  release?(sessionId: string): void
  list(options?: { includeArchived?: boolean; limit?: number }): HistorySummary[]
  /** Optional: {@link list} answered later, so main's thread does not wait for a store that is busy writing. */
  listLater?(options?: { includeArchived?: boolean; limit?: number }): Promise<HistorySummary[]>
  summary(sessionId: string): HistorySummary | undefined
  load(sessionId: string): StoredSession | undefined
  /** Optional: moves a stored session to a free id `<sessionId>#n` (returned), for one made while history was off under its id. */
  keepAside?(sessionId: string): string
  has(sessionId: string): boolean
  rename(sessionId: string, title: string | null): boolean
  setArchived(sessionId: string, archived: boolean): boolean
  delete(sessionId: string): boolean
  search(query: string, limit: number): (Omit<HistoryHit, 'snippet'> & { body: string })[]
  /** Optional: {@link search} answered later (see {@link listLater}). */
  searchLater?(query: string, limit: number): Promise<(Omit<HistoryHit, 'snippet'> & { body: string })[]>
  /** Makes the write-ahead log part of the database file (on quit). */
  checkpoint(): void
  /** Optional: whether the history is off (its file could not be opened yet): writes now would fail. */
  isOff?(): boolean
}

/** The `code` of a write refused because history is off (its message says why, as the opening did). */
export const HISTORY_OFF = 'BOSUN_HISTORY_OFF'

/** Whether a failed write was refused because history is off (the person was told when it opened). */
export const isHistoryOff = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === HISTORY_OFF

/** A store that keeps nothing: used when the database cannot be opened, so sessions still work in memory. */
export class NullHistoryStore implements HistoryStore {
  readonly file = null
  isOff(): boolean {
    return true
  }
  write(_writes: SessionWrite[]): void {}
  list(): HistorySummary[] {
    return []
  }
  summary(): undefined {
    return undefined
  }
  load(): undefined {
    return undefined
  }
  has(): boolean {
    return false
  }
  rename(): boolean {
    return false
  }
  setArchived(): boolean {
    return false
  }
  delete(): boolean {
    return false
  }
  search(): [] {
    return []
  }
  checkpoint(): void {}
  dispose(): void {}
}
