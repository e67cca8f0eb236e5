/**
 * v2 subagent sessions (`subagent_update`): which parent session each child the agent announced is routed to, and
 * what of a child's own updates its parent shows.
 */
import type { SessionUpdateNotification } from '../acp/types'
import { FROM_SUBAGENT } from '../../common/session/reducer/subagents'

/**
 * Where the agent's id for a session is unique: `<agentId>/<the agent's session id>`. Agent ids never
 * contain `/` (main/config/agent-definitions.ts), so two agents that both call a session `sess-1` differ.
 */
export function agentScopedId(agentId: string, acpSessionId: string): string {
  return `${agentId}/${acpSessionId}`
}

/**
 * What of a v2 subagent's own updates its parent session shows: the subagent's tool calls and terminals (what it
 * does, and what a permission it asks for is about), on the parent's transcript. Its state, usage, options,
 * commands, plan, title and messages are the child's own and would overwrite the parent's (a child's idle must not
 * end the parent's turn); the subagent's brief and report reach the parent as its `session_message`s.
 */
export const SUBAGENT_KINDS = new Set(['tool_call', 'tool_call_update', 'tool_call_content_chunk', 'terminal_update', 'terminal_output_chunk'])

/** Subagent sessions one session may announce; past it, a new child's updates and requests are not routed. */
export const MAX_SUBAGENTS = 256

/** A child's tool call, marked with the child's id as its parent shows it. */
export function fromSubagent(update: SessionUpdateNotification['update'], acpSessionId: string): SessionUpdateNotification['update'] {
  return update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update' ? ({ ...update, [FROM_SUBAGENT]: acpSessionId } as typeof update) : update
}

/** What a parent session's record holds of its subagents. */
export interface SubagentParent {
  readonly agentId: string
  readonly state: { readonly protocolVersion: number }
  /** The agent's ids of the v2 subagent sessions this session announced, at most {@link MAX_SUBAGENTS}. */
  subagents?: string[] | undefined
}

/** The parent session (Bosun's id) of each subagent the agent announced, by the child's agent-scoped id. */
export class SubagentRoutes {
  private readonly parentOf = new Map<string, string>()

  /** `isSession`: whether an agent-scoped id is a session of its own (never routed as a child). */
  constructor(private readonly isSession: (scoped: string) => boolean) {}

  /** The parent session (Bosun's id) a subagent `agentScopedId` is routed to. */
  parent(scoped: string): string | undefined {
    return this.parentOf.get(scoped)
  }

  /**
   * A v2 `subagent_update` on `sessionId`: the child session it names is routed to this session from now on (its tool
   * calls shown here, its permission requests asked here). A child already routed elsewhere, or one past the bound, is not.
   */
  adopt(sessionId: string, record: SubagentParent, update: SessionUpdateNotification['update']): void {
    const child = (update as { sessionId?: unknown }).sessionId
    if (record.state.protocolVersion !== 2 || typeof child !== 'string' || child.length === 0 || child.length > 1024) return
    const scoped = agentScopedId(record.agentId, child)
    if (this.isSession(scoped) || this.parentOf.has(scoped)) return
    const children = (record.subagents ??= [])
    if (children.length >= MAX_SUBAGENTS) return
    children.push(child)
    this.parentOf.set(scoped, sessionId)
  }

  /** The subagent sessions `record` announced are no longer routed to it. */
  forget(sessionId: string, record: SubagentParent): void {
    for (const child of record.subagents ?? []) {
      const scoped = agentScopedId(record.agentId, child)
      if (this.parentOf.get(scoped) === sessionId) this.parentOf.delete(scoped)
    }
    record.subagents = undefined
  }

  clear(): void {
    this.parentOf.clear()
  }
}
