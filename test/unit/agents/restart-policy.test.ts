import { describe, expect, it } from 'vitest'
import {
  classifyExit,
  crashCount,
  defaultRestartPolicyOptions,
  initialRestartState,
  recordExit,
  recordStart,
  type RestartDecision,
  type RestartPolicyOptions,
  type RestartState,
} from '../../../main/agents/restart-policy'

const crash = { kind: 'crash' } as const

/** Runs start → crash after `uptimes[i]` ms → wait the decided delay, and returns every decision. */
function run(uptimes: number[], options: RestartPolicyOptions = defaultRestartPolicyOptions): RestartDecision[] {
  let state: RestartState = initialRestartState
  let now = 0
  const decisions: RestartDecision[] = []
  for (const uptime of uptimes) {
    state = recordStart(state, now)
    now += uptime
    const step = recordExit(state, crash, now, options)
    state = step.state
    decisions.push(step.decision)
    if (step.decision.action === 'restart') now += step.decision.delayMs
  }
  return decisions
}

describe('restart policy', () => {
  it('backs off 1 s doubling up to 30 s', () => {
    const many = { ...defaultRestartPolicyOptions, maxCrashes: 100 }
    const delays = run([10, 10, 10, 10, 10, 10, 10, 10], many).map((d) => (d.action === 'restart' ? d.delayMs : d.action))
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000])
  })

  it('gives up at the third crash within five minutes', () => {
    expect(run([10, 10, 10])).toEqual([
      { action: 'restart', delayMs: 1_000, crashCount: 1 },
      { action: 'restart', delayMs: 2_000, crashCount: 2 },
      { action: 'give-up', crashCount: 3 },
    ])
  })

  it('forgets crashes older than the window', () => {
    // Crashes after 59 s, then 200 s, then 200 s: the first one is > 5 min old at the third.
    const decisions = run([59_000, 200_000, 200_000])
    expect(decisions.map((d) => d.action)).toEqual(['restart', 'restart', 'restart'])
    expect(decisions[2]).toMatchObject({ crashCount: 2 })
  })

  it('resets the backoff after 60 s of healthy running', () => {
    const many = { ...defaultRestartPolicyOptions, maxCrashes: 100 }
    const delays = run([10, 10, 10, 60_000, 10], many).map((d) => (d.action === 'restart' ? d.delayMs : 0))
    expect(delays).toEqual([1_000, 2_000, 4_000, 1_000, 2_000])
  })

  it('does not reset the backoff just before the healthy mark', () => {
    const many = { ...defaultRestartPolicyOptions, maxCrashes: 100 }
    const delays = run([10, 59_999], many).map((d) => (d.action === 'restart' ? d.delayMs : 0))
    expect(delays).toEqual([1_000, 2_000])
  })

  it('never restarts after a clean exit or a user stop', () => {
    const started = recordStart(initialRestartState, 0)
    expect(recordExit(started, { kind: 'clean-exit' }, 5).decision).toEqual({ action: 'none', reason: 'clean-exit' })
    expect(recordExit(started, { kind: 'user-stop' }, 5).decision).toEqual({ action: 'none', reason: 'user-stop' })
    // And they do not count as crashes.
    const afterStop = recordExit(started, { kind: 'user-stop' }, 5).state
    expect(crashCount(afterStop, 5)).toBe(0)
    expect(recordExit(recordStart(afterStop, 10), crash, 20).decision).toEqual({ action: 'restart', delayMs: 1_000, crashCount: 1 })
  })

  it('classifies exits: code 0 is clean, a foreign signal or non-zero code is a crash, a requested stop is a user stop', () => {
    expect(classifyExit({ code: 0, signal: null, expected: false })).toEqual({ kind: 'clean-exit' })
    expect(classifyExit({ code: 1, signal: null, expected: false })).toEqual({ kind: 'crash' })
    expect(classifyExit({ code: null, signal: 'SIGSEGV', expected: false })).toEqual({ kind: 'crash' })
    expect(classifyExit({ code: null, signal: 'SIGTERM', expected: true })).toEqual({ kind: 'user-stop' })
    expect(classifyExit({ code: 1, signal: null, expected: true })).toEqual({ kind: 'user-stop' })
  })

  it('counts crashes inside the window only', () => {
    const state: RestartState = { startedAt: null, consecutiveCrashes: 2, crashTimes: [0, 100_000] }
    expect(crashCount(state, 200_000)).toBe(2)
    expect(crashCount(state, 300_000)).toBe(1)
    expect(crashCount(state, 400_001)).toBe(0)
  })
})
