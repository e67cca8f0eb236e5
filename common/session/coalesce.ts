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

import { ownKeyCount } from '../own-keys'

export interface TextChunk {
  sessionUpdate: string
  messageId?: string
  content: { type: 'text'; text: string }
}

const hasOwn = Object.prototype.hasOwnProperty

/** Whether `value` is an agent message or thought chunk of one plain text block and no other field. */
export function isPlainTextChunk(value: unknown): value is TextChunk {
  if (typeof value !== 'object' || value === null) return false
  const update = value as Record<string, unknown>
  const kind = update.sessionUpdate
  if (kind !== 'agent_message_chunk' && kind !== 'agent_thought_chunk') return false
  const block = update.content as Record<string, unknown> | null | undefined
  if (typeof block !== 'object' || block === null || block.type !== 'text' || typeof block.text !== 'string') return false
  const messageId = update.messageId
  if (messageId !== undefined && typeof messageId !== 'string') return false
  // Exactly these fields, own, on plain objects: anything more (`_meta`, annotations, a future field) is kept whole.
  return (
    ownKeyCount(update, 3) === (messageId === undefined ? 2 : 3) &&
    hasOwn.call(update, 'sessionUpdate') &&
    hasOwn.call(update, 'content') &&
    ownKeyCount(block, 2) === 2 &&
    hasOwn.call(block, 'type') &&
    hasOwn.call(block, 'text') &&
    Object.getPrototypeOf(update) === Object.prototype
  )
}

/**
 * `updates` with each run of plain text chunks of one stream joined into one chunk. Returns `updates` itself
 * when nothing was joined.
 */
export function coalesceTextChunks<T>(updates: readonly T[]): T[] {
  let out: T[] | undefined
  /** The chunk this call made for the current run, and the texts it joins (set on it when the run ends). */
  let made: TextChunk | undefined
  let texts: string[] = []
  /** Whether the update before this one (or the run it ended) is a plain text chunk. */
  let previousPlain = false
  // One flat string per run (`join`), not a chain of `+` that keeps every token as a string of its own.
  const endRun = () => {
    if (made) made.content.text = texts.join('')
    made = undefined
  }
  for (let i = 0; i < updates.length; i++) {
    const update = updates[i]!
    const plain = isPlainTextChunk(update)
    if (plain && previousPlain) {
      const previous = (out !== undefined ? out[out.length - 1] : updates[i - 1]) as TextChunk
      if (previous.sessionUpdate === update.sessionUpdate && previous.messageId === update.messageId) {
        out ??= updates.slice(0, i)
        if (previous === made) texts.push(update.content.text)
        else {
          endRun()
          made = { sessionUpdate: update.sessionUpdate, ...(update.messageId !== undefined ? { messageId: update.messageId } : {}), content: { type: 'text', text: '' } }
          texts = [previous.content.text, update.content.text]
          out[out.length - 1] = made as T
        }
        continue
      }
    }
    previousPlain = plain
    out?.push(update)
  }
  endRun()
  return out ?? (updates as T[])
}
