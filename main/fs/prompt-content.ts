/**
 * A prompt from the renderer made fit for the agent, in main (the renderer is not trusted to gate it):
 * content kinds the agent did not advertise (`promptCapabilities`) are refused with a clear message, never
 * sent; images are checked (type, base64, size); a `file://` link to a text file inside the session's
 * folders becomes an embedded `resource` when the agent takes embedded context, and stays a link otherwise.
 */
import { fileURLToPath, pathToFileURL } from 'node:url'
import { fail, ok, type Result } from '../base/errors'
import type { ContentBlock } from '../../common/session/types'
import { confinePath } from './confine'
import { formatBytes } from '../base/format-bytes'
import { readTextFile } from './text-files'

export interface PromptCapabilities {
  image: boolean
  audio: boolean
  embeddedContext: boolean
}

/** Raw image bytes one prompt block may carry (the composer says so before sending). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024
/** All images of one prompt together. */
const MAX_IMAGES_TOTAL_BYTES = 20 * 1024 * 1024
/**
 * All text blocks of one prompt together (UTF-8): a message longer than the history keeps of one entry is a file's
 * work. The contract lets more through (a block up to 4 million characters) so a person's long paste is told this.
 */
export const MAX_PROMPT_TEXT_BYTES = 1024 * 1024
/** A mentioned file is embedded up to this size; larger ones go as links. */
export const MAX_EMBEDDED_FILE_BYTES = 256 * 1024
/** All embedded text of one prompt together. */
const MAX_EMBEDDED_TOTAL_BYTES = 2 * 1024 * 1024
export const IMAGE_MIME_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp']

export async function preparePrompt(
  blocks: readonly ContentBlock[],
  capabilities: PromptCapabilities,
  roots: readonly string[],
  agentName: string,
): Promise<Result<ContentBlock[]>> {
  const text = checkPromptText(blocks)
  if (!text.ok) return text
  const out: ContentBlock[] = []
  let embedded = 0
  let images = 0
  for (const block of blocks) {
    const b = block as Record<string, unknown>
    switch (b.type) {
      case 'text':
        out.push(block)
        break
      case 'image': {
        if (!capabilities.image) return fail({ kind: 'invalid-argument', message: `${agentName} does not accept images.` })
        const checked = checkImage(b)
        if (!checked.ok) return checked
        images += checked.value
        if (images > MAX_IMAGES_TOTAL_BYTES) return fail({ kind: 'invalid-argument', message: `The images of one message may total ${formatBytes(MAX_IMAGES_TOTAL_BYTES)}.` })
        out.push(block)
        break
      }
      case 'resource_link': {
        const link = await linkOrResource(b, capabilities.embeddedContext, roots, MAX_EMBEDDED_TOTAL_BYTES - embedded)
        if (!link.ok) return link
        if (link.value.type === 'resource') embedded += Buffer.byteLength(String((link.value.resource as { text?: string }).text ?? ''))
        out.push(link.value as ContentBlock)
        break
      }
      case 'resource':
        if (!capabilities.embeddedContext) return fail({ kind: 'invalid-argument', message: `${agentName} does not accept embedded files.` })
        out.push(block)
        break
      case 'audio':
        if (!capabilities.audio) return fail({ kind: 'invalid-argument', message: `${agentName} does not accept audio.` })
        out.push(block)
        break
      default:
        return fail({ kind: 'invalid-argument', message: `Bosun does not send ${String(b.type)} content.` })
    }
  }
  return ok(out)
}

/** Whether the prompt's text blocks together (UTF-8) stay within {@link MAX_PROMPT_TEXT_BYTES}, or why not. */
export function checkPromptText(blocks: readonly ContentBlock[]): Result<undefined> {
  let total = 0
  for (const block of blocks) {
    const text = (block as { type?: unknown; text?: unknown }).type === 'text' ? (block as { text?: unknown }).text : undefined
    if (typeof text === 'string') total += Buffer.byteLength(text)
  }
  if (total <= MAX_PROMPT_TEXT_BYTES) return ok(undefined)
  return fail({
    kind: 'invalid-argument',
    message: `This message has ${formatBytes(total)} of text; one message may have up to ${formatBytes(MAX_PROMPT_TEXT_BYTES)}. Put a long text in a file in the session's folder and mention it with @.`,
  })
}

/** The image's size in bytes, or why it cannot be sent. */
function checkImage(b: Record<string, unknown>): Result<number> {
  if (typeof b.mimeType !== 'string' || !IMAGE_MIME_TYPES.includes(b.mimeType)) {
    return fail({ kind: 'invalid-argument', message: `Images must be PNG, JPEG, GIF or WebP (got ${String(b.mimeType)}).` })
  }
  if (typeof b.data !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(b.data) || b.data.length % 4 !== 0) {
    return fail({ kind: 'invalid-argument', message: 'The image data is not valid base64.' })
  }
  const bytes = (b.data.length / 4) * 3 - (b.data.endsWith('==') ? 2 : b.data.endsWith('=') ? 1 : 0)
  if (bytes > MAX_IMAGE_BYTES) {
    return fail({ kind: 'invalid-argument', message: `The image is ${formatBytes(bytes)}; images up to ${formatBytes(MAX_IMAGE_BYTES)} can be sent.` })
  }
  return ok(bytes)
}

async function linkOrResource(b: Record<string, unknown>, embed: boolean, roots: readonly string[], budget: number): Promise<Result<Record<string, unknown>>> {
  if (typeof b.uri !== 'string' || typeof b.name !== 'string') return fail({ kind: 'invalid-argument', message: 'A link needs a uri and a name.' })
  if (!b.uri.startsWith('file:')) return ok({ type: 'resource_link', uri: b.uri, name: b.name, ...(typeof b.mimeType === 'string' ? { mimeType: b.mimeType } : {}) })
  let path: string
  try {
    path = fileURLToPath(b.uri)
  } catch {
    return fail({ kind: 'invalid-argument', message: `Not a file address: ${b.uri}` })
  }
  // The renderer picks from the session's folders; main checks it (a mention cannot reach outside them).
  const confined = await confinePath(path, roots)
  if (!confined.ok) return fail({ kind: 'invalid-argument', message: confined.message })
  const uri = pathToFileURL(path).href
  const link = { type: 'resource_link', uri, name: b.name, ...(typeof b.mimeType === 'string' ? { mimeType: b.mimeType } : {}) }
  if (!embed) return ok(link)
  const file = await readTextFile(confined.realPath, Math.min(MAX_EMBEDDED_FILE_BYTES, budget), confined.root)
  // Folders, binary and large files stay links: the agent can read them itself.
  if (!file.ok) return ok(link)
  return ok({ type: 'resource', resource: { uri, text: file.value.text, mimeType: typeof b.mimeType === 'string' ? b.mimeType : 'text/plain' } })
}
