import type { IDisposable } from '../base/lifecycle'
import type { SessionAction } from '../../common/session/types'
import { isPlainTextChunk, type TextChunk } from '../../common/session/coalesce'
import type { ProtocolVersion } from '../../common/session/types'
import { dropSuperseded, mayBeSuperseded } from './superseded'
import { estimateJsonBytes, TEXT_CHUNK_BYTES } from './estimate-json'
import { SessionGrowth } from './session-growth'

export interface Scheduler {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
  /** A monotonic clock in ms. Without it, batches are bounded in time by the timer alone. */
  now?(): number
}

const realScheduler: Scheduler = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => performance.now(),
}

export interface ActionBatcherOptions {
  /**
   * A session's queue is sent as soon as its estimated size reaches this many bytes (default 128 KiB), so
   * one batch never becomes one huge socket frame and one long task in the page.
   */
  maxBatchBytes?: number
  /**
   * The session's ACP version: with it, a batch goes without the updates a later one of it replaces (`superseded.ts`:
   * plans, command lists). Without it (or `undefined` for a session), batches go as they came.
   */
  versionOf?: (sessionId: string) => ProtocolVersion | undefined
}

/** Estimated JSON size of an action Bosun makes itself (turn state, resolutions, settings: small). */
const OTHER_ACTION_BYTES = 512

/**
 * Where a batch goes. `bytes`: its estimated JSON size (what {@link ActionBatcherOptions.maxBatchBytes} counts, the
 * agent's updates as they came). `grows`: how much of that can grow the session (session-growth.ts: what only replaces
 * what the session holds counts by what it adds). `joined`: every run of streamed text in it is one chunk already (each update came
 * through `pushUpdate`, which joins them as they come, and none was left out between two runs): `coalesceTextChunks`
 * would return each of its update lists as it is.
 */
export type BatchFlush = (sessionId: string, actions: SessionAction[], bytes: number, joined: boolean, grows: number) => void

interface Queue {
  actions: SessionAction[]
  bytes: number
  /** Of {@link bytes}, what can grow the session (see {@link BatchFlush}). */
  grows: number
  /** The session's count of what its updates replaced (the batcher's, kept across its batches). */
  growth: SessionGrowth
  since: number
  /**
   * The run of streamed text being joined: the chunk that stands for it in the queue, and its texts, set on it when
   * the run ends (another run starts, or the queue goes).
   */
  run: { chunk: TextChunk; texts: string[] } | undefined
  /** Updates of the kinds a later one may replace (`mayBeSuperseded`): with two or more, the batch is looked through. */
  replaceable: number
  /** Updates came through `push` (not joined as they came): the batch is not `joined` (see {@link BatchFlush}). */
  unjoined: boolean
}

/**
 * Coalesces session actions so the renderer gets one message per session per frame (~16 ms), not one
 * per chunk. Consecutive `updates` actions merge into one. Nothing is scheduled while nothing arrives,
 * so idle sessions cost nothing.
 *
 * Batches are bounded by bytes and by time: a flood fills the pipe faster than the timer fires (the
 * event loop is busy reading), so a queue also goes out when it reaches {@link ActionBatcherOptions.maxBatchBytes}
 * or when its first action has waited `intervalMs`, checked as actions arrive.
 */
export class ActionBatcher implements IDisposable {
  private readonly queues = new Map<string, Queue>()
  /** Per session, what its replacing updates held at most (kept until the session is dropped). */
  private readonly growth = new Map<string, SessionGrowth>()
  private handle: unknown = undefined
  private disposed = false
  private readonly maxBytes: number
  private readonly versionOf: ((sessionId: string) => ProtocolVersion | undefined) | undefined

  constructor(
    private readonly onFlush: BatchFlush,
    private readonly intervalMs = 16,
    private readonly scheduler: Scheduler = realScheduler,
    options: ActionBatcherOptions = {},
  ) {
    this.maxBytes = options.maxBatchBytes ?? 128 * 1024
    this.versionOf = options.versionOf
  }

  push(sessionId: string, action: SessionAction): void {
    if (this.disposed) return
    const now = this.scheduler.now?.() ?? 0
    let queue = this.queues.get(sessionId)
    if (!queue) {
      queue = { actions: [], bytes: 0, grows: 0, growth: this.growthOf(sessionId), since: now, run: undefined, replaceable: 0, unjoined: false }
      this.queues.set(sessionId, queue)
    }
    const actions = queue.actions
    const last = actions[actions.length - 1]
    if (action.type === 'updates') {
      if (action.updates.length > 1 || last?.type === 'updates') queue.unjoined = true
      for (const update of action.updates) {
        const bytes = estimateJsonBytes(update)
        queue.bytes += bytes
        queue.grows += queue.growth.update(update, bytes)
        if (mayBeSuperseded((update as { sessionUpdate?: unknown } | null)?.sessionUpdate)) queue.replaceable++
      }
      // Merge in place: the queue owns its arrays until flush.
      if (last?.type === 'updates') for (const update of action.updates) last.updates.push(update)
      else actions.push({ type: 'updates', updates: [...action.updates] })
    } else {
      // What carries the agent's data counts as what it carries (it grows the session like the agent's own updates):
      // a terminal's output, a permission's tool-call patch, an elicitation's form and the answer kept of it, the diffs
      // of Bosun's writes.
      const bytes =
        action.type === 'client_terminal' ? estimateJsonBytes(action.update)
        : action.type === 'permission_requested' || action.type === 'elicitation_requested' || action.type === 'file_written' || action.type === 'file_read' || (action.type === 'elicitation_resolved' && action.answer) ? estimateJsonBytes(action)
        : OTHER_ACTION_BYTES
      queue.bytes += bytes
      queue.grows += action.type === 'client_terminal' ? queue.growth.clientTerminal(action.update, bytes) : bytes
      actions.push(action)
    }
    if (queue.bytes >= this.maxBytes || (this.scheduler.now !== undefined && now - queue.since >= this.intervalMs)) {
      this.flush(sessionId)
      return
    }
    if (this.handle === undefined) this.handle = this.scheduler.setTimeout(() => this.flush(), this.intervalMs)
  }

  /**
   * `push(sessionId, { type: 'updates', updates: [update] })` without the wrapper (the hot path). Streamed text is
   * joined as it comes: a plain text chunk that continues the one before it (same kind and message, see
   * `coalesceTextChunks`) goes into one chunk for the run, as `coalesceTextChunks` would join the batch, so the queue
   * holds one update per run instead of one per token. Its size counts as the chunks' did. `plain`: whether the update
   * is a plain text chunk (`isPlainTextChunk`), when the caller has checked (else it is checked here).
   */
  pushUpdate(sessionId: string, update: unknown, plain?: boolean): void {
    const queue = this.queues.get(sessionId)
    const last = queue?.actions[queue.actions.length - 1]
    if (last?.type !== 'updates') {
      this.push(sessionId, { type: 'updates', updates: [update] as never })
      return
    }
    if (this.disposed) return
    const updates = last.updates as unknown[]
    const previous = updates[updates.length - 1]
    plain ??= isPlainTextChunk(update)
    const chunk = update as TextChunk
    if (previous !== undefined && plain) {
      const run = queue!.run
      if (run !== undefined && previous === run.chunk && run.chunk.sessionUpdate === chunk.sessionUpdate && run.chunk.messageId === chunk.messageId) run.texts.push(chunk.content.text)
      else if (isPlainTextChunk(previous) && previous.sessionUpdate === chunk.sessionUpdate && previous.messageId === chunk.messageId) {
        endRun(queue!)
        const joined: TextChunk = { sessionUpdate: chunk.sessionUpdate, ...(chunk.messageId !== undefined ? { messageId: chunk.messageId } : {}), content: { type: 'text', text: '' } }
        queue!.run = { chunk: joined, texts: [previous.content.text, chunk.content.text] }
        updates[updates.length - 1] = joined
      } else updates.push(update)
    } else {
      updates.push(update)
      if (!plain && mayBeSuperseded((update as { sessionUpdate?: unknown } | null)?.sessionUpdate)) queue!.replaceable++
    }
    // A plain chunk's estimate is its text's (estimateJsonBytes' own shortcut), without looking at it again.
    if (plain) {
      const bytes = TEXT_CHUNK_BYTES + chunk.content.text.length
      queue!.bytes += bytes
      queue!.grows += bytes
    } else {
      const bytes = estimateJsonBytes(update)
      queue!.bytes += bytes
      queue!.grows += queue!.growth.update(update, bytes)
    }
    if (queue!.bytes >= this.maxBytes || (this.scheduler.now !== undefined && this.scheduler.now() - queue!.since >= this.intervalMs)) this.flush(sessionId)
  }

  /** Flushes every queue now (before a call returns, so the caller sees its own effects in order). */
  flush(sessionId?: string): void {
    if (sessionId !== undefined) {
      const queue = this.queues.get(sessionId)
      if (!queue) return
      this.queues.delete(sessionId)
      if (this.queues.size === 0) this.cancelTimer()
      this.send(sessionId, queue)
      return
    }
    this.cancelTimer()
    const entries = [...this.queues]
    this.queues.clear()
    // One session's batch that cannot be applied (a bug the agent's data met) must not lose the other sessions' (other
    // agents'): each is applied, then the first error is thrown.
    let failed: { error: unknown } | undefined
    for (const [id, queue] of entries) {
      try {
        this.send(id, queue)
      } catch (error) {
        failed ??= { error }
      }
    }
    if (failed) throw failed.error
  }

  /** Sends a queue: its text run joined, the updates a later one replaces left out (see {@link BatchFlush}'s `joined`). */
  private send(sessionId: string, queue: Queue): void {
    endRun(queue)
    const version = queue.replaceable >= 2 ? this.versionOf?.(sessionId) : undefined
    const dropped = { whole: false }
    const actions = version !== undefined ? dropSuperseded(queue.actions, version, dropped) : queue.actions
    // A plan kept as a bare mark leaves every run where it was (the flood's plans are): only an update left out whole
    // may bring two runs of one stream together, to be joined when the batch is looked through.
    this.onFlush(sessionId, actions, queue.bytes, !queue.unjoined && !dropped.whole, queue.grows)
  }

  /** Drops a session's queued actions (session closed). */
  drop(sessionId: string): void {
    this.queues.delete(sessionId)
    this.growth.delete(sessionId)
    if (this.queues.size === 0) this.cancelTimer()
  }

  private cancelTimer(): void {
    if (this.handle !== undefined) this.scheduler.clearTimeout(this.handle)
    this.handle = undefined
  }

  dispose(): void {
    this.disposed = true
    this.cancelTimer()
    this.queues.clear()
    this.growth.clear()
  }

  private growthOf(sessionId: string): SessionGrowth {
    let growth = this.growth.get(sessionId)
    if (!growth) {
      growth = new SessionGrowth()
      this.growth.set(sessionId, growth)
    }
    return growth
  }
}

/** The queue's run of streamed text gets its text, joined once (one flat string, not a chain of `+`). */
function endRun(queue: Queue): void {
  const run = queue.run
  if (run === undefined) return
  run.chunk.content.text = run.texts.join('')
  queue.run = undefined
}
