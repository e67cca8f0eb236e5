/**
 * History figures for `npm run bench` (issue 12). Prints figures only, no thresholds:
 *   - persistence overhead: the 100,000-update flood through the reducer in batches, with and without the
 *     recorder writing every ~250 ms of batches (same run, same data, interleaved): with the store on the
 *     history thread (what Bosun runs) and, for comparison, on main's thread; main's time is the figure,
 *     the thread's catching up and the whole process's CPU are printed beside it;
 *   - database bytes against the bytes that came over the wire;
 *   - opening that 100,000-update session (main's part: read + restore; the browser's paint is not measured);
 *   - search over generated sessions (BENCH_HISTORY_SESSIONS × BENCH_HISTORY_ENTRIES, 1,000 × 1,000 by default);
 *   - main's heap with the store open, by number of stored sessions.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { applyActions, createSessionState } from '../../common/session/reducer'
import type { SessionState } from '../../common/session/types'
import { createLogger } from '../../main/base/log'
import { encodeEntry } from '../../main/history/entry-codec'
import { HistoryRecorder } from '../../main/history/recorder'
import { restoreSessionState, settled } from '../../main/history/restore'
import { HISTORY_FILE, openHistoryStore } from '../../main/history/sqlite-history-store'
import { openHistoryStore as openOnThread, WorkerHistoryStore } from '../../main/history/worker-history-store'
import type { SessionWrite } from '../../main/history/history-store'
import { buildFloodUpdates } from '../agents/flood-updates'

const COUNT = Number(process.env.BENCH_COUNT ?? 100_000)
/** ≈ 16 ms of a flood at the batcher's pace. */
const BATCH = Number(process.env.BENCH_BATCH ?? 256)
/** Batches per recorder tick: 250 ms / 16 ms. */
const BATCHES_PER_TICK = 16
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

const fileBytes = (file: string) => [file, `${file}-wal`].reduce((sum, f) => sum + (existsSync(f) ? statSync(f).size : 0), 0)
const ms = (t: number) => `${(performance.now() - t).toFixed(0)} ms`

function gc(): void {
  setFlagsFromString('--expose-gc')
  ;(runInNewContext('gc') as () => void)()
}

function ingest(updates: Record<string, unknown>[], recorder: HistoryRecorder | null): { ms: number; cpu: number; end: number; state: SessionState } {
  let state = createSessionState({ sessionId: 'bench/flood', acpSessionId: 'flood', agentId: 'bench', protocolVersion: 1, cwd: '/project' })
  recorder?.track(state)
  const t = performance.now()
  const cpu = threadCpuMs()
  let batches = 0
  for (let i = 0; i < updates.length; i += BATCH) {
    state = applyActions(state, [{ type: 'updates', updates: updates.slice(i, i + BATCH) as never }])
    if (recorder) {
      recorder.changed(state)
      if (++batches % BATCHES_PER_TICK === 0) recorder.flush()
    }
  }
  recorder?.flush()
  const end = performance.now()
  return { ms: end - t, cpu: threadCpuMs() - cpu, end, state }
}

export async function runHistoryBench(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'bosun-history-bench-'))
  const logger = createLogger('bench', () => {})
  try {
    console.log(`\nhistory bench: ${COUNT} updates, reducer batch ${BATCH}, a write every ${BATCHES_PER_TICK} batches`)
    const updates = buildFloodUpdates(COUNT)
    const wireBytes = updates.reduce<number>((sum, update) => sum + Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'flood', update } })) + 1, 0)
    // Warm both paths, then measure them alternately (twice each) and keep the best of each.
    ingest(updates.slice(0, 20_000), null)
    const warm = openHistoryStore(mkdtempSync(join(home, 'warm-')))
    ingest(updates.slice(0, 20_000), new HistoryRecorder(warm.store, { logger }))
    warm.store.dispose()
    const warmThread = openOnThread(mkdtempSync(join(home, 'warm-thread-')))
    ingest(updates.slice(0, 20_000), new HistoryRecorder(warmThread.store, { logger }))
    warmThread.store.dispose()
    const bare: number[] = []
    const inThread: number[] = []
    const onThread: number[] = []
    const caughtUp: number[] = []
    const cpu = { bare: [] as number[], inThread: [] as number[], onThread: [] as number[] }
    // The figure that matters on a loaded machine: CPU time of main's thread, whatever else runs.
    const mainCpu = { bare: [] as number[], inThread: [] as number[], onThread: [] as number[] }
    const cpuMs = (start: NodeJS.CpuUsage) => {
      const used = process.cpuUsage(start)
      return (used.user + used.system) / 1000
    }
    let flood: SessionState | undefined
    for (let round = 0; round < 2; round++) {
      let c = process.cpuUsage()
      const b = ingest(updates, null)
      bare.push(b.ms)
      mainCpu.bare.push(b.cpu)
      cpu.bare.push(cpuMs(c))

      // The store on main's thread (before issue 12's figures were met), for comparison.
      const local = openHistoryStore(mkdtempSync(join(home, `local-${round}-`)))
      const localRecorder = new HistoryRecorder(local.store, { logger })
      c = process.cpuUsage()
      const l = ingest(updates, localRecorder)
      inThread.push(l.ms)
      mainCpu.inThread.push(l.cpu)
      cpu.inThread.push(cpuMs(c))
      localRecorder.dispose()
      local.store.dispose()

      const dir = mkdtempSync(join(home, `flood-${round}-`))
      const opened = openOnThread(dir)
      if (!(opened.store instanceof WorkerHistoryStore)) throw new Error(`the history thread did not start: ${opened.problem}`)
      const recorder = new HistoryRecorder(opened.store, { logger })
      c = process.cpuUsage()
      const run = ingest(updates, recorder)
      onThread.push(run.ms)
      mainCpu.onThread.push(run.cpu)
      // Main is done; the thread finishes the writes posted.
      opened.store.settle()
      caughtUp.push(performance.now() - run.end)
      cpu.onThread.push(cpuMs(c))
      flood = run.state
      recorder.dispose()
      opened.store.dispose()
      if (round === 1) {
        const dbBytes = fileBytes(join(dir, HISTORY_FILE))
        const best = (xs: number[]) => Math.min(...xs)
        const bestBare = best(bare)
        const pct = (x: number) => `+${(((x - bestBare) / bestBare) * 100).toFixed(1)}%`
        console.log(`ingest without history         ${bestBare.toFixed(0).padStart(6)} ms  (process CPU ${best(cpu.bare).toFixed(0)} ms)`)
        console.log(`ingest, history on its thread  ${best(onThread).toFixed(0).padStart(6)} ms  (${pct(best(onThread))} on main; the thread caught up ${best(caughtUp).toFixed(0)} ms later; process CPU ${best(cpu.onThread).toFixed(0)} ms)`)
        console.log(`ingest, history on main        ${best(inThread).toFixed(0).padStart(6)} ms  (${pct(best(inThread))}; process CPU ${best(cpu.inThread).toFixed(0)} ms)`)
        const bestMain = best(mainCpu.bare)
        const cpuPct = (x: number) => `+${(((x - bestMain) / bestMain) * 100).toFixed(1)}%`
        console.log(
          `main thread CPU during ingest: without history ${bestMain.toFixed(0)} ms, history on its thread ${best(mainCpu.onThread).toFixed(0)} ms (${cpuPct(best(mainCpu.onThread))}), history on main ${best(mainCpu.inThread).toFixed(0)} ms (${cpuPct(best(mainCpu.inThread))})`,
        )
        console.log(`wire bytes ${(wireBytes / 1048576).toFixed(1)} MiB, database ${(dbBytes / 1048576).toFixed(1)} MiB (${(dbBytes / wireBytes).toFixed(2)}x wire), ${flood.entries.length} entries`)

        // Opening it again: read every row, decode, settle (what main does before `sessionAdded`).
        const reopened = openHistoryStore(dir)
        let t = performance.now()
        const stored = reopened.store.load('bench/flood')!
        const loadMs = performance.now() - t
        t = performance.now()
        const { state, settle } = restoreSessionState(stored)
        const restored = settled(state, settle)
        const restoreMs = performance.now() - t
        t = performance.now()
        const payload = JSON.stringify(restored)
        console.log(
          `open the ${COUNT}-update session: read ${loadMs.toFixed(0)} ms + restore ${restoreMs.toFixed(0)} ms + serialize ${ms(t)} (${(payload.length / 1048576).toFixed(1)} MiB to the renderer, ${restored.entries.length} entries)`,
        )
        reopened.store.dispose()
        // What Bosun does: the read is a call answered by the history thread (the rows cross as a structured clone).
        const threaded = openOnThread(dir)
        t = performance.now()
        threaded.store.load('bench/flood')
        console.log(`  read through the history thread ${ms(t)}`)
        threaded.store.dispose()
      }
    }

    // Search over many generated sessions.
    const searchDir = mkdtempSync(join(home, 'search-'))
    const opened = openHistoryStore(searchDir)
    let t = performance.now()
    let n = 0
    for (let s = 0; s < SESSIONS; s++) {
      const entries: SessionWrite['entries'] = []
      for (let e = 0; e < ENTRIES; e++) {
        const words = `${WORDS[(s + e) % WORDS.length]} ${WORDS[(s * 7 + e * 3) % WORDS.length]} step ${n++} in module${e % 97}`
        const entry = e % 3 === 0 ? { kind: 'user_message' as const, id: `u${e}`, content: [{ type: 'text' as const, text: `Please ${words}` }] } : { kind: 'agent_message' as const, id: `a${e}`, content: [{ type: 'text' as const, text: `I looked at the ${words} and changed it.` }] }
        entries.push({ position: e, entryId: entry.id, kind: entry.kind, ...encodeEntry(entry) })
      }
      opened.store.write([
        {
          session: { sessionId: `bench/s${s}`, agentId: 'bench', acpSessionId: `s${s}`, cwd: `/project/${s % 20}`, title: `Session ${s}`, createdAt: s, updatedAt: s, protocolVersion: 1, capabilities: null, turnState: 'idle', state: '{}' },
          entries,
        },
      ])
    }
    console.log(`generated ${SESSIONS} sessions × ${ENTRIES} entries in ${ms(t)}, database ${(fileBytes(join(searchDir, HISTORY_FILE)) / 1048576).toFixed(0)} MiB`)
    for (const query of ['tokenizer', 'module42', 'refactor parser', 'step 99999', 'nothingmatches']) {
      opened.store.search(query, 50)
      const runs: number[] = []
      for (let i = 0; i < 5; i++) {
        t = performance.now()
        opened.store.search(query, 50)
        runs.push(performance.now() - t)
      }
      runs.sort((a, b) => a - b)
      console.log(`search “${query}”`.padEnd(31) + `${runs[2]!.toFixed(1).padStart(6)} ms median of 5`)
    }
    opened.store.dispose()

    // Main's heap with the store open: it holds no session that is not open, however many are stored.
    for (const dir of [mkdtempSync(join(home, 'empty-')), searchDir]) {
      gc()
      const before = process.memoryUsage().heapUsed
      const store = openHistoryStore(dir).store
      store.summary('bench/s1')
      gc()
      const after = process.memoryUsage().heapUsed
      console.log(`heap with the store open on ${store.list({ limit: 1_000_000 }).length} stored sessions: +${((after - before) / 1024).toFixed(0)} KiB`)
      store.dispose()
    }
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
}
