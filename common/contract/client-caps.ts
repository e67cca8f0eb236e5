import { z } from 'zod'
import { call, id } from './define'

/**
 * What a person can give an agent (issue 14): the agent's prompt capabilities for the composer, and the
 * session folder's files for the `@` picker. Main enforces the capabilities again when the prompt is sent.
 */
export const clientCapsCalls = {
  /** The session's agent's `promptCapabilities` (starts the agent if needed; `known: false` when it cannot). */
  promptCapabilities: call(
    z.object({ sessionId: id }),
    z.object({ image: z.boolean(), audio: z.boolean(), embeddedContext: z.boolean(), known: z.boolean() }),
  ),
  /** Files and folders (ending in `/`) under the session's folder, relative and `/`-separated, bounded. */
  listSessionFiles: call(
    z.object({ sessionId: id }),
    z.object({ root: z.string(), entries: z.array(z.string().max(4096)).max(50_000), truncated: z.boolean() }),
  ),
} as const

export const clientCapsEvents = {} as const
