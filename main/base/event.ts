import { toDisposable, type IDisposable } from './lifecycle'

/** A subscribable event: call it with a listener, dispose the result to unsubscribe. */
export type Event<T> = (listener: (value: T) => void) => IDisposable

/**
 * Where a listener's error goes. By default it is thrown again in a microtask, so a test or a developer sees it; the
 * app's entry points log it instead ({@link setListenerErrorHandler}, through main/base/unhandled.ts): thrown, it is
 * an uncaught exception, which ends the browser host and every agent's session with it.
 */
let listenerErrorHandler: (error: unknown) => void = (error) =>
  queueMicrotask(() => {
    throw error
  })

/** Sets where listeners' errors go; the returned function puts the previous handler back. */
export function setListenerErrorHandler(handler: (error: unknown) => void): () => void {
  const previous = listenerErrorHandler
  listenerErrorHandler = handler
  return () => {
    listenerErrorHandler = previous
  }
}

export class Emitter<T> implements IDisposable {
  private listeners = new Set<(value: T) => void>()
  /** The listeners as of the last change: fire() iterates this, so firing allocates nothing (hot paths fire per message). */
  private snapshot: ((value: T) => void)[] = []
  private disposed = false

  readonly event: Event<T> = (listener) => {
    if (this.disposed) return toDisposable(() => {})
    // Wrap so the same function subscribed twice is two subscriptions.
    const wrapped = (value: T) => listener(value)
    this.listeners.add(wrapped)
    this.snapshot = [...this.listeners]
    return toDisposable(() => {
      if (this.listeners.delete(wrapped)) this.snapshot = [...this.listeners]
    })
  }

  get listenerCount(): number {
    return this.listeners.size
  }

  fire(value: T): void {
    // A listener that (un)subscribes while we fire replaces `snapshot`; this loop keeps the old array.
    const listeners = this.snapshot
    for (let i = 0; i < listeners.length; i++) {
      const listener = listeners[i]!
      try {
        listener(value)
      } catch (error) {
        // A faulty listener must not stop the others (or the agent connection that fired).
        try {
          listenerErrorHandler(error)
        } catch {
          // Nor may the handler.
        }
      }
    }
  }

  dispose(): void {
    this.disposed = true
    this.listeners.clear()
    this.snapshot = []
  }
}

/** Resolves with the next value of an event (tests and one-shot waits). */
export function once<T>(event: Event<T>, predicate: (value: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve) => {
    const sub = event((value) => {
      if (!predicate(value)) return
      sub.dispose()
      resolve(value)
    })
  })
}
