import { describe, expect, it } from 'vitest'
import type { SessionState } from '../../../common/session/types'
import { stoppedWithError, turnNote, turnStopToldBelow } from '../../../renderer/components/transcript/Transcript'
import type { Entry } from '../../../common/session/types'
import { CLOSED_MESSAGE, restartedMessage, stopNoteText, turnFailed } from '../../../common/session/turn-stop'

const turn = (over: Partial<SessionState['turn']>): SessionState['turn'] => ({ state: 'idle', stopReason: null, error: null, background: null, completedTurns: 1, ...over })

describe('the note after a turn', () => {
  it("does not mark a turn the person ended by restarting its agent as failed; an agent's error, or Bosun closed, still is", () => {
    // The sidebar's "The last turn ended with an error" and the turn-ended notification read this.
    expect(turnFailed(turn({ error: { message: restartedMessage('OpenCode'), byBosun: true } }))).toBe(false)
    // An agent whose error says it in the same words still failed (only main marks Bosun's own).
    expect(turnFailed(turn({ error: { message: restartedMessage('OpenCode') } }))).toBe(true)
    expect(turnFailed(turn({ error: { message: 'OpenCode exited with code 1.' } }))).toBe(true)
    expect(turnFailed(turn({ error: { message: CLOSED_MESSAGE } }))).toBe(true)
  })

  it('says a stopped turn stopped, also when the agent answered the cancel with end_turn', () => {
    expect(turnNote(turn({ stopReason: 'cancelled', stopRequested: true }))).toBe('Stopped. The agent ended the turn when asked to.')
    expect(turnNote(turn({ stopReason: 'end_turn', stopRequested: true }))).toBe('Stopped. The agent ended the turn when asked to.')
  })

  it('does not say a turn was stopped when asked to when nobody asked (codex-acp cancels the turn when you reject a command)', () => {
    expect(turnNote(turn({ stopReason: 'cancelled' }))).toBe('The agent cancelled the turn.')
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

  it('does not say the agent ended a turn it never ended: a Stop it ignored until Bosun stopped its process (Gemini CLI 0.61.0 retrying a failing API)', () => {
    // What main reports when the agent's process goes away mid-turn: no stop reason, no JSON-RPC code.
    const ignored = turn({ error: { message: 'Gemini CLI was stopped.' }, stopRequested: true })
    expect(turnNote(ignored)).toBe('Stopped, but the agent did not end the turn when asked to. Gemini CLI was stopped.')
    expect(stoppedWithError(ignored)).toBe(true)
    expect(stopNoteText({ reason: 'cancelled', unanswered: true })).toBe('Stopped, but the agent did not end the turn when asked to.')
  })

  it("keeps a stopped turn's mark hidden while the note under the transcript tells it, and shows it once a new turn started", () => {
    const mark: Entry = { kind: 'turn_stop', id: 'turn-stop#2', reason: 'cancelled' }
    expect(turnStopToldBelow({ turn: turn({ stopReason: 'cancelled' }) }, mark, 0, 2)).toBe(true)
    expect(turnStopToldBelow({ turn: turn({ state: 'running' }) }, mark, 3, 2)).toBe(false)
    // The next turn ended normally: no note below, so the mark shows.
    expect(turnStopToldBelow({ turn: turn({ stopReason: 'end_turn' }) }, mark, 3, 2)).toBe(false)
    expect(turnStopToldBelow({ turn: turn({ stopReason: 'cancelled' }) }, { kind: 'user_message', id: 'u', content: [] }, 0, 0)).toBe(false)
  })

  it("says a past stop in the same words as the note, with the agent's answer to a Stop", () => {
    expect(stopNoteText({ reason: 'max_tokens' })).toBe('The agent stopped: it reached its token limit.')
    expect(stopNoteText({ reason: 'cancelled', detail: 'aborted' })).toBe('Stopped. The agent ended the turn when asked to. It said: aborted')
    expect(stopNoteText({ reason: 'cancelled', unasked: true })).toBe('The agent cancelled the turn.')
  })
})
