/** The tail of a v1 `session/load` replay that arrives after the agent answered it. */
import type { Scheduler } from './action-batcher'

/**
 * After a v1 `session/load` is answered, how long the agent must stay quiet before its replay counts as over, and
 * the longest Bosun waits for that before it goes on. The spec has the replay come first, but Gemini CLI answers
 * at once and streams the history after its answer: what it sends then is history too, and must not land in the
 * turn the person is starting.
 */
export const LOAD_REPLAY_QUIET_MS = 150
export const LOAD_REPLAY_MAX_WAIT_MS = 5_000

/**
 * Resolves once the agent has said nothing for the session for {@link LOAD_REPLAY_QUIET_MS} (at most
 * {@link LOAD_REPLAY_MAX_WAIT_MS}); until then what it sends for it is the rest of a `session/load` replay: the
 * session's routing calls `record.replayTail.heard()` for each update (and keeps only the session's facts).
 */
export function settleLoadReplay(record: { replayTail?: { heard(): void } | undefined }, scheduler: Scheduler): Promise<void> {
  return new Promise((resolve) => {
    let quiet: unknown
    const done = () => {
      scheduler.clearTimeout(quiet)
      scheduler.clearTimeout(cap)
      record.replayTail = undefined
      resolve()
    }
    const heard = () => {
      scheduler.clearTimeout(quiet)
      quiet = scheduler.setTimeout(done, LOAD_REPLAY_QUIET_MS)
    }
    const cap = scheduler.setTimeout(done, LOAD_REPLAY_MAX_WAIT_MS)
    record.replayTail = { heard }
    heard()
  })
}
