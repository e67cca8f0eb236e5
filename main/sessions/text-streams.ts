/** Text chunks on their way through the secret window and the bounds (see `SessionsService.streamUpdate`). */
import type { SessionUpdateNotification } from '../acp/types'
import { DEFAULT_JSON_BOUNDS } from '../../common/bounded'
import type { TextChunk } from '../../common/session/coalesce'

/**
 * Whether `boundJson` leaves this plain text chunk as it is: its two strings within the longest string kept (then
 * together, with its few short keys, far within the total), its depth and field count fixed far below the bounds.
 */
export function plainChunkWithinBounds(chunk: TextChunk): boolean {
  return chunk.content.text.length <= DEFAULT_JSON_BOUNDS.maxStringChars && (chunk.messageId === undefined || chunk.messageId.length <= DEFAULT_JSON_BOUNDS.maxStringChars)
}

/**
 * Whether `update` passes the secret window as it came: it is no text chunk (see {@link textStreamKey}), or one whose
 * text is not empty and whose end could begin no secret.
 */
export function holdsNothing(update: SessionUpdateNotification['update'], streamHold: (text: string) => number): boolean {
  const kind = update.sessionUpdate
  if (kind !== 'agent_message_chunk' && kind !== 'agent_thought_chunk' && kind !== 'user_message_chunk') return true
  const content = update.content as { type?: unknown; text?: unknown } | null | undefined
  if (typeof content !== 'object' || content === null || content.type !== 'text' || typeof content.text !== 'string') return true
  return content.text !== '' && streamHold(content.text) === 0
}

/** The stream a text chunk belongs to (kind and message id), or undefined for anything else. */
export function textStreamKey(update: SessionUpdateNotification['update']): string | undefined {
  const kind = update.sessionUpdate
  if (kind !== 'agent_message_chunk' && kind !== 'agent_thought_chunk' && kind !== 'user_message_chunk') return undefined
  const content = update.content as { type?: unknown; text?: unknown } | null | undefined
  if (typeof content !== 'object' || content === null || content.type !== 'text' || typeof content.text !== 'string') return undefined
  return `${kind}:${typeof update.messageId === 'string' ? update.messageId : ''}`
}
