import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import type { Worker } from 'node:worker_threads'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { HISTORY_FILE, openHistoryStore as openInThread } from '../../../main/history/sqlite-history-store'
import { MAX_ASKED, MAX_SEARCHES_ASKED, openHistoryStore, startHistoryThread, WorkerHistoryStore } from '../../../main/history/worker-history-store'
import { decodeEntry, encodeEntry, encodeSessionState } from '../../../main/history/entry-codec'
import { HistoryRecorder } from '../../../main/history/recorder'
import { HISTORY_THREAD_NICE } from '../../../main/history/thread-priority'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import { createLogger } from '../../../main/base/log'
import type { HistoryStore, RawSessionWrite, SessionRow } from '../../../main/history/history-store'
import type { Entry } from '../../../common/session/types'

const homes: string[] = []
const stores: HistoryStore[] = []
afterEach(() => {
  for (const store of stores.splice(0)) store.dispose()
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true })
})

function tempHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'bosun-history-worker-'))
  homes.push(home)
  return home
}

function open(home: string) {
  const opened = openHistoryStore(home, { now: () => 1700000000000 })
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
  capabilities: null,
  turnState: 'idle',
  state: '{}',
  ...over,
})

const message = (id: string, text: string): Entry => ({ kind: 'agent_message', id, content: [{ type: 'text', text }] })
const entry = (position: number, text: string) => ({ position, entryId: `m${position}`, kind: 'agent_message', ...encodeEntry(message(`m${position}`, text)) })

describe('the history store on its own thread', () => {
  it.runIf(process.platform === 'linux')('runs below main’s priority (Linux nice), main’s thread unchanged', () => {
    const niceOfThreads = () =>
      readdirSync('/proc/self/task').map((tid) => {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
        // Fields after the command's closing parenthesis: nice is the 19th field of the line.
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])
      })
    expect(niceOfThreads().filter((n) => n === HISTORY_THREAD_NICE)).toEqual([])
    const { store } = open(tempHome())
    expect(store).toBeInstanceOf(WorkerHistoryStore)
    // The store has answered `open`, so the thread has run its first lines.
    expect(niceOfThreads().filter((n) => n === HISTORY_THREAD_NICE)).toHaveLength(1)
    expect(Number(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]!.split(' ')[16])).toBe(0)
  })

  it('answers list and search later without main waiting for the thread, after the writes posted before them', async () => {
    const { store } = open(tempHome())
    const worker = store as WorkerHistoryStore
    const waits = vi.spyOn(Atomics, 'wait')
    try {
      const written = store.write([{ session: row(), entries: [entry(0, 'the tokenizer is done')] }])
      const listed = worker.listLater()
      const found = worker.searchLater('tokenizer', 10)
      // Asked, not waited for: main's thread never blocked on the worker for them.
      expect(waits).not.toHaveBeenCalled()
      expect(await listed).toEqual([expect.objectContaining({ sessionId: 'agent/s1', title: 'Fix the build' })])
      expect(await found).toEqual([expect.objectContaining({ sessionId: 'agent/s1', entryId: 'm0' })])
      await written
      expect(waits).not.toHaveBeenCalled()
    } finally {
      waits.mockRestore()
    }
  })

  it('a synchronous call that finds a later answer on the port hands it on', async () => {
    const { store } = open(tempHome())
    const worker = store as WorkerHistoryStore
    void store.write([{ session: row(), entries: [entry(0, 'hello')] }])
    const listed = worker.listLater()
    // Answered after the list: its loop reads the list's answer first and must not drop it.
    expect(store.has('agent/s1')).toBe(true)
    expect((await listed).map((s) => s.sessionId)).toEqual(['agent/s1'])
  })

  it('keeps at most MAX_ASKED reads waiting: past it a read fails at once, and the waiting ones are answered', async () => {
    const { store } = open(tempHome())
    const worker = store as WorkerHistoryStore
    // Different reads (the same ones would share an answer).
    const waiting = Array.from({ length: MAX_ASKED }, (_, i) => worker.listLater({ limit: i + 1 }))
    await expect(worker.listLater()).rejects.toThrow(/history is busy/)
    expect((await Promise.all(waiting)).every((list) => Array.isArray(list))).toBe(true)
    // Answered, they make room again.
    expect(await worker.listLater()).toEqual([])
  })

  it('a search flood (one tab) leaves room for lists (another tab): searches hold at most MAX_SEARCHES_ASKED places', async () => {
    const { store } = open(tempHome())
    const worker = store as WorkerHistoryStore
    const searches = Array.from({ length: MAX_ASKED }, (_, i) => worker.searchLater(`flood ${i}`, 50).then(
      () => 'answered',
      (error: Error) => error.message,
    ))
    const listed = worker.listLater()
    const archived = worker.listLater({ includeArchived: true })
    expect(await listed).toEqual([])
    expect(await archived).toEqual([])
    const outcomes = await Promise.all(searches)
    expect(outcomes.filter((o) => o === 'answered')).toHaveLength(MAX_SEARCHES_ASKED)
    expect(outcomes.filter((o) => o !== 'answered').every((o) => /history is busy \(\d+ searches waiting\)/.test(o))).toBe(true)
    // Answered, the searches make room again.
    expect(await worker.searchLater('again', 50)).toEqual([])
  })

  it('the same read asked while one waits shares its answer, and takes no place of its own', async () => {
    const { store } = open(tempHome())
    const worker = store as WorkerHistoryStore
    void store.write([{ session: row(), entries: [entry(0, 'the tokenizer is done')] }])
    const lists = Array.from({ length: MAX_ASKED * 4 }, () => worker.listLater())
    const searches = Array.from({ length: MAX_ASKED * 4 }, () => worker.searchLater('tokenizer', 10))
    expect((worker as unknown as { asked: Map<number, unknown> }).asked.size).toBe(2)
    const answers = await Promise.all(lists)
    expect(answers.every((list) => list === answers[0])).toBe(true)
    expect(answers[0]!.map((s) => s.sessionId)).toEqual(['agent/s1'])
    expect((await Promise.all(searches)).every((hits) => hits.length === 1)).toBe(true)
  })

  it('a read asked after a write is not given the answer of one asked before it: it sees the write', async () => {
    const { store } = open(tempHome())
    const worker = store as WorkerHistoryStore
    const before = worker.listLater()
    const searchedBefore = worker.searchLater('tokenizer', 10)
    void store.write([{ session: row(), entries: [entry(0, 'the tokenizer is done')] }])
    const after = worker.listLater()
    const searchedAfter = worker.searchLater('tokenizer', 10)
    expect(await before).toEqual([])
    expect(await searchedBefore).toEqual([])
    expect((await after).map((s) => s.sessionId)).toEqual(['agent/s1'])
    expect(await searchedAfter).toHaveLength(1)
    // So do the ones after a rename, an archive or a delete (answered on main's thread, not posted).
    const titled = worker.listLater()
    expect(store.rename('agent/s1', 'Renamed')).toBe(true)
    expect((await worker.listLater())[0]).toMatchObject({ title: 'Renamed' })
    // The one asked before the rename was answered before it.
    expect((await titled)[0]).toMatchObject({ title: 'Fix the build' })
    const listedBeforeDelete = worker.listLater()
    expect(store.delete('agent/s1')).toBe(true)
    expect(await worker.listLater()).toEqual([])
    expect(await listedBeforeDelete).toHaveLength(1)
  })

  it('an answer still awaited fails when the thread stops', async () => {
    const { store } = open(tempHome())
    const worker = store as WorkerHistoryStore
    // Asked once the thread is told to stop (it runs no more code, so cannot answer) but before its exit reaches this
    // thread (the store still takes it as running). Asked before `terminate`, the thread could answer first (under load).
    const stopped = (worker as unknown as { worker: Worker }).worker.terminate()
    const listed = worker.listLater()
    await stopped
    await expect(listed).rejects.toThrow(/history thread stopped/)
    await expect(worker.listLater()).rejects.toThrow(/history thread stopped/)
  })

  it('runs in a worker: writes return at once, and every later call sees them in order', async () => {
    const { store, problem } = open(tempHome())
    expect(problem).toBeNull()
    expect(store).toBeInstanceOf(WorkerHistoryStore)
    const written = store.write([{ session: row(), entries: [entry(0, 'the tokenizer is done'), entry(1, 'and the parser')] }])
    expect(written).toBeInstanceOf(Promise)
    // No await: the call is queued behind the write on the same port.
    expect(store.search('tokenizer', 10)).toEqual([expect.objectContaining({ sessionId: 'agent/s1', entryId: 'm0' })])
    await written
    expect(store.load('agent/s1')!.entries.map(decodeEntry).map((e) => e.id)).toEqual(['m0', 'm1'])
    expect(store.rename('agent/s1', 'Mine')).toBe(true)
    expect(store.summary('agent/s1')).toMatchObject({ title: 'Mine' })
    expect(store.summary('nope')).toBeUndefined()
    expect(store.has('agent/s1')).toBe(true)
    expect(store.delete('agent/s1')).toBe(true)
    expect(store.list()).toEqual([])
  })

  it('rejects a write the database refuses with its message, and keeps working', async () => {
    const { store } = open(tempHome())
    await store.write([{ session: row(), entries: [entry(0, 'kept')] }])
    // A NOT NULL column left empty: SQLite refuses the whole transaction.
    const refused = store.write([{ session: row({ sessionId: 'agent/s2', cwd: null as unknown as string }), entries: [entry(0, 'lost')] }])
    await expect(refused).rejects.toThrow(/NOT NULL/)
    expect(store.list().map((s) => s.sessionId)).toEqual(['agent/s1'])
    await store.write([{ session: row({ sessionId: 'agent/s3' }), entries: [] }])
    expect(store.list()).toHaveLength(2)
  })

  it('reports a corrupt file and a file that cannot be opened as the store on main’s thread does', async () => {
    const home = tempHome()
    writeFileSync(join(home, HISTORY_FILE), Buffer.from('not a database '.repeat(300)))
    const { store, problem } = open(home)
    expect(store).toBeInstanceOf(WorkerHistoryStore)
    expect(problem).toContain(`${HISTORY_FILE}.corrupt-1700000000000`)
    expect(readFileSync(join(home, `${HISTORY_FILE}.corrupt-1700000000000`), 'utf8')).toMatch(/^not a database/)
    expect(store.file).toBe(join(home, HISTORY_FILE))

    const blocked = tempHome()
    mkdirSync(join(blocked, HISTORY_FILE))
    const off = open(blocked)
    expect(off.problem).toMatch(/History is off/)
    // Sessions are recorded as for an open file; their writes fail until it opens (the recorder writes them again).
    expect(off.store.file).toBe(join(blocked, HISTORY_FILE))
    await expect(off.store.write([{ session: row(), entries: [] }])).rejects.toThrow(/History is off/)
    expect(off.store.list()).toEqual([])
  })

  it('flushes and closes on dispose: what was posted is in the file for the next opening', () => {
    const home = tempHome()
    const { store } = openHistoryStore(home)
    for (let i = 0; i < 50; i++) void store.write([{ session: row({ updatedAt: i }), entries: [entry(i, `line ${i}`)] }])
    store.dispose()
    expect(() => store.list()).toThrow(/closed/)
    const again = openInThread(home)
    stores.push(again.store)
    expect(again.store.load('agent/s1')!.entries).toHaveLength(50)
  })

  it('encodes on its thread what the recorder hands over raw, and keeps the session state between writes that do not change it', async () => {
    const { store } = open(tempHome())
    const recorder = new HistoryRecorder(store, { logger: createLogger('test', () => {}), intervalMs: 60_000 })
    let state = createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 2, cwd: '/w' })
    recorder.track(state, { capabilities: { loadSession: true } })
    state = applyActions(state, [
      { type: 'local_prompt', content: [{ type: 'text', text: 'rename the tokenizer' }] },
      { type: 'updates', updates: [{ sessionUpdate: 'plan', entries: [{ content: 'Step one', priority: 'high', status: 'pending' }] }] },
      { type: 'updates', updates: [{ sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: 'On it \u0000' } }] },
    ])
    recorder.changed(state)
    recorder.flush()
    // Only a message chunk: the session-wide fields keep their identity, so they are not sent again.
    state = applyActions(state, [{ type: 'updates', updates: [{ sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: ' done' } }] }])
    recorder.changed(state)
    recorder.flush()
    ;(store as WorkerHistoryStore).settle()
    const stored = store.load('a/s1')!
    expect(stored.row).toMatchObject({ title: 'rename the tokenizer', protocolVersion: 2, capabilities: '{"loadSession":true}', state: encodeSessionState(state) })
    expect(JSON.parse(stored.row.state).plans).toBeTruthy()
    expect(stored.entries.map((row) => decodeEntry(row))).toEqual(state.entries.map((entry) => JSON.parse(encodeEntry(entry).body)))
    expect(JSON.stringify(stored.entries)).toContain('On it \uFFFD done')
    expect(store.search('tokenizer', 5)).toEqual([expect.objectContaining({ sessionId: 'a/s1', kind: 'user_message' })])
    recorder.dispose()
  })

  it('stores a message streamed over many ticks exactly as the transcript has it, posting only its growth, and after a restart', async () => {
    const home = tempHome()
    const { store } = open(home)
    const worker = store as WorkerHistoryStore
    const posted: RawSessionWrite[][] = []
    const writeRaw = worker.writeRaw.bind(worker)
    worker.writeRaw = (writes) => {
      posted.push(writes)
      return writeRaw(writes)
    }
    const recorder = new HistoryRecorder(store, { logger: createLogger('test', () => {}), intervalMs: 60_000 })
    let state = createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 2, cwd: '/w' })
    recorder.track(state)
    const apply = (...updates: Record<string, unknown>[]) => {
      state = applyActions(state, [{ type: 'updates', updates: updates as never }])
      recorder.changed(state)
    }
    apply({ sessionUpdate: 'user_message', messageId: 'u1', content: [{ type: 'text', text: 'write a long answer' }] })
    recorder.flush()
    // 600 ticks of a message, a thought streamed beside it, a surrogate pair split across two ticks, and a
    // tool call between them: about 120,000 characters, below the codec's bound, so stored as is.
    for (let tick = 0; tick < 600; tick++) {
      const text = tick % 97 === 5 ? `tick ${tick} \uD83D` : tick % 97 === 6 ? `\uDE00 tick ${tick} ` : `tick ${tick} ${'lorem ipsum '.repeat(15)}`
      apply({ sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text } })
      if (tick % 3 === 0) apply({ sessionUpdate: 'agent_thought_chunk', messageId: 't1', content: { type: 'text', text: `thinking ${tick} ` } })
      if (tick === 300) apply({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Run tests', status: 'in_progress' })
      recorder.flush()
    }
    await Promise.resolve()
    worker.settle()
    const message = state.entries.find((e) => e.id.includes('m1'))!
    expect(JSON.stringify(message).length).toBeGreaterThan(100_000)
    const expected = state.entries.map((entry) => JSON.parse(encodeEntry(entry).body) as Entry)
    expect(expected).toEqual(state.entries)
    expect(store.load('a/s1')!.entries.map(decodeEntry)).toEqual(expected)
    // After the first tick of the message, every tick posted its growth, never the whole message again.
    const messageWrites = posted.flatMap((writes) => writes[0]!.entries.filter((e) => e.position === 1))
    expect(messageWrites).toHaveLength(600)
    expect(messageWrites.filter((e) => 'entry' in e)).toHaveLength(1)
    expect(Math.max(...messageWrites.slice(1).map((e) => ('grown' in e ? e.grown.text.length : Infinity)))).toBeLessThan(300)
    recorder.dispose()
    store.dispose()

    const again = open(home).store
    expect(again.load('a/s1')!.entries.map(decodeEntry)).toEqual(expected)
    // Search reads what is stored of an entry's text (entry-codec's bound).
    expect(again.search('tick 12', 5)).toEqual([expect.objectContaining({ sessionId: 'a/s1', kind: 'agent_message' })])
    // The history thread writes 600 transactions: 3.7 s alone on a loaded 2-core machine, 7.8 s in the whole unit
    // project there, too near the project's 10 s.
  }, 30_000)

  it('writes a message growing over many ticks byte for byte as a whole encoding of it, its body extended on the thread', async () => {
    const { store } = open(tempHome())
    const worker = store as WorkerHistoryStore
    const recorder = new HistoryRecorder(store, { logger: createLogger('test', () => {}), intervalMs: 60_000 })
    let state = createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' })
    recorder.track(state)
    const apply = (...updates: Record<string, unknown>[]) => {
      state = applyActions(state, [{ type: 'updates', updates: updates as never }])
      recorder.changed(state)
    }
    const texts = ['plain ', 'a "quote" \\ ', 'tab\tline\n', 'é 中文 \u2028 ', '\u0001 ', '</b> ']
    for (let tick = 0; tick < 120; tick++) {
      apply({ sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: `${texts[tick % texts.length]}${tick}` } })
      apply({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: `${texts[(tick + 3) % texts.length]}${tick}` } })
      // Past the shortcut for a while (a NUL), then a message of its own again.
      if (tick === 60) apply({ sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: 'NUL \u0000 ' } })
      if (tick === 80) apply({ sessionUpdate: 'agent_message_chunk', messageId: 'm2', content: { type: 'text', text: 'another ' } })
      recorder.flush()
    }
    await Promise.resolve()
    worker.settle()
    const rows = store.load('a/s1')!.entries
    expect(rows.map((row) => row.body)).toEqual(state.entries.map((entry) => encodeEntry(entry).body))
    expect(rows.length).toBeGreaterThanOrEqual(3)
    recorder.dispose()
    store.dispose()
  })

  it('refuses a growth it has no base for, and the recorder then writes the entry whole', async () => {
    const { store } = open(tempHome())
    const worker = store as WorkerHistoryStore
    const session = { sessionId: 'a/s1', agentId: 'a', acpSessionId: 's1', cwd: '/w', title: null, createdAt: 1, updatedAt: 1, protocolVersion: 1 as const, capabilities: null, turnState: 'idle' }
    await expect(worker.writeRaw([{ session, entries: [{ position: 0, grown: { text: 'x', blocks: [] } }] }])).rejects.toThrow(/no base/)
    // Then a whole entry, and a growth against it.
    await worker.writeRaw([{ session, entries: [{ position: 0, entry: message('m0', 'Hello') }] }])
    await worker.writeRaw([{ session, entries: [{ position: 0, grown: { text: ', world', blocks: [] } }] }])
    expect(store.load('a/s1')!.entries.map(decodeEntry)).toEqual([message('m0', 'Hello, world')])
    // A write without that entry: its version is no longer kept, a growth against it is refused.
    await worker.writeRaw([{ session, entries: [] }])
    await expect(worker.writeRaw([{ session, entries: [{ position: 0, grown: { text: '!', blocks: [] } }] }])).rejects.toThrow(/no base/)

    // The recorder after such a failure: everything since the last confirmed write goes again, whole.
    const problems: (string | null)[] = []
    const recorder = new HistoryRecorder(store, { logger: createLogger('test', () => {}), intervalMs: 60_000, onProblem: (p) => problems.push(p) })
    let state = createSessionState({ sessionId: 'a/s2', acpSessionId: 's2', agentId: 'a', protocolVersion: 1, cwd: '/w' })
    recorder.track(state)
    const apply = (text: string) => {
      state = applyActions(state, [{ type: 'updates', updates: [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }] }])
      recorder.changed(state)
      recorder.flush()
    }
    apply('one')
    await Promise.resolve()
    worker.settle()
    worker.release('a/s2')
    apply(' two')
    await new Promise<void>((resolve) => setImmediate(resolve))
    worker.settle()
    await new Promise<void>((resolve) => setImmediate(resolve))
    expect(problems).toEqual([expect.stringMatching(/no base/)])
    recorder.flush()
    worker.settle()
    await new Promise<void>((resolve) => setImmediate(resolve))
    expect(problems).toEqual([expect.any(String), null])
    expect(store.load('a/s2')!.entries.map(decodeEntry)).toEqual(state.entries)
    recorder.dispose()
  })

  it('turns a stopped thread into errors: calls throw, writes reject, the recorder reports it', async () => {
    const { store } = open(tempHome())
    const problems: (string | null)[] = []
    const recorder = new HistoryRecorder(store, { logger: createLogger('test', () => {}), intervalMs: 60_000, onProblem: (p) => problems.push(p) })
    const worker = (store as unknown as { worker: Worker }).worker
    const exited = new Promise((resolve) => worker.once('exit', resolve))
    await worker.terminate()
    await exited
    expect(() => store.list()).toThrow(/history thread stopped/)
    let state = createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' })
    recorder.track(state)
    state = applyActions(state, [{ type: 'local_prompt', content: [{ type: 'text', text: 'hello' }] }])
    recorder.changed(state)
    recorder.flush()
    expect(problems).toEqual([expect.stringMatching(/could not save the history \(the history thread stopped/)])
    recorder.dispose()
  })
})

describe('a history thread started ahead (startHistoryThread)', () => {
  it('is used by openHistoryStore for its home: no second thread, the file opened on it', () => {
    const home = tempHome()
    const thread = startHistoryThread(home)
    expect(thread).toBeInstanceOf(WorkerHistoryStore)
    const opened = openHistoryStore(home, { started: thread })
    stores.push(opened.store)
    expect(opened.store).toBe(thread)
    expect(opened.problem).toBeNull()
    expect(thread!.file).toBe(join(home, HISTORY_FILE))
  })

  it('started for another home is ended, and a thread for this home opened instead', () => {
    const other = tempHome()
    const home = tempHome()
    const thread = startHistoryThread(other)!
    stores.push(thread)
    const opened = openHistoryStore(home, { started: thread })
    stores.push(opened.store)
    expect(opened.store).not.toBe(thread)
    expect(opened.store.file).toBe(join(home, HISTORY_FILE))
    expect(thread.isOff()).toBe(true)
    expect(readdirSync(other)).toEqual([])
  })

  it('is undefined when the thread cannot start (its code is missing), and opening then falls back as before', () => {
    const home = tempHome()
    expect(startHistoryThread(home, { entry: { url: pathToFileURL(join(home, 'missing.mjs')), preload: [] } })).toBeUndefined()
  })
})

describe('a history worker whose code does not load', () => {
  it('is known at once, not after the startup deadline: history falls back to main’s thread and says why', { timeout: 60_000 }, () => {
    const home = tempHome()
    const broken = join(home, 'broken-worker.mjs')
    writeFileSync(broken, "import './missing-chunk.mjs'\n")
    // Without the bootstrap's report, main would wait out this deadline and then name it, not the failed import.
    const opened = openHistoryStore(home, { startupTimeoutMs: 30_000, entry: { url: pathToFileURL(broken), preload: [] } })
    stores.push(opened.store)
    expect(opened.store).not.toBeInstanceOf(WorkerHistoryStore)
    expect(opened.problem).toMatch(/its own thread could not start \(the history thread could not load its code \(.*missing-chunk\.mjs/)
    expect(opened.store.file).toBe(join(home, HISTORY_FILE))
  })
})
