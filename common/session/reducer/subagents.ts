/**
 * v2 subagents (`subagent_update`, and the `session_message`s between a session and a subagent it announced). Each
 * subagent is one card in its parent's transcript, drawn as a tool card: its title (else its description) for a
 * title, the state the parent mirrors for it as the card's status, and the messages between the two (the brief the
 * subagent was given, the report it sent back) as the card's text. The subagent's own tool calls follow the card
 * (main routes them to the parent). A message that names no announced subagent is kept and shown generically.
 */
import type { ToolCallEntry, UnknownEntry } from '../types'
import { isObject, isString, parseToolContent } from './draft'
import type { Draft, Json, Update } from './draft'
import { ensureToolCall, findToolCall, patchToolCall, subagentCardId } from './tool-calls'

export { FROM_SUBAGENT, subagentCardId } from './tool-calls'

/** Text blocks one subagent card keeps (each message adds its blocks): the card cannot grow without end. */
export const MAX_SUBAGENT_BLOCKS = 64

export function applySubagentUpdate(d: Draft, u: Update): void {
  if (!isString(u.sessionId) || u.sessionId.length === 0) return
  const fresh = findToolCall(d, subagentCardId(u.sessionId)) < 0
  const i = ensureToolCall(d, subagentCardId(u.sessionId))
  const patch: Json = {}
  if (fresh) patch.kind = 'other'
  const title = isString(u.title) && u.title.trim() ? u.title : isString(u.description) && u.description.trim() ? u.description : undefined
  if (title !== undefined) patch.title = `Subagent: ${title}`
  else if (fresh || u.title === null) patch.title = 'Subagent'
  const status = subagentStatus(u.state)
  if (status) patch.status = status
  patchToolCall(d, i, patch)
}

/** The card's status for the child's mirrored `StateUpdate` (undefined: unchanged). */
function subagentStatus(state: unknown): string | undefined {
  if (!isObject(state) || !isString(state.state)) return undefined
  if (state.state === 'idle') return state.stopReason === 'cancelled' ? 'cancelled' : 'completed'
  return 'in_progress'
}

export function applySessionMessage(d: Draft, u: Update): void {
  const own = d.s.acpSessionId
  const other = u.senderSessionId === own ? u.recipientSessionId : u.senderSessionId
  const i = isString(other) ? findToolCall(d, subagentCardId(other)) : -1
  if (i < 0) {
    // Not about an announced subagent: kept whole, shown generically.
    const entry: UnknownEntry = { kind: 'unknown', id: `unknown#${d.s.entries.length}`, sessionUpdate: u.sessionUpdate, raw: u }
    d.push(entry)
    return
  }
  if (!Array.isArray(u.content)) return
  const label = u.senderSessionId === own ? 'Asked of the subagent:' : 'The subagent answered:'
  const blocks = [label, ...u.content.filter(isObject).map((block) => (isString(block.text) ? block.text : null))].filter(isString)
  const card = d.s.entries[i] as ToolCallEntry
  const room = MAX_SUBAGENT_BLOCKS - card.content.length
  if (room <= 0 || blocks.length === 1) return
  const added = blocks.slice(0, room).map((text) => parseToolContent({ type: 'content', content: { type: 'text', text } }))
  const t = d.mutEntry<ToolCallEntry>(i)
  t.content = d.own([...card.content, ...added])
}
