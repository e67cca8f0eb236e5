/**
 * Turn state: v2 `state_update`, compaction, and Bosun's own turn actions (local prompt, turn end, cancel, agent gone).
 */
import type { CompactionEntry, ContentBlock, MessageEntry, ToolCallEntry } from '../types'
import { FINISHED_TOOL_STATUSES, appendBlock, isObject, isString, isTextBlock, parseBlock, parseBlocks } from './draft'
import type { Draft, Update } from './draft'
import { findMessage, newMessage } from './messages'

export function ensureCompaction(d: Draft, compactionId: string, status: string): number {
  const i = d.find(`c:${compactionId}`, (e) => e.kind === 'compaction' && e.compactionId === compactionId)
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
  const background = Array.isArray(u.background) ? (u.background as unknown[]) : null
  if (u.state === 'idle') {
    const stopReason = isString(u.stopReason) ? u.stopReason : null
    const error =
      stopReason === 'error' && isObject(u.error) && isString(u.error.message)
        ? { message: u.error.message, ...(typeof u.error.code === 'number' ? { code: u.error.code } : {}) }
        : null
    // Repeated or replayed idle snapshots are idempotent (F9): only a transition into idle completes a turn.
    const completed = previous.state !== 'idle'
    d.s.turn = d.own({
      state: 'idle',
      stopReason,
      error,
      background,
      completedTurns: previous.completedTurns + (completed ? 1 : 0),
    })
    if (completed) d.s.pendingEcho = null
    return
  }
  const state = u.state === 'running' || u.state === 'requires_action' ? u.state : 'unknown'
  const turn = d.mutTurn()
  turn.state = state
  turn.background = background
  if (previous.state === 'idle') {
    turn.stopReason = null
    turn.error = null
  }
}

// ---------------------------------------------------------------------------------------------------------
// Bosun's own actions
// ---------------------------------------------------------------------------------------------------------

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
  const err = isObject(error) && isString(error.message) ? (error as { message: string; code?: number }) : null
  d.s.pendingEcho = null
  if (d.v2) {
    // v2: the prompt response only means "inserted"; the turn ends with an idle state_update (F6, F7).
    if (err) d.mutTurn().error = err
    return
  }
  const previous = d.s.turn
  d.s.turn = d.own({
    state: 'idle',
    stopReason: reason,
    error: err,
    background: previous.background,
    completedTurns: previous.completedTurns + (previous.state === 'idle' ? 0 : 1),
  })
  if (reason === 'refusal') {
    const i = lastLocalPrompt(d)
    if (i >= 0) d.mutEntry<MessageEntry>(i).excluded = true
  }
}

/** Optimistically marks the unfinished tool calls of the current turn `cancelled`, locally (F12). */
export function applyCancelRequested(d: Draft): void {
  const entries = d.s.entries
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!
    if (entry.kind === 'user_message' && !entry.excluded) break
    if (entry.kind === 'tool_call' && !FINISHED_TOOL_STATUSES.has(entry.status)) d.mutEntry<ToolCallEntry>(i).status = 'cancelled'
  }
}

/** The agent died: its unfinished tool calls (of any turn, background work included) will never finish. */
export function applyAgentGone(d: Draft): void {
  const entries = d.s.entries
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!
    if (entry.kind === 'tool_call' && !FINISHED_TOOL_STATUSES.has(entry.status)) d.mutEntry<ToolCallEntry>(i).status = 'cancelled'
  }
}
