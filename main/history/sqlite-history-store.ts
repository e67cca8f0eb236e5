/**
 * The history in one SQLite file (`history.sqlite` in Bosun's home) through better-sqlite3: WAL, so a
 * crash loses at most the transaction being written and readers never block the writer; FTS5 for search.
 *
 * Opening never loses data silently: a file that is not a database, fails its integrity check or was made
 * by a newer Bosun is kept aside as `history.sqlite.corrupt-<time>` (with its -wal/-shm) and reported, and a
 * fresh file is used. A file that cannot be opened at all (read-only home) leaves history off, reported.
 */
import Database from 'better-sqlite3'
import { existsSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import type { HistorySummary } from '../../common/contract/history'
import type { EntryRow, HistoryStore, SessionRow, SessionWrite, StoredSession } from './history-store'
import { NullHistoryStore } from './history-store'
import { CURRENT_VERSION, migrate } from './schema'

export const HISTORY_FILE = 'history.sqlite'

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

/** Turns what a person types into an FTS5 query: every word must match, the last one as a prefix. */
export function toFtsQuery(input: string): string | null {
  const words = input.toLowerCase().match(/[\p{L}\p{N}_]+/gu)
  if (!words?.length) return null
  return words.map((w, i) => `"${w}"${i === words.length - 1 ? '*' : ''}`).join(' ')
}

export class SqliteHistoryStore implements HistoryStore {
  private readonly statements

  constructor(
    private readonly db: Database.Database,
    readonly file: string,
  ) {
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
      deleteSession: prepare('DELETE FROM sessions WHERE id = ?'),
      search: prepare(`
        SELECT e.session_id AS sessionId, e.entry_id AS entryId, e.kind AS kind, e.body AS body,
               coalesce(s.custom_title, s.title) AS title, s.cwd AS cwd, s.archived AS archived
        FROM entries_fts f JOIN entries e ON e.id = f.rowid JOIN sessions s ON s.id = e.session_id
        WHERE entries_fts MATCH ? ORDER BY f.rowid DESC LIMIT ?`),
    }
  }

  write(writes: SessionWrite[]): void {
    if (writes.length === 0) return
    this.writeAll(writes)
  }

  private readonly writeAll = (writes: SessionWrite[]) =>
    this.db.transaction((items: SessionWrite[]) => {
      const s = this.statements
      for (const { session, entries } of items) {
        s.upsertSession.run(session satisfies SessionRow)
        for (const entry of entries as EntryRow[]) {
          const { id } = s.upsertEntry.get(session.sessionId, entry.position, entry.entryId, entry.kind, entry.body) as { id: number }
          if (!entry.fresh) s.deleteText.run(id)
          if (entry.text) s.insertText.run(id, entry.text)
        }
      }
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

  setArchived(sessionId: string, archived: boolean): boolean {
    return this.statements.archive.run(archived ? 1 : 0, sessionId).changes > 0
  }

  delete(sessionId: string): boolean {
    return this.db.transaction(() => {
      this.statements.deleteTexts.run(sessionId)
      this.statements.deleteEntries.run(sessionId)
      return this.statements.deleteSession.run(sessionId).changes > 0
    })()
  }

  search(query: string, limit: number) {
    const fts = toFtsQuery(query)
    if (!fts) return []
    const rows = this.statements.search.all(fts, limit) as { sessionId: string; entryId: string; kind: string; body: string; title: string | null; cwd: string; archived: number }[]
    return rows.map((r) => ({ ...r, archived: r.archived !== 0 }))
  }

  checkpoint(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)')
  }

  dispose(): void {
    if (!this.db.open) return
    try {
      this.checkpoint()
    } catch {
      // A full disk may refuse the checkpoint; the WAL is still read back next time.
    }
    this.db.close()
  }
}

function openFile(file: string): Database.Database {
  const db = new Database(file)
  try {
    db.pragma('journal_mode = WAL')
    // NORMAL in WAL mode: a commit survives a crash of Bosun; only an OS crash may lose the last ones.
    db.pragma('synchronous = NORMAL')
    db.pragma('foreign_keys = ON')
    db.pragma('busy_timeout = 2000')
    const version = db.pragma('user_version', { simple: true }) as number
    if (version > CURRENT_VERSION) throw new UnusableFile(`it was written by a newer version of Bosun (schema ${version}, this one reads up to ${CURRENT_VERSION})`)
    const check = db.pragma('quick_check', { simple: true })
    if (check !== 'ok') throw new UnusableFile(`its integrity check failed (${String(check).slice(0, 200)})`)
    migrate(db)
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

const isCorruption = (error: unknown) => {
  const code = (error as { code?: unknown })?.code
  return error instanceof UnusableFile || code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB'
}

/** Opens (or creates) the history database in `home`; never throws. */
export function openHistoryStore(home: string, options: { now?: () => number } = {}): OpenedHistory {
  const file = join(home, HISTORY_FILE)
  try {
    return { store: new SqliteHistoryStore(openFile(file), file), problem: null }
  } catch (error) {
    const reason = error instanceof UnusableFile ? error.message : error instanceof Error ? error.message : String(error)
    if (!isCorruption(error) || !existsSync(file)) {
      return { store: new NullHistoryStore(), problem: `History is off: Bosun could not open ${file} (${reason}). Sessions are kept in memory only until you quit.` }
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
        store: new SqliteHistoryStore(openFile(file), file),
        problem: `The history file could not be used because ${reason}. It was kept as ${aside}; a new history was started.`,
      }
    } catch (again) {
      return { store: new NullHistoryStore(), problem: `History is off: a new ${file} could not be created (${String(again)}).` }
    }
  }
}
