import Database from 'better-sqlite3'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { HISTORY_FILE, openHistoryStore, ReopeningHistoryStore, SqliteHistoryStore, type SearchIndexOptions } from '../../../main/history/sqlite-history-store'
import { CURRENT_VERSION, SCHEMA_V1 } from '../../../main/history/schema'
import { MAX_BODY, decodeEntry, encodeEntry, searchTextOfBody } from '../../../main/history/entry-codec'
import { NullHistoryStore, type HistoryStore, type SessionRow } from '../../../main/history/history-store'
import type { Entry } from '../../../common/session/types'

const homes: string[] = []
const stores: HistoryStore[] = []
afterEach(() => {
  for (const store of stores.splice(0)) store.dispose()
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true })
})

function tempHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'bosun-history-'))
  homes.push(home)
  return home
}

/** A history file as a newer Bosun would leave it: a schema version past this one's. */
function writeNewerHistory(home: string): void {
  const newer = new Database(join(home, HISTORY_FILE))
  newer.exec('CREATE TABLE future (x)')
  newer.pragma(`user_version = ${CURRENT_VERSION + 5}`)
  newer.close()
}

function open(home: string, searchIndex?: SearchIndexOptions) {
  const opened = openHistoryStore(home, { now: () => 1700000000000, ...(searchIndex ? { searchIndex } : {}) })
  stores.push(opened.store)
  return opened
}

const row = (over: Partial<SessionRow> = {}): SessionRow => ({
  sessionId: 'agent/s1',
  agentId: 'agent',
  acpSessionId: 's1',
  cwd: '/work/project',
  title: 'Fix the build',
  createdAt: 1000,
  updatedAt: 2000,
  protocolVersion: 1,
  capabilities: '{"loadSession":true}',
  turnState: 'idle',
  state: '{}',
  ...over,
})

const message = (id: string, text: string, kind: 'user_message' | 'agent_message' = 'agent_message'): Entry => ({ kind, id, content: [{ type: 'text', text }] })

describe('the history database file', () => {
  it('migrates a version 1 database: keeps its sessions and entries and makes them searchable', () => {
    const home = tempHome()
    // The fixture: a database as the first released Bosun wrote it.
    const v1 = new Database(join(home, HISTORY_FILE))
    v1.exec(SCHEMA_V1)
    v1.pragma('user_version = 1')
    v1.prepare(
      `INSERT INTO sessions (id, agent_id, acp_session_id, cwd, title, created_at, updated_at, protocol_version, capabilities, turn_state, state)
       VALUES ('a/s1', 'a', 's1', '/src/app', 'Old one', 10, 20, 1, NULL, 'running', '{}')`,
    ).run()
    const insert = v1.prepare('INSERT INTO entries (session_id, position, entry_id, kind, body) VALUES (?, ?, ?, ?, ?)')
    insert.run('a/s1', 0, 'user:1', 'user_message', JSON.stringify(message('user:1', 'please refactor the parser', 'user_message')))
    insert.run('a/s1', 1, 'm1', 'agent_message', JSON.stringify(message('m1', 'The tokenizer is done')))
    insert.run('a/s1', 2, 'broken', 'agent_message', '{not json')
    v1.close()

    const { store, problem } = open(home)
    expect(problem).toBeNull()
    const check = new Database(join(home, HISTORY_FILE), { readonly: true })
    expect(check.pragma('user_version', { simple: true })).toBe(CURRENT_VERSION)
    check.close()
    expect(store.list()).toEqual([expect.objectContaining({ sessionId: 'a/s1', title: 'Old one', archived: false, interrupted: true, cwd: '/src/app' })])
    expect(store.search('tokenizer', 10)).toEqual([expect.objectContaining({ sessionId: 'a/s1', entryId: 'm1' })])
    expect(store.search('refac', 10)).toEqual([expect.objectContaining({ entryId: 'user:1' })])
    const loaded = store.load('a/s1')!
    expect(loaded.entries.map(decodeEntry).map((e) => e.kind)).toEqual(['user_message', 'agent_message', 'unknown'])
  })

  it('keeps an unreadable file aside, reports it and starts a fresh one', () => {
    const home = tempHome()
    const garbage = Buffer.from('this is not a database, just bytes '.repeat(200))
    writeFileSync(join(home, HISTORY_FILE), garbage)
    const { store, problem } = open(home)
    expect(problem).toContain(`${HISTORY_FILE}.corrupt-1700000000000`)
    expect(readFileSync(join(home, `${HISTORY_FILE}.corrupt-1700000000000`))).toEqual(garbage)
    store.write([{ session: row(), entries: [] }])
    expect(store.list()).toHaveLength(1)
  })

  it('keeps aside a file written by a newer Bosun instead of migrating it down', () => {
    const home = tempHome()
    writeNewerHistory(home)
    const { problem } = open(home)
    expect(problem).toMatch(/newer version of Bosun/)
    const aside = readdirSync(home).filter((f) => f.startsWith(`${HISTORY_FILE}.corrupt-`) && !f.endsWith('-wal') && !f.endsWith('-shm'))
    expect(aside).toHaveLength(1)
    const kept = new Database(join(home, aside[0]!), { readonly: true })
    expect(kept.pragma('user_version', { simple: true })).toBe(CURRENT_VERSION + 5)
    kept.close()
  })

  it('keeps the newer file aside byte for byte (nothing is written to a file Bosun will not use)', () => {
    const home = tempHome()
    writeNewerHistory(home)
    const before = readFileSync(join(home, HISTORY_FILE))
    open(home)
    const aside = readdirSync(home).filter((f) => f.startsWith(`${HISTORY_FILE}.corrupt-`) && !f.endsWith('-wal') && !f.endsWith('-shm'))
    expect(readFileSync(join(home, aside[0]!))).toEqual(before)
  })

  it('keeps aside another program’s SQLite file instead of adding its tables to it, and one whose tables are not Bosun’s', () => {
    const home = tempHome()
    const foreign = new Database(join(home, HISTORY_FILE))
    foreign.exec('CREATE TABLE notes (body TEXT)')
    foreign.close()
    const before = readFileSync(join(home, HISTORY_FILE))
    const first = open(home)
    expect(first.problem).toMatch(/another program’s database, not a Bosun history/)
    const aside = readdirSync(home).filter((f) => f.startsWith(`${HISTORY_FILE}.corrupt-`) && !f.endsWith('-wal') && !f.endsWith('-shm'))
    expect(readFileSync(join(home, aside[0]!))).toEqual(before)

    const broken = tempHome()
    const db = new Database(join(broken, HISTORY_FILE))
    db.pragma(`user_version = ${CURRENT_VERSION}`)
    db.exec('CREATE TABLE unrelated (x)')
    db.close()
    const second = open(broken)
    expect(second.problem).toMatch(/tables are not what this Bosun expects.*a new history was started/)
    expect(second.store.file).toBe(join(broken, HISTORY_FILE))
    expect(() => second.store.write([{ session: row(), entries: [] }])).not.toThrow()
  })

  it('turns history off with a clear message when the file cannot be opened at all, its writes failing until it can be', () => {
    const home = tempHome()
    // A folder where the file should be: SQLite cannot open it (like a read-only home), and nothing is moved.
    mkdirSync(join(home, HISTORY_FILE))
    const { store, problem } = open(home)
    expect(problem).toBe(
      `History is off: Bosun could not open ${join(home, HISTORY_FILE)} (unable to open database file). It is a folder: move or remove it. Bosun tries again every few seconds; until then, sessions are saved beside it about every half minute while they change, and when Bosun quits.`,
    )
    // The file it will open: sessions are recorded, and their writes fail (the recorder keeps them) until it opens.
    expect(store.file).toBe(join(home, HISTORY_FILE))
    expect(() => store.write([{ session: row(), entries: [] }])).toThrow(/History is off/)
    expect(store.list()).toEqual([])
    expect(existsSync(join(home, HISTORY_FILE))).toBe(true)
  })

  it('opens the file once it can, and keeps a stored session aside whose id a session made meanwhile took', () => {
    const home = tempHome()
    const file = join(home, HISTORY_FILE)
    // Stored before: a session of an agent that numbers its sessions (s1), with its transcript.
    const before = openHistoryStore(home).store
    before.write([{ session: row({ title: 'the older s1' }), entries: [{ position: 0, entryId: 'e1', kind: 'agent_message', ...encodeEntry(message('e1', 'older answer')) }] }])
    before.dispose()
    // At the next start the file cannot be opened (here: moved away, a folder in its place).
    renameSync(file, `${file}.away`)
    mkdirSync(file)
    const off = openHistoryStore(home, { retryMs: 0 })
    stores.push(off.store)
    expect(off.problem).toMatch(/History is off/)
    // A session made meanwhile takes the id s1 (nothing to ask whether it is taken), and cannot be written.
    const made = { session: row({ title: 'the new s1', createdAt: 5000, updatedAt: 5000 }), entries: [{ position: 0, entryId: 'n1', kind: 'agent_message', ...encodeEntry(message('n1', 'new answer')) }] }
    expect(() => off.store.write([made])).toThrow(/History is off/)
    expect(off.store.has('agent/s1')).toBe(false)
    // The file is back: the next write opens it, keeps the older s1 aside, and writes the new one.
    rmSync(file, { recursive: true })
    renameSync(`${file}.away`, file)
    off.store.write([made])
    expect(off.store.list().map((s) => [s.sessionId, s.title])).toEqual([
      ['agent/s1', 'the new s1'],
      ['agent/s1#2', 'the older s1'],
    ])
    expect(off.store.load('agent/s1#2')!.entries.map((e) => decodeEntry(e))).toEqual([message('e1', 'older answer')])
    expect(off.store.load('agent/s1')!.entries.map((e) => decodeEntry(e))).toEqual([message('n1', 'new answer')])
    // Only sessions made while it was off are looked at: a later write of s1 is a write of the new one.
    off.store.write([{ ...made, entries: [] }])
    expect(off.store.list()).toHaveLength(2)
  })

  it('keeps aside at the next write what a failing write could not keep aside', () => {
    let failing = true
    const keptAside: string[] = []
    const opened = Object.assign(new NullHistoryStore(), {
      file: '/home/history.sqlite',
      has: (id: string) => id === 'agent/s1' && keptAside.length === 0,
      keepAside: (id: string) => {
        if (failing) throw new Error('SQLITE_FULL: database or disk is full')
        keptAside.push(id)
        return `${id}#2`
      },
    }) as unknown as HistoryStore
    const store = new ReopeningHistoryStore('/home/history.sqlite', 'History is off: …', () => ({ store: opened, problem: null }), 0)
    expect(() => store.write([{ session: row(), entries: [] }])).toThrow(/disk is full/)
    failing = false
    store.write([{ session: row(), entries: [] }])
    expect(keptAside).toEqual(['agent/s1'])
  })

  it('tries a locked file again without waiting out the lock, and waits for locks as usual once it is open', () => {
    const home = tempHome()
    openHistoryStore(home).store.dispose()
    const viewer = new Database(join(home, HISTORY_FILE))
    viewer.pragma('locking_mode = EXCLUSIVE')
    viewer.exec('BEGIN EXCLUSIVE')
    let started = performance.now()
    const off = openHistoryStore(home, { retryMs: 0 })
    stores.push(off.store)
    const first = performance.now() - started
    expect(off.problem).toMatch(/database is locked/)
    // Each attempt runs on the history's thread, where main's calls (has, load) wait behind it: not seconds each.
    started = performance.now()
    expect(() => off.store.write([{ session: row(), entries: [] }])).toThrow(/database is locked/)
    expect(performance.now() - started).toBeLessThan(first / 2)
    viewer.exec('ROLLBACK')
    viewer.close()
    off.store.write([{ session: row(), entries: [] }])
    expect(off.store.has('agent/s1')).toBe(true)
    // Open: a lock is waited for as long as for a file opened at start.
    const db = (off.store as unknown as { opened: { db: Database.Database } }).opened.db
    expect(db.pragma('busy_timeout', { simple: true })).toBe(2000)
  })

  it('says another program holds the file when it is locked (a database viewer), and leaves the file as it was', () => {
    const home = tempHome()
    open(home).store.dispose()
    const before = readFileSync(join(home, HISTORY_FILE))
    const viewer = new Database(join(home, HISTORY_FILE))
    try {
      viewer.pragma('locking_mode = EXCLUSIVE')
      viewer.exec('BEGIN EXCLUSIVE')
      const { store, problem } = open(home)
      expect(problem).toBe(
        `History is off: Bosun could not open ${join(home, HISTORY_FILE)} (database is locked). Another program holds it (a database viewer, or a Bosun on this home that its lock did not stop): close that program. Bosun tries again every few seconds; until then, sessions are saved beside it about every half minute while they change, and when Bosun quits.`,
      )
      expect(store.file).toBe(join(home, HISTORY_FILE))
    } finally {
      viewer.exec('ROLLBACK')
      viewer.close()
    }
    expect(readFileSync(join(home, HISTORY_FILE))).toEqual(before)
    expect(readdirSync(home).filter((f) => f.includes('corrupt'))).toEqual([])
  })
})

describe('SqliteHistoryStore', () => {
  it('upserts entries by position, lists newest first, renames, archives, searches and deletes', () => {
    const { store } = open(tempHome())
    store.write([
      { session: row(), entries: [{ position: 0, entryId: 'u', kind: 'user_message', ...encodeEntry(message('u', 'run the linter', 'user_message')) }] },
      { session: row({ sessionId: 'agent/s2', acpSessionId: 's2', updatedAt: 5000, title: 'Second' }), entries: [] },
    ])
    store.write([{ session: row(), entries: [{ position: 0, entryId: 'u', kind: 'user_message', ...encodeEntry(message('u', 'run the formatter', 'user_message')) }] }])
    expect(store.list().map((s) => s.sessionId)).toEqual(['agent/s2', 'agent/s1'])
    expect(store.search('linter', 10)).toEqual([])
    expect(store.search('formatter', 10)).toHaveLength(1)

    expect(store.rename('agent/s1', 'My name')).toBe(true)
    expect(store.summary('agent/s1')?.title).toBe('My name')
    expect(store.setArchived('agent/s1', true)).toBe(true)
    expect(store.list().map((s) => s.sessionId)).toEqual(['agent/s2'])
    expect(store.list({ includeArchived: true })).toHaveLength(2)
    // Archived sessions stay searchable.
    expect(store.search('formatter', 10)).toEqual([expect.objectContaining({ archived: true, title: 'My name' })])

    expect(store.delete('agent/s1')).toBe(true)
    expect(store.load('agent/s1')).toBeUndefined()
    expect(store.search('formatter', 10)).toEqual([])
    expect(store.delete('agent/s1')).toBe(false)
  })

  describe('the search index, behind the writes', () => {
    const entry = (position: number, text: string) => ({ position, entryId: `m${position}`, kind: 'agent_message', ...encodeEntry(message(`m${position}`, text)) })
    const sqlite = (store: HistoryStore) => store as SqliteHistoryStore
    afterEach(() => vi.useRealTimers())

    it('notes what a write brings and indexes it before a search, a grown message by its last text', () => {
      // The writes never pause long enough here: only the search makes the index catch up.
      const { store } = open(tempHome(), { idleMs: 3_600_000 })
      store.write([{ session: row(), entries: [entry(0, 'the tokenizer'), entry(1, 'first')] }])
      store.write([{ session: row(), entries: [entry(1, 'first draft, revised')] }])
      expect(sqlite(store).searchBacklog).toBe(2)
      expect(store.search('tokenizer', 10)).toEqual([expect.objectContaining({ entryId: 'm0' })])
      expect(store.search('revised', 10)).toEqual([expect.objectContaining({ entryId: 'm1' })])
      expect(sqlite(store).searchBacklog).toBe(0)
      // A rewrite after indexing replaces the indexed text.
      store.write([{ session: row(), entries: [entry(1, 'something else')] }])
      expect(store.search('revised', 10)).toEqual([])
      expect(store.search('else', 10)).toEqual([expect.objectContaining({ entryId: 'm1' })])
    })

    it('catches up on its own once the writes pause, in slices', () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
      const { store } = open(tempHome(), { idleMs: 400, sliceMs: 0 })
      store.write([{ session: row(), entries: Array.from({ length: 450 }, (_, i) => entry(i, `word${i}`)) }])
      vi.advanceTimersByTime(399)
      expect(sqlite(store).searchBacklog).toBe(450)
      // A slice of no time still indexes one page (200), then yields to whatever the thread has to do.
      vi.advanceTimersByTime(1)
      expect(sqlite(store).searchBacklog).toBe(250)
      vi.runAllTimers()
      expect(sqlite(store).searchBacklog).toBe(0)
      expect(store.search('word449', 10)).toHaveLength(1)
    })

    it('copies the WAL into the file once the writes pause, not in the middle of a burst', () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
      const home = tempHome()
      const { store } = open(home, { idleMs: 400 })
      const fileBytes = () => statSync(join(home, HISTORY_FILE)).size
      const before = fileBytes()
      // About 6 MiB in ten writes: past SQLite's default checkpoint (1,000 pages, about 4 MiB), below Bosun's.
      const text = 'lorem ipsum '.repeat(50)
      for (let write = 0; write < 10; write++) store.write([{ session: row(), entries: Array.from({ length: 1000 }, (_, i) => entry(write * 1000 + i, text)) }])
      expect(statSync(join(home, `${HISTORY_FILE}-wal`)).size).toBeGreaterThan(6 * 2 ** 20)
      expect(fileBytes()).toBe(before)
      vi.runAllTimers()
      expect(sqlite(store).searchBacklog).toBe(0)
      expect(fileBytes()).toBeGreaterThan(before + 6 * 2 ** 20)
      expect(store.load('agent/s1')!.entries).toHaveLength(10_000)
    })

    it('under writes that never pause, catches up at a write once what waits is old enough', () => {
      const { store } = open(tempHome(), { idleMs: 3_600_000, maxDeferMs: 0 })
      store.write([{ session: row(), entries: [entry(0, 'alpha')] }])
      expect(sqlite(store).searchBacklog).toBe(0)
    })

    it('an index that cannot catch up fails neither the write that committed nor a search; what waits stays noted', () => {
      const { store } = open(tempHome(), { idleMs: 3_600_000, maxDeferMs: 0 })
      store.write([{ session: row(), entries: [entry(0, 'before')] }])
      expect(sqlite(store).searchBacklog).toBe(0)
      // Indexing fails from here on (as on a full disk): every page it tries is rolled back.
      const db = (store as unknown as { db: Database.Database }).db
      db.exec(`CREATE TEMP TRIGGER index_fails BEFORE DELETE ON search_pending BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END`)
      expect(() => store.write([{ session: row(), entries: [entry(1, 'after')] }])).not.toThrow()
      expect(store.load('agent/s1')!.entries).toHaveLength(2)
      expect(store.search('before', 10)).toEqual([expect.objectContaining({ entryId: 'm0' })])
      expect(store.search('after', 10)).toEqual([])
      expect(sqlite(store).searchBacklog).toBe(1)
      db.exec('DROP TRIGGER index_fails')
      expect(store.search('after', 10)).toEqual([expect.objectContaining({ entryId: 'm1' })])
    })

    it('indexes after a restart what a crash left unindexed; deleting a session forgets its waiting entries', () => {
      const home = tempHome()
      const first = open(home, { idleMs: 3_600_000 }).store
      first.write([{ session: row(), entries: [entry(0, 'survivor')] }])
      first.write([{ session: row({ sessionId: 'agent/s2', acpSessionId: 's2' }), entries: [entry(0, 'doomed')] }])
      first.delete('agent/s2')
      expect(sqlite(first).searchBacklog).toBe(1)
      // As after a crash: the file is closed with the index behind.
      ;(first as unknown as { db: Database.Database }).db.close()
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
      const second = open(home, { idleMs: 400 }).store
      expect(sqlite(second).searchBacklog).toBe(1)
      vi.runAllTimers()
      expect(sqlite(second).searchBacklog).toBe(0)
      expect(second.search('survivor', 10)).toHaveLength(1)
      expect(second.search('doomed', 10)).toEqual([])
    })
  })

  it('finds a word far into a long message: as much of its text as is stored (256 KiB) is searched', () => {
    const { store } = open(tempHome())
    const long = `${'lorem ipsum dolor '.repeat(10_000)}the quasar sentinel ${'sit amet '.repeat(10_000)}`
    expect(long.indexOf('quasar')).toBeGreaterThan(150 * 1024)
    store.write([{ session: row(), entries: [{ position: 0, entryId: 'm', kind: 'agent_message', ...encodeEntry(message('m', long)) }] }])
    expect(store.search('quasar sentinel', 10)).toEqual([expect.objectContaining({ sessionId: 'agent/s1', entryId: 'm' })])
    // Past what is stored of it, nothing is searched either.
    const longer = `${'x '.repeat(200 * 1024)}nebula`
    store.write([{ session: row(), entries: [{ position: 1, entryId: 'n', kind: 'agent_message', ...encodeEntry(message('n', longer)) }] }])
    expect(store.search('nebula', 10)).toEqual([])
  })

  it('treats search input as words, never as FTS syntax', () => {
    const { store } = open(tempHome())
    store.write([{ session: row(), entries: [{ position: 0, entryId: 'u', kind: 'user_message', ...encodeEntry(message('u', 'fix "quotes" AND NEAR(x)', 'user_message')) }] }])
    expect(store.search('"quotes" AND', 10)).toHaveLength(1)
    expect(store.search('NEAR(', 10)).toHaveLength(1)
    expect(store.search('*** ((', 10)).toEqual([])
  })

  it('reports a full disk as an error from write, and keeps what was written before', () => {
    const home = tempHome()
    const { store } = open(home)
    store.write([{ session: row(), entries: [] }])
    // SQLite's page limit stands in for a full disk (SQLITE_FULL).
    const db = (store as unknown as { db: Database.Database }).db
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`)
    const big = encodeEntry(message('m', 'x'.repeat(200_000)))
    expect(() => store.write([{ session: row(), entries: [{ position: 0, entryId: 'm', kind: 'agent_message', ...big }] }])).toThrow(/full/i)
    expect(store.list()).toHaveLength(1)
    expect(store).toBeInstanceOf(SqliteHistoryStore)
  })
})

describe('hostile content is stored bounded', () => {
  it('cuts huge outputs, deep nesting and invalid text, and reads back', () => {
    let deep: unknown = 'bottom'
    for (let i = 0; i < 10_000; i++) deep = { next: deep }
    const tool: Entry = {
      kind: 'tool_call',
      id: 'tool:t',
      toolCallId: 't',
      title: 'cat \uD800 huge\u0000file',
      toolKind: 'read',
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: 'y'.repeat(5_000_000) } }],
      locations: [{ path: '/tmp/huge' }],
      rawInput: deep,
      rawOutput: Array.from({ length: 100_000 }, (_, i) => i),
      permissionIds: [],
      elicitationIds: [],
    }
    const { body } = encodeEntry(tool)
    // What the index takes from the stored body when it catches up.
    const text = searchTextOfBody(body)
    expect(body.length).toBeLessThan(MAX_BODY * 1.2)
    expect(body).toContain('[nested too deeply]')
    expect(body).toContain('truncated')
    expect(text).toContain('cat \uFFFD huge\uFFFDfile')
    const back = decodeEntry({ entryId: 'tool:t', kind: 'tool_call', body })
    expect(back).toMatchObject({ kind: 'tool_call', toolCallId: 't', status: 'completed', title: 'cat \uFFFD huge\u0000file'.replace('\u0000', '\uFFFD') })

    const { store } = open(tempHome())
    store.write([{ session: row(), entries: [{ position: 0, entryId: 'tool:t', kind: 'tool_call', body }] }])
    expect(decodeEntry(store.load('agent/s1')!.entries[0]!)).toMatchObject({ toolCallId: 't' })
    expect(store.search('huge', 5)).toHaveLength(1)
  })
})
