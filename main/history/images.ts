/**
 * The images of a session's transcript, found by the SHA-256 of their base64 data: how the page names an image it
 * asks main to save, so that main writes only bytes it holds for that session, never bytes the page hands it.
 */
import { createHash } from 'node:crypto'
import { imageFileName, imageSizeOfBase64, inlineImageData } from '../../common/image-size'
import type { SessionState } from '../../common/session/types'

export interface SessionImage {
  mimeType: string
  /** The base64 data without whitespace (what the page hashed). */
  base64: string
  /** A name to suggest: `image-<width>x<height>.<ext>`, or `image.<ext>` when its size cannot be read. */
  fileName: string
}

/** The inline image blocks of the transcript: messages' (the person's and the agent's) and tool calls' content. */
function* imageBlocks(state: SessionState): Generator<Record<string, unknown>> {
  for (const entry of state.entries) {
    if (entry.kind === 'user_message' || entry.kind === 'agent_message' || entry.kind === 'agent_thought') {
      for (const block of entry.content) if (block.type === 'image') yield block as unknown as Record<string, unknown>
    } else if (entry.kind === 'tool_call') {
      for (const content of entry.content) {
        const inner = (content as { type?: unknown; content?: { type?: unknown } }).content
        if (content.type === 'content' && inner?.type === 'image') yield inner as Record<string, unknown>
      }
    }
  }
}

/**
 * Each image block's SHA-256 (or null: not an image the transcript draws), kept while the block is: a session holds
 * hundreds of MB of images at most, and hashing them all again for each call (a page asking for hashes it does not
 * have, again and again) held main for seconds a call. A block that changes is a new object, hashed anew.
 */
const hashes = new WeakMap<object, string | null>()

function hashOf(block: Record<string, unknown>): string | null {
  let hash = hashes.get(block)
  if (hash === undefined) {
    // Only an image of a type the transcript draws: anything else is not an image Bosun keeps to save.
    const image = inlineImageData(block.data, block.mimeType)
    hash = image ? createHash('sha256').update(image.base64).digest('hex') : null
    hashes.set(block, hash)
  }
  return hash
}

/** The session's image whose base64 data (whitespace removed) has SHA-256 `sha256`; undefined when it holds none. */
export function findSessionImage(state: SessionState, sha256: string): SessionImage | undefined {
  for (const block of imageBlocks(state)) {
    if (hashOf(block) !== sha256) continue
    const image = inlineImageData(block.data, block.mimeType)!
    return { ...image, fileName: imageFileName(image.mimeType, imageSizeOfBase64(image.base64)) }
  }
  return undefined
}
