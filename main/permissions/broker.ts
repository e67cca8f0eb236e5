/**
 * The permission broker: answers `session/request_permission` for every attached agent connection.
 *
 * - Pending requests are keyed by a Bosun request id made of the agent, the broker's run, the connection generation
 *   and the JSON-RPC id (checklist G8), never by `toolCallId`, and scoped by session.
 * - Every request is answered exactly once (B3): all answers go through one `settle` that removes the
 *   entry first. There is no timeout: a request waits for the person, a rule, a cancel or the agent.
 * - What the UI sees is published as `SessionAction`s through the injected sink.
 *
 * Cancellation (F13/F14): for a v1 session, `cancelSession` answers every pending request of that
 * session `cancelled`. For v2, the agent is expected to `$/cancel_request` the requests of the cancelled
 * foreground work (each one then answers `cancelled` through the request's abort signal). Bosun answers
 * v2 requests preemptively only when the session reports no background work (its latest `background`
 * list is missing or empty); when background work is reported, it waits for the agent's cancels, since a
 * request may belong to work that `session/cancel` does not stop.
 */
import { createHash, randomUUID } from 'node:crypto'
import type { AcpClientConnection, ClientRequestContext, JsonRpcId, ProtocolVersion } from '../acp/types'
import { HandlerError, sessionNotFound } from '../acp/types'
import { Deferred } from '../base/deferred'
import { fail, ok, stoppedByBosun, type Result } from '../base/errors'
import { Emitter, type Event } from '../base/event'
import { DisposableStore, toDisposable, type IDisposable } from '../base/lifecycle'
import { createLogger, type Logger } from '../base/log'
import { boundJson } from '../../common/bounded'
import { requestEndedByBosun } from '../../common/session/turn-stop'
import type { PermissionRequestView, SessionAction } from '../../common/session/types'
import type { AuditLog, AuditRecord } from './audit-log'
import { normalizePermissionRequest, type NormalizedPermissionRequest, type StoredToolCall } from './normalize'
import { answerByRules, limitedToSession, offeredMoreThanOnce, REMEMBERING_KINDS, ruleFromDecision, type PermissionRule, type RuleDecision } from './rules'
import { subjectIdentity, type SubjectIdentity } from './subject-identity'
import { bosunNotice } from '../../common/session/stop-watchdog'

export const REQUEST_PERMISSION_METHOD = 'session/request_permission'

/** The wire answer (v1 and v2 share it). */
export type PermissionResponse = { outcome: { outcome: 'selected'; optionId: string } | { outcome: 'cancelled' } }

const CANCELLED: PermissionResponse = { outcome: { outcome: 'cancelled' } }

const SESSION_ONLY_NOTE = 'The option is for this session only.'

/**
 * Requests one session may have waiting for the person. Past it, new ones are answered `cancelled` at once
 * and the session shows one note per flood (a person cannot read thousands of questions anyway).
 */
export const MAX_PENDING_PER_SESSION = 64

/** What the broker needs to know about sessions (the session registry implements it). */
export interface PermissionSessionLookup {
  /**
   * The session the agent `agentId` calls `sessionId`, if it owns one: its folder, and Bosun's id for it
   * (defaults to the agent's id). `undefined` answers the agent -32002 `{sessionId}` (G7).
   */
  getSession(agentId: string, sessionId: string): { cwd: string; sessionId?: string } | undefined
  /** The tool call as stored (title fallback, rule facts). */
  lookupToolCall?(sessionId: string, toolCallId: string): StoredToolCall | undefined
  /** The latest v2 `background` list of the session; `null` = not reported. */
  getBackground?(sessionId: string): readonly unknown[] | null
  /** Whether the person stopped the session's turn and the turn has not ended yet. */
  isStopping?(sessionId: string): boolean
}

/** Where remembered decisions come from and go (the {@link RuleStore} implements it). */
export interface PermissionRuleSource {
  list(): readonly PermissionRule[]
  add(rule: PermissionRule): Promise<void>
  /** The session closed: its session-scoped rules go with it. */
  forgetSession?(sessionId: string): void
}

export interface PermissionBrokerOptions {
  /** Publishes a reducer action for a session (batched to the renderer by the session layer). */
  sink: (sessionId: string, action: SessionAction) => void
  sessions: PermissionSessionLookup
  rules?: PermissionRuleSource
  audit?: Pick<AuditLog, 'append'>
  now?: () => number
  newRuleId?: () => string
  log?: Logger
  /** Default {@link MAX_PENDING_PER_SESSION}. */
  maxPendingPerSession?: number
  /**
   * Applied to the agent's request before anything keeps it (secret values an agent echoes must not reach
   * the pending list, the audit file or an OS notification).
   */
  redact?: <T>(value: T) => T
}

export interface AttachInfo {
  agentId: string
  agentName: string
  protocolVersion: ProtocolVersion
}

interface Attachment extends AttachInfo {
  generation: number
  closed: boolean
  registration: DisposableStore
  entries: Set<PendingEntry>
}

interface PendingEntry {
  view: PermissionRequestView
  normalized: NormalizedPermissionRequest
  /** What an "always" rule would store, and what a rule must match (null: the subject is not one rules cover). */
  identity: SubjectIdentity | null
  attachment: Attachment
  cwd: string
  deferred: Deferred<PermissionResponse>
  abortListener: IDisposable
  order: number
}

type Resolution = NonNullable<PermissionRequestView['resolution']>

export class PermissionBroker implements IDisposable {
  /** Insertion order is arrival order: the pending list is read off it, never sorted. */
  private readonly pendingById = new Map<string, PendingEntry>()
  /** The same entries by Bosun's session id, in arrival order (cancel and caps are O(that session)). */
  private readonly pendingBySession = new Map<string, Set<PendingEntry>>()
  /** Sessions whose flood note was shown; cleared once the session is under the cap again. */
  private readonly overflowNoted = new Set<string>()
  /** Sessions already told of a permission request Bosun could not show (once each). */
  private readonly malformedNoted = new Set<string>()
  private readonly maxPendingPerSession: number
  private changeScheduled = false
  private readonly attachments = new Set<Attachment>()
  private readonly autoApprove = new Map<string, boolean>()
  private generation = 0
  private order = 0
  /**
   * This broker's run among Bosun's runs, in every request id: the history keeps the ids of earlier runs' requests on
   * their cards, and a restarted Bosun counted generations, JSON-RPC ids and arrivals from the start again, so an agent's
   * first question after a restart took the id of its first one before it, and that card, reopened, read "Needs
   * approval" with the new question in it.
   */
  private readonly run = randomUUID().slice(0, 8)
  private disposed = false

  private readonly changeEmitter = new Emitter<readonly PermissionRequestView[]>()
  private readonly requestEmitter = new Emitter<PermissionRequestView>()
  private readonly resolveEmitter = new Emitter<PermissionRequestView>()
  /** Fires with the full pending list (oldest first) after it changed: once per burst of changes (a microtask later). */
  readonly onDidChangePending: Event<readonly PermissionRequestView[]> = this.changeEmitter.event
  /** A request now waits for the person (not fired for requests a rule or auto-approve answered). */
  readonly onDidRequest: Event<PermissionRequestView> = this.requestEmitter.event
  /** A request was answered or went away (any path). */
  readonly onDidResolve: Event<PermissionRequestView> = this.resolveEmitter.event

  private readonly now: () => number
  private readonly newRuleId: () => string
  private readonly log: Logger

  constructor(private readonly options: PermissionBrokerOptions) {
    this.now = options.now ?? Date.now
    this.newRuleId = options.newRuleId ?? randomUUID
    this.log = options.log ?? createLogger('permissions')
    this.maxPendingPerSession = options.maxPendingPerSession ?? MAX_PENDING_PER_SESSION
  }

  /**
   * Registers `session/request_permission` on the connection. Disposing the result (or the connection
   * closing) turns the requests still pending on it into `gone`.
   */
  attach(connection: Pick<AcpClientConnection, 'handlers'> & Partial<Pick<AcpClientConnection, 'onDidClose'>>, info: AttachInfo): IDisposable {
    const attachment: Attachment = { ...info, generation: ++this.generation, closed: false, registration: new DisposableStore(), entries: new Set() }
    this.attachments.add(attachment)
    attachment.registration.add(
      connection.handlers.registerRequest(REQUEST_PERMISSION_METHOD, (params, context) => this.handleRequestPermission(attachment, params, context)),
    )
    if (connection.onDidClose) {
      // Bosun stopped it (the person's Stop or Restart, a quit): said in Bosun's words for that, not as the agent's exit.
      attachment.registration.add(connection.onDidClose(({ error }) => this.detachAttachment(attachment, stoppedByBosun(error) ? requestEndedByBosun(error.message) : 'The agent exited.')))
    }
    return toDisposable(() => this.detachAttachment(attachment, 'The agent was disconnected.'))
  }

  /** The agent is gone (exit, crash, stop): its pending requests become `gone` with `reason` and leave the inbox. */
  detach(agentId: string, reason: string): void {
    for (const attachment of [...this.attachments]) if (attachment.agentId === agentId) this.detachAttachment(attachment, reason)
  }

  /** All pending requests of every session, oldest first. */
  pending(): PermissionRequestView[] {
    return Array.from(this.pendingById.values(), (e) => e.view)
  }

  /**
   * Whether an "always" answer to this pending request would be kept as a rule (for this folder or this session);
   * with `optionId`, that option's answer (not when another option of its kind is offered too).
   */
  remembers(requestId: string, optionId?: string): boolean {
    const entry = this.pendingById.get(requestId)
    if (!entry || !this.options.rules || entry.identity === null || entry.identity.remember.scope === 'never') return false
    const option = optionId === undefined ? undefined : entry.view.options.find((o) => o.optionId === optionId)
    return !option || !offeredMoreThanOnce(entry.view.options, option.kind)
  }

  /** How many requests of `sessionId` wait for the person. */
  pendingCount(sessionId: string): number {
    return this.pendingBySession.get(sessionId)?.size ?? 0
  }

  /**
   * The person's answer: an offered `optionId`, or `null` to dismiss (answered `cancelled`, G9).
   * A request that is no longer pending or an option that was not offered is a failure value.
   */
  respond(requestId: string, optionId: string | null): Result<undefined> {
    const entry = this.pendingById.get(requestId)
    if (!entry) return fail({ kind: 'not-found', message: 'This permission request is no longer waiting for an answer.' })
    if (optionId === null) {
      this.settle(entry, CANCELLED, 'cancelled', { by: 'person', note: 'Dismissed', at: this.now() })
      return ok(undefined)
    }
    const option = entry.view.options.find((o) => o.optionId === optionId)
    if (!option) return fail({ kind: 'invalid-argument', message: 'That option was not offered by the agent.' })
    this.settle(entry, { outcome: { outcome: 'selected', optionId } }, 'answered', { by: 'person', optionId, optionKind: option.kind, at: this.now() })
    if (REMEMBERING_KINDS.has(option.kind) && !offeredMoreThanOnce(entry.view.options, option.kind)) {
      this.remember(entry, option.kind as RuleDecision, limitedToSession(option.name))
    }
    return ok(undefined)
  }

  /**
   * The person cancelled the session's turn (call right after sending `session/cancel`). Answers
   * `cancelled` per F13 (v1: all of the session's requests) and F14 (v2: all, unless background work is
   * reported). Returns how many requests were answered.
   */
  cancelSession(sessionId: string): number {
    let answered = 0
    for (const entry of this.entriesOf(sessionId)) {
      if (!this.stopAnswers(entry)) continue
      this.settle(entry, CANCELLED, 'cancelled', { by: 'cancel', note: 'The turn was cancelled.', at: this.now() })
      answered++
    }
    return answered
  }

  /**
   * Whether Stop answers this request `cancelled`: v1, all of the session's (F13); v2, all unless the agent reports
   * background work, which `session/cancel` does not stop (F14), so its requests wait for the agent's cancels.
   */
  private stopAnswers(entry: PendingEntry): boolean {
    if (entry.attachment.protocolVersion !== 2) return true
    const background = this.options.sessions.getBackground?.(entry.view.sessionId) ?? null
    return background === null || background.length === 0
  }

  /** The session is closing: every pending request of it is answered `cancelled`, whatever the version. */
  closeSession(sessionId: string): void {
    for (const entry of this.entriesOf(sessionId)) {
      this.settle(entry, CANCELLED, 'cancelled', { by: 'cancel', note: 'The session was closed.', at: this.now() })
    }
    this.autoApprove.delete(sessionId)
    // Its notes were said in it: a later session of that id hears them afresh (and the sets do not grow with every session).
    this.malformedNoted.delete(sessionId)
    this.overflowNoted.delete(sessionId)
    this.options.rules?.forgetSession?.(sessionId)
  }

  /** Per-session auto-approve (off by default): answers `allow_once` when offered, never another kind. */
  setAutoApprove(sessionId: string, value: boolean): void {
    if (value) this.autoApprove.set(sessionId, true)
    else this.autoApprove.delete(sessionId)
    this.options.sink(sessionId, { type: 'set_auto_approve', value })
  }

  isAutoApprove(sessionId: string): boolean {
    return this.autoApprove.get(sessionId) === true
  }

  dispose(): void {
    if (this.disposed) return
    for (const attachment of [...this.attachments]) this.detachAttachment(attachment, 'Bosun is shutting down.')
    this.disposed = true
    this.changeEmitter.dispose()
    this.requestEmitter.dispose()
    this.resolveEmitter.dispose()
  }

  /** The `session/request_permission` handler (one per attached connection). */
  private async handleRequestPermission(attachment: Attachment, raw: unknown, context: ClientRequestContext): Promise<PermissionResponse> {
    // What the agent sent is cut to fixed bounds before anything keeps it (deep rawInput, huge titles).
    const params = this.options.redact ? this.options.redact(boundJson(raw)) : boundJson(raw)
    const port = this.options.sessions
    let normalized: NormalizedPermissionRequest
    try {
      normalized = normalizePermissionRequest(params, {
        lookupToolCall: port.lookupToolCall
          ? (acpSessionId, toolCallId) => {
              const known = port.getSession(attachment.agentId, acpSessionId)
              return known ? port.lookupToolCall?.(known.sessionId ?? acpSessionId, toolCallId) : undefined
            }
          : undefined,
      })
    } catch (error) {
      if (error instanceof HandlerError) this.noteMalformed(attachment, params, error.message)
      throw error
    }
    const session = port.getSession(attachment.agentId, normalized.sessionId)
    if (!session) throw sessionNotFound(normalized.sessionId)
    // From here on the session is Bosun's id (unique across agents).
    const sessionId = session.sessionId ?? normalized.sessionId
    if (attachment.closed || this.disposed) return CANCELLED

    if (this.pendingCount(sessionId) >= this.maxPendingPerSession) return this.refuseOverflow(attachment, sessionId)

    const order = ++this.order
    // The agent may use an id again once its request is answered: the arrival number keeps an answer the person gave
    // to one request (after main's confirmation dialog, say) from reaching a later one under the same id.
    const requestId = bosunRequestId(this.run, attachment, context.requestId, order)
    const identity = this.identityOf(normalized, session.cwd)
    const rememberNote = [normalized.sharedIdNote, this.rememberNote(normalized, identity)].filter(Boolean).join(' ')
    const view: PermissionRequestView = {
      requestId,
      agentId: attachment.agentId,
      agentName: attachment.agentName,
      sessionId,
      title: normalized.title,
      description: normalized.description,
      subject: normalized.subject,
      toolCallId: normalized.toolCallId,
      options: normalized.options,
      createdAt: this.now(),
      arrival: order,
      status: 'pending',
      ...(rememberNote ? { rememberNote } : {}),
    }
    const entry: PendingEntry = {
      view,
      normalized,
      identity,
      attachment,
      cwd: session.cwd,
      deferred: new Deferred<PermissionResponse>(),
      abortListener: toDisposable(() => {}),
      order,
    }
    // Decided before the request goes to the window: deciding reads the session (is it stopping?), and reading it sends
    // what is queued for the window. A request a rule answered went alone, shown waiting (a dialog that took the focus
    // and was announced) until its answer followed in the next batch.
    const immediate = this.immediateAnswer(entry, context.signal)
    this.options.sink(sessionId, { type: 'permission_requested', request: view, toolCallPatch: normalized.toolCallPatch })
    this.pendingById.set(requestId, entry)
    let ofSession = this.pendingBySession.get(sessionId)
    if (!ofSession) this.pendingBySession.set(sessionId, (ofSession = new Set()))
    ofSession.add(entry)
    attachment.entries.add(entry)

    if (immediate) {
      this.settle(entry, immediate.response, immediate.status, immediate.resolution, immediate.ruleId)
      return entry.deferred.promise
    }

    const onAbort = () => {
      // A closing connection aborts its signals too; let the close (→ `gone`) win when both happen together.
      queueMicrotask(() => {
        if (!this.pendingById.has(requestId)) return
        if (attachment.closed) return
        this.settle(entry, CANCELLED, 'cancelled', { by: 'agent-cancel', note: 'The agent withdrew the request.', at: this.now() })
      })
    }
    context.signal.addEventListener('abort', onAbort, { once: true })
    entry.abortListener = toDisposable(() => context.signal.removeEventListener('abort', onAbort))

    this.scheduleChange()
    this.requestEmitter.fire(view)
    return entry.deferred.promise
  }

  /** Over the per-session cap: answered `cancelled` without being kept; one note per flood. */
  /**
   * A request Bosun could not show (too many options, two options with one id, a malformed field): the agent gets the
   * error, and the person is told once per session, in it, that a question was refused and why.
   */
  private noteMalformed(attachment: Attachment, params: unknown, reason: string): void {
    const acpSessionId = typeof params === 'object' && params !== null ? (params as { sessionId?: unknown }).sessionId : undefined
    const session = typeof acpSessionId === 'string' ? this.options.sessions.getSession(attachment.agentId, acpSessionId) : undefined
    if (!session) return
    const sessionId = session.sessionId ?? (acpSessionId as string)
    if (this.malformedNoted.has(sessionId)) return
    this.malformedNoted.add(sessionId)
    this.log.warn(`[agent ${attachment.agentId}] refused a malformed permission request in ${sessionId}: ${reason.slice(0, 300)}`)
    this.warnInSession(
      sessionId,
      `${attachment.agentName} asked for a permission Bosun cannot show`,
      `The request was malformed: ${reason.replace(/^Invalid params for session\/request_permission: /, '').slice(0, 300)}. Bosun answered the agent with an error; it may ask again.`,
    )
  }

  /** A warning notice in the session (shown above its transcript). */
  private warnInSession(sessionId: string, title: string, description: string): void {
    this.options.sink(sessionId, { type: 'updates', updates: [bosunNotice('warning', title, description)] })
  }

  private refuseOverflow(attachment: Attachment, sessionId: string): PermissionResponse {
    if (!this.overflowNoted.has(sessionId)) {
      this.overflowNoted.add(sessionId)
      this.log.warn(`[agent ${attachment.agentId}] more than ${this.maxPendingPerSession} permission requests pending in ${sessionId}; cancelling the excess`)
      this.warnInSession(
        sessionId,
        `${attachment.agentName} asked for too many permissions at once`,
        `Bosun keeps ${this.maxPendingPerSession} questions waiting per session; it answered the rest “cancelled”.`,
      )
    }
    return CANCELLED
  }

  /** Listeners of the whole list hear once per burst (a flood of 10,000 arrivals is one event, not 10,000 copies). */
  private scheduleChange(): void {
    if (this.changeScheduled || this.disposed) return
    this.changeScheduled = true
    queueMicrotask(() => {
      this.changeScheduled = false
      if (!this.disposed && this.changeEmitter.listenerCount > 0) this.changeEmitter.fire(this.pending())
    })
  }

  /** An answer that needs no person: invalid/withdrawn requests, a remembered rule, auto-approve. */
  private immediateAnswer(
    entry: PendingEntry,
    signal: AbortSignal,
  ): { response: PermissionResponse; status: PermissionRequestView['status']; resolution: Resolution; ruleId?: string } | null {
    const at = this.now()
    const { normalized, attachment } = entry
    if (normalized.options.length === 0) {
      return { response: CANCELLED, status: 'cancelled', resolution: { by: 'cancel', note: 'The agent offered no options.', at } }
    }
    if (signal.aborted) {
      return { response: CANCELLED, status: 'cancelled', resolution: { by: 'agent-cancel', note: 'The agent withdrew the request.', at } }
    }
    // Asked after the person pressed Stop, before the turn ended (a flood's requests still coming in): answered as
    // Stop answered the ones waiting, or the agent would wait for a person who already said stop.
    if (this.options.sessions.isStopping?.(entry.view.sessionId) && this.stopAnswers(entry)) {
      return { response: CANCELLED, status: 'cancelled', resolution: { by: 'cancel', note: 'The turn was cancelled.', at } }
    }
    // Requests about an unknown subject or none at all are ambiguous: always ask (J7).
    if (entry.identity === null) return null
    const rules = this.options.rules?.list() ?? []
    const scope = { agentId: attachment.agentId, cwd: entry.cwd, sessionId: entry.view.sessionId }
    const byRule = answerByRules(rules, scope, entry.identity, normalized.options)
    if (byRule) {
      return {
        response: { outcome: { outcome: 'selected', optionId: byRule.option.optionId } },
        status: 'answered',
        resolution: { by: 'rule', optionId: byRule.option.optionId, optionKind: byRule.option.kind, note: `“${byRule.rule.label}”`, at },
        ruleId: byRule.rule.ruleId,
      }
    }
    if (this.isAutoApprove(entry.view.sessionId)) {
      const option = normalized.options.find((o) => o.kind === 'allow_once')
      if (option) {
        return {
          response: { outcome: { outcome: 'selected', optionId: option.optionId } },
          status: 'answered',
          resolution: { by: 'auto-approve', optionId: option.optionId, optionKind: option.kind, at },
        }
      }
    }
    return null
  }

  /** The one place a request is answered: removes it first, so nothing answers twice. */
  private settle(entry: PendingEntry, response: PermissionResponse, status: PermissionRequestView['status'], resolution: Resolution, ruleId?: string): void {
    const { requestId } = entry.view
    if (this.pendingById.get(requestId) !== entry) return
    this.pendingById.delete(requestId)
    const { sessionId } = entry.view
    const ofSession = this.pendingBySession.get(sessionId)
    ofSession?.delete(entry)
    if (ofSession?.size === 0) this.pendingBySession.delete(sessionId)
    if (this.pendingCount(sessionId) < this.maxPendingPerSession / 2) this.overflowNoted.delete(sessionId)
    entry.attachment.entries.delete(entry)
    entry.abortListener.dispose()
    entry.view = { ...entry.view, status, resolution }
    entry.deferred.resolve(response)

    this.options.sink(entry.view.sessionId, { type: 'permission_resolved', requestId, resolution, status })
    this.audit(entry, response, resolution, ruleId)
    this.scheduleChange()
    this.resolveEmitter.fire(entry.view)
  }

  private audit(entry: PendingEntry, response: PermissionResponse, resolution: Resolution, ruleId: string | undefined): void {
    if (!this.options.audit) return
    const { view } = entry
    const selected = response.outcome.outcome === 'selected' ? view.options.find((o) => o.optionId === resolution.optionId) : undefined
    const record: AuditRecord = {
      at: resolution.at,
      sessionId: view.sessionId,
      agentId: view.agentId,
      requestId: view.requestId,
      by: resolution.by,
      outcome: entry.view.status === 'gone' ? 'gone' : response.outcome.outcome,
      title: view.title,
      ...(selected ? { option: { optionId: selected.optionId, name: selected.name, kind: selected.kind } } : {}),
      ...(ruleId ? { ruleId } : {}),
      ...(resolution.note ? { note: resolution.note } : {}),
    }
    this.options.audit.append(record)
  }

  private remember(entry: PendingEntry, decision: RuleDecision, sessionOnly: boolean): void {
    const { attachment } = entry
    let identity = entry.identity
    if (!this.options.rules || identity === null) return
    // The option said "during this session": the rule says no more than the person chose.
    if (sessionOnly && identity.remember.scope === 'rule') identity = { ...identity, remember: { scope: 'session', note: SESSION_ONLY_NOTE } }
    const rule = ruleFromDecision({
      ruleId: this.newRuleId(),
      scope: { agentId: attachment.agentId, cwd: entry.cwd, sessionId: entry.view.sessionId },
      agentName: attachment.agentName,
      identity,
      decision,
      now: this.now(),
    })
    if (!rule) return
    this.options.rules.add(rule).catch((error: unknown) => {
      this.log.error('cannot store the remembered decision', error)
      // The rule applies until Bosun quits; the person should not believe it is kept for good.
      this.warnInSession(
        entry.view.sessionId,
        'Bosun could not save this decision',
        `It applies until Bosun quits, then you will be asked again: ${(error instanceof Error ? error.message : String(error)).slice(0, 300)}`,
      )
    })
  }

  /** The identity rules match, for subjects rules cover (a tool call or a command); never throws. */
  private identityOf(normalized: NormalizedPermissionRequest, cwd: string): SubjectIdentity | null {
    if (normalized.subject.type !== 'tool_call' && normalized.subject.type !== 'command') return null
    try {
      return subjectIdentity(normalized.facts, cwd)
    } catch (error) {
      this.log.warn('cannot read what the request is about; no rule applies to it', error)
      return null
    }
  }

  /** What the dialog says before the person clicks "always", when it will not become a lasting rule. */
  private rememberNote(normalized: NormalizedPermissionRequest, identity: SubjectIdentity | null): string | null {
    if (!normalized.options.some((o) => REMEMBERING_KINDS.has(o.kind)) || !this.options.rules) return null
    if (identity === null) return '“Always” will not be remembered for this request: Bosun does not recognise what it is about. It answers this request only.'
    if (identity.remember.scope !== 'rule') return identity.remember.note
    const several = [...REMEMBERING_KINDS].find((kind) => offeredMoreThanOnce(normalized.options, kind))
    if (!several) return null
    const names = normalized.options.filter((o) => o.kind === several).map((o) => `“${o.name}”`)
    return `Bosun will not remember ${names.join(' or ')}: a rule could not tell which one you chose. It answers this request only (the agent may keep it for its session).`
  }

  private entriesOf(sessionId: string): PendingEntry[] {
    return [...(this.pendingBySession.get(sessionId) ?? [])]
  }

  private detachAttachment(attachment: Attachment, reason: string): void {
    if (!this.attachments.delete(attachment)) return
    attachment.closed = true
    attachment.registration.dispose()
    const at = this.now()
    // A Set keeps insertion (= arrival) order.
    for (const entry of [...attachment.entries]) {
      this.settle(entry, CANCELLED, 'gone', { by: 'agent-exit', note: reason, at })
    }
  }
}

/** Unique across agents, their restarts, Bosun's runs and requests that reuse an answered id; the JSON type of the id is part of it (`"7"` ≠ `7`, B3). */
/**
 * Bosun's id of a request, the one the window answers with: within the contract's bound whatever id the agent chose
 * (up to 1,024 characters), so a long one is named by its hash. A 1,000-character id made one the window's answer was
 * refused for, so the person could neither allow, reject nor dismiss the request.
 */
function bosunRequestId(run: string, attachment: Attachment, id: JsonRpcId, order: number): string {
  const text = String(id)
  const named = text.length <= MAX_NAMED_ID_CHARS ? text : `#${createHash('sha256').update(text).digest('hex').slice(0, 32)}`
  return `${attachment.agentId}#${run}.${attachment.generation}:${typeof id === 'number' ? 'n' : 's'}:${named}#${order}`
}

/** The longest request id of an agent's that Bosun's own id for the request quotes as it is. */
const MAX_NAMED_ID_CHARS = 128
