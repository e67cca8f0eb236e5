/**
 * Stall detection (issue 14 §5) without React: when a turn runs and nothing has come from the agent for a
 * while, the session says for how long. Nothing here ends a turn: a long tool is fine, the notice only puts
 * Stop and Restart at hand. The clock and timers are injected, so tests drive time by hand.
 */
import type { SessionState } from '../../../common/session/types'

/**
 * After this much silence the session says so. Agents that work stream something (thoughts, messages, tool
 * updates, terminal output) every few seconds, and a model's first token rarely takes more than 10–20 s, so
 * 30 s of nothing at all is unusual; yet short enough to help. The notice ends nothing, so a silent long
 * tool costs only a true sentence ("No word for 2 min").
 */
export const DEFAULT_STALL_AFTER_MS = 30_000

/** Time and timers, injectable (tests pass a manual clock). */
export interface StallClock {
  now(): number
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

export const systemClock: StallClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

/**
 * Whether the session waits on its agent: a turn runs (or is in an unknown busy state), and nothing waits on
 * the person (a pending permission or question, v2 `requires_action`). A session that cannot continue, or
 * whose agent is not running, is shown by its own banners instead.
 */
export function waitingOnAgent(session: SessionState, agentRunning: boolean): boolean {
  if (!agentRunning || session.cannotContinue) return false
  if (session.turn.state !== 'running' && session.turn.state !== 'unknown') return false
  for (const request of Object.values(session.permissions)) if (request.status === 'pending') return false
  for (const elicitation of Object.values(session.elicitations)) if (elicitation.status === 'pending') return false
  return true
}

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
/** Under a minute (past the first ten seconds) the words move in steps of this, so they do not nag every second. */
const SECONDS_STEP = 5 * SECOND

const stepAt = (ms: number) => (ms < 10 * SECOND ? SECOND : ms < MINUTE ? SECONDS_STEP : MINUTE)

/** "3 s", "30 s", "45 s", "1 min", "2 min", "1 h", "1 h 5 min". */
export function silenceLabel(ms: number): string {
  if (ms < MINUTE) return `${Math.floor(ms / stepAt(ms)) * (stepAt(ms) / SECOND)} s`
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)} min`
  const hours = Math.floor(ms / HOUR)
  const minutes = Math.floor((ms % HOUR) / MINUTE)
  return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`
}

/** How long until `silenceLabel` says something else. */
export function nextLabelIn(ms: number): number {
  const step = stepAt(ms)
  return step - (ms % step)
}

/**
 * One session's silence. `watch(since)` with the time of the last news from the agent while the session
 * waits on it, `watch(null)` when it does not; `onChange` hears the silence once it passes the threshold (and
 * again whenever its words would change), and `null` when it no longer counts. One timer at most, cleared by
 * `dispose`.
 */
export class StallWatch {
  private timer: unknown = undefined
  private since: number | null = null
  private last: number | null = null

  constructor(
    private readonly clock: StallClock,
    private readonly thresholdMs: number,
    private readonly onChange: (silentMs: number | null) => void,
  ) {}

  watch(since: number | null): void {
    this.since = since
    this.check()
  }

  dispose(): void {
    this.clear()
    this.since = null
  }

  private check(): void {
    this.clear()
    if (this.since === null) return this.emit(null)
    const silent = Math.max(0, this.clock.now() - this.since)
    if (silent < this.thresholdMs) {
      this.emit(null)
      this.schedule(this.thresholdMs - silent)
    } else {
      this.emit(silent)
      this.schedule(nextLabelIn(silent))
    }
  }

  private schedule(ms: number): void {
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined
      this.check()
    }, ms)
  }

  private clear(): void {
    if (this.timer === undefined) return
    this.clock.clearTimeout(this.timer)
    this.timer = undefined
  }

  private emit(silent: number | null): void {
    if (silent === this.last) return
    this.last = silent
    this.onChange(silent)
  }
}
