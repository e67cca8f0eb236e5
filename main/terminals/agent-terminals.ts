/**
 * v2 agent-owned terminals: the one control ACP gives a client over them, `terminal/cancel` (checklist E16,
 * a MUST NOT). The renderer only asks; main decides from the state it holds: the session exists and speaks
 * v2, its agent is attached, the terminal is known there and its latest `terminal_update` advertises
 * `capabilities.cancel` and no `exitStatus`. Anything else is refused as a value and nothing is sent.
 */
import { fail, ok, toFailure, type Result } from '../base/errors'
import { sha256Hex } from '../base/sha256'
import type { Logger } from '../base/log'
import { realScheduler, type Scheduler } from '../agents/scheduler'
import { V2ItemCancels, type CancelSessions } from '../acp/accepted-cancels'
import { canCancelTerminal, terminalByHandle, terminalOf } from '../../common/session/background'

/** What cancelling needs from the sessions service. */
export type AgentTerminalSessions = CancelSessions

/** How long an accepted cancel waits for the terminal's exit status before it is no longer shown as stopping. */
export const CANCEL_CONFIRM_MS = 15_000

/** By `<sessionId>\n<terminalId>`: a second click does not send twice, and each accepted cancel has its deadline. */
export class AgentTerminals extends V2ItemCancels {
  constructor(sessions: AgentTerminalSessions, log?: Logger, scheduler: Scheduler = realScheduler, confirmMs = CANCEL_CONFIRM_MS) {
    super(sessions, log, scheduler, confirmMs)
  }

  /** `handle` names the terminal as the window does ({@link terminalByHandle}): a long id of the agent's by its hash. */
  async cancel(sessionId: string, handle: string): Promise<Result<undefined>> {
    const checked = this.v2State(sessionId, 'their terminals')
    if (!checked.ok) return checked
    const state = checked.value
    const terminal = terminalByHandle(state.terminals, handle, { hash: sha256Hex, only: (t) => canCancelTerminal(t) })
    if (!terminal) return fail({ kind: 'not-found', message: `This session has no terminal ${handle}.` })
    const terminalId = terminal.terminalId
    if (!canCancelTerminal(terminal)) {
      const why = terminal.exitStatus ? 'it has already ended' : 'the agent does not offer to cancel it'
      return fail({ kind: 'invalid-argument', message: `This terminal cannot be cancelled: ${why}.` })
    }
    const attached = this.sessions.connectionOf(sessionId)
    if (!attached?.connection.cancelTerminal) return fail({ kind: 'agent-not-running', message: 'The agent of this session is not running.' })
    // By the handle, not the agent's id: what main keeps per cancel stays bounded whatever id the agent chose.
    const key = `${sessionId}\n${handle}`
    if (this.cancels.isInFlight(key)) return fail({ kind: 'invalid-argument', message: 'Cancelling this terminal was already asked; waiting for the agent.' })
    try {
      // Accepted, not done: the terminal shows as cancelling until its exit status arrives (E16), or until the
      // deadline says the agent never confirmed it.
      await this.cancels.send(
        key,
        () => attached.connection.cancelTerminal!(attached.acpSessionId, terminalId),
        () => this.sessions.push(sessionId, { type: 'terminal_cancel_requested', terminalId }),
        () => {
          const now = terminalOf(this.sessions.state(sessionId)?.terminals ?? {}, terminalId)
          if (!now?.cancelRequested || now.exitStatus) return
          this.log?.warn(`terminal/cancel ${handle} in ${sessionId}: accepted, but no exit status within ${Math.round(this.confirmMs / 1000)} s`)
          this.sessions.push(sessionId, { type: 'terminal_cancel_unconfirmed', terminalId })
        },
      )
      return ok(undefined)
    } catch (error) {
      const failure = toFailure(error)
      this.log?.info(`terminal/cancel ${handle} in ${sessionId} refused: ${failure.message}`)
      return fail(failure)
    }
  }

}
