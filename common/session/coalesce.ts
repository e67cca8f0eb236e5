/**
 * Joins runs of streamed text before a batch is applied and sent: consecutive `agent_message_chunk` (or
 * `agent_thought_chunk`) updates of one message, each a plain text block, become one chunk with their texts
 * joined. The reducer appends consecutive plain text blocks of a message into one block anyway
 * (`appendBlock`), so the session it builds is the same, while main's reducer, the socket or IPC, and the
 * page's parser and reducer handle one update per run instead of one per token.
 *
 * Only updates that carry nothing else are joined: the kind, `messageId` (the same, or absent on both), and a
 * content block with exactly `type: "text"` and `text`. Anything more (`_meta`, annotations, another block
 * type, a field Bosun does not know) keeps the update as it came. The person's own chunks are never joined
 * (the echo of a prompt is matched chunk by chunk). Inputs are not mutated.
 */

const JOINED_KINDS = new Set(['agent_message_chunk', 'agent_thought_chunk'])

interface TextChunk {
  sessionUpdate: string
  messageId?: string
  content: { type: 'text'; text: string }
}

/** Whether `value` is a text chunk of a joined kind with no other field (own keys counted, no array made). */
function isPlainTextChunk(value: unknown): value is TextChunk {
  if (typeof value !== 'object' || value === null) return false
  const update = value as Record<string, unknown>
  if (typeof update.sessionUpdate !== 'string' || !JOINED_KINDS.has(update.sessionUpdate)) return false
  const content = update.content
  if (typeof content !== 'object' || content === null) return false
  const block = content as Record<string, unknown>
  if (block.type !== 'text' || typeof block.text !== 'string') return false
  let keys = 0
  for (const key in update) {
    if (!Object.prototype.hasOwnProperty.call(update, key)) continue
    if (key !== 'sessionUpdate' && key !== 'content' && key !== 'messageId') return false
    keys++
  }
  if (keys === 3 && typeof update.messageId !== 'string') return false
  let blockKeys = 0
  for (const key in block) if (Object.prototype.hasOwnProperty.call(block, key)) blockKeys++
  return blockKeys === 2 && Object.getPrototypeOf(update) === Object.prototype
}

const sameStream = (a: TextChunk, b: TextChunk) => a.sessionUpdate === b.sessionUpdate && a.messageId === b.messageId

/**
 * `updates` with each run of plain text chunks of one stream joined into one chunk. Returns `updates` itself
 * when nothing was joined.
 */
export function coalesceTextChunks<T>(updates: readonly T[]): T[] {
  let out: T[] | undefined
  /** The chunk this call made for the current run (its text may grow in place). */
  let made: TextChunk | undefined
  for (let i = 0; i < updates.length; i++) {
    const update = updates[i]!
    const previous = out !== undefined ? out[out.length - 1] : i > 0 ? updates[i - 1] : undefined
    if (previous !== undefined && isPlainTextChunk(update) && (previous === made || isPlainTextChunk(previous)) && sameStream(previous as TextChunk, update)) {
      out ??= updates.slice(0, i)
      if (previous === made) made.content.text += update.content.text
      else {
        made = { sessionUpdate: update.sessionUpdate, ...(update.messageId !== undefined ? { messageId: update.messageId } : {}), content: { type: 'text', text: (previous as TextChunk).content.text + update.content.text } }
        out[out.length - 1] = made as T
      }
      continue
    }
    out?.push(update)
  }
  return out ?? (updates as T[])
}
