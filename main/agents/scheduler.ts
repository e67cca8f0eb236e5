import { toDisposable, type IDisposable } from '../base/lifecycle'

/**
 * Time as the agent host sees it: the clock and the timers for restart backoff and the initialize
 * timeout. Injected so tests drive time by hand instead of waiting.
 */
export interface Scheduler {
  now(): number
  /** Runs `fn` once after `ms`; dispose the result to cancel. */
  setTimeout(fn: () => void, ms: number): IDisposable
}

export const realScheduler: Scheduler = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const handle = setTimeout(fn, ms)
    return toDisposable(() => clearTimeout(handle))
  },
}
