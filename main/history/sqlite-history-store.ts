/**
 * The history in one SQLite file (`history.sqlite` in Bosun's home) through better-sqlite3: WAL, so a
 * crash loses at most the transaction being written and readers never block the writer; FTS5 for search.
 *
 * Opening never loses data silently: a file that is not a database, fails its integrity check or was made
 * by a newer Bosun is kept aside as `history.sqlite.corrupt-<time>` (with its -wal/-shm) and reported, and a
 * fresh file is used. A file that cannot be opened at all (read-only home) leaves history off, reported.
 */
import type Database from 'better-sqlite3'
import { existsSync, renameSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { HistorySummary } from '../../common/contract/history'
import type { EntryRow, HistoryStore, SessionRow, SessionWrite, StoredSession } from './history-store'
import { HISTORY_OFF, NullHistoryStore } from './history-store'
import { CURRENT_VERSION, migrate } from './schema'
import { searchTextOfBody } from './entry-codec'
import { lazyRequire } from '../base/lazy-require'

/**
 * The SQLite binding, loaded when a database is opened: on the history's own thread, or on main's only when that
 * thread cannot start. Imported at the top, main's thread loaded the native module (about 8 MiB of RSS) for a
 * store it never opens there.
 */
const loadSqlite = lazyRequire<typeof Database>('better-sqlite3')

export const HISTORY_FILE = 'history.sqlite'

/**
 * SQLite copies the WAL into the file (a checkpoint, with its fsync) once the WAL holds this many pages after a commit
 * (its default is 1,000, about 4 MiB). A flood writes more than that in a few seconds, and each checkpoint in the middle
 * of it cost the history thread a fifth of its CPU and most of its time (on a busy disk, more); here the WAL may reach
 * about 32 MiB while writes go on, and is copied when they pause (after the search index caught up), so a burst is
 * copied once, after it. Still bounded: writes that never pause checkpoint at this size.
 */
export const WAL_AUTOCHECKPOINT_PAGES = 8_192

export interface OpenedHistory {
  store: HistoryStore
  /** What went wrong while opening, for the person (null: all well). */
  problem: string | null
}

class UnusableFile extends Error {}

type Row = {
  id: string
  agent_id: string
  acp_session_id: string
  cwd: string
  title: string | null
  custom_title: string | null
  created_at: number
  updated_at: number
  protocol_version: number
  capabilities: string | null
  turn_state: string
  state: string
  archived: number
}

const SUMMARY_COLUMNS = 'id, agent_id, acp_session_id, cwd, title, custom_title, created_at, updated_at, protocol_version, turn_state, archived'

function toSummary(row: Omit<Row, 'capabilities' | 'state'>): HistorySummary {
  return {
    sessionId: row.id,
    agentId: row.agent_id,
    acpSessionId: row.acp_session_id,
    cwd: row.cwd,
    title: row.custom_title ?? row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    protocolVersion: row.protocol_version === 2 ? 2 : 1,
    archived: row.archived !== 0,
    interrupted: row.turn_state !== 'idle',
  }
}

export interface SearchIndexOptions {
  /** Writes must pause this long before the search index catches up (ms). */
  idleMs?: number
  /** Under writes that never pause, the index still catches up (whole) once what waits is this old (ms). */
  maxDeferMs?: number
  /** How long one slice of indexing may hold the thread (ms). */
  sliceMs?: number
}

/** Turns what a person types into an FTS5 query: every word must match, the last one as a prefix. */
export function toFtsQuery(input: string): string | null {
  const words = input.toLowerCase().match(/[\p{L}\p{N}_]+/gu)
  if (!words?.length) return null
  return words.map((w, i) => `"${w}"${i === words.length - 1 ? '*' : ''}`).join(' ')
}

/**
 * Search text is indexed behind the writes: a write notes its entries in `search_pending` (in the same
 * transaction, so a crash loses nothing) and the FTS index catches up when the writes pause, in slices, or at
 * once before a search. A flood is then tokenized once, after it, instead of at every tick while main and the
 * agent need the CPU, and a message that grew over many ticks is indexed once, whole.
 */
export class SqliteHistoryStore implements HistoryStore {
  private readonly statements
  private readonly index: Required<SearchIndexOptions>
  private indexTimer: ReturnType<typeof setTimeout> | undefined
  /** When the oldest entry still waiting for the index was written (performance.now()), or null: none waits. */
  private waitingSince: number | null = null

  constructor(
    private readonly db: Database.Database,
    readonly file: string,
    options: SearchIndexOptions = {},
  ) {
    this.index = { idleMs: options.idleMs ?? 400, maxDeferMs: options.maxDeferMs ?? 5_000, sliceMs: options.sliceMs ?? 30 }
    const prepare = (sql: string) => db.prepare(sql)
    this.statements = {
      upsertSession: prepare(`
        INSERT INTO sessions (id, agent_id, acp_session_id, cwd, title, created_at, updated_at, protocol_version, capabilities, turn_state, state)
        VALUES (@sessionId, @agentId, @acpSessionId, @cwd, @title, @createdAt, @updatedAt, @protocolVersion, @capabilities, @turnState, @state)
        ON CONFLICT (id) DO UPDATE SET
          title = excluded.title, updated_at = excluded.updated_at, turn_state = excluded.turn_state, state = excluded.state,
          acp_session_id = excluded.acp_session_id, capabilities = coalesce(excluded.capabilities, capabilities)`),
      upsertEntry: prepare(`
        INSERT INTO entries (session_id, position, entry_id, kind, body) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (session_id, position) DO UPDATE SET entry_id = excluded.entry_id, kind = excluded.kind, body = excluded.body
        RETURNING id`),
      // One statement for a write's entries (a JSON array of their ids), not one per entry: a flood's tick holds thousands.
      markPending: prepare('INSERT OR IGNORE INTO search_pending (id) SELECT value FROM json_each(?)'),
      pendingPage: prepare('SELECT p.id AS id, e.body AS body FROM search_pending p LEFT JOIN entries e ON e.id = p.id ORDER BY p.id LIMIT ?'),
      unmarkPending: prepare('DELETE FROM search_pending WHERE id = ?'),
      anyPending: prepare('SELECT 1 FROM search_pending LIMIT 1'),
      deletePending: prepare('DELETE FROM search_pending WHERE id IN (SELECT id FROM entries WHERE session_id = ?)'),
      deleteText: prepare('DELETE FROM entries_fts WHERE rowid = ?'),
      insertText: prepare('INSERT INTO entries_fts (rowid, text) VALUES (?, ?)'),
      list: prepare(`SELECT ${SUMMARY_COLUMNS} FROM sessions WHERE archived = 0 OR @all ORDER BY updated_at DESC LIMIT @limit`),
      summary: prepare(`SELECT ${SUMMARY_COLUMNS} FROM sessions WHERE id = ?`),
      session: prepare('SELECT * FROM sessions WHERE id = ?'),
      entries: prepare('SELECT position, entry_id AS entryId, kind, body FROM entries WHERE session_id = ? ORDER BY position'),
      rename: prepare('UPDATE sessions SET custom_title = ? WHERE id = ?'),
      archive: prepare('UPDATE sessions SET archived = ? WHERE id = ?'),
      deleteTexts: prepare('DELETE FROM entries_fts WHERE rowid IN (SELECT id FROM entries WHERE session_id = ?)'),
      deleteEntries: prepare('DELETE FROM entries WHERE session_id = ?'),
      deletePendingFrom: prepare('DELETE FROM search_pending WHERE id IN (SELECT id FROM entries WHERE session_id = ? AND position >= ?)'),
      deleteTextsFrom: prepare('DELETE FROM entries_fts WHERE rowid IN (SELECT id FROM entries WHERE session_id = ? AND position >= ?)'),
      deleteEntriesFrom: prepare('DELETE FROM entries WHERE session_id = ? AND position >= ?'),
      deleteSession: prepare('DELETE FROM sessions WHERE id = ?'),
      search: prepare(`
        SELECT e.session_id AS sessionId, e.entry_id AS entryId, e.kind AS kind, e.body AS body,
               coalesce(s.custom_title, s.title) AS title, s.cwd AS cwd, s.archived AS archived
        FROM entries_fts f JOIN entries e ON e.id = f.rowid JOIN sessions s ON s.id = e.session_id
        WHERE entries_fts MATCH ? ORDER BY f.rowid DESC LIMIT ?`),
    }
    // What a crash left unindexed.
    if (this.statements.anyPending.get() !== undefined) {
      this.waitingSince = performance.now()
      this.scheduleIndex(this.index.idleMs)
    }
  }

  write(writes: SessionWrite[]): void {
    if (writes.length === 0) return
    this.writeAll(writes)
    if (!writes.some((w) => w.entries.length > 0)) return
    const now = performance.now()
    this.waitingSince ??= now
    // Writes that never pause: the index catches up whole now and then, so it is never more than that far behind.
    if (now - this.waitingSince >= this.index.maxDeferMs) this.tryCatchUp()
    this.scheduleIndex(this.index.idleMs)
  }

  /** Entries written but not in the search index yet (tests, the bench). */
  get searchBacklog(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM search_pending').get() as { n: number }).n
  }

  /**
   * Indexes what waits for the search index, oldest first, in transactions of a page each, until nothing
   * waits or `budgetMs` is spent. Returns whether nothing waits any more.
   */
  catchUpSearch(budgetMs = Infinity): boolean {
    const start = performance.now()
    for (;;) {
      if (this.db.transaction(() => this.indexPage())() === 0) {
        this.waitingSince = null
        return true
      }
      if (performance.now() - start >= budgetMs) return false
    }
  }

  /** One page of what waits, indexed in one transaction; how many entries it held. */
  private indexPage(): number {
    const s = this.statements
    const rows = s.pendingPage.all(200) as { id: number; body: string | null }[]
    for (const { id, body } of rows) {
      // Also for a row never indexed: a contentless FTS table ignores the delete of a rowid it lacks.
      s.deleteText.run(id)
      const text = body === null ? '' : searchTextOfBody(body)
      if (text) s.insertText.run(id, text)
      s.unmarkPending.run(id)
    }
    return rows.length
  }

  /**
   * {@link catchUpSearch} where failing must not fail the caller (a write already committed, a search that can
   * still answer from what is indexed, a timer): on a full disk what waits stays noted, and the next write,
   * search or pause tries again. Returns false only when the budget ran out with more waiting (slice again).
   */
  private tryCatchUp(budgetMs = Infinity): boolean {
    try {
      return this.catchUpSearch(budgetMs)
    } catch {
      return true
    }
  }

  private scheduleIndex(delayMs: number): void {
    if (this.indexTimer) clearTimeout(this.indexTimer)
    this.indexTimer = setTimeout(() => {
      this.indexTimer = undefined
      if (!this.db.open) return
      // A slice, then the thread is free for the next write before the following one.
      if (!this.tryCatchUp(this.index.sliceMs)) this.scheduleIndex(0)
      // The writes paused and the index caught up: what the WAL holds goes into the file now (see WAL_AUTOCHECKPOINT_PAGES).
      else this.checkpointQuietly()
    }, delayMs)
    this.indexTimer.unref?.()
  }

  private readonly writeAll = (writes: SessionWrite[]) =>
    this.db.transaction((items: SessionWrite[]) => {
      const s = this.statements
      const written: number[] = []
      for (const { session, entries, entriesEnd } of items) {
        s.upsertSession.run(session satisfies SessionRow)
        if (entriesEnd !== undefined) {
          s.deletePendingFrom.run(session.sessionId, entriesEnd)
          s.deleteTextsFrom.run(session.sessionId, entriesEnd)
          s.deleteEntriesFrom.run(session.sessionId, entriesEnd)
        }
        for (const entry of entries as EntryRow[]) {
          const { id } = s.upsertEntry.get(session.sessionId, entry.position, entry.entryId, entry.kind, entry.body) as { id: number }
          written.push(id)
        }
      }
      if (written.length > 0) s.markPending.run(JSON.stringify(written))
    })(writes)

  list(options: { includeArchived?: boolean; limit?: number } = {}): HistorySummary[] {
    const rows = this.statements.list.all({ all: options.includeArchived ? 1 : 0, limit: options.limit ?? 5_000 }) as Row[]
    return rows.map(toSummary)
  }

  summary(sessionId: string): HistorySummary | undefined {
    const row = this.statements.summary.get(sessionId) as Row | undefined
    return row ? toSummary(row) : undefined
  }

  has(sessionId: string): boolean {
    return this.statements.summary.get(sessionId) !== undefined
  }

  load(sessionId: string): StoredSession | undefined {
    const row = this.statements.session.get(sessionId) as Row | undefined
    if (!row) return undefined
    return {
      row: {
        sessionId: row.id,
        agentId: row.agent_id,
        acpSessionId: row.acp_session_id,
        cwd: row.cwd,
        title: row.title,
        customTitle: row.custom_title,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        protocolVersion: row.protocol_version === 2 ? 2 : 1,
        capabilities: row.capabilities,
        turnState: row.turn_state,
        state: row.state,
        archived: row.archived !== 0,
      },
      entries: this.statements.entries.all(sessionId) as StoredSession['entries'],
    }
  }

  rename(sessionId: string, title: string | null): boolean {
    return this.statements.rename.run(title, sessionId).changes > 0
  }

  /**
   * Moves the stored session `sessionId` (its row and its entries) to a free id `<sessionId>#n`, which it keeps from
   * now on; returns that id. For a session made while history was off, whose id an older stored one has.
   */
  keepAside(sessionId: string): string {
    return this.db.transaction(() => {
      let n = 2
      while (this.has(`${sessionId}#${n}`)) n++
      const aside = `${sessionId}#${n}`
      const columns = (this.db.pragma('table_info(sessions)') as { name: string }[]).map((c) => `"${c.name}"`).filter((c) => c !== '"id"')
      this.db.prepare(`INSERT INTO sessions (id, ${columns.join(', ')}) SELECT ?, ${columns.join(', ')} FROM sessions WHERE id = ?`).run(aside, sessionId)
      this.db.prepare('UPDATE entries SET session_id = ? WHERE session_id = ?').run(aside, sessionId)
      this.statements.deleteSession.run(sessionId)
      return aside
    })()
  }

  setArchived(sessionId: string, archived: boolean): boolean {
    return this.statements.archive.run(archived ? 1 : 0, sessionId).changes > 0
  }

  delete(sessionId: string): boolean {
    return this.db.transaction(() => {
      this.statements.deletePending.run(sessionId)
      this.statements.deleteTexts.run(sessionId)
      this.statements.deleteEntries.run(sessionId)
      return this.statements.deleteSession.run(sessionId).changes > 0
    })()
  }

  search(query: string, limit: number) {
    const fts = toFtsQuery(query)
    if (!fts) return []
    // Whatever was written is found.
    this.tryCatchUp()
    const rows = this.statements.search.all(fts, limit) as { sessionId: string; entryId: string; kind: string; body: string; title: string | null; cwd: string; archived: number }[]
    return rows.map((r) => ({ ...r, archived: r.archived !== 0 }))
  }

  checkpoint(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)')
  }

  /** The checkpoint SQLite would have made at a commit (PASSIVE: it waits for no reader); a refusal (full disk) is left to the next one. */
  private checkpointQuietly(): void {
    try {
      this.db.pragma('wal_checkpoint(PASSIVE)')
    } catch {
      // The WAL keeps every committed write meanwhile.
    }
  }

  dispose(): void {
    if (this.indexTimer) clearTimeout(this.indexTimer)
    this.indexTimer = undefined
    if (!this.db.open) return
    try {
      this.checkpoint()
    } catch {
      // A full disk may refuse the checkpoint; the WAL is still read back next time.
    }
    this.db.close()
  }
}

/** How long a statement waits for a lock another connection holds (another program reading the file, a checkpoint). */
const BUSY_TIMEOUT_MS = 2_000
/**
 * The same, while history that could not be opened is tried again: the attempt runs on the history's thread, and a
 * call main waits for (`has`, `load`) must not wait seconds behind it.
 */
const RETRY_BUSY_TIMEOUT_MS = 50

function openFile(file: string, busyTimeoutMs = BUSY_TIMEOUT_MS): Database.Database {
  const Sqlite = loadSqlite()
  const db = new Sqlite(file)
  try {
    db.pragma(`busy_timeout = ${busyTimeoutMs}`)
    // Checked before anything writes to the file (the journal mode is written into it): a file Bosun will not use is
    // kept aside exactly as it was.
    const version = db.pragma('user_version', { simple: true }) as number
    if (version > CURRENT_VERSION) throw new UnusableFile(`it was written by a newer version of Bosun (schema ${version}, this one reads up to ${CURRENT_VERSION})`)
    if (version === 0 && (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").get() as { n: number }).n > 0) {
      throw new UnusableFile('it is another program’s database, not a Bosun history')
    }
    const check = db.pragma('quick_check', { simple: true })
    if (check !== 'ok') throw new UnusableFile(`its integrity check failed (${String(check).slice(0, 200)})`)
    db.pragma('journal_mode = WAL')
    // NORMAL in WAL mode: a commit survives a crash of Bosun; only an OS crash may lose the last ones.
    db.pragma('synchronous = NORMAL')
    db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`)
    db.pragma('foreign_keys = ON')
    migrate(db)
    if (busyTimeoutMs !== BUSY_TIMEOUT_MS) db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`)
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

/** The store on the file; a file whose tables are not Bosun's (the statements do not compile) is unusable, its handle closed. */
function storeOn(file: string, searchIndex: SearchIndexOptions | undefined, busyTimeoutMs?: number): SqliteHistoryStore {
  const db = openFile(file, busyTimeoutMs)
  try {
    return new SqliteHistoryStore(db, file, searchIndex)
  } catch (error) {
    db.close()
    throw new UnusableFile(`its tables are not what this Bosun expects (${error instanceof Error ? error.message : String(error)})`)
  }
}

const isCorruption = (error: unknown) => {
  const code = (error as { code?: unknown })?.code
  return error instanceof UnusableFile || code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB'
}

/** What the person can do about a history file SQLite would not open, when its error says (else nothing). */
function whatToDo(file: string, error: unknown): string {
  const code = (error as { code?: unknown })?.code
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return ' Another program holds it (a database viewer, or a Bosun on this home that its lock did not stop): close that program.'
  }
  try {
    if (statSync(file).isDirectory()) return ' It is a folder: move or remove it.'
  } catch {
    // Not there, or not for us to look at: SQLite's words are all there is.
  }
  return ''
}

/**
 * Opens (or creates) the history database in `home`; never throws. When it cannot be opened (history off), the store
 * tries again as sessions are written ({@link ReopeningHistoryStore}).
 */
export function openHistoryStore(home: string, options: { now?: () => number; searchIndex?: SearchIndexOptions; retryMs?: number } = {}): OpenedHistory {
  const opened = openHistoryFile(home, options)
  if (opened.store.file !== null || opened.problem === null) return opened
  const store = new ReopeningHistoryStore(join(home, HISTORY_FILE), opened.problem, () => openHistoryFile(home, { ...options, busyTimeoutMs: RETRY_BUSY_TIMEOUT_MS }), options.retryMs)
  return { store, problem: opened.problem }
}

/** One attempt at {@link openHistoryStore}: history off (a store that keeps nothing) when the file cannot be opened. */
function openHistoryFile(home: string, options: { now?: () => number; searchIndex?: SearchIndexOptions; busyTimeoutMs?: number }): OpenedHistory {
  const file = join(home, HISTORY_FILE)
  try {
    return { store: storeOn(file, options.searchIndex, options.busyTimeoutMs), problem: null }
  } catch (error) {
    const reason = error instanceof UnusableFile ? error.message : error instanceof Error ? error.message : String(error)
    if (!isCorruption(error) || !existsSync(file)) {
      return { store: new NullHistoryStore(), problem: `History is off: Bosun could not open ${file} (${reason}).${whatToDo(file, error)} Bosun tries again every few seconds; until then, sessions are saved beside it about every half minute while they change, and when Bosun quits.` }
    }
    const aside = `${file}.corrupt-${(options.now ?? Date.now)()}`
    try {
      renameSync(file, aside)
      for (const suffix of ['-wal', '-shm']) if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix)
    } catch (renameError) {
      return { store: new NullHistoryStore(), problem: `History is off: ${file} is unusable (${reason}) and could not be kept aside (${String(renameError)}).` }
    }
    try {
      return {
        store: storeOn(file, options.searchIndex, options.busyTimeoutMs),
        problem: `The history file could not be used because ${reason}. It was kept as ${aside}; a new history was started.`,
      }
    } catch (again) {
      return { store: new NullHistoryStore(), problem: `History is off: a new ${file} could not be created (${String(again)}).` }
    }
  }
}

/** How long history that could not be opened waits between two attempts. */
export const REOPEN_INTERVAL_MS = 5_000

/**
 * History that could not be opened (another program holds the file, a folder in its place, a read-only or full disk),
 * opened again while Bosun runs. Until it opens, its writes fail (the recorder keeps the sessions, open and closed, and
 * writes them again: recorder.ts) and it reads as empty; each write, and each listing, tries again at most every
 * {@link REOPEN_INTERVAL_MS}. Sessions made meanwhile took their ids without the file to ask: a stored session under the
 * same id (an agent that numbers its sessions) is kept aside under `<id>#n` before the new one is written over it.
 */
export class ReopeningHistoryStore implements HistoryStore {
  private opened: HistoryStore | undefined
  private lastTry: number
  /** Sessions written while it was off, or in its first write once open: made without the file to ask (see above). */
  private madeWhileOff: Set<string> | undefined = new Set()

  constructor(
    /** The file it opens: sessions are recorded (and their writes retried) as for an open one. */
    readonly file: string,
    private problem: string,
    private readonly open: () => OpenedHistory,
    private readonly retryMs = REOPEN_INTERVAL_MS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.lastTry = now()
  }

  /** The open store, after one more attempt when the last one is old enough; undefined while history is off. */
  private store(): HistoryStore | undefined {
    if (this.opened) return this.opened
    if (this.now() - this.lastTry < this.retryMs) return undefined
    this.lastTry = this.now()
    const attempt = this.open()
    if (attempt.store.file === null) {
      attempt.store.dispose()
      if (attempt.problem) this.problem = attempt.problem
      return undefined
    }
    this.opened = attempt.store
    return this.opened
  }

  write(writes: SessionWrite[]): void | Promise<void> {
    const store = this.store()
    const made = this.madeWhileOff
    if (!store) {
      for (const { session } of writes) made?.add(session.sessionId)
      throw Object.assign(new Error(this.problem), { code: HISTORY_OFF })
    }
    if (made) {
      for (const { session } of writes) made.add(session.sessionId)
      // One at a time, each forgotten once kept aside: a failure here (a full disk) leaves the rest for the next write.
      for (const id of [...made]) {
        if (store.has(id)) store.keepAside?.(id)
        made.delete(id)
      }
      this.madeWhileOff = undefined
    }
    return store.write(writes)
  }

  list(options?: { includeArchived?: boolean; limit?: number }): HistorySummary[] {
    return this.store()?.list(options) ?? []
  }
  summary(sessionId: string): HistorySummary | undefined {
    return this.opened?.summary(sessionId)
  }
  load(sessionId: string): StoredSession | undefined {
    return this.opened?.load(sessionId)
  }
  has(sessionId: string): boolean {
    return this.opened?.has(sessionId) ?? false
  }
  rename(sessionId: string, title: string | null): boolean {
    return this.opened?.rename(sessionId, title) ?? false
  }
  setArchived(sessionId: string, archived: boolean): boolean {
    return this.opened?.setArchived(sessionId, archived) ?? false
  }
  delete(sessionId: string): boolean {
    return this.opened?.delete(sessionId) ?? false
  }
  search(query: string, limit: number): ReturnType<HistoryStore['search']> {
    return this.opened?.search(query, limit) ?? []
  }
  checkpoint(): void {
    this.opened?.checkpoint()
  }
  keepAside(sessionId: string): string {
    if (!this.opened?.keepAside) throw Object.assign(new Error(this.problem), { code: HISTORY_OFF })
    return this.opened.keepAside(sessionId)
  }
  /** Off until the file opens (one more attempt when the last one is old enough). */
  isOff(): boolean {
    return this.store() === undefined
  }
  dispose(): void {
    this.opened?.dispose()
  }
}
