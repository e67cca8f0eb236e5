/**
 * The database schema, as numbered migrations. `PRAGMA user_version` is the number of the last one applied;
 * each runs in its own transaction. Never edit a released migration: add the next one (the tests migrate a
 * fixture database made with {@link SCHEMA_V1} to the current version).
 */
import type { Database } from 'better-sqlite3'
import { searchTextOfBody } from './entry-codec'

/** Version 1: sessions and their entries (the first released schema; kept verbatim for the migration tests). */
export const SCHEMA_V1 = `
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL,
  acp_session_id TEXT NOT NULL,
  cwd TEXT NOT NULL,
  title TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  protocol_version INTEGER NOT NULL,
  capabilities TEXT,
  turn_state TEXT NOT NULL DEFAULT 'idle',
  state TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX sessions_by_update ON sessions (updated_at DESC);
CREATE TABLE entries (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  entry_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  body TEXT NOT NULL,
  UNIQUE (session_id, position)
);
`

interface Migration {
  version: number
  up(db: Database): void
}

export const MIGRATIONS: Migration[] = [
  { version: 1, up: (db) => db.exec(SCHEMA_V1) },
  {
    // Version 2: renames, archive, and full-text search (contentless: the text lives once, in `entries.body`).
    version: 2,
    up(db) {
      db.exec(`
        ALTER TABLE sessions ADD COLUMN custom_title TEXT;
        ALTER TABLE sessions ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
        CREATE VIRTUAL TABLE entries_fts USING fts5 (text, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2');
      `)
      // In pages: a statement cannot write while another one is still reading.
      const insert = db.prepare('INSERT INTO entries_fts (rowid, text) VALUES (?, ?)')
      const page = db.prepare('SELECT id, body FROM entries WHERE id > ? ORDER BY id LIMIT 500')
      for (let last = 0; ; ) {
        const rows = page.all(last) as { id: number; body: string }[]
        if (rows.length === 0) break
        for (const row of rows) {
          const text = searchTextOfBody(row.body)
          if (text) insert.run(row.id, text)
        }
        last = rows[rows.length - 1]!.id
      }
    },
  },
  {
    // Version 3: entries whose search text is not indexed yet. A write only notes them here; the index is
    // brought up to date when the writes pause (or before a search), so a flood is not tokenized at every
    // tick, and a message that grows over many ticks is indexed once. Kept in the file: what a crash left
    // unindexed is indexed at the next start.
    version: 3,
    up(db) {
      db.exec('CREATE TABLE search_pending (id INTEGER PRIMARY KEY)')
    },
  },
]

export const CURRENT_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version

/** Applies the migrations after the file's version, each in a transaction. */
export function migrate(db: Database): void {
  const current = db.pragma('user_version', { simple: true }) as number
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue
    db.transaction(() => {
      migration.up(db)
      db.pragma(`user_version = ${migration.version}`)
    })()
  }
}
