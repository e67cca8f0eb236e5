/**
 * The session reducer: `applyActions(state, actions) → state`, pure and total. It runs in main (snapshots),
 * in the renderer (display) and in the benchmark, so it uses no DOM, no Node and no React.
 *
 * Cost model: one call is one batch (`applyBatches`: several, as one). The batch copies the `entries` array at
 * most once, each touched entry (and each array inside it) at most once, and finds entries through id → position maps kept beside the
 * state (a WeakMap, so the state itself stays plain data for structured clone / JSON). Text chunks are
 * appended with string concatenation (V8 ropes), so streaming a long message is linear.
 *
 * The update families live in `reducer/`: `draft` (copy-on-write bookkeeping, the entry index, input parsing),
 * `messages`, `tool-calls` (and v2 terminals), `plans`, `metadata` (commands, modes, config options, info, usage,
 * notices, session configuration), `turn` (state updates, compaction, turn start/end, cancel, agent gone) and
 * `requests` (permissions and elicitations on their entries). This file creates states and dispatches.
 *
 * Semantics follow ACP-CLIENT-CHECKLIST §F, §H, §L: v1 `null` ≡ omitted; v2 `null` clears; unknown kinds are
 * kept; malformed payloads of known kinds are ignored. Nothing here throws on agent input.
 */
import type {
  ProtocolVersion,
  SessionAction,
  SessionState,
  UnknownEntry,
} from './types'
import { Draft, isObject, isString } from './reducer/draft'

export { rebuildIndex } from './reducer/draft'
export { parseConfigOptions } from './reducer/metadata'
export { decodeBase64 } from './reducer/tool-calls'
import type { Update } from './reducer/draft'
import { ownValue } from '../own-keys'
import { applyChunk, applyWholeMessage } from './reducer/messages'
import { applyModeMarker, applyNotice, applySessionConfigured, applySessionInfo, applyUsage, hasModelOption, modeIdOf, parseCommands, parseConfigOptions } from './reducer/metadata'
import { applyPlanUpdate, applyPlanV1, applyTodoWritePlan, todoWriteList } from './reducer/plans'
import { applySessionMessage, applySubagentUpdate } from './reducer/subagents'
import { applyElicitationRequested, applyPermissionRequested, applyPermissionResolved } from './reducer/requests'
import { applyFileRead, applyFileWritten, applyTerminalCancelRequested, applyTerminalCancelUnconfirmed, applyTerminalChunk, applyTerminalUpdate, applyToolCall, applyToolCallCancel, applyToolContentChunk } from './reducer/tool-calls'
import {
  applyAgentGone,
  applyCancelRequested,
  applyCompactionChunk,
  applyCompactionUpdate,
  applyLocalPrompt,
  applyPromptInserted,
  applyPromptRejected,
  applyStateUpdate,
  applyTurnEnded,
  applyTurnStarted,
} from './reducer/turn'
// ---------------------------------------------------------------------------------------------------------
// Creation and the index
// ---------------------------------------------------------------------------------------------------------

export function createSessionState(init: {
  sessionId: string
  /** The agent's own id for the session; defaults to `sessionId`. */
  acpSessionId?: string
  agentId: string
  protocolVersion: ProtocolVersion
  cwd: string
}): SessionState {
  return {
    sessionId: init.sessionId,
    acpSessionId: init.acpSessionId ?? init.sessionId,
    agentId: init.agentId,
    protocolVersion: init.protocolVersion,
    cwd: init.cwd,
    title: null,
    updatedAt: null,
    entries: [],
    plans: [],
    availableCommands: [],
    modes: null,
    models: null,
    configOptions: [],
    usage: null,
    terminals: {},
    permissions: {},
    elicitations: {},
    turn: { state: 'idle', stopReason: null, error: null, background: null, completedTurns: 0 },
    autoApprove: false,
    notices: [],
    seq: 0,
    pendingEcho: null,
  }
}

// ---------------------------------------------------------------------------------------------------------
// Dispatch of one session/update
// ---------------------------------------------------------------------------------------------------------

const BOTH: Record<string, (d: Draft, u: Update) => void> = {
  user_message_chunk: (d, u) => applyChunk(d, 'user_message', u),
  agent_message_chunk: (d, u) => {
    if (!d.v2 && applyModeMarker(d, u)) return
    applyChunk(d, 'agent_message', u)
  },
  agent_thought_chunk: (d, u) => applyChunk(d, 'agent_thought', u),
  tool_call_update: (d, u) => {
    const todos = d.v2 ? undefined : todoWriteList(d, u)
    applyToolCall(d, u)
    applyTodoWritePlan(d, todos)
    workReported(d)
  },
  available_commands_update: (d, u) => {
    const commands = parseCommands(u.availableCommands)
    if (commands) d.s.availableCommands = commands
  },
  config_option_update: (d, u) => {
    const options = parseConfigOptions(u.configOptions)
    if (options) {
      d.s.configOptions = options
      // A model option now is the session's model: the legacy models go, as at configuration.
      if (d.s.models && hasModelOption(options)) d.s.models = null
    }
  },
  session_info_update: applySessionInfo,
  usage_update: applyUsage,
  notice: applyNotice,
  compaction_update: applyCompactionUpdate,
  compaction_summary_chunk: applyCompactionChunk,
}

/** v1: the agent reported work; the next chunk without a `messageId` starts a message ({@link SessionState.workAtEntry}). */
function workReported(d: Draft): void {
  if (!d.v2 && d.s.workAtEntry !== d.s.entries.length) d.s.workAtEntry = d.s.entries.length
}

const V1_ONLY: Record<string, (d: Draft, u: Update) => void> = {
  tool_call: (d, u) => {
    const todos = todoWriteList(d, u)
    applyToolCall(d, u)
    applyTodoWritePlan(d, todos)
    workReported(d)
  },
  plan: (d, u) => {
    applyPlanV1(d, u)
    workReported(d)
  },
  current_mode_update: (d, u) => {
    if (!isString(u.currentModeId)) return
    // The session's modes are a config option (E4: config options supersede modes): that option shows the mode, and
    // the agent reports its change with config_option_update. claude-agent-acp sends both on every mode change;
    // taking this one too would show the mode a second time, as a bare id beside the option.
    if (d.s.configOptions.some((option) => option.category === 'mode')) return
    d.s.modes = { currentModeId: modeIdOf(u.currentModeId), availableModes: d.s.modes?.availableModes ?? [] }
  },
}

const V2_ONLY: Record<string, (d: Draft, u: Update) => void> = {
  user_message: (d, u) => applyWholeMessage(d, 'user_message', u),
  agent_message: (d, u) => applyWholeMessage(d, 'agent_message', u),
  agent_thought: (d, u) => applyWholeMessage(d, 'agent_thought', u),
  state_update: applyStateUpdate,
  tool_call_content_chunk: applyToolContentChunk,
  terminal_update: applyTerminalUpdate,
  terminal_output_chunk: applyTerminalChunk,
  plan_update: applyPlanUpdate,
  subagent_update: applySubagentUpdate,
  session_message: applySessionMessage,
}

/**
 * v2 kinds a v1 session takes too (liberal in what Bosun accepts: newer v1 agents send v2 shapes): whole messages,
 * streamed tool call content and plans by id mean the same in either version. Not `state_update` (a v1 turn ends only
 * at the prompt's answer, F4), nor `terminal_update`/`terminal_output_chunk` (a v1 session's terminals are the ones
 * Bosun runs: an agent's update would rewrite what its command printed), nor the subagent kinds (v1 needs the unstable
 * `subagents` capability, which Bosun does not advertise).
 */
const V2_IN_V1 = new Set(['user_message', 'agent_message', 'agent_thought', 'tool_call_content_chunk', 'plan_update'])

function applyUpdate(d: Draft, u: unknown): void {
  if (!isObject(u) || !isString(u.sessionUpdate)) return
  const update = u as Update
  // Own keys only: a kind named `constructor` or `__proto__` is unknown, kept like any other, not a member of Object.
  const handler =
    ownValue(BOTH, update.sessionUpdate) ??
    ownValue(d.v2 ? V2_ONLY : V1_ONLY, update.sessionUpdate) ??
    (!d.v2 && V2_IN_V1.has(update.sessionUpdate) ? ownValue(V2_ONLY, update.sessionUpdate) : undefined)
  if (handler) {
    handler(d, update)
    // As their v1 counterparts (`tool_call`, `plan`): the next chunk without a `messageId` starts a message.
    if (update.sessionUpdate === 'tool_call_content_chunk' || update.sessionUpdate === 'plan_update') workReported(d)
    return
  }
  // Unknown (or the other version's) kind: kept whole, shown generically (H2, H29).
  const entry: UnknownEntry = { kind: 'unknown', id: `unknown#${d.s.entries.length}`, sessionUpdate: update.sessionUpdate, raw: u }
  d.push(entry)
}

function applyAction(d: Draft, action: SessionAction): void {
  switch (action.type) {
    case 'updates':
      if (Array.isArray(action.updates)) {
        for (const update of action.updates) {
          try {
            applyUpdate(d, update)
          } catch {
            // A malformed update must not take the batch down with it; it is simply not applied.
          }
        }
      }
      return
    case 'local_prompt':
      return applyLocalPrompt(d, action.content, action.messageId)
    case 'turn_started':
      return applyTurnStarted(d)
    case 'prompt_rejected':
      return applyPromptRejected(d, action.error, action.undelivered === true)
    case 'prompt_inserted':
      return applyPromptInserted(d, action.messageId)
    case 'cannot_continue':
      d.s.cannotContinue = isString(action.reason) ? { reason: action.reason } : null
      return
    case 'terminal_cancel_requested':
      return applyTerminalCancelRequested(d, action.terminalId)
    case 'terminal_cancel_unconfirmed':
      return applyTerminalCancelUnconfirmed(d, action.terminalId)
    case 'tool_call_cancel':
      return applyToolCallCancel(d, action.toolCallId, action.cancel)
    case 'turn_ended':
      return applyTurnEnded(d, action.stopReason, action.error)
    case 'cancel_requested':
      return applyCancelRequested(d)
    case 'agent_gone':
      return applyAgentGone(d)
    case 'permission_requested':
      return applyPermissionRequested(d, action.request, action.toolCallPatch)
    case 'permission_resolved':
      return applyPermissionResolved(d, action.requestId, action.resolution, action.status)
    case 'elicitation_requested':
      return applyElicitationRequested(d, action.elicitation)
    case 'elicitation_resolved': {
      const current = d.s.elicitations[action.elicitationRequestId]
      if (current) d.mutRecord('elicitations')[action.elicitationRequestId] = { ...current, status: action.status, ...(action.answer ? { answer: action.answer } : {}) }
      return
    }
    case 'set_auto_approve':
      d.s.autoApprove = action.value === true
      return
    case 'session_configured':
      return applySessionConfigured(d, action)
    case 'model_selected':
      if (d.s.models && isString(action.modelId)) d.s.models = { ...d.s.models, currentModelId: action.modelId }
      return
    case 'dismiss_notice':
      d.s.notices = d.s.notices.filter((n) => n.id !== action.id)
      return
    case 'file_written':
      return applyFileWritten(d, action.toolCallId, action.writtenDiffs)
    case 'file_read':
      return applyFileRead(d, action.toolCallId, action.filesRead)
    case 'client_terminal':
      // A terminal Bosun runs for the agent (v1 `terminal/*`), in the v2 display shapes whatever the session's version.
      if (isObject(action.update)) (action.update.sessionUpdate === 'terminal_output_chunk' ? applyTerminalChunk : applyTerminalUpdate)(d, action.update as Update)
      return
    default:
      return
  }
}

/**
 * Applies one batch of actions. Pure: `state` is never mutated (the result shares every untouched part with
 * it), `seq` grows by one per call, and no input makes it throw.
 */
export function applyActions(state: SessionState, actions: readonly SessionAction[]): SessionState {
  const d = new Draft(state)
  applyBatch(d, actions)
  return d.finish()
}

/**
 * Applies several batches in one pass: the same state as `applyActions` applied to each in turn (`seq` grows by
 * one per batch, notice ids are those), but the entries array and each touched entry are copied once for all of
 * them, not once per batch. `state` itself when there is no batch. Pure, as `applyActions` is.
 */
export function applyBatches(state: SessionState, batches: readonly (readonly SessionAction[])[]): SessionState {
  if (batches.length === 0) return state
  const run = new SessionBatches(state)
  batches.forEach((actions, i) => {
    if (i > 0) run.begin(state.seq + 1 + i)
    run.apply(actions)
  })
  return run.finish()
}

/**
 * Whether applying `actions` numbers anything by the batch's `seq` (a notice's id, see `Draft.nextNoticeId`). Batches
 * that do not may be merged into the batch before them and applied as one: the state reached is the same.
 */
export function numbersNotices(actions: readonly SessionAction[]): boolean {
  for (const action of actions) {
    if (!isObject(action) || action.type !== 'updates' || !Array.isArray(action.updates)) continue
    for (const update of action.updates) if (isObject(update) && update.sessionUpdate === 'notice') return true
  }
  return false
}

/**
 * Batches, or slices of them, applied one after another with no state made in between (the renderer applies a
 * flood's batches over several frames and shows the state once): `finish` makes the state they reach, once, and
 * the object is done with. The state it started from is never changed; until `begin` is called, what is applied
 * is the batch `applyActions` would apply to it.
 */
export class SessionBatches {
  private readonly d: Draft
  private finished = false

  constructor(state: SessionState) {
    this.d = new Draft(state)
  }

  /** A new batch begins: notice ids are numbered from `seq`, the state's seq before it plus one. */
  begin(seq: number): void {
    this.d.beginBatch(seq)
  }

  /** Applies actions of the current batch. */
  apply(actions: readonly SessionAction[]): void {
    if (this.finished) throw new Error('SessionBatches: already finished')
    applyBatch(this.d, actions)
  }

  /** The state reached; `seq` is the current batch's. */
  finish(): SessionState {
    this.finished = true
    return this.d.finish()
  }
}

function applyBatch(d: Draft, actions: readonly SessionAction[]): void {
  for (const action of actions) {
    try {
      if (isObject(action)) applyAction(d, action)
    } catch {
      // Same rule as for updates: a bad action is dropped, the rest of the batch applies.
    }
  }
}

