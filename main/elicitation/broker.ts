/**
 * The elicitation broker: answers `elicitation/create` (and the seed's alias `session/elicitation`, never
 * sent) for every attached agent connection, and tracks URL elicitations until `elicitation/complete`.
 *
 * - Only advertised modes are served; any other mode answers -32602 (G11, K6).
 * - Scope: `{sessionId, toolCallId?}` or `{requestId}` before any session exists; v2 wants exactly one (G12).
 *   A `requestId` must name a request of Bosun's still waiting on that connection; when it settles, its
 *   elicitations are answered `cancel` and withdrawn.
 * - Form answers are validated again here before they reach the agent (G17); URL-mode `accept` is sent only
 *   after the person consented and the chokepoint opened the URL (G19). `accept` means consent, not completion.
 * - Every request is answered exactly once: all answers go through `settle`, which removes the entry first.
 * - Content is never logged (G21): log lines carry ids and modes only.
 */
import type { AcpClientConnection, ClientRequestContext, JsonRpcId, ProtocolVersion } from '../acp/types'
import { HandlerError, INVALID_PARAMS, RESOURCE_NOT_FOUND } from '../acp/types'
import { Deferred } from '../base/deferred'
import type { Event } from '../base/event'
import { fail, ok, type Result } from '../base/errors'
import { DisposableStore, toDisposable, type IDisposable } from '../base/lifecycle'
import { createLogger, type Logger } from '../base/log'
import type { ElicitationView, SessionAction } from '../../common/session/types'
import { createAnswerValidator, type AnswerValidator } from './answer-validator'
import type { ExternalOpener, OpenOutcome } from './open-external'
import { parseRequestedSchema, type Content, type FormSchema } from '../../common/elicitation/schema'
import { boundJson } from '../../common/bounded'
import { keptAnswer } from '../../common/elicitation/answer'

export const ELICITATION_CREATE = 'elicitation/create'
/** Seed 004's name (K1): accepted, never sent. */
export const ELICITATION_CREATE_ALIAS = 'session/elicitation'
export const ELICITATION_COMPLETE = 'elicitation/complete'
/** Seed 004 / MCP's name (K2). */
export const ELICITATION_COMPLETE_ALIAS = 'notifications/elicitation/complete'

/** Elicitations one scope (a session, or the requests before any session of one connection) may have open. */
export const MAX_OPEN_PER_SCOPE = 32
/** URL elicitations one connection may have open at once (each one is a link someone may be asked to open). */
export const MAX_OPEN_URLS_PER_CONNECTION = 8

/** The wire answer (v1 and v2 share it; only these three actions are ever sent, G18). */
export type ElicitationResponse = { action: 'accept'; content?: Content } | { action: 'decline' } | { action: 'cancel' }

/** A request-scoped elicitation (no session yet): shown in the inbox / the pending-operation dialog. */
export interface RequestScopedElicitation {
  elicitation: ElicitationView
  /** The pending client→agent JSON-RPC request it belongs to (e.g. `session/new`). */
  scopeRequestId: JsonRpcId
}

export interface ElicitationBrokerOptions {
  /** Publishes a reducer action for a session. */
  sink: (sessionId: string, action: SessionAction) => void
  /** Request-scoped elicitations, when added and whenever their status changes. */
  onRequestScoped?: (change: { change: 'added' | 'updated'; item: RequestScopedElicitation }) => void
  /** A new elicitation wants the person's attention (the composition root feeds `AttentionService.requestArrived`). */
  onArrived?: (info: { agentName: string; title: string; requestId: string; kind: 'elicitation'; sessionId: string | null }) => void
  /** It no longer waits for the person (answered, cancelled, consented, gone): `AttentionService.requestResolved`. */
  onResolved?: (requestId: string) => void
  /** A request Bosun refused (schema outside the subset, bad params): a sentence for the person. */
  onRefused?: (info: { agentId: string; agentName: string; sessionId: string | null; message: string }) => void
  /** The one way URLs get opened. */
  opener: ExternalOpener
  /**
   * Bosun's id of the session the agent calls `sessionId`; `undefined` answers the agent -32002 (unknown
   * session). Omitted: every session id is accepted as it is.
   */
  resolveSession?: (agentId: string, sessionId: string) => string | undefined
  /** The session's latest v2 `background` list (`null` = not reported): Stop leaves background work's requests open (F14, F15). */
  getBackground?: (sessionId: string) => readonly unknown[] | null
  validator?: AnswerValidator
  now?: () => number
  newId?: () => string
  log?: Logger
  /** Default {@link MAX_OPEN_PER_SCOPE}. */
  maxOpenPerScope?: number
  /** Default {@link MAX_OPEN_URLS_PER_CONNECTION}. */
  maxOpenUrlsPerConnection?: number
  /** Applied to the agent's request before anything keeps or shows it (secret values it echoes). */
  redact?: <T>(value: T) => T
}

/** Which elicitation modes a connection advertised in `initialize` (C5). */
export interface AdvertisedModes {
  readonly form: boolean
  readonly url: boolean
}

export interface ElicitationAttachInfo {
  agentId: string
  agentName: string
  /**
   * Fallback only: each request's context carries the negotiated version. Unknown when the broker is
   * attached to a connection before `initialize` (so an agent may elicit during the handshake).
   */
  protocolVersion?: ProtocolVersion
  /** The modes this connection advertised: pass what was given to the connection, never a copy (G11). */
  advertised: AdvertisedModes
  /**
   * Whether Bosun's own request with this JSON-RPC id is still waiting for this connection's agent (G12):
   * a request-scoped elicitation must name one (the `initialize`, `session/new` or `authenticate` it is
   * about); any other id is refused -32602, so an agent cannot show a "while starting" question at any time.
   * Ids are compared as given (`7` and `"7"` differ, B3). Omitted: the id is taken as given.
   */
  isRequestPending?: (requestId: JsonRpcId) => boolean
  /**
   * Fires with the id of each of Bosun's requests on this connection once it is answered or failed: the
   * elicitations scoped to it are answered `cancel` and withdrawn (nothing waits for them any more).
   */
  onDidSettleRequest?: Event<JsonRpcId>
}

interface Attachment extends ElicitationAttachInfo {
  closed: boolean
  registration: DisposableStore
  entries: Set<Entry>
  /** Outstanding URL elicitations by the agent's opaque `elicitationId` (G20), per connection. */
  byElicitationId: Map<string, Entry>
  /** Open URL elicitations of this connection. */
  urlCount: number
  /** Scopes whose flood note was given (cleared once under the cap again). */
  overflowNoted: Set<string>
}

interface Entry {
  view: ElicitationView
  attachment: Attachment
  scopeRequestId?: JsonRpcId
  schema?: FormSchema
  /** The version the request came in under. */
  protocolVersion: ProtocolVersion
  /** Settled once, with the answer for the agent. */
  answer: Deferred<ElicitationResponse>
}

type Answer = { action: 'accept'; content?: unknown } | { action: 'decline' } | { action: 'cancel' }

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const present = (v: unknown) => v !== undefined && v !== null

export class ElicitationBroker implements IDisposable {
  private readonly attachments = new Set<Attachment>()
  /** Every elicitation the person can still act on, by Bosun's id (pending, or URL awaiting completion). */
  private readonly entries = new Map<string, Entry>()
  /** The same entries by scope (`s:<session>` or `r:<connection>`), so caps and cancels cost O(that scope). */
  private readonly byScope = new Map<string, Set<Entry>>()
  private readonly maxOpenPerScope: number
  private readonly maxOpenUrls: number
  /** URL elicitations whose link is being opened ({@link openUrl}). */
  private readonly opening = new Set<Entry>()
  private attachmentCount = 0
  private readonly attachmentIds = new WeakMap<Attachment, number>()
  private readonly validator: AnswerValidator
  private readonly log: Logger
  private readonly now: () => number
  private readonly newId: () => string
  private disposed = false

  constructor(private readonly options: ElicitationBrokerOptions) {
    this.validator = options.validator ?? createAnswerValidator()
    this.log = options.log ?? createLogger('elicitation')
    this.now = options.now ?? Date.now
    this.newId = options.newId ?? (() => globalThis.crypto.randomUUID())
    this.maxOpenPerScope = options.maxOpenPerScope ?? MAX_OPEN_PER_SCOPE
    this.maxOpenUrls = options.maxOpenUrlsPerConnection ?? MAX_OPEN_URLS_PER_CONNECTION
  }

  attach(
    connection: Pick<AcpClientConnection, 'handlers'> & Partial<Pick<AcpClientConnection, 'onDidClose'>>,
    info: ElicitationAttachInfo,
  ): IDisposable {
    const attachment: Attachment = {
      ...info,
      closed: false,
      registration: new DisposableStore(),
      entries: new Set(),
      byElicitationId: new Map(),
      urlCount: 0,
      overflowNoted: new Set(),
    }
    this.attachmentIds.set(attachment, ++this.attachmentCount)
    this.attachments.add(attachment)
    const create = (params: unknown, context: ClientRequestContext) => this.handleCreateElicitation(attachment, params, context)
    const complete = (params: unknown) => this.handleCompleteElicitation(attachment, params)
    attachment.registration.add(connection.handlers.registerRequest(ELICITATION_CREATE, create))
    attachment.registration.add(connection.handlers.registerRequest(ELICITATION_CREATE_ALIAS, create))
    attachment.registration.add(connection.handlers.registerNotification(ELICITATION_COMPLETE, complete))
    attachment.registration.add(connection.handlers.registerNotification(ELICITATION_COMPLETE_ALIAS, complete))
    if (connection.onDidClose) attachment.registration.add(connection.onDidClose(() => this.detach(attachment)))
    if (info.onDidSettleRequest) attachment.registration.add(info.onDidSettleRequest((requestId) => this.requestSettled(attachment, requestId)))
    return toDisposable(() => this.detach(attachment))
  }

  /** The agent process is gone: its elicitations become `gone`. */
  agentGone(agentId: string): void {
    for (const attachment of [...this.attachments]) if (attachment.agentId === agentId) this.detach(attachment)
  }

  /**
   * The person stopped the session's turn (right after `session/cancel`): its pending elicitations that belong
   * to the turn are answered `cancel` (F15). v1: all of them. v2: `session/cancel` does not stop background
   * work (F14), so while the agent reports some, only requests Bosun knows are the turn's are answered: those
   * about a tool call that is not in the background list. The others wait for the agent's `$/cancel_request`.
   */
  cancelSession(sessionId: string): void {
    const background = this.options.getBackground?.(sessionId) ?? null
    const backgroundCalls = new Set<string>()
    for (const item of background ?? []) {
      if (isObject(item) && item.type === 'tool_call' && typeof item.toolCallId === 'string') backgroundCalls.add(item.toolCallId)
    }
    for (const entry of [...(this.byScope.get(`s:${sessionId}`) ?? [])]) {
      if (entry.view.status !== 'pending') continue
      if (entry.protocolVersion === 2 && background !== null && background.length > 0) {
        const toolCallId = entry.view.toolCallId
        if (!toolCallId || backgroundCalls.has(toolCallId)) continue
      }
      this.settle(entry, { action: 'cancel' }, 'cancelled')
    }
  }

  /**
   * The session is closing: every pending elicitation of it is answered `cancel`, background work's too, and a link
   * awaiting completion is withdrawn (`gone`): nothing shows it any more, and it would hold a place for links.
   */
  closeSession(sessionId: string): void {
    for (const entry of [...(this.byScope.get(`s:${sessionId}`) ?? [])]) {
      if (entry.view.status === 'pending') this.settle(entry, { action: 'cancel' }, 'cancelled')
      else this.finish(entry, 'gone')
    }
  }

  /** The person's answer. Form `accept` is validated again here; URL `accept` only via {@link openUrl}. */
  respond(elicitationRequestId: string, answer: Answer): Result<undefined> {
    const entry = this.entries.get(elicitationRequestId)
    if (!entry || entry.view.status !== 'pending') return fail({ kind: 'not-found', message: 'This request was already answered or has gone away.' })
    if (answer.action === 'decline' || answer.action === 'cancel') {
      this.settle(entry, { action: answer.action }, answer.action === 'decline' ? 'declined' : 'cancelled')
      return ok(undefined)
    }
    if (entry.view.mode === 'url') {
      return fail({ kind: 'invalid-argument', message: 'A link is accepted by opening it (after checking it), not by a form answer.' })
    }
    const check = this.validator.validate(entry.schema!, answer.content ?? {})
    if (!check.ok) {
      const first = Object.values(check.errors)[0] ?? 'The answer does not match the form.'
      return fail({ kind: 'invalid-argument', message: first, data: { errors: check.errors } })
    }
    // What was sent stays on the view (the fields that look like secrets left out), for a page loaded later to show.
    entry.view = { ...entry.view, answer: keptAnswer(entry.schema!, check.content) }
    this.settle(entry, { action: 'accept', content: check.content }, 'accepted')
    return ok(undefined)
  }

  /**
   * The person consented to open the URL: open it through the chokepoint, then answer `accept` (consent,
   * not completion). The entry stays until `elicitation/complete`, a dismissal or the agent's exit.
   */
  async openUrl(elicitationRequestId: string): Promise<Result<OpenOutcome>> {
    const entry = this.entries.get(elicitationRequestId)
    if (!entry || entry.view.mode !== 'url' || entry.view.status !== 'pending') {
      return fail({ kind: 'not-found', message: 'This request was already answered or has gone away.' })
    }
    // One open at a time per link: a second consent while the browser starts (a double click) opens nothing more.
    if (this.opening.has(entry)) return fail({ kind: 'busy', message: 'This link is being opened.' })
    this.opening.add(entry)
    try {
      const opened = await this.options.opener.openAfterConsent({ elicitationRequestId, url: entry.view.url! })
      // The agent may have cancelled while the browser was starting; answering twice is impossible anyway.
      if (opened.ok && entry.view.status === 'pending') this.settle(entry, { action: 'accept' }, 'accepted')
      return opened
    } finally {
      this.opening.delete(entry)
    }
  }

  /** Open the consented URL again (the flow got lost, the tab was closed). */
  async retryUrl(elicitationRequestId: string): Promise<Result<OpenOutcome>> {
    const entry = this.entries.get(elicitationRequestId)
    if (!entry || entry.view.mode !== 'url' || entry.view.status !== 'accepted') {
      return fail({ kind: 'not-found', message: 'There is no link waiting for completion here.' })
    }
    return this.options.opener.openAfterConsent({ elicitationRequestId, url: entry.view.url! })
  }

  /** Stop waiting for a completion that never came (G20). */
  dismissUrl(elicitationRequestId: string): Result<undefined> {
    const entry = this.entries.get(elicitationRequestId)
    if (!entry || entry.view.mode !== 'url' || entry.view.status !== 'accepted') {
      return fail({ kind: 'not-found', message: 'There is no link waiting for completion here.' })
    }
    this.finish(entry, 'dismissed')
    return ok(undefined)
  }

  /** Request-scoped elicitations still open (for a renderer snapshot). */
  listRequestScoped(): RequestScopedElicitation[] {
    return [...this.entries.values()]
      .filter((e) => e.view.sessionId === null)
      .map((e) => ({ elicitation: { ...e.view }, scopeRequestId: e.scopeRequestId! }))
  }

  /** Pending or awaiting-completion count (tests, leak checks). */
  get openCount(): number {
    return this.entries.size
  }

  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    for (const attachment of [...this.attachments]) this.detach(attachment)
  }

  // -------------------------------------------------------------------------------------------------

  /** The `elicitation/create` handler (one per attached connection). */
  private async handleCreateElicitation(attachment: Attachment, raw: unknown, context: ClientRequestContext): Promise<ElicitationResponse> {
    const { agentId, agentName } = attachment
    // Cut to fixed bounds before anything keeps it (a schema nested thousands of levels, a 50 MB message).
    const params = this.options.redact ? this.options.redact(boundJson(raw)) : boundJson(raw)
    // The context knows the negotiated version even when the broker was attached before `initialize` finished.
    const protocolVersion = context.protocolVersion ?? attachment.protocolVersion ?? 2
    const refuse = (message: string, sessionId: string | null, code = INVALID_PARAMS, data?: unknown): never => {
      this.log.warn(`[agent ${agentId}] refused ${context.method} id=${String(context.requestId)}: ${code}`)
      this.options.onRefused?.({ agentId, agentName, sessionId, message })
      throw new HandlerError(code, message, data)
    }
    if (!isObject(params)) return refuse('elicitation params must be an object', null)
    const hasSession = present(params.sessionId)
    const hasRequest = present(params.requestId)
    const sessionId = hasSession ? params.sessionId : null
    if (hasSession && typeof sessionId !== 'string') return refuse('sessionId must be a string', null)
    if (hasRequest && typeof params.requestId !== 'string' && typeof params.requestId !== 'number') return refuse('requestId must be a string or number', null)
    if (protocolVersion === 2 && hasSession === hasRequest) return refuse('exactly one of sessionId and requestId is required', null)
    if (!hasSession && !hasRequest) return refuse('sessionId or requestId is required', null)
    // v1 leniency: with both, the session scope wins.
    let scopeSession = typeof sessionId === 'string' ? sessionId : null
    if (scopeSession !== null && this.options.resolveSession) {
      const resolved = this.options.resolveSession(agentId, scopeSession)
      // The agent's own id back, in v2's `SessionNotFoundErrorData` shape (G7).
      if (resolved === undefined) return refuse(`Session not found: ${scopeSession}`, null, RESOURCE_NOT_FOUND, { sessionId: scopeSession })
      scopeSession = resolved
    }
    // Request scope: only a request of Bosun's that this agent has not answered yet (G12).
    if (scopeSession === null && attachment.isRequestPending && !attachment.isRequestPending(params.requestId as JsonRpcId)) {
      const shown = JSON.stringify(params.requestId).slice(0, 64)
      return refuse(`requestId ${shown} is not a request Bosun is waiting on this agent for`, null)
    }

    const mode = params.mode
    if (mode !== 'form' && mode !== 'url') return refuse(`unsupported elicitation mode: ${typeof mode === 'string' ? mode.slice(0, 64) : String(mode)}`, scopeSession)
    if (!attachment.advertised[mode]) return refuse(`elicitation mode "${mode}" was not advertised by the client`, scopeSession)
    if (typeof params.message !== 'string') return refuse('message must be a string', scopeSession)
    const toolCallId = scopeSession !== null && typeof params.toolCallId === 'string' ? params.toolCallId : null

    let schema: FormSchema | undefined
    let url: string | undefined
    let elicitationId: string | undefined
    if (mode === 'form') {
      const parsed = parseRequestedSchema(params.requestedSchema, { protocolVersion })
      if (!parsed.ok) return refuse(`${agentName} asked for a form Bosun cannot show: ${parsed.message}`, scopeSession)
      schema = parsed.schema
    } else {
      if (typeof params.url !== 'string' || params.url === '') return refuse('url must be a non-empty string', scopeSession)
      if (typeof params.elicitationId !== 'string' || params.elicitationId === '') return refuse('elicitationId must be a non-empty string', scopeSession)
      url = params.url
      elicitationId = params.elicitationId
      // Its completion names it: a second one under the same id would take the first's place, which then waits for ever.
      if (attachment.byElicitationId.has(elicitationId)) {
        return refuse(`elicitationId ${JSON.stringify(elicitationId.slice(0, 64))} is already used by another request that waits`, scopeSession)
      }
    }
    if (attachment.closed || this.disposed) return { action: 'cancel' }
    const scope = this.scopeKey(attachment, scopeSession)
    const open = this.byScope.get(scope)?.size ?? 0
    if (open >= this.maxOpenPerScope || (mode === 'url' && attachment.urlCount >= this.maxOpenUrls)) {
      return this.refuseOverflow(attachment, scope, scopeSession, mode)
    }

    const view: ElicitationView = {
      elicitationRequestId: this.newId(),
      agentId,
      agentName,
      sessionId: scopeSession,
      ...(toolCallId ? { toolCallId } : {}),
      mode,
      message: params.message,
      ...(mode === 'form' ? { requestedSchema: params.requestedSchema } : { url, elicitationId }),
      createdAt: this.now(),
      status: 'pending',
    }
    const entry: Entry = { view, attachment, protocolVersion, answer: new Deferred(), ...(schema ? { schema } : {}) }
    if (scopeSession === null) entry.scopeRequestId = params.requestId as JsonRpcId
    this.entries.set(view.elicitationRequestId, entry)
    let ofScope = this.byScope.get(scope)
    if (!ofScope) this.byScope.set(scope, (ofScope = new Set()))
    ofScope.add(entry)
    attachment.entries.add(entry)
    if (mode === 'url') attachment.urlCount++
    if (elicitationId !== undefined) {
      attachment.byElicitationId.set(elicitationId, entry)
      this.options.opener.offer(view.elicitationRequestId, url!)
    }
    this.log.info(`[agent ${agentId}] elicitation ${view.elicitationRequestId} mode=${mode} scope=${scopeSession !== null ? 'session' : 'request'}`)

    this.publish(entry, 'added')
    this.options.onArrived?.({ agentName, title: view.message.slice(0, 200), requestId: view.elicitationRequestId, kind: 'elicitation', sessionId: scopeSession })

    // The agent withdrew the request ($/cancel_request) or the connection closed.
    const onAbort = () => {
      if (entry.view.status === 'pending') this.settle(entry, { action: 'cancel' }, attachment.closed ? 'gone' : 'cancelled')
    }
    if (context.signal.aborted) onAbort()
    else context.signal.addEventListener('abort', onAbort, { once: true })
    try {
      return await entry.answer.promise
    } finally {
      context.signal.removeEventListener('abort', onAbort)
    }
  }

  /**
   * Bosun's request `requestId` on this connection was answered (or failed): its request-scoped elicitations
   * have nothing left to ask for. Pending ones are answered `cancel`; a link consented to and awaiting
   * completion is withdrawn (`gone`). Either way it leaves the person's view.
   */
  private requestSettled(attachment: Attachment, requestId: JsonRpcId): void {
    for (const entry of [...attachment.entries]) {
      if (entry.view.sessionId !== null || entry.scopeRequestId !== requestId) continue
      if (entry.view.status === 'pending') this.settle(entry, { action: 'cancel' }, 'cancelled')
      else this.finish(entry, 'gone')
    }
  }

  /** `s:<Bosun's session id>`, or `r:<connection>` for request-scoped ones. */
  private scopeKey(attachment: Attachment, sessionId: string | null): string {
    return sessionId !== null ? `s:${sessionId}` : `r:${this.attachmentIds.get(attachment) ?? 0}`
  }

  /** Over a cap: answered `cancel` without being kept or shown; the person hears once per flood. */
  private refuseOverflow(attachment: Attachment, scope: string, sessionId: string | null, mode: 'form' | 'url'): ElicitationResponse {
    const key = mode === 'url' ? `url:${scope}` : scope
    if (!attachment.overflowNoted.has(key)) {
      attachment.overflowNoted.add(key)
      const limit = mode === 'url' ? `${this.maxOpenUrls} links` : `${this.maxOpenPerScope} requests`
      this.log.warn(`[agent ${attachment.agentId}] too many open elicitations (${mode}); cancelling the excess`)
      this.options.onRefused?.({
        agentId: attachment.agentId,
        agentName: attachment.agentName,
        sessionId,
        message: `It asked for more at once than Bosun keeps open (${limit}); the rest were answered “cancel”.`,
      })
    }
    return { action: 'cancel' }
  }

  /** `elicitation/complete {elicitationId}`: unknown or repeated ids are ignored (G20). */
  private handleCompleteElicitation(attachment: Attachment, params: unknown): void {
    if (!isObject(params) || typeof params.elicitationId !== 'string') return
    const entry = attachment.byElicitationId.get(params.elicitationId)
    if (!entry || !this.entries.has(entry.view.elicitationRequestId)) return
    // Completed before the person acted (done elsewhere): the request is answered `cancel`, the card shows done.
    this.finish(entry, 'completed')
  }

  /** Answers the agent once and moves the entry on: URL accepts stay until completion, everything else ends. */
  private settle(entry: Entry, response: ElicitationResponse, status: ElicitationView['status']): void {
    if (entry.answer.settled) return
    entry.answer.resolve(response)
    this.options.onResolved?.(entry.view.elicitationRequestId)
    this.log.info(`[agent ${entry.attachment.agentId}] elicitation ${entry.view.elicitationRequestId} answered ${response.action}`)
    if (status === 'accepted' && entry.view.mode === 'url') {
      entry.view = { ...entry.view, status }
      this.publishResolved(entry)
      return
    }
    this.finish(entry, status)
  }

  /** Removes the entry (withdrawing any URL offer) and publishes its final status. */
  private finish(entry: Entry, status: ElicitationView['status']): void {
    if (!entry.answer.settled) {
      entry.answer.resolve({ action: 'cancel' })
      this.options.onResolved?.(entry.view.elicitationRequestId)
    }
    if (this.entries.delete(entry.view.elicitationRequestId)) {
      const scope = this.scopeKey(entry.attachment, entry.view.sessionId)
      const ofScope = this.byScope.get(scope)
      ofScope?.delete(entry)
      if (ofScope?.size === 0) this.byScope.delete(scope)
      if ((ofScope?.size ?? 0) < this.maxOpenPerScope / 2) entry.attachment.overflowNoted.delete(scope)
      if (entry.view.mode === 'url' && --entry.attachment.urlCount < this.maxOpenUrls / 2) entry.attachment.overflowNoted.delete(`url:${scope}`)
    }
    entry.attachment.entries.delete(entry)
    if (entry.view.elicitationId !== undefined && entry.attachment.byElicitationId.get(entry.view.elicitationId) === entry) {
      entry.attachment.byElicitationId.delete(entry.view.elicitationId)
    }
    this.options.opener.withdraw(entry.view.elicitationRequestId)
    entry.view = { ...entry.view, status }
    this.publishResolved(entry)
  }

  private publish(entry: Entry, change: 'added' | 'updated'): void {
    const { view } = entry
    if (view.sessionId !== null) {
      if (change === 'added') this.options.sink(view.sessionId, { type: 'elicitation_requested', elicitation: { ...view } })
      else {
        const { elicitationRequestId, status, answer } = view
        this.options.sink(view.sessionId, { type: 'elicitation_resolved', elicitationRequestId, status, ...(answer ? { answer } : {}) })
      }
    } else {
      this.options.onRequestScoped?.({ change, item: { elicitation: { ...view }, scopeRequestId: entry.scopeRequestId! } })
    }
  }

  private publishResolved(entry: Entry): void {
    this.publish(entry, 'updated')
  }

  private detach(attachment: Attachment): void {
    if (!this.attachments.delete(attachment)) return
    attachment.closed = true
    attachment.registration.dispose()
    for (const entry of [...attachment.entries]) this.finish(entry, 'gone')
  }
}
