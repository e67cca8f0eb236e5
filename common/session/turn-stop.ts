/**
 * How a turn that did not end normally is told: stopped when asked, refused, at a limit, or with an error. One place
 * for the rule and the words, for what is said under the transcript (the turn just ended), the marks the reducer keeps
 * in the transcript (`TurnStopEntry`, `TurnErrorEntry`, for every earlier turn) and the Markdown export.
 */
import type { SessionState, TurnError, TurnStopEntry } from './types'
import { withoutGenericPrefix } from '../acp-errors'

/** The words, by stop reason; an unknown reason has none (nothing is said rather than something wrong). */
const STOP_NOTE: Record<string, string> = {
  cancelled: 'Stopped. The agent ended the turn when asked to.',
  refusal: 'The agent declined to continue this turn.',
  max_tokens: 'The agent stopped: it reached its token limit.',
  max_turn_requests: 'The agent stopped: it reached its limit of requests for one turn.',
  // v2 "SHOULD include" an error with this reason: without one there is nothing else to show.
  error: 'The turn ended with an error; the agent gave no details.',
}

type Turn = SessionState['turn']

/** Whether the turn's error is the agent's answer to the person's Stop (told as a stop, not as an alert). */
export const stoppedWithError = (turn: Turn): boolean => turn.stopRequested === true && (turn.error != null || turn.stopReason === 'error')

/**
 * Whether the session's last turn is over and ended with an error (not the answer to a Stop): the agent crashed, its
 * API failed… The sidebar marks such a session, which may be out of sight when it happens.
 */
export const turnFailed = (turn: Turn): boolean =>
  turn.state === 'idle' && (turn.error != null || turn.stopReason === 'error') && !stoppedWithError(turn) && !restartedByPerson(turn.error)

/** What a turn that is over and ended early says about it, if anything. */
export type TurnStop = Pick<TurnStopEntry, 'reason' | 'detail' | 'unasked' | 'unanswered'>

/** A turn the agent ended as cancelled without a Stop from Bosun. */
const CANCELLED_UNASKED = 'The agent cancelled the turn.'
/** A Stop the agent never answered: the turn ended when its process did (the person stopped it, or it exited). */
const CANCELLED_UNANSWERED = 'Stopped, but the agent did not end the turn when asked to.'

/** How an ended turn stopped, when that is worth telling (not a normal end, not an error: the error says it). */
export function turnStopOf(turn: Turn): TurnStop | null {
  if (turn.state !== 'idle') return null
  // An agent that answers a cancel with an error (v2 allows `error`) stopped because it was asked to: its message is a detail.
  if (stoppedWithError(turn)) {
    if (!turn.error) return { reason: 'cancelled' }
    // No stop reason and no JSON-RPC code: not the agent's answer but Bosun's own end of the turn, when the agent's
    // process went away (Gemini CLI retrying a failing API ignores the cancel until "Stop the agent").
    if (turn.stopReason == null && turn.error.code === undefined) return { reason: 'cancelled', detail: turn.error.message, unanswered: true }
    return { reason: 'cancelled', detail: turn.error.message }
  }
  if (turn.error || !turn.stopReason) return null
  // An agent that answers a cancel with `end_turn` (OpenCode does) still stopped because it was asked to.
  const reason = turn.stopReason === 'end_turn' && turn.stopRequested ? 'cancelled' : turn.stopReason
  // `cancelled` nobody asked for: codex-acp ends the turn so when you reject one of its commands.
  if (reason === 'cancelled' && !turn.stopRequested) return { reason, unasked: true }
  return Object.hasOwn(STOP_NOTE, reason) ? { reason } : null
}

/** The sentence for a stop. */
export function stopNoteText(stop: TurnStop): string {
  if (stop.reason === 'cancelled' && stop.unanswered) return stop.detail ? `${CANCELLED_UNANSWERED} ${stop.detail}` : CANCELLED_UNANSWERED
  const note = stop.reason === 'cancelled' && stop.unasked ? CANCELLED_UNASKED : Object.hasOwn(STOP_NOTE, stop.reason) ? STOP_NOTE[stop.reason]! : `The turn ended: ${stop.reason}.`
  return stop.detail ? `${note} It said: ${stop.detail}` : note
}

/**
 * A turn error's words: the code, then the message; or, when the agent's message just above says the error itself
 * (`saidAbove`), only that the turn ended so and where the agent said why.
 */
/** A turn that was running when Bosun died (its history says so when reopened). */
export const INTERRUPTED_MESSAGE = 'Interrupted: Bosun stopped while this turn was running.'
/** A turn Bosun's quit ended (it stops the agents): said as a crash is, not as the agent's own failure. */
export const CLOSED_MESSAGE = 'Interrupted: Bosun was closed while this turn was running.'
/** A turn the person ended by restarting its agent (the Agents page's Restart ends the turns of all its sessions). */
export const restartedMessage = (agentName: string): string => `Interrupted: you restarted ${agentName} while this turn was running.`
const RESTARTED = /^Interrupted: you restarted (.+) while this turn was running\.$/s
/**
 * Whether the turn ended because the person restarted its agent: they were asked first and said yes, so nothing failed
 * that the sidebar should mark ("The last turn ended with an error") or a notification tell.
 */
export const restartedByPerson = (error: Pick<TurnError, 'message' | 'byBosun'> | null | undefined): boolean => error?.byBosun === true && RESTARTED.test(error.message)
/**
 * What a request the agent can no longer be answered for says when Bosun's own stop of the agent ended it (`message`,
 * the stop's words for a turn): "You restarted A." for the person's restart, else those words ("A was stopped.").
 */
export const requestEndedByBosun = (message: string): string => {
  const restarted = RESTARTED.exec(message)
  return restarted ? `You restarted ${restarted[1]}.` : message
}
/**
 * Bosun, not the agent, ended the turn (closed, died, or restarted the agent when asked): the agent's log has nothing to
 * say about it. Only an error main marked as Bosun's: an agent whose error reads the same is still the agent.
 */
export const interruptedByBosun = (error: { message: string; byBosun?: true | undefined }): boolean =>
  error.byBosun === true && (error.message === INTERRUPTED_MESSAGE || error.message === CLOSED_MESSAGE || RESTARTED.test(error.message))

/**
 * Whether an agent's message says a turn's error: word for word (codex-acp v2 sends its error as a message and as the
 * turn's error), or as the first line of the error after JSON-RPC's "Internal error: " (claude-agent-acp v1 says
 * "API Error: 500 …" as a message, then fails the prompt with -32603 "Internal error: API Error: 500 …" and its
 * `data` on the lines below, which Bosun adds).
 */
export function messageSaysError(text: string, error: string): boolean {
  const said = text.trim()
  if (said === '' || error.trim() === '') return false
  if (said === error.trim()) return true
  const firstLine = error.split('\n', 1)[0]!.trim()
  return withoutGenericPrefix(firstLine) === said
}

export function turnErrorText(message: string, code: number | null | undefined, saidAbove: boolean, byBosun?: true): string {
  // Nothing failed: the words say who ended the turn ("Interrupted: you restarted OpenCode …"), not "ended with an error".
  if (interruptedByBosun({ message, byBosun })) return message
  const codeText = code != null ? ` (code ${code})` : ''
  return saidAbove ? `The turn ended with an error${codeText}, as the agent says above.` : `The turn ended with an error${codeText}: ${message}`
}
