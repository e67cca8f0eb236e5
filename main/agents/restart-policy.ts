/**
 * When to restart a crashed agent. Pure: the state is a value, time comes in as an argument, and the
 * caller (the agent host) owns the timer. Defaults: backoff 1 s doubling to 30 s, the backoff resets
 * once the agent stayed up 60 s, and we give up at the 3rd crash within 5 minutes.
 *
 * With the defaults the 30 s cap is rarely reached (three quick crashes give up first); it bounds the
 * delay when the options allow more crashes.
 */
export interface RestartPolicyOptions {
  initialDelayMs: number
  maxDelayMs: number
  /** Uptime after which the agent counts as healthy: the next crash starts the backoff over. */
  healthyAfterMs: number
  /** This many crashes inside {@link crashWindowMs} give up (the last one is not restarted). */
  maxCrashes: number
  crashWindowMs: number
}

export const defaultRestartPolicyOptions: RestartPolicyOptions = {
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  healthyAfterMs: 60_000,
  maxCrashes: 3,
  crashWindowMs: 5 * 60_000,
}

export interface RestartState {
  /** Epoch ms of the current process start; null while nothing runs. */
  startedAt: number | null
  /** Crashes since the agent was last healthy (drives the backoff exponent). */
  consecutiveCrashes: number
  /** Epoch ms of recent crashes, oldest first, pruned to the crash window. */
  crashTimes: number[]
}

/** Why the process ended, as the host knows it. */
export type ExitCause =
  /** We stopped it (the person, a restart, app quit): never restart. */
  | { kind: 'user-stop' }
  /** It exited on its own with code 0: a clean exit, never restart. */
  | { kind: 'clean-exit' }
  /** Non-zero code, a signal we did not send, or a failed start during an automatic restart. */
  | { kind: 'crash' }

export type RestartDecision =
  | { action: 'restart'; delayMs: number; crashCount: number }
  | { action: 'give-up'; crashCount: number }
  | { action: 'none'; reason: 'user-stop' | 'clean-exit' }

export const initialRestartState: RestartState = { startedAt: null, consecutiveCrashes: 0, crashTimes: [] }

/** Classifies a process exit. A signal we did not send is a crash; `expected` means we asked it to stop. */
export function classifyExit(exit: { code: number | null; signal: string | null; expected: boolean }): ExitCause {
  if (exit.expected) return { kind: 'user-stop' }
  if (exit.code === 0 && !exit.signal) return { kind: 'clean-exit' }
  return { kind: 'crash' }
}

export function recordStart(state: RestartState, now: number): RestartState {
  return { ...state, startedAt: now }
}

export function recordExit(
  state: RestartState,
  cause: ExitCause,
  now: number,
  options: RestartPolicyOptions = defaultRestartPolicyOptions,
): { state: RestartState; decision: RestartDecision } {
  const stopped = { ...state, startedAt: null }
  if (cause.kind !== 'crash') return { state: stopped, decision: { action: 'none', reason: cause.kind } }

  const healthy = state.startedAt !== null && now - state.startedAt >= options.healthyAfterMs
  const consecutiveCrashes = (healthy ? 0 : state.consecutiveCrashes) + 1
  const crashTimes = [...state.crashTimes.filter((t) => now - t < options.crashWindowMs), now]
  const next: RestartState = { startedAt: null, consecutiveCrashes, crashTimes }
  if (crashTimes.length >= options.maxCrashes) {
    return { state: next, decision: { action: 'give-up', crashCount: crashTimes.length } }
  }
  const delayMs = Math.min(options.initialDelayMs * 2 ** (consecutiveCrashes - 1), options.maxDelayMs)
  return { state: next, decision: { action: 'restart', delayMs, crashCount: crashTimes.length } }
}

/** Crashes still inside the window at `now` (what the UI shows as the crash count). */
export function crashCount(state: RestartState, now: number, options: RestartPolicyOptions = defaultRestartPolicyOptions): number {
  return state.crashTimes.filter((t) => now - t < options.crashWindowMs).length
}
