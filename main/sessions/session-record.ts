/** One open session as the sessions service holds it, and what a session past its bound still takes. */
import type { Deferred } from '../base/deferred'
import type { Result } from '../base/errors'
import type { AcpClientConnection } from '../acp/types'
import type { SessionAction, SessionState } from '../../common/session/types'
import { LazyState } from './lazy-state'
import { REPLACING_KINDS } from './session-growth'

/** What a message waiting for its session (a reopen, a reattach) gets when Stop withdraws it. */
export const STOPPED = Symbol('stopped')

/** A record whose `state` is read and written through its {@link LazyState}. */
export function newRecord(init: Omit<SessionRecord, 'state' | 'lazy'> & { state: SessionState }): SessionRecord {
  const { state, ...fields } = init
  const lazy = new LazyState(state)
  return Object.defineProperties(fields as SessionRecord, {
    lazy: { value: lazy },
    state: { get: () => lazy.state, set: (next: SessionState) => (lazy.state = next), enumerable: true },
  })
}

export interface SessionRecord {
  agentId: string
  /** The agent's id for the session, used on the wire; Bosun's id (the map key) is what the rest of the app sees. */
  acpSessionId: string
  /** Read through {@link lazy} (see {@link newRecord}): the state with every batch sent to the windows applied. */
  state: SessionState
  /** Main's copy of the state and the batches not applied to it yet. */
  readonly lazy: LazyState
  connection: AcpClientConnection | undefined
  turn: Promise<unknown> | undefined
  cancelRequested: boolean
  /** When the last `session/cancel` went (the scheduler's clock): another goes at most once a second. */
  cancelSentAt?: number
  /** A restarted agent gave this session's id to a new session: this one can no longer be resumed. */
  superseded?: boolean
  /** A reattach to the agent's new process in progress (after a crash or stop). */
  reattaching?: Promise<Result<AcpClientConnection>> | undefined
  /**
   * A `reopenSession` in progress (its close, then its reattach): another is refused, not sent to the agent too, and a
   * message or a change of mode or option waits for it (sent meanwhile, it went to the session being closed).
   */
  reopening?: Promise<unknown> | undefined
  /** The connection a reattach in progress resumes the session on: what it asks meanwhile is for this session. */
  reattachingOn?: AcpClientConnection | undefined
  /** The reattach is setting the session's mode back (`restoreMode`): its own calls go out on the new connection, not wait for the reattach. */
  restoringMode?: boolean
  /** Opened from the history (its agent process is not the one that made it). */
  restored?: boolean
  /** The Stop watchdog of the running turn. */
  watchdog?: unknown
  /** Messages waiting for a reopen or a reattach, each withdrawn at once by the session's next Stop (see `SessionsService.untilReady`). */
  waitingMessages?: Set<Deferred<typeof STOPPED>>
  /** Estimated bytes this session grew by since it was opened here: what it applied, less what only replaced what it held (session-growth.ts); bounded by `maxSessionBytes`. */
  received?: number
  /** Reattached by a v1 `session/load` whose replay may still be coming: only its facts apply; `heard` marks each update. */
  replayTail?: { heard(): void }
  /** Past `maxSessionBytes`: only updates that replace what the session shows are applied; the rest is dropped. */
  full?: { reason: string }
  /** The MCP servers the agent could not take, as the session last said it (`''`: none): a reattach repeats only a change. */
  mcpRefused?: string
  /** The agent's ids of the v2 subagent sessions this session announced (`subagent_update`), at most `MAX_SUBAGENTS`. */
  subagents?: string[]
  /**
   * Modes and option values the person (or a default confirmed for the agent) set in this session (`unattendedKey`): the
   * agent reporting one of them as current switched nothing by itself. At most {@link MAX_CHOSEN_MODES}.
   */
  chosenModes?: Set<string>
  /** The mode or option acting unasked that the agent switched the session to, as last told (told once until it changes). */
  unaskedTold?: string
  /** Bosun said in this session that its agent reads none of its input (withdrawn once it reads again, or goes). */
  inputStallTold?: true
  /** The title of Bosun's warning that the agent started the session in it, while the session stays in it (then withdrawn). */
  unaskedStarted?: string
}

/** Modes and option values remembered as the person's per session (each one asked for: a handful at most). */
export const MAX_CHOSEN_MODES = 64

/**
 * Applied to a full session: each replaces what the session shows (its facts, the v2 plan and turn state),
 * so none of them grows it. Everything else (text, tool calls, unknown kinds) is dropped.
 */
export const KINDS_APPLIED_WHEN_FULL = REPLACING_KINDS

/**
 * What of a Bosun-side action a full session still takes (null: nothing). It shows no more output, of the agent's or
 * of the terminals Bosun runs for it, and nothing else that grows it: the diffs of the agent's writes, a permission's
 * tool-call patch. Its notices, facts and the requests the person must answer still come through.
 */
export function whenFull(action: SessionAction): SessionAction | null {
  switch (action.type) {
    case 'client_terminal':
      return action.update.sessionUpdate === 'terminal_output_chunk' ? null : action
    case 'updates': {
      const updates = action.updates.filter((update) => KINDS_APPLIED_WHEN_FULL.has(update.sessionUpdate) || update.sessionUpdate === 'notice')
      return updates.length === 0 ? null : updates.length === action.updates.length ? action : { type: 'updates', updates }
    }
    case 'permission_requested':
      return action.toolCallPatch ? { ...action, toolCallPatch: null } : action
    case 'file_written':
    case 'file_read':
      return null
    default:
      return action
  }
}
