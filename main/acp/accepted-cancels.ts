/**
 * The bookkeeping of v2's per-item cancels (`terminal/cancel` E16, `tool_call/cancel` E15): the agent's answer means
 * "accepted", and only a later update confirms the stop. One request in flight per item (a second click sends
 * nothing), and one deadline per accepted cancel, after which the item is no longer shown as stopping: an agent
 * that accepts and forgets must not leave it so for ever.
 */
import { fail, ok, type Result } from '../base/errors'
import type { IDisposable } from '../base/lifecycle'
import type { Logger } from '../base/log'
import { realScheduler, type Scheduler } from '../agents/scheduler'
import type { AcpClientConnection } from './types'
import type { SessionAction, SessionState } from '../../common/session/types'

/** What a per-item cancel needs from the sessions service: the state main decides from, the agent, and the reducer. */
export interface CancelSessions {
  state(sessionId: string): SessionState | undefined
  connectionOf(sessionId: string): { connection: AcpClientConnection; acpSessionId: string } | undefined
  push(sessionId: string, action: SessionAction): void
}

export class AcceptedCancels implements IDisposable {
  /** Keys of cancels sent and not yet answered. */
  private readonly inFlight = new Set<string>()
  /** Accepted cancels waiting for their confirmation, by key. */
  private readonly deadlines = new Map<string, IDisposable>()

  constructor(
    private readonly confirmMs: number,
    private readonly scheduler: Scheduler = realScheduler,
  ) {}

  /** Whether a cancel for `key` was sent and not yet answered. */
  isInFlight(key: string): boolean {
    return this.inFlight.has(key)
  }

  /**
   * Sends the cancel for `key` (the caller checked {@link isInFlight}); once the agent accepted it, `accepted` runs and
   * `unconfirmed` is due after the deadline (replacing any earlier one for the key). Rejects as `send` does.
   */
  async send(key: string, send: () => Promise<void>, accepted: () => void, unconfirmed: () => void): Promise<void> {
    this.inFlight.add(key)
    try {
      await send()
    } finally {
      this.inFlight.delete(key)
    }
    accepted()
    this.deadlines.get(key)?.dispose()
    this.deadlines.set(
      key,
      this.scheduler.setTimeout(() => {
        this.deadlines.delete(key)
        unconfirmed()
      }, this.confirmMs),
    )
  }

  dispose(): void {
    for (const deadline of this.deadlines.values()) deadline.dispose()
    this.deadlines.clear()
  }
}

/**
 * What the per-item cancels of v2 share: the sessions they read, their log, one {@link AcceptedCancels}, and the first
 * checks (the session exists and speaks v2).
 */
export abstract class V2ItemCancels implements IDisposable {
  protected readonly cancels: AcceptedCancels

  constructor(
    protected readonly sessions: CancelSessions,
    protected readonly log: Logger | undefined,
    scheduler: Scheduler,
    protected readonly confirmMs: number,
  ) {
    this.cancels = new AcceptedCancels(confirmMs, scheduler)
  }

  /** The session's state when it exists and speaks v2; `what` ("their terminals") says what only v2 agents offer to cancel. */
  protected v2State(sessionId: string, what: string): Result<SessionState> {
    const state = this.sessions.state(sessionId)
    if (!state) return fail({ kind: 'not-found', message: `No session ${sessionId}.` })
    if (state.protocolVersion !== 2) return fail({ kind: 'invalid-argument', message: `Only ACP v2 agents offer to cancel ${what}.` })
    return ok(state)
  }

  dispose(): void {
    this.cancels.dispose()
  }
}
