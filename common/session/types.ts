/**
 * The state of one session as the UI shows it: an ordered list of entries (Zed's `AcpThread` idea) plus
 * session-wide facts (plans, commands, modes, config, turn state). Produced only by the pure reducer in
 * `session-reducer.ts`, in main (for snapshots) and in the renderer (for display).
 *
 * Protocol payloads keep the SDK's types where they are used as-is; unknown variants are kept intact
 * (`raw`) so nothing an agent sends is lost.
 */
import type * as v1 from '@agentclientprotocol/sdk'
import type * as v2 from '@agentclientprotocol/sdk/experimental/v2'
import type { KeptAnswer } from '../elicitation/answer'

export type ProtocolVersion = 1 | 2

/** A content block: any of the v1/v2 known blocks, or an unknown one kept whole. */
export type ContentBlock = v1.ContentBlock | v2.ContentBlock | UnknownBlock
export interface UnknownBlock {
  type: string
  [key: string]: unknown
}

/** Tool call content: v1 (`content`/`diff {path,oldText,newText}`/`terminal`), v2 (`diff {changes,patch}` …) or unknown. */
export type ToolCallContent = v1.ToolCallContent | v2.ToolCallContent | UnknownBlock

export interface ToolCallLocation {
  path: string
  line?: number | null
}

/** Status as shown: the wire's statuses plus the UI-only `canceled` (v1 has no cancelled status) and anything unknown (shown as in progress). */
export type ToolCallStatus = 'pending' | 'in_progress' | 'paused' | 'completed' | 'failed' | 'cancelled' | (string & {})

export interface MessageEntry {
  kind: 'user_message' | 'agent_message' | 'agent_thought'
  /** Stable entry id (for React keys): `user:<messageId>` or a generated one. */
  id: string
  messageId?: string
  content: ContentBlock[]
  /** A user message Bosun sent (local echo); later echoes of the same prompt are skipped. */
  local?: boolean
  /** v1 `refusal` (F4): this message belongs to the refused turn, the prompt or what the agent answered to it, and is excluded from the agent's context. */
  excluded?: boolean
  /** A prompt the agent refused (v2: not inserted; v1: an error instead of a stop reason): shown as not sent, editable and resendable. */
  notSent?: PromptError | null
  /** The message's own `_meta` (v2 whole-message upserts patch it by key). */
  _meta?: Record<string, unknown>
  /**
   * The `_meta` of the chunks that built this message (I1), kept apart from its own: a chunk's is scoped to the
   * chunk. In order, one per run of chunks with the same `_meta`, at most `MAX_CHUNK_METAS`, each bounded
   * (`MAX_META_CHARS`); later ones are not kept.
   */
  chunkMeta?: Record<string, unknown>[]
}

/** Why the agent refused a prompt: its JSON-RPC error, with `data` made readable (`details` when it has one). */
export interface PromptError {
  message: string
  code?: number
  /** What the error's `data` says in words. */
  details?: string
  /** The error's `data` as JSON, when it holds more than those words: shown folded, under "Details". */
  data?: string
  /**
   * For a -32000 (auth required): whether the agent offers a way to sign in (it listed auth methods at
   * `initialize`). Absent in transcripts recorded before Bosun told the two apart: there -32000 means it does.
   */
  signIn?: boolean
  /**
   * v1 only: the agent may have taken the message before it failed (its model's error, or its own), since v1 answers
   * both with an error and nothing tells them apart. Absent: refused (v2, where a taken message is inserted; or a
   * code that means refusal: sign-in, invalid request or params).
   */
  mayHaveTaken?: true
  /** Bosun could not write the message to the agent (it closed its input): it never reached the agent, which refused nothing. */
  undelivered?: true
}

/** Where Bosun's `tool_call/cancel` of a tool call stands (E15). */
export type ToolCallCancel = 'requested' | 'unconfirmed' | 'refused'

export interface ToolCallEntry {
  kind: 'tool_call'
  id: string
  toolCallId: string
  title: string | null
  /** Known kinds get icons; unknown kinds are kept and shown as `other`. */
  toolKind: string
  status: ToolCallStatus
  content: ToolCallContent[]
  locations: ToolCallLocation[]
  /** How many more locations the agent sent than Bosun keeps (main's list bound cut them), said under the list. */
  locationsNotKept?: number
  rawInput?: unknown
  rawOutput?: unknown
  name?: string | null
  _meta?: Record<string, unknown>
  /** v2 `capabilities` (e.g. cancel): the controls the agent says this call supports now. See `canCancelToolCall`. */
  capabilities?: unknown
  /**
   * Bosun's v2 `tool_call/cancel` (E15): `requested`, the agent accepted it and the call stops only when a final
   * status arrives; `unconfirmed`, none came within main's deadline (Cancel offered again while advertised);
   * `refused`, the agent answered -32602 (unknown, already final or not cancellable), a quiet note on the card.
   */
  cancel?: ToolCallCancel
  /** v2: a terminal it shows kept running after the person's Stop ended the turn (see `TerminalView.ranOnAfterStop`). */
  ranOnAfterStop?: true
  /** Fields of the agent's tool call updates Bosun does not know (a newer schema's, the agent's own), by key: shown as they are. */
  extra?: Record<string, unknown>
  /** Ids of permission requests attached to this tool call (their data lives in `SessionState.permissions`). */
  permissionIds: string[]
  /** Ids of elicitations attached to this tool call. */
  elicitationIds: string[]
  /** v1 `refusal` (F4): a tool call of the refused turn, excluded from the agent's context with its prompt. */
  excluded?: boolean
  /** Set when Bosun answered a permission by a remembered rule: "allowed by rule …". */
  decidedBy?: { kind: 'person' | 'rule' | 'auto-approve'; label: string; optionKind?: string }
  /**
   * The diffs a permission request for this tool call showed (the last request that had any). The card shows them
   * when its content has none: OpenCode's write shows its diff only in the request, and its completion replaces the
   * content with "Wrote file successfully.", so what was approved (by a rule, unseen) was nowhere on the card.
   */
  askedDiffs?: ToolCallContent[]
  /**
   * What Bosun wrote for this tool call (`fs/write_text_file`): one diff a file, from before its first write to after
   * its last, as also added to the content. The card shows those of files its content (or `askedDiffs`) shows no diff
   * of: the agent's later updates replace the content, and OpenCode's replaced Bosun's diff of a file it had Bosun
   * write with "Wrote file successfully.", so what Bosun wrote was nowhere on the card.
   */
  writtenDiffs?: ToolCallContent[]
  /**
   * What Bosun read for this tool call (`fs/read_text_file`): the path and the lines, never the text, newest last
   * (the last 32: `MAX_FILES_READ`). The agent's own content says nothing of a read it had Bosun make.
   */
  filesRead?: FileRead[]
  /**
   * The card title of the v2 subagent whose tool call this is ("Subagent: Survey the files"): main routed it from that
   * subagent's session (see `FROM_SUBAGENT`). Several subagents may work at once.
   */
  subagent?: string
  /**
   * The agent's id of that subagent's session (the `FROM_SUBAGENT` value): a `tool_call/cancel` for this call names
   * it, once main has checked it is a subagent this session announced.
   */
  subagentSessionId?: string
}

/** One `fs/read_text_file` Bosun answered for a tool call: which file and which of its lines (see ToolCallEntry.filesRead). */
export interface FileRead {
  path: string
  /** The window the agent asked for (1-based first line, line count); null: from the start, to the end. */
  line: number | null
  limit: number | null
  /** Lines Bosun answered with (0: the window was past the file's end, or the file is empty). */
  lines: number
  /** Times the agent read this same window in the call. */
  times: number
}

export interface PermissionEntry {
  /** A permission request not tied to any tool call (e.g. a v2 `command` subject without toolCallId). */
  kind: 'permission'
  id: string
  requestId: string
}

export interface ElicitationEntry {
  kind: 'elicitation'
  id: string
  elicitationId: string
}

export interface CompactionEntry {
  kind: 'compaction'
  id: string
  compactionId: string
  status: string
  summary: ContentBlock[]
  error?: unknown
  /** The compaction's `_meta` (I1): an object patches it by top-level key, `null` clears it (H18). */
  _meta?: Record<string, unknown>
}

/**
 * The turn before this entry ended with an error. The turn's own error (`TurnView.error`) is replaced when the next
 * turn starts; this mark stays, so a partial answer never reads as a complete one later.
 */
export interface TurnErrorEntry {
  kind: 'turn_error'
  id: string
  message: string
  code?: number
  /** The error's `data` as JSON, when it holds more than its words (see `agentErrorWords`): shown folded. */
  data?: string
  /** As {@link TurnError.byBosun}. */
  byBosun?: true
}

/**
 * The turn before this entry ended early without an error: stopped when asked, refused by the agent, or at a limit
 * (`common/session/turn-stop.ts`). The note under the transcript tells it while that turn is the last; this mark
 * stays, so an earlier short answer says why it is short.
 */
export interface TurnStopEntry {
  kind: 'turn_stop'
  id: string
  /** The stop reason as told (`cancelled` for a Stop however the agent answered it). */
  reason: string
  /** What the agent said when it answered a Stop with an error. */
  detail?: string
  /** `cancelled` without a Stop from Bosun (codex-acp's answer to a rejected command). */
  unasked?: true
  /** A Stop the agent never answered: the turn ended when its process went away; `detail` is Bosun's words for that. */
  unanswered?: true
}

/** Anything new we do not know: kept whole, shown generically. */
export interface UnknownEntry {
  kind: 'unknown'
  id: string
  sessionUpdate: string
  raw: unknown
}

export type Entry = MessageEntry | ToolCallEntry | PermissionEntry | ElicitationEntry | CompactionEntry | TurnErrorEntry | TurnStopEntry | UnknownEntry

export interface PlanEntryView {
  content: string
  priority: string
  status: string
  /** Kept as sent (I1), when within `MAX_META_CHARS`. */
  _meta?: Record<string, unknown>
}

export interface PlanView {
  /** v1 has a single plan: `planId` is `""`. */
  planId: string
  /** `items`, `markdown` (v2, unstable: then `markdown` holds its text), or an unknown v2 plan type (then `raw` holds it). */
  type: string
  entries: PlanEntryView[]
  /** A `markdown` plan's text (Codex's proposed plan), cut at `MAX_PLAN_MARKDOWN_CHARS`. */
  markdown?: string
  raw?: unknown
  /** The plan's `_meta` (v1 `plan`, v2 items plan), kept as sent (I1) when within `MAX_META_CHARS`. */
  _meta?: Record<string, unknown>
  /** v2: the `_meta` of the `plan_update` that sent this plan, likewise. */
  updateMeta?: Record<string, unknown>
}

export interface CommandView {
  name: string
  description: string
  hint?: string
  raw: unknown
}

export interface ModeView {
  id: string
  name: string
  description?: string | null
}

/** A model the agent offers through the unstable v1 session models API (`models.availableModels`). */
export interface ModelView {
  id: string
  name: string
  description?: string | null
}

export interface ConfigOptionView {
  /** v1 `id`, v2 `configId`. */
  id: string
  name: string
  description?: string | null
  category?: string | null
  /** `select` | `boolean` | unknown (kept, hidden). */
  type: string
  currentValue: unknown
  /** Flattened select options, with their group name when grouped. */
  options: { value: string; name: string; description?: string | null; group?: string }[]
  raw: unknown
}

export interface TerminalView {
  terminalId: string
  command?: string | null
  cwd?: string | null
  /** Decoded text (UTF-8, escape sequences neutralised at render time). */
  output: string
  exitStatus?: { exitCode?: number | null; signal?: string | null } | null
  /** v2 `size` (display only). */
  size?: { cols: number; rows: number } | null
  /** Bytes of an incomplete UTF-8 sequence at the end of the last chunk (at most 3), decoded with the next chunk. */
  pendingUtf8?: number[]
  /**
   * v2 `capabilities`: the controls the agent says this terminal supports now (replaced whole by each
   * `terminal_update` that carries it; `null` or a malformed value = none). See `canCancelTerminal`.
   */
  capabilities?: Record<string, unknown> | null
  /** v2 `_meta`, patched by top-level key. */
  _meta?: Record<string, unknown>
  /** Fields of `terminal_update` Bosun does not know: kept (patched by key, `null` removes) and shown generically. */
  extra?: Record<string, unknown>
  /** Bosun sent `terminal/cancel` and the agent accepted it; the terminal has stopped only once its `exitStatus` arrives (E16). */
  cancelRequested?: boolean
  /**
   * The agent accepted `terminal/cancel` but reported no exit status within main's deadline: no longer shown as
   * stopping (it may still run), and Cancel is offered again while the agent advertises it.
   */
  cancelUnconfirmed?: boolean
  /** The agent's process went away before this terminal reported an exit status: whatever it ran is not Bosun's to know. */
  agentGone?: boolean
  /** The output grew past what Bosun keeps: its start was dropped. */
  truncated?: boolean
  /** A v1 agent's own terminal, shown through the `_meta` terminal extension on its tool call: Bosun does not run it. */
  agentRun?: true
  /**
   * v2: its output kept coming after the person's Stop ended the turn (codex-acp answers `session/cancel` at once and
   * runs the command on to its end): the agent did not stop it.
   */
  ranOnAfterStop?: true
}

/** Foreground turn state. `unknown` = a state we do not know: shown as busy, never idle. */
export type TurnState = 'idle' | 'running' | 'requires_action' | 'unknown'

/** How a turn ended with an error: the agent's JSON-RPC error, or Bosun's own end of it. */
export interface TurnError {
  message: string
  code?: number
  /** The error's `data` as JSON, when it holds more than its words (see `agentErrorWords`): shown folded. */
  data?: string
  /**
   * Bosun ended the turn (it was closed, died, or the person restarted the agent): the message is Bosun's words, not
   * the agent's. Set by main only; an agent's error, whatever it says, never has it.
   */
  byBosun?: true
}

export interface TurnView {
  state: TurnState
  /** The last reported stop reason, if any (`null` = not reported). */
  stopReason: string | null
  error?: TurnError | null
  /** v2 background work; `null` = not reported. */
  background: unknown[] | null
  /** Count of completed turns, to notify exactly once per completion. */
  completedTurns: number
  /**
   * v1: how many entries the transcript had when the last turn ended. A chunk without a `messageId` never continues
   * a message from before that: what the agent says after a turn (Gemini CLI's `[MODE_UPDATE] …` when the mode
   * changes) is a message of its own, not the end of the turn's last answer.
   */
  endedAtEntry?: number
  /**
   * Bosun asked the agent to stop this turn (`session/cancel`). Kept on the ended turn: an agent that answers
   * `end_turn` to a cancel (OpenCode does) still ended the turn because it was asked to.
   */
  stopRequested?: boolean
  /**
   * v2: Bosun showed the turn as running when it sent a prompt, before the agent said anything; this is the
   * state the agent last reported. Cleared by the agent's next `state_update`; restored if the prompt is rejected.
   */
  unconfirmedFrom?: { state: TurnState; stopReason: string | null; error?: TurnError | null } | null
}

/** A permission request, normalised from v1 (`toolCall`) and v2 (`title`/`description`/`subject`). */
export interface PermissionRequestView {
  /** Bosun's id for the request (unique across agents), used by `permission:respond`. */
  requestId: string
  agentId: string
  agentName: string
  sessionId: string
  /** Fallback chain: v2 title → v1 toolCall.title → stored tool title → "Permission requested". */
  title: string
  description?: string | null
  subject:
    | { type: 'tool_call'; toolCallId: string }
    | { type: 'command'; command: string; cwd: string; toolCallId?: string | null; terminalId?: string | null }
    | { type: 'none' }
    | { type: 'unknown'; raw: unknown }
  toolCallId?: string | null
  options: { optionId: string; name: string; kind: string }[]
  /** Epoch ms. */
  createdAt: number
  /** The broker's arrival order (this run of Bosun): orders requests created in the same millisecond. */
  arrival?: number
  status: 'pending' | 'answered' | 'cancelled' | 'gone'
  /**
   * Set when an "always" option will not become a lasting rule (Bosun cannot tell this request apart from
   * others, so it is remembered for this session only, or not at all): the dialog shows it before the click.
   */
  rememberNote?: string | null
  /** How it ended: which option, by whom, or why it went away (agent died, session cancelled). */
  resolution?: { optionId?: string; optionKind?: string; by: 'person' | 'rule' | 'auto-approve' | 'cancel' | 'agent-exit' | 'agent-cancel'; note?: string; at: number }
}

/** An elicitation request (form or URL), normalised. */
export interface ElicitationView {
  elicitationRequestId: string
  agentId: string
  agentName: string
  /** Session scope; `null` for request-scoped elicitations (before a session exists). */
  sessionId: string | null
  toolCallId?: string | null
  mode: 'form' | 'url'
  message: string
  /** Form mode: the (validated) restricted schema. */
  requestedSchema?: unknown
  /** URL mode. */
  url?: string
  elicitationId?: string
  createdAt: number
  /** `dismissed`: URL mode, the person stopped waiting for a completion that never came (the agent had `accept`). */
  status: 'pending' | 'accepted' | 'declined' | 'cancelled' | 'completed' | 'dismissed' | 'gone'
  /** An accepted form: what was sent, without the fields that look like secrets ({@link KeptAnswer}). */
  answer?: KeptAnswer
}

/**
 * The last `usage_update` (H16), as far as it made sense: token counts are finite, non-negative and bounded;
 * `size` is `null` until the agent gives a usable window size. `cost` is cumulative; `currency` is ISO 4217 or
 * another unit ("credits"). `extra` keeps the update's other fields (bounded), for the agent's own extensions.
 */
export interface UsageView {
  used: number
  size: number | null
  cost?: { amount: number; currency: string } | null
  extra?: Record<string, unknown>
}

export interface SessionState {
  /** Bosun's id for the session (`<agentId>/<the agent's id>`): unique across agents. */
  sessionId: string
  /** The agent's own id for the session, as it appears on the wire and in the protocol inspector. */
  acpSessionId: string
  agentId: string
  protocolVersion: ProtocolVersion
  cwd: string
  /**
   * Folders the person added to the session beyond `cwd` (absolute, checked by main to be folders when it was
   * created): Bosun serves the agent's file and terminal requests in them too, and passes them to the agent
   * as `additionalDirectories` where it advertises that. Absent or empty: none.
   */
  additionalDirectories?: string[]
  title: string | null
  updatedAt: string | null
  /** The `_meta` of `session_info_update`s (I1), patched by top-level key as v2 says; bounded (`MAX_META_CHARS`). */
  infoMeta?: Record<string, unknown>
  entries: Entry[]
  plans: PlanView[]
  availableCommands: CommandView[]
  modes: { currentModeId: string | null; availableModes: ModeView[] } | null
  /**
   * v1 only: the models the agent offers outside config options (`models` on `session/new|load|resume`, set with
   * `session/set_model`; Gemini CLI, older claude-agent-acp). `null` when none, or when a config option of category
   * `model` is the session's model (it supersedes them, as config options supersede modes, E4).
   */
  models: { currentModelId: string | null; availableModels: ModelView[] } | null
  configOptions: ConfigOptionView[]
  usage: UsageView | null
  terminals: Record<string, TerminalView>
  permissions: Record<string, PermissionRequestView>
  elicitations: Record<string, ElicitationView>
  turn: TurnView
  /** Auto-approve switch (off by default). */
  autoApprove: boolean
  /** Transient notices (not history); the UI shows and drops them. */
  notices: {
    id: string
    severity: string
    title: string
    description?: string | null
    /** Bosun's own, not the agent's (stop-watchdog.ts). */
    fromBosun?: true
    /** How many times the agent sent these same words while the notice was shown (2 or more; absent: once). */
    repeats?: number
  }[]
  /** Monotonic count of applied action batches (snapshot/batch reconciliation). */
  seq: number
  /**
   * The local prompt whose echo (`user_message_chunk`s repeating it) is still expected: the entry id of the local
   * message, the text not yet echoed, and the count of non-text blocks not yet echoed. `null`/absent = none.
   * v2 also keeps the `messageId` the agent inserted it as (from the prompt's answer, or the first user message
   * it sent), and the blocks it echoed so far: its version becomes the message's content (F6).
   */
  pendingEcho?: { entryId: string; text: string; blocks: number; messageId?: string; echoed?: ContentBlock[] } | null
  /**
   * v1: how many entries the transcript had when the agent last reported work (a tool call's news, a plan). A chunk
   * without a `messageId` does not continue a message from before that: the work came between two model steps, whose
   * texts are two paragraphs, not one (ACP H4: with no `messageId`, a new message after another kind of update).
   */
  workAtEntry?: number
  /** The agent restarted and cannot continue this session (it can neither resume nor load it…): why, in a sentence. */
  cannotContinue?: { reason: string } | null
}

/**
 * Everything the reducer applies. `updates` carries raw `session/update` payloads in arrival order;
 * the other actions are Bosun's own events about the session.
 */
export type SessionAction =
  | { type: 'updates'; updates: { sessionUpdate: string; [key: string]: unknown }[] }
  | { type: 'local_prompt'; content: ContentBlock[]; messageId?: string }
  | { type: 'turn_started' }
  | { type: 'turn_ended'; stopReason: string | null; error?: TurnError | null }
  /** The agent's process went away: no tool call of this session can finish now. */
  | { type: 'agent_gone' }
  | { type: 'cancel_requested' }
  | { type: 'permission_requested'; request: PermissionRequestView; toolCallPatch?: Record<string, unknown> | null }
  | { type: 'permission_resolved'; requestId: string; resolution: NonNullable<PermissionRequestView['resolution']>; status: PermissionRequestView['status'] }
  | { type: 'elicitation_requested'; elicitation: ElicitationView }
  | { type: 'elicitation_resolved'; elicitationRequestId: string; status: ElicitationView['status']; answer?: KeptAnswer }
  | { type: 'set_auto_approve'; value: boolean }
  | { type: 'session_configured'; modes?: unknown; models?: unknown; configOptions?: unknown[]; availableCommands?: unknown[] }
  /** The agent took `session/set_model` for this model (the protocol reports the change with no update). */
  | { type: 'model_selected'; modelId: string }
  | { type: 'dismiss_notice'; id: string }
  /** Bosun wrote a file for the agent's running tool call `toolCallId`: its diffs of what Bosun wrote (see ToolCallEntry.writtenDiffs). */
  | { type: 'file_written'; toolCallId: string; writtenDiffs: ToolCallContent[] }
  /** Bosun read a file for the agent's running tool call `toolCallId`: every read of the call so far (see ToolCallEntry.filesRead). */
  | { type: 'file_read'; toolCallId: string; filesRead: FileRead[] }
  /** A terminal Bosun runs for the agent: a v2-shaped `terminal_update` / `terminal_output_chunk`, applied in v1 sessions too. */
  | { type: 'client_terminal'; update: { sessionUpdate: 'terminal_update' | 'terminal_output_chunk'; terminalId: string; [key: string]: unknown } }
  /**
   * The agent answered the last local prompt with an error: it was not sent (v2: not inserted). `undelivered`: main's
   * word that it never left Bosun (its write to the agent failed), whatever the agent wrote meanwhile.
   */
  | { type: 'prompt_rejected'; error: PromptError; undelivered?: true }
  /** v2: the agent answered the last local prompt: it inserted it as the user message `messageId` (F6). */
  | { type: 'prompt_inserted'; messageId: string }
  /** The session cannot continue on the agent's current process (`reason`), or can again (`null`). */
  | { type: 'cannot_continue'; reason: string | null }
  /** The agent accepted Bosun's v2 `terminal/cancel` for this terminal (it stops when its `exitStatus` arrives). */
  | { type: 'terminal_cancel_requested'; terminalId: string }
  /** Main's deadline for the exit status of an accepted cancel passed without one. */
  | { type: 'terminal_cancel_unconfirmed'; terminalId: string }
  /** What became of Bosun's v2 `tool_call/cancel` for this tool call (see ToolCallEntry.cancel). */
  | { type: 'tool_call_cancel'; toolCallId: string; cancel: ToolCallCancel }

/** A running (or not) agent as the UI sees it. */
export interface AgentRuntimeView {
  agentId: string
  name: string
  status: 'stopped' | 'starting' | 'ready' | 'restarting' | 'crashed' | 'failed'
  pid?: number | null
  protocolVersion?: ProtocolVersion | null
  /**
   * This run answered 1 to Bosun's v2 offer, so it never saw Bosun's v1 client capabilities: it reads and
   * writes files and runs commands itself, and asks no elicitation. Its next start offers 1 with all of them.
   */
  withoutClientCapabilities?: boolean
  agentInfo?: { name: string; title?: string; version?: string } | null
  /** This run can resume or load sessions (`session/resume`, `session/load`): a session can be built again on it (reopened). */
  reopensSessions?: boolean
  /**
   * Whether this run lists its sessions (`session/list`): false when it said it cannot. Absent before a run started:
   * the sidebar's "More from <agent>" is then offered, and says so if the agent cannot.
   */
  listsSessions?: boolean
  /** Why it is not running (with the stderr tail), when it crashed or failed. */
  error?: { kind: string; message: string; stderrTail?: string } | null
  /** Restart attempts in the current crash window. */
  crashCount?: number
  /** Epoch ms of the next automatic restart, when one is scheduled. */
  nextRestartAt?: number | null
  /**
   * The agent's definition (command, arguments, environment, secret names) was changed after this process started:
   * it runs the earlier one until it restarts.
   */
  definitionChanged?: boolean
  /** With `definitionChanged`: what changed, in words ("the new arguments", "2 changed environment variables"). */
  definitionChanges?: string[]
}
