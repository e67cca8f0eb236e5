/**
 * Turn state: v2 `state_update`, compaction, and Bosun's own turn actions (local prompt, turn end, cancel, agent gone).
 */
import type { CompactionEntry, ContentBlock, Entry, MessageEntry, PromptError, ToolCallEntry, TurnError, TurnErrorEntry, TurnStopEntry } from '../types'
import { AUTH_REQUIRED_CODE, turnErrorFrom } from '../../acp-errors'
import { turnStopOf } from '../turn-stop'
import { FINISHED_TOOL_STATUSES, appendBlock, cutText, isObject, isString, isTextBlock, parseBlock, parseBlocks, patchedMeta } from './draft'
import type { Draft, Update } from './draft'
import { adoptLocalMessage, findMessage, newMessage } from './messages'
import { mutTerminal } from './tool-calls'

export function ensureCompaction(d: Draft, compactionId: string, status: string): number {
  const i = d.find('compaction', compactionId)
  if (i >= 0) return i
  const entry: CompactionEntry = { kind: 'compaction', id: `compaction:${compactionId}`, compactionId, status, summary: [] }
  return d.push(entry)
}

/** `compaction_update`: upsert; the first notification fixes the position (H18). */
export function applyCompactionUpdate(d: Draft, u: Update): void {
  if (!isString(u.compactionId) || !isString(u.status)) return
  const c = d.mutEntry<CompactionEntry>(ensureCompaction(d, u.compactionId, u.status))
  c.status = u.status
  if (Array.isArray(u.summary)) c.summary = d.own(parseBlocks(u.summary))
  else if (u.summary === null) c.summary = d.own([])
  if (u.error === null) delete c.error
  else if (u.error !== undefined) c.error = u.error
  // Omitted: unchanged; `null`: cleared, in v1 too, like `summary` and `error` (H18, I1).
  if (u._meta !== undefined) {
    const meta = patchedMeta(c._meta, u._meta, true)
    if (meta === undefined) delete c._meta
    else c._meta = meta
  }
}

export function applyCompactionChunk(d: Draft, u: Update): void {
  if (!isString(u.compactionId)) return
  const block = parseBlock(u.content)
  if (!block) return
  const c = d.mutEntry<CompactionEntry>(ensureCompaction(d, u.compactionId, 'in_progress'))
  appendBlock(d, d.mutArray<ContentBlock>(c, 'summary'), block)
}

// ---------------------------------------------------------------------------------------------------------
// Turn state (v2 `state_update`)
// ---------------------------------------------------------------------------------------------------------

export function applyStateUpdate(d: Draft, u: Update): void {
  if (!isString(u.state)) return
  const previous = d.s.turn
  const background = parseBackground(u.background)
  if (u.state === 'idle') {
    const stopReason = isString(u.stopReason) ? u.stopReason : null
    // In the agent's words ("Internal error: " dropped, `data`'s words on the next line, the rest of `data` folded).
    const error = stopReason === 'error' && isObject(u.error) && isString(u.error.message) ? boundedTurnError(turnErrorFrom({ ...u.error, message: u.error.message })) : null
    // Repeated or replayed idle snapshots are idempotent (F9): only a transition into idle completes a turn.
    const completed = previous.state !== 'idle'
    d.s.turn = d.own({
      state: 'idle',
      stopReason,
      error,
      background,
      completedTurns: previous.completedTurns + (completed ? 1 : 0),
      ...(previous.stopRequested ? { stopRequested: true } : {}),
    })
    if (completed) d.s.pendingEcho = null
    if (completed && error && !previous.stopRequested) markTurnError(d, error)
    if (completed) markTurnStop(d)
    return
  }
  const state = u.state === 'running' || u.state === 'requires_action' ? u.state : 'unknown'
  const turn = d.mutTurn()
  turn.state = state
  turn.background = background
  // The agent's own word replaces Bosun's optimistic "running".
  delete turn.unconfirmedFrom
  if (previous.state === 'idle') {
    turn.stopReason = null
    turn.error = null
    delete turn.stopRequested
  }
}

// ---------------------------------------------------------------------------------------------------------
// Bosun's own actions
// ---------------------------------------------------------------------------------------------------------

/**
 * Bosun sent a prompt: the turn shows as running at once. In v2 only the agent's `state_update` is the truth
 * (F7), so the state it last reported is kept aside until it speaks, in case it rejects the prompt.
 */
export function applyTurnStarted(d: Draft): void {
  const previous = d.s.turn
  const turn = d.mutTurn()
  if (d.v2 && previous.state !== 'running' && !previous.unconfirmedFrom) {
    turn.unconfirmedFrom = { state: previous.state, stopReason: previous.stopReason, error: previous.error ?? null }
  }
  turn.state = 'running'
  turn.stopReason = null
  turn.error = null
  delete turn.stopRequested
}

const MAX_ERROR_TEXT = 4096
/** Error codes that say the agent did not take the prompt: sign-in required, parse error, invalid request, no such method, invalid params. */
const REFUSAL_CODES: ReadonlySet<number> = new Set([AUTH_REQUIRED_CODE, -32700, -32600, -32601, -32602])
const clip = (text: string) => cutText(text, MAX_ERROR_TEXT)

/**
 * The agent answered the last local prompt with an error. The message stays in the transcript marked as not
 * sent (the person can edit or resend it). v2: the prompt was not inserted, and a rejection does not end
 * foreground work (F6, F7): the turn goes back to what the agent last reported, unless it has reported since.
 */
export function applyPromptRejected(d: Draft, error: unknown, undelivered = false): void {
  if (!isObject(error) || !isString(error.message)) return
  const notSent: PromptError = { message: clip(error.message) }
  if (typeof error.code === 'number') notSent.code = error.code
  if (isString(error.details) && error.details !== '') notSent.details = clip(error.details)
  if (isString(error.data) && error.data !== '') notSent.data = clip(error.data)
  if (typeof error.signIn === 'boolean') notSent.signIn = error.signIn
  if (undelivered) notSent.undelivered = true
  else if (!d.v2 && (notSent.code === undefined || !REFUSAL_CODES.has(notSent.code))) notSent.mayHaveTaken = true
  const i = lastLocalPrompt(d)
  const entry = i >= 0 ? d.s.entries[i] : undefined
  // v2: a message the agent inserted carries its id; a rejected one never got one. v1 has no insertion: the
  // prompt counts as not sent only when the agent answered nothing else to it (or it never left Bosun).
  const sent = entry?.kind !== 'user_message' || (!undelivered && (d.v2 ? entry.messageId !== undefined : i !== d.s.entries.length - 1))
  if (!sent) d.mutEntry<MessageEntry>(i).notSent = notSent
  d.s.pendingEcho = null
  if (!d.v2) return
  const from = d.s.turn.unconfirmedFrom
  if (!from) return
  const turn = d.mutTurn()
  turn.state = from.state
  turn.stopReason = from.stopReason
  turn.error = from.error ?? null
  delete turn.unconfirmedFrom
}

/**
 * v2: the agent answered the prompt: it inserted it as `messageId` (F6). The local bubble takes that id, so the
 * echo under it lands on it, whether it comes after this answer or came before (then the bubble has the id already).
 */
export function applyPromptInserted(d: Draft, messageId: unknown): void {
  if (!d.v2 || !isString(messageId)) return
  const i = lastLocalPrompt(d)
  if (i < 0) return
  const entry = d.s.entries[i] as MessageEntry
  // Taken already (by the echo), or another message has that id (an echo that came when none was expected).
  if (entry.messageId !== undefined || findMessage(d, 'user_message', messageId) >= 0) return
  adoptLocalMessage(d, entry.id, messageId)
  const echo = d.s.pendingEcho
  if (echo?.entryId === entry.id) d.s.pendingEcho = { ...echo, messageId }
}

export function applyLocalPrompt(d: Draft, content: unknown, messageId: unknown): void {
  if (!Array.isArray(content)) return
  const blocks = parseBlocks(content)
  if (isString(messageId)) {
    const existing = findMessage(d, 'user_message', messageId)
    if (existing >= 0) {
      // The agent's insertion arrived first (v2 F6): that is the message; just mark it as ours.
      d.mutEntry<MessageEntry>(existing).local = true
      return
    }
  }
  const i = newMessage(d, 'user_message', isString(messageId) ? messageId : undefined, blocks)
  const entry = d.mutEntry<MessageEntry>(i)
  entry.local = true
  if (!isString(messageId)) {
    const text = blocks.filter(isTextBlock).map((b) => b.text).join('')
    const others = blocks.filter((b) => !isTextBlock(b)).length
    d.s.pendingEcho = text === '' && others === 0 ? null : { entryId: entry.id, text, blocks: others }
  }
}

export function lastLocalPrompt(d: Draft): number {
  const entries = d.s.entries
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!
    if (entry.kind === 'user_message' && entry.local) return i
  }
  return -1
}

export function applyTurnEnded(d: Draft, stopReason: unknown, error: unknown): void {
  const reason = isString(stopReason) ? stopReason : null
  const err =
    isObject(error) && isString(error.message)
      ? boundedTurnError({
          message: error.message,
          ...(typeof error.code === 'number' ? { code: error.code } : {}),
          ...(isString(error.data) && error.data !== '' ? { data: error.data } : {}),
          // Bosun's own end of the turn (main's action only: an agent's error never reaches here with it).
          ...(error.byBosun === true ? { byBosun: true as const } : {}),
        })
      : null
  d.s.pendingEcho = null
  if (d.v2) {
    // v2: the prompt response only means "inserted"; the turn ends with an idle state_update (F6, F7).
    if (err) {
      d.mutTurn().error = err
      // The agent's idle came first (or Bosun ended the turn for a dead agent): this is how that turn ended.
      if (d.s.turn.state === 'idle' && !d.s.turn.stopRequested) markTurnError(d, err)
    }
    return
  }
  const previous = d.s.turn
  // A prompt the agent refused is shown as not sent, with its error, on the message itself: not twice.
  const last = d.s.entries[d.s.entries.length - 1]
  const shownOnMessage = err !== null && last?.kind === 'user_message' && !!last.notSent
  // An error answering a Stop is told as a stop (the note), not kept as an error.
  if (err && !shownOnMessage && !previous.stopRequested) markTurnError(d, err)
  d.s.turn = d.own({
    state: 'idle',
    stopReason: reason,
    error: shownOnMessage ? null : err,
    background: previous.background,
    completedTurns: previous.completedTurns + (previous.state === 'idle' ? 0 : 1),
    endedAtEntry: d.s.entries.length,
    ...(previous.stopRequested ? { stopRequested: true } : {}),
  })
  if (previous.state !== 'idle') markTurnStop(d)
  if (reason === 'refusal') excludeRefusedTurn(d)
}

/** Whether the turn since the last user message already has one of these marks (a turn is marked once). */
function markedThisTurn(entries: readonly Entry[], kinds: readonly Entry['kind'][]): boolean {
  for (let i = entries.length - 1; i >= 0; i--) {
    const kind = entries[i]!.kind
    if (kinds.includes(kind)) return true
    if (kind === 'user_message') return false
  }
  return false
}

/**
 * Marks the end of a turn that ended with an error, in the transcript, once per turn (v2 tells it twice: in the
 * idle `state_update` and in the prompt's outcome). The turn's own error goes when the next turn starts; this stays.
 */
function markTurnError(d: Draft, error: TurnError): void {
  const entries = d.s.entries
  if (entries.length === 0 || markedThisTurn(entries, ['turn_error'])) return
  const mark: TurnErrorEntry = { kind: 'turn_error', id: `turn-error#${entries.length}`, message: clip(error.message) }
  if (typeof error.code === 'number') mark.code = error.code
  if (isString(error.data) && error.data !== '') mark.data = clip(error.data)
  if (error.byBosun === true) mark.byBosun = true
  d.push(mark)
}

/** A turn's error with its texts cut to what the session keeps. */
function boundedTurnError(error: TurnError): TurnError {
  return { ...error, message: clip(error.message), ...(error.data !== undefined ? { data: clip(error.data) } : {}) }
}

/**
 * Marks the end of a turn that ended early without an error (stopped, refused, at a limit), in the transcript, once
 * per turn. Like the error mark, it stays when the next turn starts; the note under the transcript tells it until then.
 */
function markTurnStop(d: Draft): void {
  const stop = turnStopOf(d.s.turn)
  const entries = d.s.entries
  if (!stop || entries.length === 0 || markedThisTurn(entries, ['turn_stop', 'turn_error'])) return
  const mark: TurnStopEntry = { kind: 'turn_stop', id: `turn-stop#${entries.length}`, reason: stop.reason }
  if (stop.detail) mark.detail = clip(stop.detail)
  if (stop.unasked) mark.unasked = true
  if (stop.unanswered) mark.unanswered = true
  d.push(mark)
}

/**
 * v1 `refusal` (F4): "the user prompt and everything after it won't be in the next prompt context". The prompt and
 * the agent's messages, thoughts and tool calls of that turn are marked, so the transcript shows what the agent
 * will not remember.
 */
function excludeRefusedTurn(d: Draft): void {
  const from = lastLocalPrompt(d)
  if (from < 0) return
  const entries = d.s.entries
  for (let i = from; i < entries.length; i++) {
    const entry = entries[i]!
    if (entry.kind === 'user_message' || entry.kind === 'agent_message' || entry.kind === 'agent_thought') {
      if (!entry.excluded) d.mutEntry<MessageEntry>(i).excluded = true
    } else if (entry.kind === 'tool_call' && !entry.excluded) d.mutEntry<ToolCallEntry>(i).excluded = true
  }
}

/** Optimistically marks the unfinished tool calls of the current turn `cancelled`, locally (F12). */
export function applyCancelRequested(d: Draft): void {
  if (d.s.turn.state !== 'idle' && !d.s.turn.stopRequested) d.mutTurn().stopRequested = true
  const entries = d.s.entries
  // v2 background work goes on after session/cancel (F14): its tool calls are not the turn's.
  const background = new Set<string>()
  for (const item of d.s.turn.background ?? []) {
    if (isObject(item) && item.type === 'tool_call' && isString(item.toolCallId)) background.add(item.toolCallId)
  }
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!
    if (entry.kind === 'user_message' && !entry.excluded) break
    if (entry.kind === 'tool_call' && !FINISHED_TOOL_STATUSES.has(entry.status) && !background.has(entry.toolCallId)) {
      d.mutEntry<ToolCallEntry>(i).status = 'cancelled'
    }
  }
}

/**
 * v2 `background` (F10): omitted, `null` or malformed = not reported (`null`); `[]` = nothing running. Items are
 * objects with a string `type` (`terminal`, `tool_call` or unknown, which still means work is running); an item
 * that is not makes the whole list malformed.
 */
export function parseBackground(value: unknown): unknown[] | null {
  if (!Array.isArray(value)) return null
  for (const item of value) if (!isObject(item) || !isString(item.type)) return null
  return value
}

/** The agent died: its unfinished tool calls (of any turn, background work included) will never finish. */
export function applyAgentGone(d: Draft): void {
  // Nothing of its background work runs any more, and nothing it advertised can be asked of it.
  if (d.s.turn.background !== null) d.mutTurn().background = null
  for (const [terminalId, terminal] of Object.entries(d.s.terminals)) {
    if (terminal.capabilities != null) delete mutTerminal(d, terminalId).capabilities
    // Without an exit status it is neither running nor stopping as far as Bosun can tell.
    if (!terminal.exitStatus && !terminal.agentGone) {
      const t = mutTerminal(d, terminalId)
      t.agentGone = true
      delete t.cancelRequested
      delete t.cancelUnconfirmed
    }
  }
  const entries = d.s.entries
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!
    if (entry.kind === 'tool_call' && !FINISHED_TOOL_STATUSES.has(entry.status)) d.mutEntry<ToolCallEntry>(i).status = 'cancelled'
  }
}
