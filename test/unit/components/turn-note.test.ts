import { describe, expect, it } from 'vitest'
import type { SessionState } from '../../../common/session/types'
import { turnNote } from '../../../renderer/components/transcript/Transcript'

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
})
