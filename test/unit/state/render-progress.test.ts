/** The app store's wait for the transcript's deferred render: at once when caught up, on catching up, or at the deadline. */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { setTranscriptBehind, waitingCount, whenTranscriptCaughtUp } from '../../../renderer/state/render-progress'

afterEach(() => {
  setTranscriptBehind(false)
  vi.useRealTimers()
})

describe('whenTranscriptCaughtUp', () => {
  it('runs at once when the transcript shows the latest state', () => {
    const ran: string[] = []
    whenTranscriptCaughtUp(() => ran.push('now'))
    expect(ran).toEqual(['now'])
  })

  it('waits while the transcript renders an older state, and runs each callback once when it catches up', () => {
    vi.useFakeTimers()
    const ran: string[] = []
    setTranscriptBehind(true)
    whenTranscriptCaughtUp(() => ran.push('a'))
    whenTranscriptCaughtUp(() => ran.push('b'))
    setTranscriptBehind(true)
    expect(ran).toEqual([])
    setTranscriptBehind(false)
    expect(ran).toEqual(['a', 'b'])
    vi.advanceTimersByTime(1_000)
    expect(ran).toEqual(['a', 'b'])
  })

  it('never waits past its deadline (a transcript that never catches up or is gone)', () => {
    vi.useFakeTimers()
    const ran: string[] = []
    setTranscriptBehind(true)
    whenTranscriptCaughtUp(() => ran.push('late'), 250)
    vi.advanceTimersByTime(249)
    expect(ran).toEqual([])
    vi.advanceTimersByTime(1)
    expect(ran).toEqual(['late'])
    // Nothing is kept for it: a transcript that stays behind does not collect a waiter per frame.
    for (let i = 0; i < 100; i++) whenTranscriptCaughtUp(() => {}, 250)
    vi.advanceTimersByTime(250)
    expect(waitingCount()).toBe(0)
    setTranscriptBehind(false)
    expect(ran).toEqual(['late'])
  })
})
