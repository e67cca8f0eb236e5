import { z } from 'zod'
import { absolutePath, call, event, id } from './define'

/** One stored session as the sidebar lists it (no transcript). */
export const historySummaryShape = z.object({
  sessionId: z.string(),
  agentId: z.string(),
  acpSessionId: z.string(),
  cwd: z.string(),
  /** The title to show: the person's, else the agent's (`session_info_update`), else the first prompt. */
  title: z.string().nullable(),
  /** Epoch ms. */
  createdAt: z.number(),
  updatedAt: z.number(),
  protocolVersion: z.union([z.literal(1), z.literal(2)]),
  archived: z.boolean(),
  /** A turn was running when Bosun stopped (it shows as interrupted when opened). */
  interrupted: z.boolean(),
})
export type HistorySummary = z.infer<typeof historySummaryShape>

/** Why the history is not (fully) available: unreadable file kept aside, read-only home, disk full. */
export const historyProblemShape = z.object({ message: z.string().max(4096) }).nullable()

export const historyHitShape = z.object({
  sessionId: z.string(),
  /** The matching entry's id in the transcript (open the session there). */
  entryId: z.string(),
  kind: z.string(),
  title: z.string().nullable(),
  cwd: z.string(),
  archived: z.boolean(),
  /** The matching text around the hit; the matched words between `\u0002` and `\u0003`. */
  snippet: z.string().max(4096),
})
export type HistoryHit = z.infer<typeof historyHitShape>

export const historyCalls = {
  /** Every stored session, newest first (archived ones only when asked). */
  historyList: call(
    z.object({ includeArchived: z.boolean().optional() }),
    z.object({ sessions: z.array(historySummaryShape), problem: historyProblemShape }),
  ),
  /** Loads a stored session into main (without starting its agent); it then arrives as `sessionAdded`. */
  historyOpen: call(z.object({ sessionId: id }), z.object({ sessionId: z.string() })),
  historyRename: call(z.object({ sessionId: id, title: z.string().max(512).nullable() }), z.undefined()),
  historyArchive: call(z.object({ sessionId: id, archived: z.boolean() }), z.undefined()),
  /** Removes the session from the database (and closes it when open). */
  historyDelete: call(z.object({ sessionId: id }), z.undefined()),
  historySearch: call(z.object({ query: z.string().min(1).max(512), limit: z.number().int().min(1).max(200).optional() }), z.object({ hits: z.array(historyHitShape) })),
  /**
   * Exports a session. Electron shows a save dialog and answers `savedTo` (null: the person cancelled);
   * the browser host answers the file for the page to download.
   */
  historyExport: call(
    z.object({ sessionId: id, format: z.enum(['markdown', 'json']) }),
    z.object({ fileName: z.string(), mimeType: z.string(), savedTo: z.string().nullable().optional(), content: z.string().optional() }),
  ),
  /**
   * Saves an image of session `sessionId` that Bosun does not show (too large to decode, or its size unreadable).
   * The page names it by the SHA-256 (hex) of its base64 data, as the transcript holds it: main finds that image
   * in the session it holds, asks where in the native save dialog and writes the decoded bytes; the page never
   * hands main bytes or a path. `savedTo` null: the person cancelled. `not-found`: the session holds no such image, or
   * is not open (only in the history: open it first);
   * `unsupported` in the browser host (the page downloads the data it has).
   */
  saveImage: call(z.object({ sessionId: id, sha256: z.string().regex(/^[0-9a-f]{64}$/) }).strict(), z.object({ savedTo: z.string().nullable() })),
  /**
   * The sessions an agent has for a folder by its own `session/list` (ones started in a terminal or another
   * editor too); `supported: false` when the agent does not list sessions. `stored`: Bosun has it already (kept, or open).
   */
  historyAgentSessions: call(
    z.object({ agentId: id, cwd: absolutePath }),
    z.object({
      supported: z.boolean(),
      sessions: z.array(
        z.object({
          acpSessionId: z.string(),
          cwd: z.string(),
          title: z.string().nullable(),
          updatedAt: z.string().nullable(),
          /** Its folders beyond `cwd`, as the agent lists them: the complete ordered list (E17). */
          additionalDirectories: z.array(z.string()).max(32).optional(),
          stored: z.boolean(),
        }),
      ),
    }),
  ),
  /**
   * The person cancels the listing of `historyAgentSessions` for that agent and folder: those waiting answer
   * `cancelled` at once, and a `session/list` in flight is withdrawn (`$/cancel_request`); its late answer is dropped.
   */
  historyCancelAgentSessions: call(z.object({ agentId: id, cwd: absolutePath }).strict(), z.undefined()),
  /**
   * Opens one of those through `session/load` (v1) or a replaying `session/resume` (v2); it arrives as `sessionAdded`.
   * `additionalDirectories`: the ones the list gave it, all of them (E17); those that are folders here become its roots.
   * `title`: the one the list gave it, the session's title until the agent sends its own.
   */
  historyOpenAgentSession: call(
    z.object({
      agentId: id,
      acpSessionId: z.string().min(1).max(512),
      cwd: absolutePath,
      additionalDirectories: z.array(absolutePath).max(32).optional(),
      title: z.string().max(512).nullable().optional(),
    }),
    z.object({ sessionId: z.string() }),
  ),
} as const

export const historyEvents = {
  /** The list changed (a session added, renamed, archived, deleted, or its turn ended): fetch it again. */
  historyChanged: event(z.object({})),
} as const
