import type { IDisposable } from '../base/lifecycle'
import type { SessionAction } from '../../common/session/types'

export interface Scheduler {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

const realScheduler: Scheduler = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

/**
 * Coalesces session actions so the renderer gets one message per session per frame (~16 ms), not one
 * per chunk. Consecutive `updates` actions merge into one. Nothing is scheduled while nothing arrives,
 * so idle sessions cost nothing.
 */
export class ActionBatcher implements IDisposable {
  private readonly queues = new Map<string, SessionAction[]>()
  private handle: unknown = undefined
  private disposed = false

  constructor(
    private readonly onFlush: (sessionId: string, actions: SessionAction[]) => void,
    private readonly intervalMs = 16,
    private readonly scheduler: Scheduler = realScheduler,
  ) {}

  push(sessionId: string, action: SessionAction): void {
    if (this.disposed) return
    let queue = this.queues.get(sessionId)
    if (!queue) {
      queue = []
      this.queues.set(sessionId, queue)
    }
    const last = queue[queue.length - 1]
    if (action.type === 'updates' && last?.type === 'updates') {
      // Merge in place: the queue owns its arrays until flush.
      for (const update of action.updates) last.updates.push(update)
    } else if (action.type === 'updates') {
      queue.push({ type: 'updates', updates: [...action.updates] })
    } else {
      queue.push(action)
    }
    if (this.handle === undefined) this.handle = this.scheduler.setTimeout(() => this.flush(), this.intervalMs)
  }

  /** Flushes every queue now (before a call returns, so the caller sees its own effects in order). */
  flush(sessionId?: string): void {
    if (sessionId !== undefined) {
      const queue = this.queues.get(sessionId)
      if (!queue) return
      this.queues.delete(sessionId)
      this.onFlush(sessionId, queue)
      if (this.queues.size === 0) this.cancelTimer()
      return
    }
    this.cancelTimer()
    const entries = [...this.queues]
    this.queues.clear()
    for (const [id, actions] of entries) this.onFlush(id, actions)
  }

  /** Drops a session's queued actions (session closed). */
  drop(sessionId: string): void {
    this.queues.delete(sessionId)
  }

  private cancelTimer(): void {
    if (this.handle !== undefined) this.scheduler.clearTimeout(this.handle)
    this.handle = undefined
  }

  dispose(): void {
    this.disposed = true
    this.cancelTimer()
    this.queues.clear()
  }
}
