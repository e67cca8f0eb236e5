/**
 * The turns of Bosun's prompts, per session: when `session/prompt` is over (v1: its response; v2: the ack and then
 * the idle `state_update` that ends the turn, F7–F9), and whether an error the agent answered means "cancelled" (F5).
 */
import { Deferred } from '../base/deferred'
import { BosunError, RpcError } from '../base/errors'
import type { Logger } from '../base/log'
import { isRecord } from './agent-errors'
import type { PromptHooks, PromptOutcome, SessionUpdateNotification } from './types'

interface TurnWaiter {
  deferred: Deferred<PromptOutcome>
  responded: boolean
  userMessageId?: string
  earlyIdle?: PromptOutcome
  /** Whether {@link earlyIdle} came after a busy state (else it may be a stale idle, sent before the agent took the prompt). */
  earlyIdleAfterBusy?: boolean
  /** The agent reported a busy state (running, requires_action, one Bosun does not know) since the prompt was sent. */
  busySeen: boolean
  /**
   * An idle `state_update` read before the ack and before any busy state: it may be stale (see observeState), so
   * it is handed to listeners only once the ack comes, and dropped if a busy state comes first.
   */
  heldIdle?: SessionUpdateNotification
}

export interface PromptTurnsHost {
  logger: Logger | undefined
  /** The connection's promises in flight, rejected with its close error; a v2 turn is one of them while it runs. */
  pending: Set<{ reject(reason: unknown): void }>
  /** Hands an idle held back to listeners (unless the connection closed meanwhile). */
  release(notification: SessionUpdateNotification): void
  /**
   * Sessions whose prompt in flight Bosun cancelled: the agent's error for it means "cancelled" (F5). Kept only while
   * that prompt runs: an agent without `session/close` must not collect one per cancelled session for its whole life.
   * Empty when given; only the turns write it.
   */
  cancelledSessions: Set<string>
}

export class PromptTurns {
  /** v2 turns in flight, by session. */
  private readonly turns = new Map<string, TurnWaiter>()
  /** Prompts in flight, by session (their result not settled yet). */
  private readonly prompting = new Map<string, number>()

  private readonly cancelledSessions: Set<string>

  constructor(private readonly host: PromptTurnsHost) {
    this.cancelledSessions = host.cancelledSessions
  }

  /** Counts the prompt `start` sends as in flight until the outcome it returns settles. */
  track(sessionId: string, start: () => Promise<PromptOutcome>): Promise<PromptOutcome> {
    this.cancelledSessions.delete(sessionId)
    this.prompting.set(sessionId, (this.prompting.get(sessionId) ?? 0) + 1)
    // Once it is settled (its error read as cancelled or not), what its cancel left is no longer needed.
    return start().finally(() => {
      const left = this.prompting.get(sessionId)! - 1
      if (left > 0) return void this.prompting.set(sessionId, left)
      this.prompting.delete(sessionId)
      this.cancelledSessions.delete(sessionId)
    })
  }

  /** v1: the turn is over with the prompt's response. */
  async runV1(sessionId: string, sent: Promise<unknown>): Promise<PromptOutcome> {
    try {
      const result = await sent
      const stopReason = isRecord(result) && typeof result.stopReason === 'string' ? result.stopReason : null
      return { stopReason }
    } catch (error) {
      // F5: an error after our cancel is the agent's way of saying "cancelled".
      if (error instanceof RpcError && this.cancelledSessions.has(sessionId)) return { stopReason: 'cancelled' }
      throw error
    }
  }

  /** v2: the turn is over with the ack and the idle `state_update` that ends it (see {@link observeState}). */
  runV2(sessionId: string, send: () => Promise<unknown>, hooks: PromptHooks | undefined): Promise<PromptOutcome> {
    const previous = this.turns.get(sessionId)
    previous?.deferred.reject(new BosunError({ kind: 'internal', message: 'A new prompt replaced a turn that never finished' }))
    // An idle still held for the replaced prompt came before this one was sent: it is no news about this turn.
    if (previous) previous.heldIdle = undefined
    const waiter: TurnWaiter = { deferred: new Deferred<PromptOutcome>(), responded: false, busySeen: false }
    this.turns.set(sessionId, waiter)
    const pending = this.host.pending
    pending.add(waiter.deferred)
    void waiter.deferred.promise.then(
      () => pending.delete(waiter.deferred),
      () => pending.delete(waiter.deferred),
    )
    send().then(
      (result) => {
        waiter.responded = true
        if (isRecord(result) && typeof result.messageId === 'string') {
          waiter.userMessageId = result.messageId
          try {
            hooks?.onInserted?.(result.messageId)
          } catch (error) {
            this.host.logger?.error('the prompt insertion hook failed', error)
          }
        }
        this.releaseHeldIdle(waiter)
        // The whole turn may have finished before the agent acknowledged the prompt.
        // An idle read before any busy state, with one read after it, was stale: this turn's idle is still to come.
        // (With no busy state at all, the agent reports none: its idle is taken, as before.)
        if (waiter.earlyIdle && (waiter.earlyIdleAfterBusy || !waiter.busySeen)) this.finishTurn(sessionId, waiter, waiter.earlyIdle)
      },
      (error: unknown) => {
        // Not inserted: the idle held back was the agent's word on its state after all.
        this.releaseHeldIdle(waiter)
        if (this.turns.get(sessionId) === waiter) this.turns.delete(sessionId)
        if (error instanceof RpcError && this.cancelledSessions.has(sessionId)) waiter.deferred.resolve({ stopReason: 'cancelled' })
        else waiter.deferred.reject(error)
      },
    )
    return waiter.deferred.promise
  }

  /** Bosun cancels the session's work: remembered for a prompt of Bosun's in flight only (v2 work the agent started itself has none to read it for). */
  cancelled(sessionId: string): void {
    if (this.prompting.has(sessionId)) this.cancelledSessions.add(sessionId)
  }

  /** Bosun waits for no turn of a session it closes (the agent owes it no idle now): the turn ends, cancelled. */
  closed(sessionId: string): void {
    const waiter = this.turns.get(sessionId)
    if (waiter) this.finishTurn(sessionId, waiter, { stopReason: 'cancelled' })
    this.cancelledSessions.delete(sessionId)
  }

  /** Follows a v2 turn's state; `held` when the update must not reach listeners yet (a possibly stale idle). */
  observeState(notification: SessionUpdateNotification): 'held' | undefined {
    const waiter = this.turns.get(notification.sessionId)
    if (!waiter) return undefined
    const update = notification.update as { state?: unknown; stopReason?: unknown; error?: unknown }
    // running / requires_action / unknown states: the turn goes on (F8); the sessions layer shows them.
    if (update.state !== 'idle') {
      waiter.busySeen = true
      // The idle held back was stale: listeners never see it, so the session does not flicker to idle (and
      // forget the prompt it is waiting to see echoed) in the middle of the turn.
      waiter.heldIdle = undefined
      return undefined
    }
    const outcome: PromptOutcome = { stopReason: typeof update.stopReason === 'string' ? update.stopReason : null }
    if (isRecord(update.error) && typeof update.error.message === 'string') {
      outcome.error = {
        message: update.error.message,
        ...(typeof update.error.code === 'number' ? { code: update.error.code } : {}),
        ...(update.error.data !== undefined ? { data: update.error.data } : {}),
      }
    }
    if (waiter.responded) this.finishTurn(notification.sessionId, waiter, outcome)
    // Responses travel through vscode-jsonrpc's queue and updates do not, so the ack can trail the idle
    // that followed it on the wire. An idle read before the ack ends the turn once the ack arrives, so
    // prompt() never settles before its response. But an idle that was already on its way when the agent
    // took the prompt (its last turn's, a change of background work) is no end of this turn (F7, F9): once
    // the agent reported itself busy since, only a later idle counts.
    else if (!waiter.earlyIdle || !waiter.earlyIdleAfterBusy) {
      waiter.earlyIdle = outcome
      waiter.earlyIdleAfterBusy = waiter.busySeen
    }
    if (waiter.responded || waiter.busySeen) return undefined
    // Stale or not is decided by what comes next: the ack (then it is this turn's, from an agent that reports no
    // busy state) or a busy state (then it was stale). A later idle in the meantime supersedes it (F9).
    waiter.heldIdle = notification
    return 'held'
  }

  /** The connection closed: its pending promises (the turns among them) were rejected; the turns are forgotten. */
  clear(): void {
    this.turns.clear()
  }

  private releaseHeldIdle(waiter: TurnWaiter): void {
    const held = waiter.heldIdle
    if (!held) return
    waiter.heldIdle = undefined
    this.host.release(held)
  }

  private finishTurn(sessionId: string, waiter: TurnWaiter, outcome: PromptOutcome): void {
    if (this.turns.get(sessionId) === waiter) this.turns.delete(sessionId)
    if (waiter.userMessageId) outcome.userMessageId = waiter.userMessageId
    waiter.deferred.resolve(outcome)
  }
}
