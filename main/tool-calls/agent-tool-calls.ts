/**
 * v2 `tool_call/cancel` (checklist E15, a MUST NOT): stopping one tool call the agent says can be stopped, without
 * stopping the turn. The renderer only asks; main decides from the state it holds: the session exists and speaks v2,
 * its agent is attached, the tool call is known there, is not final, and its latest update advertises
 * `capabilities.cancel`. Anything else is refused as a value and nothing is sent.
 *
 * The agent's answer means "accepted": the card shows the call as cancelling until an update brings a final status
 * (normally `cancelled`), or until main's deadline passes. Its -32602 (unknown, already final, not cancellable) is an
 * answer, not a failure: the card says so quietly. Neither touches the turn (cancelling a tool call does not change
 * the foreground state).
 *
 * A v2 subagent's tool call is shown in its parent's transcript (main routes it there): its cancel names the
 * subagent's session, which the entry keeps, and only while that session is one this session announced.
 */
import { fail, ok, RpcError, toFailure, type Result } from '../base/errors'
import { sha256Hex } from '../base/sha256'
import type { Logger } from '../base/log'
import { realScheduler, type Scheduler } from '../agents/scheduler'
import { V2ItemCancels, type CancelSessions } from '../acp/accepted-cancels'
import { canCancelToolCall, toolCallByHandle, toolCallOf } from '../../common/session/background'
import { FINISHED_TOOL_STATUSES } from '../../common/session/reducer/draft'

/** How long an accepted cancel waits for the tool call's final status before it is no longer shown as cancelling. */
export const TOOL_CALL_CANCEL_CONFIRM_MS = 15_000

/** The agent's answer to a cancel that reached it: `false`, it refused with -32602 (the card notes it). */
export interface ToolCallCancelOutcome {
  accepted: boolean
}

const INVALID_PARAMS = -32602

/** The sessions as a tool call's cancel reads them: also whose subagent a session is. */
export interface ToolCallSessions extends CancelSessions {
  /** Whether the agent's session `childAcpSessionId` is a v2 subagent `sessionId` announced (its calls are shown there). */
  isSubagentOf(sessionId: string, childAcpSessionId: string): boolean
}

/** By `<sessionId>\n<toolCallId>`. */
export class AgentToolCalls extends V2ItemCancels {
  declare protected readonly sessions: ToolCallSessions

  constructor(sessions: ToolCallSessions, log?: Logger, scheduler: Scheduler = realScheduler, confirmMs = TOOL_CALL_CANCEL_CONFIRM_MS) {
    super(sessions, log, scheduler, confirmMs)
  }

  /** `handle` names the call as the window does ({@link toolCallByHandle}): a long id of the agent's by its hash. */
  async cancel(sessionId: string, handle: string): Promise<Result<ToolCallCancelOutcome>> {
    const checked = this.v2State(sessionId, 'a tool call')
    if (!checked.ok) return checked
    const state = checked.value
    const entry = toolCallByHandle(state, handle, { hash: sha256Hex, only: (e) => canCancelToolCall(e) })
    if (!entry) return fail({ kind: 'not-found', message: `This session has no tool call ${handle}.` })
    const toolCallId = entry.toolCallId
    if (!canCancelToolCall(entry)) {
      const why = FINISHED_TOOL_STATUSES.has(entry.status) ? 'it has already ended' : 'the agent does not offer to cancel it'
      return fail({ kind: 'invalid-argument', message: `This tool call cannot be cancelled: ${why}.` })
    }
    if (entry.cancel === 'requested') return fail({ kind: 'invalid-argument', message: 'The agent already accepted cancelling this tool call; waiting for it to stop.' })
    const attached = this.sessions.connectionOf(sessionId)
    if (!attached?.connection.cancelToolCall) return fail({ kind: 'agent-not-running', message: 'The agent of this session is not running.' })
    const subagent = entry.subagentSessionId
    if (subagent !== undefined && !this.sessions.isSubagentOf(sessionId, subagent)) {
      return fail({ kind: 'invalid-argument', message: 'This tool call belongs to a subagent this session does not follow now.' })
    }
    // By the handle, not the agent's id: what main keeps per cancel stays bounded whatever id the agent chose.
    const key = `${sessionId}\n${handle}`
    if (this.cancels.isInFlight(key)) return fail({ kind: 'invalid-argument', message: 'Cancelling this tool call was already asked; waiting for the agent.' })
    const push = (cancel: 'requested' | 'unconfirmed' | 'refused') => this.sessions.push(sessionId, { type: 'tool_call_cancel', toolCallId, cancel })
    try {
      await this.cancels.send(
        key,
        () => attached.connection.cancelToolCall!(subagent ?? attached.acpSessionId, toolCallId),
        () => push('requested'),
        () => {
          const now = toolCallOf(this.sessions.state(sessionId) ?? { entries: [] }, toolCallId)
          if (now?.cancel !== 'requested' || FINISHED_TOOL_STATUSES.has(now.status)) return
          this.log?.warn(`tool_call/cancel ${handle} in ${sessionId}: accepted, but no final status within ${Math.round(this.confirmMs / 1000)} s`)
          push('unconfirmed')
        },
      )
      return ok({ accepted: true })
    } catch (error) {
      if (error instanceof RpcError && error.code === INVALID_PARAMS) {
        // Unknown, final or not cancellable: the work may have just finished. Said on the card, not as an error.
        this.log?.info(`tool_call/cancel ${handle} in ${sessionId}: the agent refused (${error.message})`)
        push('refused')
        return ok({ accepted: false })
      }
      const failure = toFailure(error)
      this.log?.info(`tool_call/cancel ${handle} in ${sessionId} failed: ${failure.message}`)
      return fail(failure)
    }
  }

}
