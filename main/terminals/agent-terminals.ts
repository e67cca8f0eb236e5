/**
 * v2 agent-owned terminals: the one control ACP gives a client over them, `terminal/cancel` (checklist E16,
 * a MUST NOT). The renderer only asks; main decides from the state it holds: the session exists and speaks
 * v2, its agent is attached, the terminal is known there and its latest `terminal_update` advertises
 * `capabilities.cancel` and no `exitStatus`. Anything else is refused as a value and nothing is sent.
 */
import type { AcpClientConnection } from '../acp/types'
import { fail, ok, toFailure, type Result } from '../base/errors'
import type { IDisposable } from '../base/lifecycle'
import type { Logger } from '../base/log'
import { realScheduler, type Scheduler } from '../agents/scheduler'
import { canCancelTerminal, terminalOf } from '../../common/session/background'
import type { SessionAction, SessionState } from '../../common/session/types'

/** What cancelling needs from the sessions service. */
export interface AgentTerminalSessions {
  state(sessionId: string): SessionState | undefined
  connectionOf(sessionId: string): { connection: AcpClientConnection; acpSessionId: string } | undefined
  push(sessionId: string, action: SessionAction): void
}

/** How long an accepted cancel waits for the terminal's exit status before it is no longer shown as stopping. */
export const CANCEL_CONFIRM_MS = 15_000

export class AgentTerminals implements IDisposable {
  /** `<sessionId>\n<terminalId>` of cancels sent and not yet answered: a second click does not send twice. */
  private readonly inFlight = new Set<string>()
  /** Accepted cancels waiting for their exit status, by the same key: one deadline each. */
  private readonly deadlines = new Map<string, IDisposable>()

  constructor(
    private readonly sessions: AgentTerminalSessions,
    private readonly log?: Logger,
    private readonly scheduler: Scheduler = realScheduler,
    private readonly confirmMs = CANCEL_CONFIRM_MS,
  ) {}

  async cancel(sessionId: string, terminalId: string): Promise<Result<undefined>> {
    const state = this.sessions.state(sessionId)
    if (!state) return fail({ kind: 'not-found', message: `No session ${sessionId}.` })
    if (state.protocolVersion !== 2) return fail({ kind: 'invalid-argument', message: 'Only ACP v2 agents offer to cancel their terminals.' })
    const terminal = terminalOf(state.terminals, terminalId)
    if (!terminal) return fail({ kind: 'not-found', message: `This session has no terminal ${terminalId}.` })
    if (!canCancelTerminal(terminal)) {
      const why = terminal.exitStatus ? 'it has already ended' : 'the agent does not offer to cancel it'
      return fail({ kind: 'invalid-argument', message: `This terminal cannot be cancelled: ${why}.` })
    }
    const attached = this.sessions.connectionOf(sessionId)
    if (!attached?.connection.cancelTerminal) return fail({ kind: 'agent-not-running', message: 'The agent of this session is not running.' })
    const key = `${sessionId}\n${terminalId}`
    if (this.inFlight.has(key)) return fail({ kind: 'invalid-argument', message: 'Cancelling this terminal was already asked; waiting for the agent.' })
    this.inFlight.add(key)
    try {
      await attached.connection.cancelTerminal(attached.acpSessionId, terminalId)
      // Accepted, not done: the terminal shows as cancelling until its exit status arrives (E16), or until the
      // deadline says the agent never confirmed it (an agent that accepts and forgets must not leave it stopping).
      this.sessions.push(sessionId, { type: 'terminal_cancel_requested', terminalId })
      this.deadlines.get(key)?.dispose()
      this.deadlines.set(
        key,
        this.scheduler.setTimeout(() => {
          this.deadlines.delete(key)
          const now = terminalOf(this.sessions.state(sessionId)?.terminals ?? {}, terminalId)
          if (!now?.cancelRequested || now.exitStatus) return
          this.log?.warn(`terminal/cancel ${terminalId} in ${sessionId}: accepted, but no exit status within ${Math.round(this.confirmMs / 1000)} s`)
          this.sessions.push(sessionId, { type: 'terminal_cancel_unconfirmed', terminalId })
        }, this.confirmMs),
      )
      return ok(undefined)
    } catch (error) {
      const failure = toFailure(error)
      this.log?.info(`terminal/cancel ${terminalId} in ${sessionId} refused: ${failure.message}`)
      return fail(failure)
    } finally {
      this.inFlight.delete(key)
    }
  }

  dispose(): void {
    for (const deadline of this.deadlines.values()) deadline.dispose()
    this.deadlines.clear()
  }
}
