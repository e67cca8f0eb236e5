import { z } from 'zod'
import { absolutePath, call, event, id } from './define'
import { agentRuntimeViewShape, sessionActionsShape, sessionStateShape } from './shapes'

/**
 * A prompt content block as the renderer may send it: text, resource links (main embeds mentioned files for
 * agents with embedded context) and images (≤ 5 MiB; main checks them against the agent's capabilities).
 * The text's hard bound is wider than what main sends (1 MiB for all text blocks together, main/fs/prompt-content.ts),
 * so a person's long paste gets main's reason rather than this schema's.
 */
const MAX_PROMPT_BLOCK_CHARS = 4_000_000
/** 20 MiB of images in base64 (main/fs/prompt-content.ts refuses more with its reason). */
const MAX_PROMPT_IMAGE_CHARS = 28_000_000
const promptBlock = z.union([
  z.object({ type: z.literal('image'), mimeType: z.string().max(64), data: z.string().max(7_000_000) }),
  z.object({ type: z.literal('text'), text: z.string().max(MAX_PROMPT_BLOCK_CHARS) }),
  z.object({
    type: z.literal('resource_link'),
    uri: z.string().max(8192),
    name: z.string().max(1024),
    mimeType: z.string().max(256).optional(),
  }),
])

/** The characters of one kind's text (a text's, an image's data) over the prompt's blocks. */
function sumOf(blocks: readonly z.infer<typeof promptBlock>[], type: 'text' | 'image'): number {
  let total = 0
  for (const b of blocks) if (b.type === type) total += b.type === 'text' ? b.text.length : b.type === 'image' ? b.data.length : 0
  return total
}

export const sessionCalls = {
  /** Everything the renderer needs to (re)build its state: agents and sessions with their `seq`. */
  getSnapshot: call(z.undefined(), z.object({ agents: z.array(agentRuntimeViewShape), sessions: z.array(sessionStateShape) })),
  /** `additionalDirectories`: folders beyond `cwd` the session may use (main checks each is a folder; a failure names it in `data.folder`). */
  newSession: call(
    z.object({ agentId: id, cwd: absolutePath, additionalDirectories: z.array(absolutePath).max(32).optional() }),
    z.object({ sessionId: z.string() }),
  ),
  prompt: call(
    z.object({
      sessionId: id,
      // The text of all blocks together stays within one block's bound (100 blocks of 4 million characters would not),
      // and the images' data within what main sends of them (20 MiB, in base64).
      prompt: z
        .array(promptBlock)
        .min(1)
        .max(100)
        .refine((blocks) => sumOf(blocks, 'text') <= MAX_PROMPT_BLOCK_CHARS, { message: `At most ${MAX_PROMPT_BLOCK_CHARS} characters of text in all` })
        .refine((blocks) => sumOf(blocks, 'image') <= MAX_PROMPT_IMAGE_CHARS, { message: `At most ${MAX_PROMPT_IMAGE_CHARS} characters of image data in all` }),
    }),
    z.object({ stopReason: z.string().nullable() }),
  ),
  cancel: call(z.object({ sessionId: id }), z.undefined()),
  setMode: call(z.object({ sessionId: id, modeId: z.string().min(1).max(512) }), z.undefined()),
  /** v1 `session/set_model` (unstable session models API): main sends only a model the agent listed for the session. */
  setModel: call(z.object({ sessionId: id, modelId: z.string().min(1).max(512) }), z.undefined()),
  setConfigOption: call(
    z.object({ sessionId: id, configId: z.string().min(1).max(512), value: z.union([z.string().max(4096), z.boolean()]) }),
    z.undefined(),
  ),
  closeSession: call(z.object({ sessionId: id }), z.undefined()),
  /**
   * Builds the session again on its agent, as closing it and opening it from the history does (`session/close`, then
   * `session/resume` or `session/load`): the transcript stays. For a sign-in the agent applies only to later sessions.
   */
  reopenSession: call(z.object({ sessionId: id }), z.undefined()),
  /** The person dismissed one of the session's notices (or it timed out on screen): gone from every window. */
  dismissNotice: call(z.object({ sessionId: id, noticeId: z.string().min(1).max(256) }), z.undefined()),
  restartAgent: call(z.object({ agentId: id }), z.undefined()),
  /**
   * The page applied these batches (`sessionActions`; or a snapshot, or a `sessionState`, up to that `seq`): the
   * newest `seq` per session. Main sends a page only so much it has not applied yet (main/web/view-flow.ts).
   */
  sessionActionsApplied: call(
    z.object({ applied: z.array(z.object({ sessionId: id, seq: z.number().int().nonnegative() })).max(1024) }),
    z.undefined(),
  ),
  stopAgent: call(z.object({ agentId: id }), z.undefined()),
} as const

export const sessionEvents = {
  /**
   * Batched (≈ one per animation frame) reducer actions for one session; apply in order, skip `seq` ≤ snapshot's.
   * `fromSeq`: the batches `fromSeq`…`seq` merged into one (sent so to a page that fell behind); absent, just `seq`.
   */
  sessionActions: event(
    z.object({ sessionId: z.string(), seq: z.number().int().nonnegative(), fromSeq: z.number().int().nonnegative().optional(), actions: sessionActionsShape }),
  ),
  /** A session's whole state, sent instead of the batches a page fell too far behind on: it replaces the page's copy. */
  sessionState: event(z.object({ session: sessionStateShape })),
  sessionAdded: event(z.object({ session: sessionStateShape })),
  sessionRemoved: event(z.object({ sessionId: z.string() })),
  agentStatus: event(agentRuntimeViewShape),
} as const
