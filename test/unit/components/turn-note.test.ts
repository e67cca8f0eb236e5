import { describe, expect, it } from 'vitest'
import type { SessionState } from '../../../common/session/types'
import { stoppedWithError, turnNote } from '../../../renderer/components/transcript/Transcript'

const turn = (over: Partial<SessionState['turn']>): SessionState['turn'] => ({ state: 'idle', stopReason: null, error: null, background: null, completedTurns: 1, ...over })

describe('the note after a turn', () => {
  it('says a stopped turn stopped, also when the agent answered the cancel with end_turn', () => {
    expect(turnNote(turn({ stopReason: 'cancelled' }))).toBe('Stopped. The agent ended the turn when asked to.')
    expect(turnNote(turn({ stopReason: 'end_turn', stopRequested: true }))).toBe('Stopped. The agent ended the turn when asked to.')
  })

  it('says nothing for a normal end, a running turn, or an ended turn with an error (the error says it)', () => {
    expect(turnNote(turn({ stopReason: 'end_turn' }))).toBeNull()
    expect(turnNote(turn({ state: 'running', stopReason: 'cancelled' }))).toBeNull()
    expect(turnNote(turn({ stopReason: 'cancelled', error: { message: 'boom' } }))).toBeNull()
    expect(turnNote(turn({ stopReason: 'a_future_reason' }))).toBeNull()
  })

  it('tells the other ways a turn can end early', () => {
    expect(turnNote(turn({ stopReason: 'refusal' }))).toBe('The agent declined to continue this turn.')
    expect(turnNote(turn({ stopReason: 'max_tokens', stopRequested: true }))).toBe('The agent stopped: it reached its token limit.')
  })

  it('says an error with no details ended the turn (v2 "SHOULD include" an error)', () => {
    expect(turnNote(turn({ stopReason: 'error' }))).toBe('The turn ended with an error; the agent gave no details.')
    expect(turnNote(turn({ stopReason: 'error', error: { message: 'boom' } }))).toBeNull()
  })

  it('tells a Stop the agent answered with an error as a stop, with its message as a detail (not as an alert)', () => {
    expect(turnNote(turn({ stopReason: 'error', error: { message: 'aborted by user', code: -32800 }, stopRequested: true }))).toBe('Stopped. The agent ended the turn when asked to. It said: aborted by user')
    expect(stoppedWithError(turn({ stopReason: 'error', error: { message: 'aborted' }, stopRequested: true }))).toBe(true)
    expect(turnNote(turn({ stopReason: 'error', stopRequested: true }))).toBe('Stopped. The agent ended the turn when asked to.')
    expect(stoppedWithError(turn({ stopReason: 'error', error: { message: 'boom' } }))).toBe(false)
  })
})
