/**
 * The history store on its own thread (`history-worker.ts`): `write` posts the batch (entries already
 * serialized by the recorder) and returns at once, its outcome a promise; every other method is a
 * synchronous call answered by the worker in order after the writes posted before it (so a search after a
 * flush sees what was flushed), waited for with `Atomics.wait` and read with `receiveMessageOnPort`.
 *
 * One file works in the three ways Bosun runs: the bundle (`electron-vite build` emits
 * `out/main/history-worker.mjs` next to `index.js`; packaged, its copy in `app.asar.unpacked`), and the TypeScript sources (browser host under tsx,
 * vitest), where the worker is the `.ts` file started with tsx's loader. When the worker cannot start,
 * the store is opened on main's thread as before, so history still works.
 */
import { createRequire } from 'node:module'
import { existsSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads'
import type { HistorySummary } from '../../common/contract/history'
import type { HistoryStore, RawSessionWrite, SessionWrite, StoredSession } from './history-store'
import type { HistoryWorkerData, SerializedError, WorkerEvent, WorkerReply, WorkerRequest } from './history-worker'
import { openHistoryStore as openInThread, type OpenedHistory } from './sqlite-history-store'

/** How long main waits for one answer (opening may migrate a large file; a quit must not hang for ever). */
const CALL_TIMEOUT_MS = 60_000
/** On quit: what was posted is written and the file closed within this, else left to the WAL (committed writes are kept). */
const CLOSE_TIMEOUT_MS = 10_000
/**
 * A worker whose script cannot load never answers and cannot say so while main waits for it (its `error`
 * event needs main's event loop): past this without the worker's first sign of life, history falls back
 * to main's thread. Generous: under tsx the worker compiles its sources first, on a machine that may be busy.
 */
const STARTUP_TIMEOUT_MS = 15_000

/** Reads answered later ({@link WorkerHistoryStore.listLater}, `searchLater`) waiting at once, at most. */
export const MAX_ASKED = 64
/**
 * Of those, searches at most: the rest is kept for lists. Every tab shares this one queue, and a search flood from
 * one of them (each query different) must not make another's history list fail busy. Lists need little room:
 * identical reads waiting share one answer, and a page asks for only a few different lists.
 */
export const MAX_SEARCHES_ASKED = 48

class WorkerStopped extends Error {}

/**
 * What the thread runs first: it imports the worker's module and, when that fails (a broken build, a missing
 * chunk), says so through the shared signal (`[1] = -1`, `[0]` bumped) and the port. Main may be blocked in
 * `Atomics.wait` for the first answer, where the worker's `error` event cannot reach it: without this it
 * would wait out the whole startup deadline.
 */
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads')
;(async () => {
  for (const url of workerData.preload) await import(url)
  await import(workerData.entry)
})().catch((error) => {
  const signal = new Int32Array(workerData.signal)
  try {
    workerData.port.postMessage({ t: 'load-failed', message: String((error && error.message) || error).slice(0, 500) })
  } catch {}
  Atomics.store(signal, 1, -1)
  Atomics.add(signal, 0, 1)
  Atomics.notify(signal, 0)
})
`

/** What the bootstrap posts when the worker's module did not load. */
interface LoadFailed {
  t: 'load-failed'
  message: string
}

function revive(error: SerializedError): Error {
  const revived = new Error(error.message) as Error & { code?: string }
  if (error.code) revived.code = error.code
  return revived
}

/** The worker's module, and modules the thread imports before it (tsx's loader, for the TypeScript sources). */
export interface WorkerEntry {
  url: URL
  preload: string[]
}

/** The bundle's file name for the worker (`electron.vite.config.ts`: `.mjs`, an ES module wherever it lies). */
export const WORKER_BUNDLE = 'history-worker.mjs'

/**
 * The worker's module and the flags it needs, for the module at `here` (this file's `import.meta.url`):
 *   - the TypeScript sources (browser host under tsx, vitest): `history-worker.ts`, after tsx's loader (imported
 *     by the bootstrap: an `--import` flag is not applied to a thread started from code);
 *   - the bundle: `history-worker.mjs` beside it. Packaged, that is inside `app.asar`, where a worker thread
 *     cannot start a script: electron-builder keeps the worker and its chunks outside the archive
 *     (`asarUnpack`), in `app.asar.unpacked`, and that copy is the one started.
 */
export function workerEntry(here: string, exists: (path: string) => boolean = existsSync): WorkerEntry {
  if (/\.[cm]?ts$/.test(new URL(here).pathname)) {
    return { url: new URL('./history-worker.ts', here), preload: [pathToFileURL(createRequire(here).resolve('tsx')).href] }
  }
  const bundled = new URL(`./${WORKER_BUNDLE}`, here)
  const unpacked = new URL(bundled.href.replace(/\/app\.asar\//, '/app.asar.unpacked/'))
  return { url: unpacked.href !== bundled.href && exists(fileURLToPath(unpacked)) ? unpacked : bundled, preload: [] }
}

export class WorkerHistoryStore implements HistoryStore {
  /** [0]: bumped by the worker after each answer; [1]: 1 once the worker's module runs, -1 when it failed to load. */
  private readonly signal = new Int32Array(new SharedArrayBuffer(8))
  private readonly port: MessagePort
  private readonly acks: MessagePort
  private readonly worker: Worker
  private readonly pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>()
  /** Reads asked with {@link ask}, by call id: answered on the port's events, never waited for on this thread. */
  private readonly asked = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: ReturnType<typeof setTimeout>; method: string }>()
  /**
   * Reads waiting, by method and arguments: the same read asked again before the answer shares it (a tab that
   * refreshes its list, or searches as it types, holds one place in the queue). Emptied by every write: a read
   * asked after a write is asked anew, so it sees what was written (the shared one was answered before it).
   */
  private readonly sharedReads = new Map<string, Promise<unknown>>()
  private listening = false
  private nextSeq = 0
  private nextId = 0
  private stopped: string | null = null
  private disposed = false
  file: string | null = null

  constructor(
    /** The home whose history this thread opens (at {@link open}). */
    readonly home: string,
    options: { now?: () => number; timeoutMs?: number; startupTimeoutMs?: number; entry?: WorkerEntry } = {},
  ) {
    const entry = options.entry ?? workerEntry(import.meta.url)
    // Fails at once, not after the startup deadline, when the build lacks the file.
    if (!existsSync(fileURLToPath(entry.url))) throw new Error(`${fileURLToPath(entry.url)} is missing`)
    const channel = new MessageChannel()
    const acks = new MessageChannel()
    this.port = channel.port1
    this.acks = acks.port1
    const data: HistoryWorkerData = { home, now: options.now ? options.now() : null, port: channel.port2, acks: acks.port2, signal: this.signal.buffer as SharedArrayBuffer }
    // A small young generation: each write arrives as one structured clone of megabytes that lives for one
    // task, and V8's default (tens of MiB, sized for a main thread) stays in the process's memory after a flood.
    this.worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: { ...data, entry: entry.url.href, preload: entry.preload },
      transferList: [channel.port2, acks.port2],
      // None of the process's own flags (a worker refuses e.g. `--expose-gc`: ERR_WORKER_INVALID_EXEC_ARGV).
      execArgv: [],
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    })
    this.acks.on('message', (event: WorkerEvent) => this.settleWrite(event))
    // Quitting never waits for the thread: `dispose` closes it.
    this.worker.unref()
    this.port.unref()
    this.acks.unref()
    this.worker.on('error', (error) => this.stop(`the history thread failed (${error.message})`))
    this.worker.on('exit', (code) => this.stop(`the history thread stopped (exit ${code})`))
    this.timeoutMs = options.timeoutMs ?? CALL_TIMEOUT_MS
    this.startupTimeoutMs = options.startupTimeoutMs ?? STARTUP_TIMEOUT_MS
  }

  private readonly timeoutMs: number
  private readonly startupTimeoutMs: number

  private settleWrite(event: WorkerEvent): void {
    if (event.t !== 'written') return
    const waiter = this.pending.get(event.seq)
    this.pending.delete(event.seq)
    if (this.pending.size === 0) this.acks.unref()
    if (event.error) waiter?.reject(revive(event.error))
    else waiter?.resolve()
  }

  private stop(reason: string): void {
    this.stopped ??= reason
    for (const waiter of this.pending.values()) waiter.reject(new WorkerStopped(reason))
    this.pending.clear()
    this.acks.unref()
    for (const waiter of this.asked.values()) {
      clearTimeout(waiter.timer)
      waiter.reject(new WorkerStopped(reason))
    }
    this.asked.clear()
    this.sharedReads.clear()
    this.port.unref()
  }

  /** Searches among the reads waiting (at most {@link MAX_ASKED} to look through). */
  private searchesWaiting(): number {
    let searches = 0
    for (const waiter of this.asked.values()) if (waiter.method === 'search') searches++
    return searches
  }

  /**
   * Asks the worker without waiting on this thread: the answer comes as a port event, after the writes posted
   * before it. Main keeps reading its agents meanwhile (a list asked during a flood would otherwise block it
   * for as long as the thread takes to write what came before).
   */
  private ask<T>(method: string, ...args: unknown[]): Promise<T> {
    if (this.stopped) return Promise.reject(new WorkerStopped(this.stopped))
    const key = `${method}\u0000${JSON.stringify(args)}`
    const shared = this.sharedReads.get(key)
    if (shared) return shared as Promise<T>
    // Bounded: a window that asks without end (a compromised renderer) cannot grow main's memory with waiting reads.
    if (this.asked.size >= MAX_ASKED) return Promise.reject(new Error(`The history is busy (${MAX_ASKED} reads waiting); try again.`))
    const search = method === 'search'
    if (search && this.searchesWaiting() >= MAX_SEARCHES_ASKED) return Promise.reject(new Error(`The history is busy (${MAX_SEARCHES_ASKED} searches waiting); try again.`))
    const id = ++this.nextId
    const answer = new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => this.stop(`the history thread did not answer ${method} within ${Math.round(this.timeoutMs / 1000)} s`), this.timeoutMs)
      timer.unref()
      this.asked.set(id, { resolve: resolve as (value: unknown) => void, reject, timer, method })
    })
    this.sharedReads.set(key, answer)
    const unshare = () => {
      if (this.sharedReads.get(key) === answer) this.sharedReads.delete(key)
    }
    answer.then(unshare, unshare)
    if (!this.listening) {
      this.listening = true
      this.port.on('message', (reply: WorkerReply | LoadFailed) => this.settleAsked(reply))
    }
    // An answer awaited keeps the process alive; an idle store does not.
    this.port.ref()
    this.port.postMessage({ t: 'call', id, method, args } satisfies WorkerRequest)
    return answer
  }

  /** An answer to {@link ask} (also when a synchronous call's loop took it off the port first). */
  private settleAsked(reply: WorkerReply | LoadFailed): void {
    if ('t' in reply && reply.t === 'load-failed') {
      this.stop(`the history thread could not load its code (${reply.message})`)
      return
    }
    if (!('id' in reply)) return
    const waiter = this.asked.get(reply.id)
    if (!waiter) return
    this.asked.delete(reply.id)
    clearTimeout(waiter.timer)
    if (this.asked.size === 0) this.port.unref()
    if (reply.error) waiter.reject(revive(reply.error))
    else waiter.resolve(reply.value)
  }

  /** Asks the worker and waits for its answer on this thread. */
  private call<T>(method: string, ...args: unknown[]): T {
    return this.callWithin(this.timeoutMs, method, args)
  }

  private callWithin<T>(timeoutMs: number, method: string, args: unknown[]): T {
    if (this.stopped) throw new WorkerStopped(this.stopped)
    const id = ++this.nextId
    const seen = Atomics.load(this.signal, 0)
    this.port.postMessage({ t: 'call', id, method, args } satisfies WorkerRequest)
    const started = Date.now()
    const deadline = started + timeoutMs
    for (;;) {
      const received = receiveMessageOnPort(this.port)
      if (received) {
        const reply = received.message as WorkerReply | LoadFailed
        if ('t' in reply && reply.t === 'load-failed') {
          this.stop(`the history thread could not load its code (${reply.message})`)
          throw new WorkerStopped(this.stopped!)
        }
        if (!('id' in reply) || reply.id !== id) {
          this.settleAsked(reply)
          continue
        }
        if (reply.error) throw revive(reply.error)
        return reply.value as T
      }
      if (Atomics.load(this.signal, 1) === -1) {
        this.stop('the history thread could not load its code')
        throw new WorkerStopped(this.stopped!)
      }
      if (Atomics.load(this.signal, 1) === 0 && Date.now() - started >= this.startupTimeoutMs) {
        this.stop(`the history thread did not start within ${Math.round(this.startupTimeoutMs / 1000)} s`)
        throw new WorkerStopped(this.stopped!)
      }
      const left = deadline - Date.now()
      if (left <= 0) {
        this.stop(`the history thread did not answer ${method} within ${Math.round(timeoutMs / 1000)} s`)
        throw new WorkerStopped(this.stopped!)
      }
      // Wakes when the worker has answered something since `seen` (or at once if it already has).
      Atomics.wait(this.signal, 0, seen, Math.min(left, 250))
    }
  }

  /** Opens the database in the worker; the problem, if any, as `openHistoryStore` reports it. */
  open(): { file: string | null; problem: string | null } {
    const opened = this.call<{ file: string | null; problem: string | null }>('open')
    this.file = opened.file
    return opened
  }

  write(writes: SessionWrite[]): Promise<void> | void {
    if (writes.length === 0) return
    return this.post({ t: 'write', seq: ++this.nextSeq, writes })
  }

  /** Posts the writes before encoding: the thread encodes them (the structured clone is main's only cost). */
  writeRaw(writes: RawSessionWrite[]): Promise<void> {
    return this.post({ t: 'writeRaw', seq: ++this.nextSeq, writes })
  }

  release(sessionId: string): void {
    if (!this.stopped) this.port.postMessage({ t: 'release', sessionId } satisfies WorkerRequest)
  }

  private post(request: Extract<WorkerRequest, { seq: number }>): Promise<void> {
    if (this.stopped) throw new WorkerStopped(this.stopped)
    this.sharedReads.clear()
    // A write not yet acknowledged keeps the process alive (its outcome is awaited); an idle store does not.
    if (this.pending.size === 0) this.acks.ref()
    const done = new Promise<void>((resolve, reject) => this.pending.set(request.seq, { resolve, reject }))
    this.port.postMessage(request satisfies WorkerRequest)
    return done
  }

  list(options?: { includeArchived?: boolean; limit?: number }): HistorySummary[] {
    return this.call('list', options ?? {})
  }
  /** {@link list} without blocking main's thread. */
  listLater(options?: { includeArchived?: boolean; limit?: number }): Promise<HistorySummary[]> {
    return this.ask('list', options ?? {})
  }
  summary(sessionId: string): HistorySummary | undefined {
    return this.call<HistorySummary | null>('summary', sessionId) ?? undefined
  }
  load(sessionId: string): StoredSession | undefined {
    return this.call<StoredSession | null>('load', sessionId) ?? undefined
  }
  has(sessionId: string): boolean {
    return this.call('has', sessionId)
  }
  keepAside(sessionId: string): string {
    return this.call<string>('keepAside', sessionId)
  }
  /** The thread's store is off (its file could not be opened yet); a thread that stopped is off too. */
  isOff(): boolean {
    if (this.stopped) return true
    return this.call<boolean>('isOff')
  }
  rename(sessionId: string, title: string | null): boolean {
    this.sharedReads.clear()
    return this.call('rename', sessionId, title)
  }
  setArchived(sessionId: string, archived: boolean): boolean {
    this.sharedReads.clear()
    return this.call('setArchived', sessionId, archived)
  }
  delete(sessionId: string): boolean {
    this.sharedReads.clear()
    return this.call('delete', sessionId)
  }
  search(query: string, limit: number): ReturnType<HistoryStore['search']> {
    return this.call('search', query, limit)
  }
  /** {@link search} without blocking main's thread. */
  searchLater(query: string, limit: number): Promise<ReturnType<HistoryStore['search']>> {
    return this.ask('search', query, limit)
  }
  checkpoint(): void {
    this.call('checkpoint')
  }

  /** Waits for every write posted so far (tests, the bench). */
  settle(): void {
    if (!this.stopped) this.call('has', '')
  }

  /** Lets the worker finish what was posted, checkpoint and close the file, then ends the thread. */
  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    try {
      if (!this.stopped) this.callWithin(Math.min(this.timeoutMs, CLOSE_TIMEOUT_MS), 'dispose', [])
    } catch {
      // The thread is gone or stuck: SQLite's WAL keeps every committed write for next time.
    }
    // The outcomes of the writes the thread finished, not yet read by the event loop.
    for (let ack = receiveMessageOnPort(this.acks); ack; ack = receiveMessageOnPort(this.acks)) this.settleWrite(ack.message as WorkerEvent)
    this.stop('the history was closed')
    this.port.close()
    this.acks.close()
    void this.worker.terminate()
  }
}

/**
 * Starts the history's thread for `home` without opening anything: the thread loads its code (about a tenth of a
 * second, SQLite's module among it) while the rest of Bosun loads and starts, on the other core. Nothing touches the
 * home until {@link openHistoryStore} is given it, after Bosun holds the home's lock. `undefined` when the thread
 * cannot start; `openHistoryStore` then tries again and reports why. Whoever starts it disposes it unless
 * `openHistoryStore` took it.
 */
export function startHistoryThread(home: string, options: { entry?: WorkerEntry } = {}): WorkerHistoryStore | undefined {
  try {
    return new WorkerHistoryStore(home, options)
  } catch {
    return undefined
  }
}

/**
 * Opens (or creates) the history database in `home` on its own thread; never throws. Falls back to main's
 * thread when the worker cannot start, and says so in `problem` (logged once by the caller, shown with the
 * history): everything still works, but a long session's writes then cost main's thread. `started`: the thread
 * {@link startHistoryThread} started for this home, used (and owned from here on) instead of starting one.
 */
export function openHistoryStore(
  home: string,
  options: { now?: () => number; timeoutMs?: number; startupTimeoutMs?: number; entry?: WorkerEntry; started?: WorkerHistoryStore } = {},
): OpenedHistory {
  let store: WorkerHistoryStore | undefined
  const { started, ...storeOptions } = options
  try {
    store = started?.home === home ? started : new WorkerHistoryStore(home, storeOptions)
    if (store !== started) started?.dispose()
    const { problem } = store.open()
    return { store, problem }
  } catch (error) {
    store?.dispose()
    const opened = openInThread(home, options.now ? { now: options.now } : {})
    const why = `History is written on Bosun's main thread: its own thread could not start (${error instanceof Error ? error.message : String(error)}).`
    return { ...opened, problem: opened.problem ? `${opened.problem} ${why}` : why }
  }
}
