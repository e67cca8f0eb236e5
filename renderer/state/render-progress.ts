/**
 * Whether the transcript has caught up with the state last shown. It renders a deferred copy of its session
 * (React's `useDeferredValue`: a render React slices and interrupts, so a flood never becomes one long task in
 * the page); the app store waits for that render before it counts what showing its work cost, so it does not
 * show new work faster than the transcript can take it (each new state would restart the transcript's render).
 */
let behind = false
const waiting: (() => void)[] = []

/** The session screen says whether the transcript renders an older state than the screen (after each commit). */
export function setTranscriptBehind(value: boolean): void {
  behind = value
  if (!value) for (const callback of waiting.splice(0)) callback()
}

/** Waiters still waiting (tests). */
export const waitingCount = (): number => waiting.length

/** Runs `callback` once the transcript has caught up, or after `timeoutMs` (it never waits for a transcript that is gone). */
export function whenTranscriptCaughtUp(callback: () => void, timeoutMs = 250): void {
  if (!behind) {
    callback()
    return
  }
  let done = false
  const run = () => {
    if (done) return
    done = true
    clearTimeout(timer)
    // Out of the list too: a transcript that stays behind must not collect one waiter per frame.
    const at = waiting.indexOf(run)
    if (at >= 0) waiting.splice(at, 1)
    callback()
  }
  const timer = setTimeout(run, timeoutMs)
  waiting.push(run)
}
