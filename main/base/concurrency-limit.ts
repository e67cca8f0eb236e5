/**
 * At most `max` tasks run at once; the rest wait their turn in order, up to `maxWaiting` of them (past that a task
 * is refused at once, so what an agent can make main hold while it waits stays bounded). A task whose signal aborts
 * while it waits never runs.
 */
export class LimitBusyError extends Error {
  constructor(readonly waiting: number) {
    super(`busy: ${waiting} waiting`)
    this.name = 'LimitBusyError'
  }
}

export interface ConcurrencyLimit {
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>
  readonly running: number
  readonly waiting: number
}

export function createConcurrencyLimit(max: number, maxWaiting = Number.POSITIVE_INFINITY): ConcurrencyLimit {
  let running = 0
  const queue: { start: () => void }[] = []

  const next = () => {
    while (running < max && queue.length > 0) queue.shift()!.start()
  }

  return {
    get running() {
      return running
    },
    get waiting() {
      return queue.length
    },
    run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      if (signal?.aborted) return Promise.reject(signal.reason)
      const execute = async (): Promise<T> => {
        running++
        try {
          return await task()
        } finally {
          running--
          next()
        }
      }
      if (running < max) return execute()
      if (queue.length >= maxWaiting) return Promise.reject(new LimitBusyError(queue.length))
      return new Promise<T>((resolve, reject) => {
        const onAbort = () => {
          const at = queue.indexOf(entry)
          if (at >= 0) queue.splice(at, 1)
          reject(signal!.reason)
        }
        const entry = {
          start: () => {
            signal?.removeEventListener('abort', onAbort)
            execute().then(resolve, reject)
          },
        }
        signal?.addEventListener('abort', onAbort, { once: true })
        queue.push(entry)
      })
    },
  }
}
