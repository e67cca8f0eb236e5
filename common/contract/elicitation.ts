/**
 * Calls and events of the elicitation domain (checklist G.2). Session-scoped elicitations reach the
 * renderer as `elicitation_requested`/`elicitation_resolved` session actions; request-scoped ones (before
 * any session exists) come through `requestScopedElicitation`.
 */
import { z } from 'zod'
import type { ElicitationView } from '../session/types'
import { boundedRecord, call, event, id } from './define'
import { elicitationViewShape } from './shapes'

/** A value of the answer's `content` (G18): string | number | boolean | string[]. */
export const elicitationContentValue = z.union([
  z.string().max(100_000),
  z.number().finite(),
  z.boolean(),
  z.array(z.string().max(10_000)).max(500),
])

/** At most as many answers as a form Bosun accepts has fields (`schemaLimits.maxFields`, not imported: it brings the pattern engine). */
export const MAX_ELICITATION_ANSWERS = 100
export const elicitationContent = boundedRecord(z.string().min(1).max(256), elicitationContentValue, MAX_ELICITATION_ANSWERS)

const elicitationRef = z.strictObject({ elicitationRequestId: id })

/** Where the consented URL was opened: by main (system browser) or by the page (browser host: new tab, `noopener`). */
export const openedUrl = z.strictObject({ openedBy: z.enum(['main', 'page']), href: z.string().max(8192) })

export interface RequestScopedElicitationPayload {
  elicitation: ElicitationView
  /** The pending client→agent JSON-RPC request it belongs to (e.g. `session/new`). */
  scopeRequestId: string | number
}

const requestScopedElicitation = z.object({ elicitation: elicitationViewShape, scopeRequestId: z.union([z.string(), z.number()]) })

export const elicitationCalls = {
  /**
   * The person's answer. `accept` carries the form `content` (validated again in main; a failure's
   * `data.errors` maps field keys to messages). URL mode is accepted with `openElicitationUrl`, not here.
   */
  respondElicitation: call(
    z.strictObject({
      elicitationRequestId: id,
      action: z.enum(['accept', 'decline', 'cancel']),
      content: elicitationContent.optional(),
    }),
    z.undefined(),
  ),
  /** The person consented to open the URL: main opens it (or tells the page to), then answers `accept`. */
  openElicitationUrl: call(elicitationRef, openedUrl),
  /** Open the already-consented URL again while waiting for completion. */
  retryElicitationUrl: call(elicitationRef, openedUrl),
  /** Stop waiting for a completion that never arrived. */
  dismissElicitationUrl: call(elicitationRef, z.undefined()),
  /**
   * The person clicked a link in agent output of session `sessionId` and consented in the same dialog URL
   * elicitations use: main checks that the link occurs in that session's agent content, re-checks it
   * (`checkUrl`) and opens it through the one chokepoint, or tells the page to (browser host).
   */
  openLink: call(z.strictObject({ url: z.string().min(1).max(8192), sessionId: id }), openedUrl),
  /** Request-scoped elicitations still open (snapshot for a fresh renderer). */
  listRequestScopedElicitations: call(z.undefined(), z.array(requestScopedElicitation)),
} as const

export const elicitationEvents = {
  /** A request-scoped elicitation was added or changed status (session-scoped ones travel as session actions). */
  requestScopedElicitation: event(requestScopedElicitation.extend({ change: z.enum(['added', 'updated']) })),
} as const
