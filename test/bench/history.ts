/**
 * History figures for `npm run bench` (issue 12). Prints figures only, no thresholds; every comparison is
 * made in the same run, the paths interleaved, medians over the rounds:
 *   - persistence overhead, the reducer alone (in this process): the 100,000-update flood applied in
 *     batches, a write every ~250 ms of batches, without history, with the store on its thread (what Bosun
 *     runs) and on main's thread (the fallback); main's thread CPU is the figure, the process's beside it;
 *   - the same for one long streamed answer at a stream's pace (a write every 25 chunks: what posting a
 *     message's growth saves over posting it whole on every tick);
 *   - persistence overhead, the whole main process: the child-process flood agent through
 *     `createBosunServices`, history on and off, each run a process of its own (history-flood-worker.ts);
 *   - database bytes against the bytes that came over the wire;
 *   - opening that 100,000-update session: main's part (read + restore), and in the browser host the click
 *     in the sidebar → first transcript entry painted (history-open-worker.ts; needs the built renderer);
 *   - search over BENCH_HISTORY_SESSIONS × BENCH_HISTORY_ENTRIES generated sessions (1,000 × 1,000 by
 *     default): database size, p50/p95 latency of several queries, on main's thread and through the thread;
 *   - main's heap with the store open, by number of stored sessions.
 *
 * Knobs: BENCH_COUNT (100000), BENCH_HISTORY_STREAM (chunks of the long answer, 20000), BENCH_HISTORY_REPS (rounds in this process, 5), BENCH_HISTORY_PROCESS_REPS
 * (processes per path, 9), BENCH_HISTORY_PAINT_REPS (3), BENCH_HISTORY_SESSIONS, BENCH_HISTORY_ENTRIES.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { applyActions, createSessionState } from '../../common/session/reducer'
import type { SessionState } from '../../common/session/types'
import { createLogger } from '../../main/base/log'
import { HistoryRecorder } from '../../main/history/recorder'
import { restoreSessionState, settled } from '../../main/history/restore'
import { HISTORY_FILE, openHistoryStore, SqliteHistoryStore } from '../../main/history/sqlite-history-store'
import { openHistoryStore as openOnThread, WorkerHistoryStore } from '../../main/history/worker-history-store'
import type { HistoryStore, SessionWrite } from '../../main/history/history-store'
import { buildFloodUpdates } from '../agents/flood-updates'
import { rendererDir } from '../e2e/support/harness'
import type { HistoryFloodResult } from './history-flood-worker'
import type { HistoryOpenResult } from './history-open-worker'
import { fixed, median, runWorker } from './spawn-worker'

const COUNT = Number(process.env.BENCH_COUNT ?? 100_000)
/** ≈ 16 ms of a flood at the batcher's pace. */
const BATCH = Number(process.env.BENCH_BATCH ?? 256)
/** Batches per recorder tick: 250 ms / 16 ms. */
const BATCHES_PER_TICK = 16
const REPS = Number(process.env.BENCH_HISTORY_REPS ?? 5)
const PROCESS_REPS = Number(process.env.BENCH_HISTORY_PROCESS_REPS ?? 9)
const PAINT_REPS = Number(process.env.BENCH_HISTORY_PAINT_REPS ?? 3)
const SESSIONS = Number(process.env.BENCH_HISTORY_SESSIONS ?? 1_000)
const ENTRIES = Number(process.env.BENCH_HISTORY_ENTRIES ?? 1_000)
const WORDS = ['parser', 'tokenizer', 'refactor', 'build', 'linter', 'migration', 'database', 'renderer', 'socket', 'cache', 'schema', 'session', 'folder', 'agent', 'review']

/** CPU time of the calling thread in ms (Linux: `/proc/thread-self/schedstat`), or NaN where unknown. */
function threadCpuMs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6
  } catch {
    return Number.NaN
  }
}

const processCpuMs = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000
}
const fileBytes = (file: string) => [file, `${file}-wal`].reduce((sum, f) => sum + (existsSync(f) ? statSync(f).size : 0), 0)
const mib = (bytes: number, digits = 1) => `${(bytes / 1048576).toFixed(digits)} MiB`
const pct = (x: number, base: number) => `${x >= base ? '+' : ''}${fixed(((x - base) / base) * 100, 1)}%`
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}

function gc(): void {
  setFlagsFromString('--expose-gc')
  ;(runInNewContext('gc') as () => void)()
}

/** Updates per reducer batch, and batches per recorder tick (250 ms). */
interface Pace {
  batch: number
  batchesPerTick: number
}
const FLOOD_PACE: Pace = { batch: BATCH, batchesPerTick: BATCHES_PER_TICK }
/** A stream at ~100 chunks a second: 25 chunks per tick, one batch each. */
const STREAM_PACE: Pace = { batch: 25, batchesPerTick: 1 }
/** Chunks of the long answer: ~200 s of streaming, 800 writes of a message growing to ~150,000 characters. */
const STREAM_CHUNKS = Number(process.env.BENCH_HISTORY_STREAM ?? 20_000)

interface Ingest {
  ms: number
  /** Main's thread, from the first batch to the last write posted. */
  threadCpu: number
  /** The whole process (the history thread too), until the history has written everything. */
  processCpu: number
  state: SessionState
}

/** The updates through the reducer in batches, the recorder told after each and writing every tick. */
function ingest(updates: Record<string, unknown>[], store: HistoryStore | null, pace: Pace = FLOOD_PACE): Ingest {
  const recorder = store ? new HistoryRecorder(store, { logger: createLogger('bench', () => {}) }) : null
  let state = createSessionState({ sessionId: 'bench/flood', acpSessionId: 'flood', agentId: 'bench', protocolVersion: 1, cwd: '/project' })
  recorder?.track(state)
  gc()
  const t = performance.now()
  const cpu = process.cpuUsage()
  const thread = threadCpuMs()
  let batches = 0
  for (let i = 0; i < updates.length; i += pace.batch) {
    state = applyActions(state, [{ type: 'updates', updates: updates.slice(i, i + pace.batch) as never }])
    if (recorder) {
      recorder.changed(state)
      if (++batches % pace.batchesPerTick === 0) recorder.flush()
    }
  }
  recorder?.flush()
  const ms = performance.now() - t
  const threadCpu = threadCpuMs() - thread
  if (store instanceof WorkerHistoryStore) store.settle()
  const result = { ms, threadCpu, processCpu: processCpuMs(cpu), state }
  recorder?.dispose()
  return result
}

type Path = 'bare' | 'thread' | 'main'
const PATH_NAMES: Record<Path, string> = { bare: 'without history', thread: 'history on its thread', main: 'history on main’s thread' }

/** Interleaved rounds of each path over the same updates; prints medians and ratios to the bare path. */
function compareIngest(label: string, updates: Record<string, unknown>[], home: string, paths: Path[], pace: Pace = FLOOD_PACE): { dir: string; state: SessionState; threadCpu: (path: Path) => number } {
  const runs = new Map<Path, Ingest[]>(paths.map((p) => [p, []]))
  // Warm every path once (JIT, the worker's first start).
  const warmDir = mkdtempSync(join(home, 'warm-'))
  for (const path of paths) {
    const store = path === 'bare' ? null : path === 'thread' ? openOnThread(mkdtempSync(join(warmDir, 't-'))).store : openHistoryStore(mkdtempSync(join(warmDir, 'm-'))).store
    ingest(updates.slice(0, Math.min(updates.length, 5_000)), store, pace)
    store?.dispose()
  }
  rmSync(warmDir, { recursive: true, force: true })
  let dir = ''
  let state: SessionState | undefined
  for (let round = 0; round < REPS; round++) {
    for (const path of paths) {
      if (path === 'main' && round >= Math.min(REPS, 3)) continue
      const roundDir = path === 'bare' ? '' : mkdtempSync(join(home, `${path}-${round}-`))
      const opened = path === 'bare' ? null : path === 'thread' ? openOnThread(roundDir) : openHistoryStore(roundDir)
      if (path === 'thread' && !(opened!.store instanceof WorkerHistoryStore)) throw new Error(`the history thread did not start: ${opened!.problem}`)
      const run = ingest(updates, opened?.store ?? null, pace)
      opened?.store.dispose()
      runs.get(path)!.push(run)
      if (path === 'thread') {
        if (dir) rmSync(dir, { recursive: true, force: true })
        dir = roundDir
        state = run.state
      } else if (roundDir) rmSync(roundDir, { recursive: true, force: true })
    }
  }
  const med = (path: Path, key: 'ms' | 'threadCpu' | 'processCpu') => median(runs.get(path)!.map((r) => r[key]))
  console.log(`  ${label}`)
  console.log(`    ${''.padEnd(26)} main thread CPU        process CPU            wall`)
  for (const path of paths) {
    const row = (key: 'ms' | 'threadCpu' | 'processCpu') => `${fixed(med(path, key)).padStart(6)} ms${path === 'bare' ? ''.padStart(10) : ` ${pct(med(path, key), med('bare', key)).padStart(8)}`}`
    console.log(`    ${PATH_NAMES[path].padEnd(26)} ${row('threadCpu')}   ${row('processCpu')}   ${row('ms')}   (median of ${runs.get(path)!.length})`)
  }
  return { dir, state: state!, threadCpu: (path) => med(path, 'threadCpu') }
}

async function persistenceOverhead(home: string): Promise<{ dir: string; state: SessionState; wireBytes: number; recorderMs: number }> {
  console.log(`\n  persistence overhead, the reducer alone: ${COUNT} updates, reducer batch ${BATCH}, a write every ${BATCHES_PER_TICK} batches`)
  const updates = buildFloodUpdates(COUNT)
  const wireBytes = updates.reduce<number>((sum, update) => sum + Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'flood', update } })) + 1, 0)
  const flood = compareIngest('the flood (messages, thoughts, tool calls with diffs, plans)', updates, home, ['bare', 'thread', 'main'])
  const streamed = Array.from({ length: STREAM_CHUNKS }, (_, i) => ({ sessionUpdate: 'agent_message_chunk', messageId: 'answer', content: { type: 'text', text: i % 50 === 49 ? '\n\n' : `word${i % 997} ` } }))
  const chars = streamed.reduce((sum, u) => sum + u.content.text.length, 0)
  const ticks = Math.ceil(STREAM_CHUNKS / (STREAM_PACE.batch * STREAM_PACE.batchesPerTick))
  const long = compareIngest(`one long streamed answer: ${STREAM_CHUNKS} chunks of one message (${chars} characters), a write every ${STREAM_PACE.batch} chunks (${ticks} writes)`, streamed, home, ['bare', 'thread', 'main'], STREAM_PACE)
  rmSync(long.dir, { recursive: true, force: true })
  // What recording adds to main's thread (the recorder, the structured clone of what it posts), without the noise of whole processes.
  return { dir: flood.dir, state: flood.state, wireBytes, recorderMs: flood.threadCpu('thread') - flood.threadCpu('bare') }
}

async function wholeProcess(recorderMs: number): Promise<void> {
  console.log(`\n  persistence overhead, the whole main process (child-process flood agent → createBosunServices), ${COUNT} updates`)
  const runs = { off: [] as HistoryFloodResult[], on: [] as HistoryFloodResult[] }
  for (let rep = 0; rep < PROCESS_REPS; rep++) {
    for (const mode of ['off', 'on'] as const) runs[mode].push(await runWorker<HistoryFloodResult>('history-flood-worker.ts', [mode, String(COUNT)]))
  }
  const med = (mode: 'on' | 'off', key: 'ms' | 'mainThreadCpuMs' | 'processCpuMs' | 'settleMs') => median(runs[mode].map((r) => r[key]))
  console.log(`    ${''.padEnd(26)} main thread CPU        process CPU            wall (prompt → end of turn)`)
  for (const mode of ['off', 'on'] as const) {
    const row = (key: 'ms' | 'mainThreadCpuMs' | 'processCpuMs') => `${fixed(med(mode, key)).padStart(6)} ms${mode === 'off' ? ''.padStart(10) : ` ${pct(med(mode, key), med('off', key)).padStart(8)}`}`
    console.log(`    ${(mode === 'on' ? 'history on its thread' : 'history off').padEnd(26)} ${row('mainThreadCpuMs')}   ${row('processCpuMs')}   ${row('ms')}   (median of ${PROCESS_REPS} processes)`)
  }
  console.log(`    after the turn, the history thread had written everything and caught up its search index ${fixed(med('on', 'settleMs'))} ms later (median)`)
  // The two medians above differ by less than the spread between processes; this share is the steadier figure.
  console.log(`    recording's cost on main's thread, measured in process above (${fixed(recorderMs)} ms), is ${pct(med('off', 'mainThreadCpuMs') + recorderMs, med('off', 'mainThreadCpuMs'))} of main's thread ingest with history off`)
}

async function openFigures(dir: string, flood: SessionState): Promise<void> {
  // Main's part: read every row, decode, settle (what main does before `sessionAdded`). Medians of REPS opens, each
  // after a full GC: a single open right after the flood's figures pays for their garbage.
  const times = { load: [] as number[], restore: [] as number[], serialize: [] as number[] }
  let restored: SessionState | undefined
  let payload = ''
  for (let rep = 0; rep < REPS; rep++) {
    gc()
    const reopened = openHistoryStore(dir)
    let t = performance.now()
    const stored = reopened.store.load('bench/flood')!
    times.load.push(performance.now() - t)
    t = performance.now()
    const { state, settle } = restoreSessionState(stored)
    restored = settled(state, settle)
    times.restore.push(performance.now() - t)
    t = performance.now()
    payload = JSON.stringify(restored)
    times.serialize.push(performance.now() - t)
    reopened.store.dispose()
  }
  if (restored!.entries.length !== flood.entries.length) throw new Error(`restored ${restored!.entries.length} of ${flood.entries.length} entries`)
  const ms = (values: number[]) => fixed(median(values))
  console.log(
    `\n  open the ${COUNT}-update session: read ${ms(times.load)} ms + restore ${ms(times.restore)} ms + serialize ${ms(times.serialize)} ms (${mib(payload.length)} to the renderer, ${restored!.entries.length} entries; median of ${REPS})`,
  )
  // What Bosun does: the read is a call answered by the history thread (the rows cross as a structured clone).
  const threaded = openOnThread(dir)
  const t = performance.now()
  threaded.store.load('bench/flood')
  console.log(`    read through the history thread ${fixed(performance.now() - t)} ms`)
  threaded.store.dispose()

  if (!existsSync(join(rendererDir, 'index.html'))) {
    console.log('    browser host first paint: not measured (the renderer is not built: `npx electron-vite build`)')
    return
  }
  const runs: HistoryOpenResult[] = []
  for (let rep = 0; rep < PAINT_REPS; rep++) runs.push(await runWorker<HistoryOpenResult>('history-open-worker.ts', [String(COUNT)]))
  const med = (key: 'firstEntryMs' | 'firstPaintMs' | 'lastEntryMs') => fixed(median(runs.map((r) => r[key])))
  console.log(
    `    browser host (Chromium), click in the sidebar → first entry in the DOM ${med('firstEntryMs')} ms, painted ${med('firstPaintMs')} ms, the transcript's last entry ${med('lastEntryMs')} ms (median of ${PAINT_REPS}; each ${runs.map((r) => fixed(r.firstPaintMs)).join(', ')} ms; ${runs[0]!.entries} entries)`,
  )
}

/** Generated sessions written straight through the store (bodies made here, big transactions): only search is measured. */
function generate(dir: string): void {
  const { store } = openHistoryStore(dir)
  const t = performance.now()
  let n = 0
  const PER_WRITE = 25
  for (let s = 0; s < SESSIONS; s += PER_WRITE) {
    const writes: SessionWrite[] = []
    for (let k = s; k < Math.min(SESSIONS, s + PER_WRITE); k++) {
      const entries: SessionWrite['entries'] = []
      for (let e = 0; e < ENTRIES; e++) {
        const words = `${WORDS[(k + e) % WORDS.length]} ${WORDS[(k * 7 + e * 3) % WORDS.length]} step ${n++} in module${e % 97}`
        const entry = e % 3 === 0 ? { kind: 'user_message' as const, id: `u${e}`, content: [{ type: 'text' as const, text: `Please ${words}` }] } : { kind: 'agent_message' as const, id: `a${e}`, content: [{ type: 'text' as const, text: `I looked at the ${words} and changed it.` }] }
        entries.push({ position: e, entryId: entry.id, kind: entry.kind, body: JSON.stringify(entry) })
      }
      writes.push({
        session: { sessionId: `bench/s${k}`, agentId: 'bench', acpSessionId: `s${k}`, cwd: `/project/${k % 20}`, title: `Session ${k}`, createdAt: k, updatedAt: k, protocolVersion: 1, capabilities: null, turnState: 'idle', state: '{}' },
        entries,
      })
    }
    void store.write(writes)
  }
  // As the app's index does once the writes pause: searches below then measure searching alone.
  if (store instanceof SqliteHistoryStore) store.catchUpSearch()
  store.checkpoint()
  store.dispose()
  console.log(`\n  search: generated ${SESSIONS} sessions × ${ENTRIES} entries (${((SESSIONS * ENTRIES) / 1e6).toFixed(2)}M entries) in ${fixed((performance.now() - t) / 1000, 1)} s, database ${mib(fileBytes(join(dir, HISTORY_FILE)), 0)}`)
}

function searchFigures(dir: string): void {
  const queries = ['tokenizer', 'module42', 'refactor parser', 'step 99999', 'migration schema module7', 'rev', 'looked changed', 'nothingmatches']
  const RUNS = 9
  for (const [label, store] of [
    ['main’s thread', openHistoryStore(dir).store],
    ['through the history thread (Bosun)', openOnThread(dir).store],
  ] as const) {
    const all: number[] = []
    console.log(`    ${label}:`)
    for (const query of queries) {
      const hits = store.search(query, 50).length
      const runs: number[] = []
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now()
        store.search(query, 50)
        runs.push(performance.now() - t)
      }
      all.push(...runs)
      console.log(`      “${query}”`.padEnd(36) + `p50 ${fixed(quantile(runs, 0.5), 1).padStart(6)} ms  p95 ${fixed(quantile(runs, 0.95), 1).padStart(6)} ms  (${hits} hits, limit 50)`)
    }
    console.log(`      all ${queries.length} queries × ${RUNS}`.padEnd(36) + `p50 ${fixed(quantile(all, 0.5), 1).padStart(6)} ms  p95 ${fixed(quantile(all, 0.95), 1).padStart(6)} ms`)
    store.dispose()
  }
}

export async function runHistoryBench(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'bosun-history-bench-'))
  try {
    const { dir, state, wireBytes, recorderMs } = await persistenceOverhead(home)
    const dbBytes = fileBytes(join(dir, HISTORY_FILE))
    console.log(`  wire bytes ${mib(wireBytes)}, database ${mib(dbBytes)} (${(dbBytes / wireBytes).toFixed(2)}x wire), ${state.entries.length} entries`)
    await wholeProcess(recorderMs)
    await openFigures(dir, state)

    const searchDir = mkdtempSync(join(home, 'search-'))
    generate(searchDir)
    searchFigures(searchDir)

    // Main's heap with the store open: it holds no session that is not open, however many are stored.
    console.log('')
    for (const heapDir of [mkdtempSync(join(home, 'empty-')), searchDir]) {
      gc()
      const before = process.memoryUsage().heapUsed
      const store = openHistoryStore(heapDir).store
      store.summary('bench/s1')
      gc()
      const after = process.memoryUsage().heapUsed
      console.log(`  heap with the store open on ${store.list({ limit: 1_000_000 }).length} stored sessions: ${after >= before ? '+' : ''}${((after - before) / 1024).toFixed(0)} KiB`)
      store.dispose()
    }
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
}
