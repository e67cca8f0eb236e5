/**
 * Messages: user, agent and thought chunks (v1 and v2) and v2 whole-message upserts, merged into entries.
 */
import type { ContentBlock, MessageEntry, SessionState } from '../types'
import { appendBlock, isObject, isString, isTextBlock, keptMetaJson, parseBlock, parseBlocks, patchMeta, plainText, setIndexed } from './draft'
import type { Draft, MessageKind, Update } from './draft'

// ---------------------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------------------

export const MESSAGE_PREFIX: Record<MessageKind, string> = { user_message: 'user', agent_message: 'agent', agent_thought: 'thought' }

export function newMessage(d: Draft, kind: MessageKind, messageId: string | undefined, content: ContentBlock[]): number {
  const position = d.s.entries.length
  const id = messageId !== undefined ? `${MESSAGE_PREFIX[kind]}:${messageId}` : `${MESSAGE_PREFIX[kind]}#${position}`
  // Made whole at once: a `messageId` added afterwards went to a property store of its own (20 bytes a message).
  const entry: MessageEntry = messageId !== undefined ? { kind, id, content: d.own(content), messageId } : { kind, id, content: d.own(content) }
  return d.push(entry)
}

export function findMessage(d: Draft, kind: MessageKind, messageId: string): number {
  // Streams hit the same message thousands of times in a row: skip building the key and hashing it.
  const last = d.index.lastMessage
  if (last !== null && last.kind === kind && last.messageId === messageId) {
    const entry = d.s.entries[last.at]
    if (entry !== undefined && entry.kind === kind && entry.messageId === messageId) return last.at
  }
  const at = d.find(kind, messageId)
  if (at >= 0) d.index.lastMessage = { kind, messageId, at }
  return at
}

type PendingEcho = NonNullable<SessionState['pendingEcho']>

/**
 * What is still expected of the prompt's echo once the agent echoed `block` (`done`: all of it), or `null` when the
 * block is not its next piece: text must continue the prompt's text; a non-text block counts against its non-text blocks.
 */
function echoAfter(echo: PendingEcho, block: ContentBlock): PendingEcho | 'done' | null {
  let next: PendingEcho
  if (isTextBlock(block)) {
    if (!echo.text.startsWith(block.text)) return null
    next = { ...echo, text: echo.text.slice(block.text.length) }
  } else {
    if (echo.blocks <= 0) return null
    next = { ...echo, blocks: echo.blocks - 1 }
  }
  return next.text === '' && next.blocks === 0 ? 'done' : next
}

/**
 * Whether a user chunk repeats the local prompt we sent (and consumes it from `pendingEcho`). Text must be the
 * next piece of the prompt's text; a non-text block counts against the prompt's non-text blocks.
 */
function consumeEcho(d: Draft, block: ContentBlock): boolean {
  const echo = d.s.pendingEcho
  if (!echo) return false
  const next = echoAfter(echo, block)
  d.s.pendingEcho = next === null || next === 'done' ? null : next
  return next !== null
}

/**
 * v2: a user chunk while the prompt's echo is expected (F6). The prompt's insertion is the message its answer
 * named or, before that answer, the first new user message the agent sends: whatever its text, it lands on the
 * local bubble instead of making a second one. Chunks that repeat the prompt change nothing on screen; once the
 * echo is complete, or differs from what was sent, the agent's version is the message.
 */
function echoChunkV2(d: Draft, echo: PendingEcho, messageId: string, block: ContentBlock): number {
  let i: number
  if (echo.messageId === undefined) {
    // A message the session already has is not the insertion of this prompt.
    if (findMessage(d, 'user_message', messageId) >= 0) return -1
    i = adoptLocalMessage(d, echo.entryId, messageId)
  } else {
    if (echo.messageId !== messageId) return -1
    i = findMessage(d, 'user_message', messageId)
  }
  if (i < 0) {
    d.s.pendingEcho = null
    return -1
  }
  const echoed = [...(echo.echoed ?? [])]
  const last = echoed[echoed.length - 1]
  if (last !== undefined && plainText(last) && plainText(block)) echoed[echoed.length - 1] = { ...last, text: (last as { text: string }).text + (block as { text: string }).text } as ContentBlock
  else echoed.push(block)
  const next = echoAfter(echo, block)
  if (next !== null && next !== 'done') {
    d.s.pendingEcho = { ...next, messageId, echoed }
    return i
  }
  d.mutEntry<MessageEntry>(i).content = d.own(echoed)
  d.s.pendingEcho = null
  return i
}

/** Gives the local echo entry the agent's `messageId`, so later upserts for that id land on it. */
export function adoptLocalMessage(d: Draft, entryId: string, messageId: string): number {
  const entries = d.s.entries
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!
    if (entry.id !== entryId) continue
    if (entry.kind !== 'user_message' || entry.messageId !== undefined) return -1
    const copy = d.mutEntry<MessageEntry>(i)
    copy.messageId = messageId
    setIndexed(d.index, 'user_message', messageId, i)
    return i
  }
  return -1
}

export function applyChunk(d: Draft, kind: MessageKind, u: Update): void {
  const block = parseBlock(u.content)
  if (!block) return
  const messageId = isString(u.messageId) ? u.messageId : undefined
  if (d.v2 && messageId === undefined) return // v2 requires messageId
  const i = chunkInto(d, kind, messageId, block)
  if (u._meta != null && i >= 0) keepChunkMeta(d, i, u._meta)
}

/** Applies a chunk's block; the position of the message it went to (the local prompt for its echo), or -1. */
function chunkInto(d: Draft, kind: MessageKind, messageId: string | undefined, block: ContentBlock): number {
  const echo = kind === 'user_message' ? d.s.pendingEcho : null
  if (echo && d.v2) {
    const at = messageId !== undefined ? echoChunkV2(d, echo, messageId, block) : -1
    if (at >= 0) return at
  } else if (echo) {
    // A known id that is not our echo's is a different message; our echo's id (adopted earlier) still echoes.
    const at = messageId !== undefined ? findMessage(d, kind, messageId) : -1
    const other = at >= 0 && d.s.entries[at]!.id !== echo.entryId
    if (!other && consumeEcho(d, block)) {
      return messageId !== undefined ? adoptLocalMessage(d, echo.entryId, messageId) : positionOf(d, echo.entryId)
    }
  }

  let i = -1
  if (messageId !== undefined) {
    i = findMessage(d, kind, messageId)
  } else {
    // v1 without ids: continue the last entry when it is a message of the same role (never our local echo), of
    // this turn (a chunk after a turn ended starts a message of its own), with no work reported since (a plan, a tool
    // call's news: the model's next step), that has no id either: a chunk without one after a message with one is
    // another message (codex-acp's error after a cut-off answer, its notices).
    const last = d.s.entries.length - 1
    const entry = d.s.entries[last]
    const ended = d.s.turn.endedAtEntry
    const worked = d.s.workAtEntry
    if (entry !== undefined && entry.kind === kind && !entry.local && entry.messageId === undefined && !(ended !== undefined && last < ended) && !(worked !== undefined && last < worked)) i = last
  }
  if (i < 0) {
    i = newMessage(d, kind, messageId, [block])
    d.streamedInto(i, 0)
    return i
  }
  const entry = d.mutEntry<MessageEntry>(i)
  const content = d.mutArray<ContentBlock>(entry, 'content')
  appendBlock(d, content, block)
  d.streamedInto(i, content.length - 1)
  return i
}

/** The position of the entry with this id, from the end (the local prompt is near it), or -1. */
function positionOf(d: Draft, entryId: string): number {
  const entries = d.s.entries
  for (let i = entries.length - 1; i >= 0; i--) if (entries[i]!.id === entryId) return i
  return -1
}

/** Most chunk `_meta`s one message keeps (see `MessageEntry.chunkMeta`). */
export const MAX_CHUNK_METAS = 16

/**
 * Keeps a chunk's `_meta` on the message it went to (I1). It is scoped to the chunk ("does not patch stored
 * metadata", v2), so it goes beside the message's own `_meta`: one per run of chunks with the same one (a stream
 * that sends it on every chunk keeps one, and the entry stays as it was), bounded in size and count.
 */
function keepChunkMeta(d: Draft, i: number, meta: unknown): void {
  const json = keptMetaJson(meta)
  if (json === undefined) return
  const kept = (d.s.entries[i] as MessageEntry).chunkMeta
  if (kept !== undefined && (kept.length >= MAX_CHUNK_METAS || keptMetaJson(kept[kept.length - 1]) === json)) return
  d.mutEntry<MessageEntry>(i).chunkMeta = [...(kept ?? []), meta as Record<string, unknown>]
}

/** v2 `user_message` / `agent_message` / `agent_thought`: upsert by messageId (H20). */
export function applyWholeMessage(d: Draft, kind: MessageKind, u: Update): void {
  if (!isString(u.messageId)) return
  const messageId = u.messageId
  const hasContent = 'content' in u && u.content !== undefined
  if (hasContent && u.content !== null && !Array.isArray(u.content)) return
  const content = Array.isArray(u.content) ? parseBlocks(u.content) : []

  let i = findMessage(d, kind, messageId)
  const echo = kind === 'user_message' ? d.s.pendingEcho : null
  if (i < 0 && echo && echo.messageId === undefined) {
    // The first new user_message after we sent a prompt (before its answer named another) is its insertion (F6):
    // it becomes our local bubble (its content, if any, is the agent's authoritative version), not a second one.
    i = adoptLocalMessage(d, echo.entryId, messageId)
    d.s.pendingEcho = null
  } else if (i >= 0 && echo && hasContent && d.s.entries[i]!.id === echo.entryId) {
    // The insertion the prompt's answer named: its content is the echo.
    d.s.pendingEcho = null
  }
  if (i < 0) {
    i = newMessage(d, kind, messageId, content)
  } else if (hasContent) {
    const entry = d.mutEntry<MessageEntry>(i)
    entry.content = d.own(content)
  }
  if ('_meta' in u && u._meta !== undefined) {
    const entry = d.mutEntry<MessageEntry>(i)
    if (u._meta === null) delete entry._meta
    else if (isObject(u._meta)) entry._meta = patchMeta(entry._meta, u._meta)
  }
}
