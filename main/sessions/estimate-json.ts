/** The estimated size of what sessions take from their agents: what batches are bounded by and sessions counted in. */
import { ownKeyCount } from '../../common/own-keys'

/** Estimated JSON size of a text chunk besides its text (its kind, message id and block). */
export const TEXT_CHUNK_BYTES = 96

/**
 * About how many bytes `value` takes as JSON: string lengths plus a few bytes per key and value. Cheap
 * (no serialization); exact enough to bound batches. Depth-limited like everything that walks agent input.
 */
export function estimateJsonBytes(value: unknown, depth = 0): number {
  // The flood's common case, a text chunk: its text is nearly all of it.
  if (depth === 0 && typeof value === 'object' && value !== null) {
    const content = (value as { content?: { text?: unknown } }).content
    if (typeof content === 'object' && content !== null && typeof content.text === 'string' && ownKeyCount(value, 3) <= 3) return TEXT_CHUNK_BYTES + content.text.length
  }
  if (typeof value === 'string') return value.length + 2
  if (value === null || typeof value !== 'object') return 8
  if (depth > 32) return 8
  let bytes = 2
  if (Array.isArray(value)) {
    for (const item of value) bytes += estimateJsonBytes(item, depth + 1) + 1
    return bytes
  }
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue
    bytes += key.length + 4 + estimateJsonBytes((value as Record<string, unknown>)[key], depth + 1)
  }
  return bytes
}
