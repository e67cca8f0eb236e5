/**
 * The history thread's priority, below main's: it lowers itself as it starts (`history-worker.ts`).
 */
import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'

/**
 * How much lower than main's this thread runs (Linux nice). Writing history is background work: when main,
 * the page and the agents want every core (a flood), the writes wait a little rather than slow what the
 * person sees. Nice 5 still gives the thread about a quarter of a core against one busy thread, so under a
 * flood that never ends the writes still go on, later, rather than starve.
 */
export const HISTORY_THREAD_NICE = 5

/** Linux: a thread has its own nice value, set through its thread id. Elsewhere, or if refused: unchanged. */
export function lowerThisThreadsPriority(nice: number): void {
  if (process.platform !== 'linux') return
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop())
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, nice)
  } catch {
    // Not worth failing history for: the thread runs at main's priority.
  }
}
