/**
 * The history's writer thread: owns the SQLite connection (better-sqlite3: one connection per thread) and
 * runs every statement, so main's thread only posts batches. Started by `worker-history-store.ts`.
 *
 * Protocol, all on the one port main gave us (so a call always runs after the writes posted before it):
 *   - `{ t: 'write', seq, writes }`: one transaction; the outcome goes back on the `acks` port (read on main's
 *     event loop, and drained at once when main closes the store), as `{ t: 'written', seq, error? }`;
 *   - `{ t: 'writeRaw', … }`: the same, encoded here first (`entry-codec.ts`, off main's thread), a streamed
 *     message's growth applied to the version of it this thread was given last (`entry-growth.ts`);
 *   - `{ t: 'release', sessionId }`: the session is no longer recorded (forget what its growth needed);
 *   - `{ t: 'call', id, method, args }`: any other `HistoryStore` method; the answer goes back on the port
 *     and `signal[0]` is bumped, so main can wait for it synchronously (`Atomics.wait`, `receiveMessageOnPort`).
 */
import { workerData, type MessagePort } from 'node:worker_threads'
import { HISTORY_THREAD_NICE, lowerThisThreadsPriority } from './thread-priority'
import type { HistoryStore, RawSessionWrite, SessionWrite } from './history-store'
import { encodeEntry, encodeSessionFields, grownPlainBody, plainBody, type PlainBody } from './entry-codec'
import { openHistoryStore } from './sqlite-history-store'
import { applyGrowth, PostedEntries, type EntryGrowth } from './entry-growth'
import type { Entry, MessageEntry } from '../../common/session/types'

export interface HistoryWorkerData {
  home: string
  now: number | null
  port: MessagePort
  acks: MessagePort
  signal: SharedArrayBuffer
}

export type WorkerRequest =
  | { t: 'write'; seq: number; writes: SessionWrite[] }
  | { t: 'writeRaw'; seq: number; writes: RawSessionWrite[] }
  | { t: 'call'; id: number; method: string; args: unknown[] }
  | { t: 'release'; sessionId: string }

export interface SerializedError {
  message: string
  code?: string
}

export type WorkerReply = { id: number; value?: unknown; error?: SerializedError }
export type WorkerEvent = { t: 'written'; seq: number; error?: SerializedError }

const serialize = (error: unknown): SerializedError => {
  const code = (error as { code?: unknown })?.code
  return { message: error instanceof Error ? error.message : String(error), ...(typeof code === 'string' ? { code } : {}) }
}

const data = workerData as HistoryWorkerData
const signal = new Int32Array(data.signal)
// Alive: main, waiting for the first answer, now knows the script loaded.
Atomics.store(signal, 1, 1)
Atomics.add(signal, 0, 1)
Atomics.notify(signal, 0)
let store: HistoryStore | undefined

lowerThisThreadsPriority(HISTORY_THREAD_NICE)

function answer(id: number, reply: Omit<WorkerReply, 'id'>): void {
  data.port.postMessage({ id, ...reply } satisfies WorkerReply)
  Atomics.add(signal, 0, 1)
  Atomics.notify(signal, 0)
}

function call(method: string, args: unknown[]): unknown {
  if (method === 'open') {
    const opened = openHistoryStore(data.home, data.now !== null ? { now: () => data.now! } : {})
    store = opened.store
    return { file: opened.store.file, problem: opened.problem }
  }
  if (!store) throw new Error('The history database is not open.')
  if (method === 'delete') {
    lastState.delete(String(args[0]))
    posted.forget(String(args[0]))
  }
  if (method === 'dispose') {
    posted.clear()
    lastState.clear()
    store.dispose()
    store = undefined
    return undefined
  }
  if (method === 'isOff') return store.isOff?.() ?? false
  const fn = (store as unknown as Record<string, (...a: unknown[]) => unknown>)[method]
  if (typeof fn !== 'function' || method === 'write') throw new Error(`Unknown history call ${method}.`)
  return fn.apply(store, args)
}

/** The session-wide state last encoded per session: a raw write without one keeps it. */
const lastState = new Map<string, string>()

/** Per session, the entries of its last raw write: a growth main posts is applied to these (`entry-growth.ts`). */
const posted = new PostedEntries()

/**
 * The bodies of messages rebuilt from a growth, by entry: the next growth of the same message extends its body by
 * the new text alone (`grownPlainBody`), instead of serializing the whole message again at every tick it streams.
 * Kept only while the entry is (the thread keeps a session's last posted entries, `posted`).
 */
const grownBodies = new WeakMap<Entry, PlainBody>()

/** An entry to write, and its body when it was made from the body written before (else it is encoded). */
type Resolved = { position: number; entry: Entry; body?: string }

/**
 * Rebuilds whole entries from growths and remembers them, before anything can fail: main's record of what
 * it posted moves on whether or not the transaction succeeds. A growth without its base (never expected)
 * fails the write, and main then writes everything since the last confirmed write again, whole.
 */
function resolveEntries(writes: RawSessionWrite[]): Resolved[][] {
  let missing: string | null = null
  const resolved = writes.map(({ session, entries }) => {
    const kept = new Map<number, Entry>()
    const whole = entries.flatMap((item): Resolved[] => {
      if (!('grown' in item)) {
        kept.set(item.position, item.entry)
        return [item]
      }
      const base = posted.get(session.sessionId, item.position)
      if (!base) {
        missing ??= `the history thread has no base for the entry at ${item.position} of ${session.sessionId}`
        return []
      }
      const entry = applyGrowth(base, item.grown)
      kept.set(item.position, entry)
      return [{ position: item.position, entry, body: grownBody(base, entry, item.grown) }]
    })
    posted.set(session.sessionId, kept)
    return whole
  })
  if (missing) throw new Error(missing)
  return resolved
}

/** The body of `entry`, grown from `base` by `growth`, made from the body of `base` when the thread has it; remembered for the next growth. */
function grownBody(base: Entry, entry: Entry, growth: EntryGrowth): string | undefined {
  // A new block, or nothing new: encoded whole.
  if (growth.blocks.length > 0 || growth.text === '') return undefined
  const before = grownBodies.get(base)
  const made = before ? grownPlainBody(before, growth.text, (entry as MessageEntry).content.length) : plainBody(entry)
  if (!made) return undefined
  grownBodies.set(entry, made)
  return made.body
}

function encode(writes: RawSessionWrite[]): SessionWrite[] {
  const entries = resolveEntries(writes)
  return writes.map(({ session: { state, ...session }, entriesEnd }, i) => {
    const json = state ? encodeSessionFields(state) : (lastState.get(session.sessionId) ?? '{}')
    lastState.set(session.sessionId, json)
    return {
      session: { ...session, state: json },
      entries: entries[i]!.map(({ position, entry, body }) => ({ position, entryId: entry.id, kind: entry.kind, body: body ?? encodeEntry(entry).body })),
      ...(entriesEnd !== undefined ? { entriesEnd } : {}),
    }
  })
}

data.port.on('message', (request: WorkerRequest) => {
  if (request.t === 'release') {
    posted.forget(request.sessionId)
    return
  }
  if (request.t === 'write' || request.t === 'writeRaw') {
    try {
      const writes = request.t === 'write' ? request.writes : encode(request.writes)
      if (!store) throw new Error('The history database is not open.')
      store.write(writes)
      data.acks.postMessage({ t: 'written', seq: request.seq } satisfies WorkerEvent)
    } catch (error) {
      data.acks.postMessage({ t: 'written', seq: request.seq, error: serialize(error) } satisfies WorkerEvent)
    }
    return
  }
  try {
    answer(request.id, { value: call(request.method, request.args) })
  } catch (error) {
    answer(request.id, { error: serialize(error) })
  }
})
