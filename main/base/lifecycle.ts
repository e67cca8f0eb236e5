/**
 * Ownership of resources, in the spirit of VS Code's `lifecycle.ts`: everything that must be released
 * (a process, a listener, a timer) is an {@link IDisposable} owned by exactly one store or object.
 */
export interface IDisposable {
  dispose(): void
}

export function toDisposable(fn: () => void): IDisposable {
  let done = false
  return {
    dispose() {
      if (done) return
      done = true
      fn()
    },
  }
}

export function isDisposable(value: unknown): value is IDisposable {
  return typeof value === 'object' && value !== null && typeof (value as IDisposable).dispose === 'function'
}

/** Disposes every item, collecting errors so one failing item never leaks the others. */
export function disposeAll(items: Iterable<IDisposable>): void {
  const errors: unknown[] = []
  for (const item of items) {
    try {
      item.dispose()
    } catch (error) {
      errors.push(error)
    }
  }
  if (errors.length === 1) throw errors[0]
  if (errors.length > 1) throw new AggregateError(errors, 'Several disposables failed to dispose')
}

export class DisposableStore implements IDisposable {
  private readonly items = new Set<IDisposable>()
  private disposed = false

  get isDisposed(): boolean {
    return this.disposed
  }

  get size(): number {
    return this.items.size
  }

  /** Adds an item; adding to a disposed store disposes the item at once (and never leaks it). */
  add<T extends IDisposable>(item: T): T {
    if (this.disposed) {
      item.dispose()
      return item
    }
    this.items.add(item)
    return item
  }

  /** Removes and disposes one item. */
  delete(item: IDisposable): void {
    if (this.items.delete(item)) item.dispose()
  }

  /** Removes an item without disposing it (ownership moves elsewhere). */
  deleteAndLeak(item: IDisposable): void {
    this.items.delete(item)
  }

  clear(): void {
    const items = [...this.items]
    this.items.clear()
    disposeAll(items)
  }

  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    this.clear()
  }
}

export abstract class Disposable implements IDisposable {
  protected readonly store = new DisposableStore()

  protected register<T extends IDisposable>(item: T): T {
    return this.store.add(item)
  }

  get isDisposed(): boolean {
    return this.store.isDisposed
  }

  dispose(): void {
    this.store.dispose()
  }
}

/** A timer owned like any other resource. */
export function disposableTimeout(fn: () => void, ms: number): IDisposable {
  const handle = setTimeout(fn, ms)
  return toDisposable(() => clearTimeout(handle))
}

export function disposableInterval(fn: () => void, ms: number): IDisposable {
  const handle = setInterval(fn, ms)
  return toDisposable(() => clearInterval(handle))
}
