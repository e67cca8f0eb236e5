export class Deferred<T> {
  readonly promise: Promise<T>
  private resolveFn!: (value: T) => void
  private rejectFn!: (reason: unknown) => void
  private settledFlag = false

  constructor() {
    this.promise = new Promise<T>((resolve, reject) => {
      this.resolveFn = resolve
      this.rejectFn = reject
    })
  }

  get settled(): boolean {
    return this.settledFlag
  }

  resolve(value: T): void {
    if (this.settledFlag) return
    this.settledFlag = true
    this.resolveFn(value)
  }

  reject(reason: unknown): void {
    if (this.settledFlag) return
    this.settledFlag = true
    this.rejectFn(reason)
  }
}

/** Races a promise against a deadline; the timer is always cleared. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let handle: ReturnType<typeof setTimeout> | undefined
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        handle = setTimeout(() => reject(onTimeout()), ms)
      }),
    ])
  } finally {
    if (handle) clearTimeout(handle)
  }
}
