import { ErrorCodes } from 'vscode-jsonrpc/node.js'
import { DisposableStore, toDisposable, type IDisposable } from '../base/lifecycle'
import { Deferred } from '../base/deferred'
import { formatBytes } from '../base/format-bytes'
import { BosunError, RpcError, fail, ok, stoppedByBosun, toFailure, type Failure, type Result } from '../base/errors'
import type { Logger } from '../base/log'
import type { AcpClientConnection, AgentSessionInfo, ProtocolVersion, SessionUpdateNotification } from '../acp/types'
import type { EventSink } from '../../common/contract'
import type { ContentBlock, SessionAction, SessionState, TurnError } from '../../common/session/types'
import { applyActions, createSessionState } from '../../common/session/reducer'
import { coalesceTextChunks, isPlainTextChunk } from '../../common/session/coalesce'
import { answeredLastPrompt } from '../../common/session/answered'
import { boundJson, cutText, DEFAULT_JSON_BOUNDS } from '../../common/bounded'
import { turnErrorFrom } from '../../common/acp-errors'
import { FROM_BOSUN, STOP_OVERDUE_TITLE, bosunNotice } from '../../common/session/stop-watchdog'
import { withoutUnkeptToolMeta, withTerminalOutputTail } from '../../common/session/reducer/tool-calls'
import { ActionBatcher, type Scheduler } from './action-batcher'
import { SESSION_FACTS } from './session-growth'
import { DEFAULT_EARLY_REQUEST_WAIT_MS, EarlyUpdates, MAX_EARLY_BYTES, MAX_EARLY_UPDATES, droppedNotice } from './early-updates'
import { SUBAGENT_KINDS, SubagentRoutes, agentScopedId, fromSubagent } from './subagents'
import { configuredBy } from './session-config'
import { deleteAgentSession, listAgentSessions, type AgentSessionsPort } from './agent-sessions'
import { KINDS_APPLIED_WHEN_FULL, STOPPED, newRecord, whenFull, type SessionRecord } from './session-record'
import { ConductNotices } from './conduct-notices'
import {
  additionalDirectoriesFor,
  foldersMissing,
  foldersNotPassed,
  isSessionGone,
  keysNotPassed,
  lastPromptNotSent,
  noticeAction,
  promptError,
  refusalReason,
  undelivered,
} from './session-notices'
import { holdsNothing, plainChunkWithinBounds, textStreamKey } from './text-streams'
import { mcpRefusals, reattach, reopen, type ReattachPort } from './reattach'

/** What the sessions layer needs from the agent runtime (the supervisor, adapted by the composition root). */
export interface AgentPort {
  /** Starts the agent if needed and resolves with its live connection. */
  connect(agentId: string): Promise<Result<{ connection: AcpClientConnection; protocolVersion: ProtocolVersion; withoutKeys?: { names: string[]; reason: string } }>>
  /** The agent's live connection when it is running and ready, never starting it (absent: nothing is running). */
  running?(agentId: string): AcpClientConnection | undefined
}

/**
 * Where the sessions service reports what it applied, for durable history (main/history/recorder.ts). Every
 * call must be cheap: `changed` runs after each batch, on the hot path.
 */
export interface SessionHistoryHooks {
  /** A new session on an agent (`capabilities`: what the agent offered at `initialize`). */
  created(state: SessionState, info: { capabilities?: unknown }): void
  /**
   * A batch was applied to an open session, or sent and not applied yet: `current` then reads the state with it
   * applied (what is written must be that one, not `state`).
   */
  changed(state: SessionState, current?: () => SessionState): void
  /** The session was closed (no longer held in memory). */
  closed(sessionId: string): void
  /** An id a stored session already has: a new session must not take it. */
  isTaken(sessionId: string): boolean
  /** The session never came to be (its load failed): keep nothing of it. */
  discarded?(sessionId: string): void
}

/** The MCP servers a session gets, in the agent's wire shape, and the configured ones it cannot take. */
export interface McpServersForSession {
  servers: Record<string, unknown>[]
  refused: { name: string; transport: string; reason: string }[]
}

/** Told when a session's pending requests must be answered `cancelled` (permissions, elicitations). */
export interface SessionCancellationListener {
  cancelSession(sessionId: string): void
  /**
   * The session closed, however it closed (the close button, a delete from the history, an open that failed): what was
   * kept for it goes (its auto-approve, its session-only rules, its terminals), since a later session may take its id.
   */
  closeSession?(sessionId: string): void
}

/** Most of a command's output one report brings that a session keeps: within the bound on any string, its end kept. */
const TERMINAL_REPORT_CHARS = DEFAULT_JSON_BOUNDS.maxStringChars

/** How long `session/new`, `session/load` and `session/resume` may take. */
export const DEFAULT_SESSION_CALL_TIMEOUT_MS = 120_000
/** After Stop, how long the agent has to end the turn before Bosun offers to stop the agent. */
export const DEFAULT_STOP_WATCHDOG_MS = 5_000
/** How long after a `session/cancel` another Stop sends one again (more presses meanwhile answer only Bosun's side). */
export const CANCEL_RESEND_MS = 1_000
/**
 * What one session may take from its agent while it is open (estimated JSON bytes of the updates applied, what only
 * replaced what the session held counting by what it added: session-growth.ts): far above any real session (a long
 * day of work is a few tens of MiB), low enough that an agent writing without end cannot fill main's or the renderer's
 * memory.
 */
export const DEFAULT_MAX_SESSION_BYTES = 256 * 1024 * 1024
/**
 * What all open sessions together may take from their agents (estimated as for {@link DEFAULT_MAX_SESSION_BYTES}):
 * ten agents that each stay under one session's bound would still hold gigabytes in main and in the window. The
 * session whose update passes it is stopped as one past its own bound is; closing a session gives back its share.
 */
export const DEFAULT_MAX_TOTAL_SESSION_BYTES = 1024 * 1024 * 1024
/**
 * Sessions open at once (new, opened from the history or from the agent's list), those still being opened
 * included. Far more than a person keeps open (each is an entry in the sidebar, and a live one a session its
 * agent holds), so only a renderer that opens them without end meets it: 2,000 held 141 MB of main's memory and
 * started as many sessions in the agents. Past it the call fails `too-many-sessions`, and the window shows why.
 */
export const MAX_OPEN_SESSIONS = 100

/** Takes an update that left the secret window (see `streamUpdate`). */
/** `plain`: `ready` is a plain text chunk (`isPlainTextChunk`), when the caller knows it already (else undefined). */
type StreamEmit = (sessionId: string, ready: SessionUpdateNotification['update'], plain?: boolean) => void

/**
 * Owns every session: creates them on agents, routes `session/update`s into the pure reducer (main keeps
 * a copy of each session's state for snapshots, so a reloaded renderer rehydrates) and forwards the same
 * actions, batched per frame, to the renderer.
 */

export class SessionsService implements IDisposable {
  /** By Bosun's id for the session: the agent-scoped id, with `#n` added when a restarted agent reuses one. */
  private readonly sessions = new Map<string, SessionRecord>()
  /** Agent-scoped id → Bosun's id of the newest session the agent calls that. */
  private readonly byAgentScopedId = new Map<string, string>()
  /** Which session each v2 subagent session is routed to: the one that announced it (`subagent_update`). */
  private readonly subagentRoutes = new SubagentRoutes((scoped) => this.byAgentScopedId.has(scoped))
  private suffix = 1
  /** Sessions being opened (waiting on their agent): they count towards {@link MAX_OPEN_SESSIONS} already. */
  private opening = 0
  /** Updates for session ids we do not know yet, while a `session/new` is in flight on that connection (v2 may send them first). */
  private readonly early = new EarlyUpdates()
  /** Bosun's words on what an agent did unasked: a mode that acts unasked, an input it leaves unread. */
  private readonly conduct = new ConductNotices({
    sessions: () => this.sessions,
    record: (sessionId) => this.sessions.get(sessionId),
    push: (sessionId, action) => this.push(sessionId, action),
    flush: (sessionId) => this.batcher.flush(sessionId),
  })
  private readonly store = new DisposableStore()
  private readonly batcher: ActionBatcher
  private readonly cancellationListeners: SessionCancellationListener[] = []
  private readonly redact: (actions: SessionAction[]) => SessionAction[]
  private readonly history: SessionHistoryHooks | undefined
  private readonly scheduler: Scheduler
  private readonly sessionCallTimeoutMs: number
  private readonly stopWatchdogMs: number
  private readonly maxSessionBytes: number
  private readonly maxTotalSessionBytes: number
  /** The sum of `received` over the open sessions. */
  private totalReceived = 0
  private readonly earlyRequestWaitMs: number
  /** The session the last update went to (see handleUpdate). */
  private lastRoute: { connection: AcpClientConnection; acpSessionId: string; sessionId: string; record: SessionRecord } | undefined
  private readonly streamHold: ((text: string) => number) | undefined
  /** Per session: the end of a text stream held back because it could be the start of a secret. */
  private readonly held = new Map<string, { key: string; update: SessionUpdateNotification['update']; text: string }>()
  private readonly mcpServers: ((agentId: string, connection: AcpClientConnection) => Promise<McpServersForSession>) | undefined
  /** What bringing a session back on its agent needs of this service (`reattach.ts`). */
  private readonly reattachPort: ReattachPort
  /** What the agent's own sessions (its list, its copies deleted) need of this service. */
  private readonly agentSessions: AgentSessionsPort = {
    connect: (agentId) => this.agents.connect(agentId),
    running: (agentId) => this.agents.running?.(agentId),
    withTimeout: (method, call) => this.withTimeout(method, call),
    resolve: (agentId, acpSessionId) => this.resolve(agentId, acpSessionId),
  }

  constructor(
    private readonly agents: AgentPort,
    private readonly events: EventSink,
    private readonly logger: Logger,
    options: {
      batchIntervalMs?: number
      scheduler?: Scheduler
      /** Applied to every action before it reaches the state and the renderer (secret values hidden). */
      redact?: (actions: SessionAction[]) => SessionAction[]
      /** How long `session/new|load|resume` may take (default {@link DEFAULT_SESSION_CALL_TIMEOUT_MS}). */
      sessionCallTimeoutMs?: number
      /** After Stop, how long before the session offers to stop the agent (default {@link DEFAULT_STOP_WATCHDOG_MS}). */
      stopWatchdogMs?: number
      /** What one session may take from its agent (default {@link DEFAULT_MAX_SESSION_BYTES}). */
      maxSessionBytes?: number
      /** What all open sessions together may take (default {@link DEFAULT_MAX_TOTAL_SESSION_BYTES}). */
      maxTotalSessionBytes?: number
      /** How long a request naming a session not known yet waits for `session/new` (default {@link DEFAULT_EARLY_REQUEST_WAIT_MS}). */
      earlyRequestWaitMs?: number
      history?: SessionHistoryHooks
      /**
       * For streamed text (message and thought chunks): how many trailing characters could be the start of
       * a secret. They are held back until the next chunk, so a secret split across chunks is redacted whole.
       */
      streamHold?: (text: string) => number
      /** MCP servers for a session of this agent (new, load, resume), and the ones it cannot take (named in the session). */
      mcpServers?: (agentId: string, connection: AcpClientConnection) => Promise<McpServersForSession>
    } = {},
  ) {
    this.mcpServers = options.mcpServers
    this.redact = options.redact ?? ((actions) => actions)
    this.history = options.history
    this.scheduler = options.scheduler ?? { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) }
    this.sessionCallTimeoutMs = options.sessionCallTimeoutMs ?? DEFAULT_SESSION_CALL_TIMEOUT_MS
    this.stopWatchdogMs = options.stopWatchdogMs ?? DEFAULT_STOP_WATCHDOG_MS
    this.maxSessionBytes = options.maxSessionBytes ?? DEFAULT_MAX_SESSION_BYTES
    this.maxTotalSessionBytes = options.maxTotalSessionBytes ?? DEFAULT_MAX_TOTAL_SESSION_BYTES
    this.earlyRequestWaitMs = options.earlyRequestWaitMs ?? DEFAULT_EARLY_REQUEST_WAIT_MS
    this.streamHold = options.streamHold
    this.batcher = this.store.add(
      new ActionBatcher((id, actions, _bytes, joined, grows) => this.flush(id, actions, grows, joined), options.batchIntervalMs ?? 16, options.scheduler, {
        // Without applying what waits (lazy-state.ts): a session's version never changes.
        versionOf: (id) => this.sessions.get(id)?.lazy.last.protocolVersion,
      }),
    )
    this.reattachPort = {
      logger,
      scheduler: this.scheduler,
      early: this.early,
      connect: (agentId) => agents.connect(agentId),
      mcpServers: (agentId, connection) => this.mcpServers?.(agentId, connection),
      has: (sessionId) => this.sessions.has(sessionId),
      isCurrent: (sessionId, record) => this.sessions.get(sessionId) === record,
      flush: (sessionId) => this.batcher.flush(sessionId),
      push: (sessionId, action) => this.push(sessionId, action),
      pushUpdate: (sessionId, update) => this.pushUpdate(sessionId, update),
      adopt: (sessionId, record, update) => this.subagentRoutes.adopt(sessionId, record, update),
      state: (sessionId) => this.state(sessionId),
      setMode: (sessionId, modeId) => this.setMode(sessionId, modeId),
      setConfigOption: (sessionId, configId, value) => this.setConfigOption(sessionId, configId, value),
      withTimeout: (method, call) => this.withTimeout(method, call),
    }
  }

  addCancellationListener(listener: SessionCancellationListener): void {
    this.cancellationListeners.push(listener)
  }

  /** Subscribes to a (new) connection of an agent; the returned disposable is owned by the caller's connection scope. */
  attachConnection(agentId: string, connection: AcpClientConnection): IDisposable {
    const sub = connection.onDidReceiveUpdate((notification) => this.handleUpdate(agentId, connection, notification))
    const stall = connection.onDidChangeInputStall?.((news) => this.conduct.inputStallChanged(connection, news))
    return toDisposable(() => {
      sub.dispose()
      stall?.dispose()
    })
  }

  /**
   * The agent's process went away: running turns end with its error; the sessions stay, detached. The next
   * prompt reattaches them to the agent's new process when it can resume or load sessions.
   */
  agentDisconnected(agentId: string, failure: Failure | undefined, byBosun = false): void {
    for (const [sessionId, record] of this.sessions) {
      if (record.agentId !== agentId || !record.connection) continue
      record.connection = undefined
      // Its subagents were sessions of the process that went: the next one may give their ids to sessions of its own.
      this.subagentRoutes.forget(sessionId, record)
      // Queued actions first: a turn that started within this frame must count as running.
      this.batcher.flush(sessionId)
      // The agent that did not read is gone: its error says what happened now.
      this.conduct.inputReadAgain(sessionId, record)
      if (record.state.turn.state !== 'idle') this.endTurnWithError(sessionId, record, { message: failure?.message ?? 'The agent stopped.', ...(byBosun ? { byBosun } : {}) })
      this.push(sessionId, { type: 'agent_gone' })
      this.batcher.flush(sessionId)
    }
  }

  /** Ends the running turn with an error. v2 turns end only with an idle `state_update`, which a dead agent never sends. */
  private endTurnWithError(sessionId: string, record: SessionRecord, error: TurnError): void {
    if (record.state.protocolVersion === 2) this.push(sessionId, { type: 'updates', updates: [{ sessionUpdate: 'state_update', state: 'idle' }] })
    this.push(sessionId, { type: 'turn_ended', stopReason: null, error })
  }

  has(sessionId: string): boolean {
    return this.sessions.has(sessionId)
  }

  agentOf(sessionId: string): string | undefined {
    return this.sessions.get(sessionId)?.agentId
  }

  /**
   * Bosun's id of the session an agent calls `acpSessionId`, if that agent has it; for a v2 subagent session its
   * parent announced, the parent's (its permission requests and questions are asked there).
   */
  resolve(agentId: string, acpSessionId: string): string | undefined {
    const scoped = agentScopedId(agentId, acpSessionId)
    const sessionId = this.byAgentScopedId.get(scoped) ?? this.subagentRoutes.parent(scoped)
    return sessionId !== undefined && this.sessions.get(sessionId)?.agentId === agentId ? sessionId : undefined
  }

  /**
   * Bosun's id of the session a request the agent sent on `connection` names (a permission, a question, a file, a
   * terminal): only a session of that very process, attached to it or being resumed on it (a v2 agent may ask again
   * during `session/resume`), or a subagent of one. A session the agent had in an earlier process, or one opened from
   * the history and not resumed, is not its to act in: undefined, answered -32002 (G7); its folder is not served.
   */
  servedSession(agentId: string, connection: AcpClientConnection, acpSessionId: string): string | undefined {
    const sessionId = this.resolve(agentId, acpSessionId)
    const record = sessionId !== undefined ? this.sessions.get(sessionId) : undefined
    return record && (record.connection === connection || record.reattachingOn === connection) ? sessionId : undefined
  }

  /**
   * {@link servedSession}, for a request that may name a session before Bosun knows it: while a `session/new|load|resume`
   * is in flight on `connection`, the agent may ask for the session it is making (or a subagent it announced in the
   * early updates) before answering, so the request waits until that call is over and is looked up then; at most
   * `MAX_EARLY_REQUESTS` (early-updates.ts) wait per connection, each at most `earlyRequestWaitMs` (an agent may wait for its answer
   * before it answers). Synchronous (undefined for "not served") unless it waits.
   */
  sessionForRequest(agentId: string, connection: AcpClientConnection, acpSessionId: string, signal: AbortSignal): string | undefined | Promise<string | undefined> {
    const served = this.servedSession(agentId, connection, acpSessionId)
    if (served !== undefined) return served
    return this.early.waitForAnswer(connection, signal, this.scheduler, this.earlyRequestWaitMs, () => this.servedSession(agentId, connection, acpSessionId)) ?? undefined
  }

  /** Whether the agent's session `childAcpSessionId` is a v2 subagent `sessionId` announced (routed to it now). */
  isSubagentOf(sessionId: string, childAcpSessionId: string): boolean {
    const record = this.sessions.get(sessionId)
    return record !== undefined && this.subagentRoutes.parent(agentScopedId(record.agentId, childAcpSessionId)) === sessionId
  }

  /** The session's live connection and the agent's id for it; `undefined` when the session is unknown or detached. */
  connectionOf(sessionId: string): { connection: AcpClientConnection; acpSessionId: string } | undefined {
    const record = this.sessions.get(sessionId)
    return record?.connection ? { connection: record.connection, acpSessionId: record.acpSessionId } : undefined
  }

  state(sessionId: string): SessionState | undefined {
    this.batcher.flush(sessionId)
    return this.sessions.get(sessionId)?.state
  }

  /** Queues a Bosun-side action for a session (permissions, elicitations, settings). */
  push(sessionId: string, action: SessionAction): void {
    const record = this.sessions.get(sessionId)
    if (!record) return
    if (record.full) {
      const kept = whenFull(action)
      if (!kept) return
      action = kept
    }
    this.releaseHeld(sessionId)
    this.batcher.push(sessionId, action)
  }

  /** Streams a text chunk through the secret window; everything else passes (after what was held). */
  private pushUpdate(sessionId: string, update: SessionUpdateNotification['update'], plain?: boolean): void {
    this.streamUpdate(sessionId, update, this.toBatcher, plain)
  }

  /**
   * The secret window: a text chunk's end that could begin a secret is held (per session) and joined to the
   * next chunk of the same stream; `emit` gets what is ready, in order. The early buffer's updates go through
   * it too, so a key split across updates sent before `session/new` answered is whole when redacted.
   */
  private streamUpdate(sessionId: string, update: SessionUpdateNotification['update'], emit: StreamEmit, plain?: boolean): void {
    const held = this.held.size > 0 ? this.held.get(sessionId) : undefined
    // The common case, nothing held and no secret's start to hold: the update passes, without a stream key made for it.
    if (!held && (!this.streamHold || holdsNothing(update, this.streamHold))) {
      emit(sessionId, update, plain)
      return
    }
    const key = this.streamHold ? textStreamKey(update) : undefined
    if (held && held.key !== key) this.releaseHeld(sessionId, emit)
    if (key === undefined) {
      emit(sessionId, update)
      return
    }
    const content = update.content as { text: string }
    const joined = held?.key === key
    const text = joined ? held.text + content.text : content.text
    const hold = Math.min(this.streamHold!(text), text.length)
    // The common case (nothing held, nothing to hold) passes the update itself: no copy per chunk.
    if (!joined && hold === 0) {
      if (text) emit(sessionId, update)
    } else if (hold < text.length) emit(sessionId, { ...update, content: { ...content, text: text.slice(0, text.length - hold) } })
    if (hold > 0) this.held.set(sessionId, { key, update, text: text.slice(text.length - hold) })
    else if (joined) this.held.delete(sessionId)
  }

  /** Where streamed updates go outside the early buffer (one function, not a closure per update). */
  private readonly toBatcher: StreamEmit = (sessionId, ready, plain) => this.batcher.pushUpdate(sessionId, ready, plain)

  private releaseHeld(sessionId: string, emit: StreamEmit = this.toBatcher): void {
    const held = this.held.get(sessionId)
    if (!held) return
    this.held.delete(sessionId)
    const content = held.update.content as Record<string, unknown>
    emit(sessionId, { ...held.update, content: { ...content, text: held.text } })
  }

  /** Updates held in the early buffer, through the secret window (its last held end stays for the next chunk). */
  private streamEarly(sessionId: string, buffered: SessionUpdateNotification['update'][], flushHeld: boolean): SessionUpdateNotification['update'][] {
    const out: SessionUpdateNotification['update'][] = []
    const collect: StreamEmit = (_id, ready) => out.push(ready)
    for (const update of buffered) this.streamUpdate(sessionId, update, collect)
    if (flushHeld) this.releaseHeld(sessionId, collect)
    return out
  }

  snapshot(): SessionState[] {
    this.batcher.flush()
    return [...this.sessions.values()].map((r) => r.state)
  }

  /**
   * `options.additionalDirectories`: folders beyond `cwd` (already checked by the caller). They go on
   * `session/new` only to an agent that advertises `additionalDirectories` (E1); the session keeps them either
   * way, as roots Bosun serves files and terminals in.
   */
  async newSession(agentId: string, cwd: string, options: { additionalDirectories?: readonly string[] } = {}): Promise<Result<{ sessionId: string }>> {
    // Its place is held while the agent starts and answers: a thousand asked at once are not all let through.
    return this.holdingAPlace(() => this.createSession(agentId, cwd, options))
  }

  /**
   * `open` run with a place among the {@link MAX_OPEN_SESSIONS} held for the session it opens (room is checked first;
   * none: the failure, and `open` is not run). The place is given back when `open` settles: from then on the session,
   * if it opened, holds its own.
   */
  private async holdingAPlace<T>(open: () => Promise<Result<T>>): Promise<Result<T>> {
    const room = this.roomForAnother()
    if (!room.ok) return room
    this.opening++
    try {
      return await open()
    } finally {
      this.opening--
    }
  }

  /**
   * Whether one more session may open ({@link MAX_OPEN_SESSIONS}); the failure says to close one. The history asks
   * before it reads a stored session, and every way a session opens here asks again.
   */
  roomForAnother(): Result<undefined> {
    if (this.sessions.size + this.opening < MAX_OPEN_SESSIONS) return ok(undefined)
    return fail({
      kind: 'too-many-sessions',
      message: `${MAX_OPEN_SESSIONS} sessions are open, as many as Bosun keeps at once. Close a session to open another.`,
    })
  }

  private async createSession(agentId: string, cwd: string, options: { additionalDirectories?: readonly string[] }): Promise<Result<{ sessionId: string }>> {
    const connected = await this.agents.connect(agentId)
    if (!connected.ok) return connected
    const { connection, protocolVersion, withoutKeys } = connected.value
    const extra = [...(options.additionalDirectories ?? [])]
    const early = this.early.begin(connection)
    try {
      const mcp = await this.mcpServers?.(agentId, connection)
      const outcome = await this.withTimeout(
        'session/new',
        connection.newSession({ cwd, ...(mcp ? { mcpServers: mcp.servers } : {}), ...additionalDirectoriesFor(connection, extra) }),
      )
      const scoped = agentScopedId(agentId, outcome.sessionId)
      const previous = this.sessions.get(this.byAgentScopedId.get(scoped) ?? '')
      if (previous?.connection === connection) {
        // An agent that hands out an id it already gave on this connection: updates would go to both.
        return fail({ kind: 'rpc-error', message: `The agent answered with the id of a session that is already open (${outcome.sessionId}).` })
      }
      // A restarted agent may number its sessions from the start again: the old one keeps its place, detached for good.
      if (previous) previous.superseded = true
      // (An agent may itself use ids ending in `#n`: look for a free one.)
      let sessionId = scoped
      while (this.sessions.has(sessionId) || this.history?.isTaken(sessionId)) sessionId = `${scoped}#${++this.suffix}`
      this.byAgentScopedId.set(scoped, sessionId)
      const state = createSessionState({ sessionId, acpSessionId: outcome.sessionId, agentId, protocolVersion, cwd })
      if (extra.length > 0) state.additionalDirectories = extra
      const record = newRecord({ agentId, acpSessionId: outcome.sessionId, state, connection, turn: undefined, cancelRequested: false })
      this.sessions.set(sessionId, record)
      const configured = configuredBy(outcome) ?? { type: 'session_configured' }
      // The reducer applies configuration first, then anything the agent sent before answering.
      const buffered = this.early.takeFor(early, record, (update) => this.subagentRoutes.adopt(sessionId, record, update))
      const actions: SessionAction[] = [configured, ...mcpRefusals(record, mcp), ...foldersNotPassed(connection, extra), ...keysNotPassed(withoutKeys)]
      const dropped = buffered.dropped
      if (buffered.updates.length) actions.push({ type: 'updates', updates: this.streamEarly(sessionId, buffered.updates, dropped > 0) })
      if (dropped) actions.push({ type: 'updates', updates: [droppedNotice(dropped)] })
      record.state = applyActions(state, this.redact(actions))
      this.history?.created(record.state, { capabilities: connection.handshake?.capabilities })
      this.events.emit('sessionAdded', { session: record.state })
      this.conduct.started(sessionId, record)
      return ok({ sessionId })
    } catch (error) {
      return fail(undelivered(toFailure(error), 'the request for a new session'))
    } finally {
      this.early.release(connection, early)
    }
  }

  async prompt(sessionId: string, prompt: ContentBlock[]): Promise<Result<{ stopReason: string | null }>> {
    let record = this.sessions.get(sessionId)
    if (!record) return fail({ kind: 'not-found', message: `No session ${sessionId}.` })
    if (record.reopening) {
      const reopened = await this.untilReady(record, this.afterReopen(sessionId))
      if (reopened === STOPPED) return this.withdrawn(sessionId)
      record = reopened
    }
    if (!record) return fail({ kind: 'not-found', message: `No session ${sessionId}.` })
    if (record.turn) return fail({ kind: 'invalid-argument', message: 'A turn is already running in this session; stop it or wait for it to end.' })
    if (record.full) return fail({ kind: 'invalid-argument', message: `${record.full.reason} Start a new session in ${record.state.cwd}.` })
    if (!record.connection || record.reattaching) {
      const attached = await this.untilReady(record, reattach(this.reattachPort, sessionId, record))
      if (attached === STOPPED) return this.withdrawn(sessionId)
      if (!attached.ok) return attached
      if (record.turn) return fail({ kind: 'invalid-argument', message: 'A turn is already running in this session; stop it or wait for it to end.' })
    }
    const connection = record.connection!
    record.cancelRequested = false
    this.push(sessionId, { type: 'local_prompt', content: prompt })
    this.push(sessionId, { type: 'turn_started' })
    // The person's message and "Working" go out on their own, before any of the agent's updates of this turn.
    this.batcher.flush(sessionId)
    // v2: the answer names the message the prompt became, so its echo joins the local bubble, whatever its text (F6).
    const turn = connection.prompt(record.acpSessionId, prompt, { onInserted: (messageId) => this.push(sessionId, { type: 'prompt_inserted', messageId }) })
    record.turn = turn
    // Sent into an input the agent already left unread: the message waits behind it, said now.
    const stall = connection.inputStall?.()
    if (stall) this.conduct.inputStalled(sessionId, record, stall)
    this.clearWatchdog(record)
    try {
      const outcome = await turn
      this.push(sessionId, {
        type: 'turn_ended',
        stopReason: outcome.stopReason,
        ...(outcome.error ? { error: turnErrorFrom(outcome.error) } : {}),
      })
      return ok({ stopReason: outcome.stopReason })
    } catch (error) {
      const failure = undelivered(toFailure(error))
      if (error instanceof RpcError && !record.cancelRequested) {
        // The agent refused the prompt: the message was not sent (v2: not inserted). v2 foreground work is not
        // over because of that (F6, F7): the turn stays as the agent last reported it, until its own state_update.
        const refused = promptError(failure)
        const undelivered = failure.code === ErrorCodes.MessageWriteError
        this.push(sessionId, { type: 'prompt_rejected', error: refused, ...(undelivered ? { undelivered } : {}) })
        if (isSessionGone(error, record.acpSessionId)) {
          // The agent no longer has this session (it lost it, or another client deleted it): every later send would
          // fail the same way, so the composer says so, with a new session in the folder as the way forward.
          this.push(sessionId, { type: 'cannot_continue', reason: `The agent no longer has this session (it answered: ${cutText(failure.message, 200)}), so it cannot continue.` })
        }
        if (record.state.protocolVersion === 1) {
          // v1: the error also ends the turn; its details are part of what the transcript shows.
          const message = refused.details ? `${refused.message}\n${refused.details}` : refused.message
          this.push(sessionId, { type: 'turn_ended', stopReason: null, error: { message, code: error.code } })
          // The agent answered something to the prompt first (claude-agent-acp's rate limit after partial output):
          // the message was sent and the turn ran, ending with an error the transcript tells. That is how a v2
          // agent's turn ends with an error too (its idle), and the composer must not offer the message again.
          this.batcher.flush(sessionId)
          if (!lastPromptNotSent(record.state)) return ok({ stopReason: null })
        }
        return fail(failure)
      }
      if (record.cancelRequested && failure.kind !== 'agent-exited') {
        // An error after we cancelled is an agent bug; show it as cancelled, not as a scary error (checklist F5).
        this.push(sessionId, { type: 'turn_ended', stopReason: 'cancelled' })
        return ok({ stopReason: 'cancelled' })
      }
      // After a crash agentDisconnected already ended the turn with the agent's error.
      this.batcher.flush(sessionId)
      if (record.state.turn.state !== 'idle' || failure.kind !== 'agent-exited') {
        this.endTurnWithError(sessionId, record, { message: failure.message, ...(failure.code !== undefined ? { code: failure.code } : {}), ...(stoppedByBosun(error) ? { byBosun: true } : {}) })
      }
      // The agent answered before it died: the message was sent and its turn ran, ending with the error the transcript
      // tells (`data.answered`: the composer does not offer the message again). One the agent never answered goes back.
      if (failure.kind === 'agent-exited' && failure.data === undefined && answeredLastPrompt(record.state)) return fail({ ...failure, data: { answered: true } })
      return fail(failure)
    } finally {
      record.turn = undefined
      this.clearWatchdog(record)
      this.batcher.flush(sessionId)
    }
  }

  /**
   * What a message waits for before it can go (its session's reopen, or its reattach), or {@link STOPPED} at the
   * session's first Stop meanwhile: the message is withdrawn then, while the reopen or the reattach goes on.
   */
  private async untilReady<T>(record: SessionRecord, ready: Promise<T>): Promise<T | typeof STOPPED> {
    const stop = new Deferred<typeof STOPPED>()
    const waiting = (record.waitingMessages ??= new Set())
    waiting.add(stop)
    try {
      return await Promise.race([ready, stop.promise])
    } finally {
      waiting.delete(stop)
    }
  }

  /** A message Stop withdrew while it waited (a close stops it too: then the session is gone). */
  private withdrawn(sessionId: string): Result<never> {
    if (!this.sessions.has(sessionId)) return fail({ kind: 'not-found', message: `No session ${sessionId}.` })
    return fail({ kind: 'cancelled', message: 'You pressed Stop before the session was ready, so the message was not sent. It is back in the message box.' })
  }

  cancel(sessionId: string): Result<undefined> {
    const record = this.sessions.get(sessionId)
    if (!record) return fail({ kind: 'not-found', message: `No session ${sessionId}.` })
    for (const waiting of record.waitingMessages ?? []) waiting.resolve(STOPPED)
    this.batcher.flush(sessionId)
    // Also when the agent works on its own (v2 agent-initiated foreground work, F11): Stop means stop.
    if (record.connection && (record.turn || record.state.turn.state !== 'idle')) {
      // Once a second at most: a page that sends Stop without end (a stuck key, a hostile renderer) must not write a
      // `session/cancel` to the agent for each. A Stop pressed again later asks again.
      const now = this.scheduler.now?.() ?? performance.now()
      if (!record.cancelRequested || record.cancelSentAt === undefined || now - record.cancelSentAt >= CANCEL_RESEND_MS) {
        record.cancelRequested = true
        record.cancelSentAt = now
        record.connection.cancel(record.acpSessionId)
        this.push(sessionId, { type: 'cancel_requested' })
      }
      // The watchdog counts from the first Stop: pressing it again does not put off the offer to stop the agent.
      if (record.watchdog === undefined) this.armWatchdog(sessionId, record)
    }
    // Pending permissions and elicitations of this session are answered `cancelled` right after session/cancel (F13, F15).
    for (const listener of this.cancellationListeners) listener.cancelSession(sessionId)
    return ok(undefined)
  }

  /** `session/set_mode`, only for a mode the agent listed for this session (E12): a renderer's other id never reaches it. */
  async setMode(sessionId: string, modeId: string): Promise<Result<undefined>> {
    const record = this.sessions.get(sessionId)
    if (record) {
      const { modes } = record.state
      if (!modes?.availableModes.some((m) => m.id === modeId)) {
        const message = modes ? `The agent does not offer the mode ${modeId} in this session.` : 'The agent offers no modes to choose from in this session.'
        return fail({ kind: 'invalid-argument', message })
      }
    }
    this.conduct.chose(sessionId, undefined, modeId)
    return this.withConnection(sessionId, async (connection, acpSessionId) => {
      await this.withTimeout('session/set_mode', connection.setMode(acpSessionId, modeId))
      const update = { sessionUpdate: 'current_mode_update', currentModeId: modeId }
      this.push(sessionId, { type: 'updates', updates: [update] })
      this.conduct.left(sessionId, update)
    })
  }

  /**
   * `session/set_model`, only for a model the agent listed for this session (and only while no config option is
   * the model: that one is set with set_config_option). The protocol reports no change, so the agent's success is it.
   */
  async setModel(sessionId: string, modelId: string): Promise<Result<undefined>> {
    const record = this.sessions.get(sessionId)
    const models = record?.state.models
    if (record && !models?.availableModels.some((m) => m.id === modelId)) {
      const message = models ? `The agent does not offer the model ${modelId} in this session.` : 'The agent offers no models to choose from in this session.'
      return fail({ kind: 'invalid-argument', message })
    }
    return this.withConnection(sessionId, async (connection, acpSessionId) => {
      if (!connection.setModel) throw new BosunError({ kind: 'invalid-argument', message: 'This connection cannot set a model.' })
      await this.withTimeout('session/set_model', connection.setModel(acpSessionId, modelId))
      this.push(sessionId, { type: 'model_selected', modelId })
    })
  }

  /** A notice the person dismissed leaves the session's state, so no window (and no later visit) shows it again. */
  dismissNotice(sessionId: string, noticeId: string): Result<undefined> {
    const record = this.sessions.get(sessionId)
    if (!record) return fail({ kind: 'not-found', message: `No session ${sessionId}.` })
    // Queued updates may hold the notice: they go first.
    this.batcher.flush(sessionId)
    if (record.state.notices.some((n) => n.id === noticeId)) {
      this.batcher.push(sessionId, { type: 'dismiss_notice', id: noticeId })
      this.batcher.flush(sessionId)
    }
    return ok(undefined)
  }

  /**
   * `session/set_config_option`, only for an option the agent listed for this session and a value of its kind: one of
   * a select's values, a boolean for a boolean option (E13, E14). An option of a kind Bosun does not know is not set.
   */
  async setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<Result<undefined>> {
    const record = this.sessions.get(sessionId)
    if (record) {
      const option = record.state.configOptions.find((o) => o.id === configId)
      const fits =
        option?.type === 'select' ? typeof value === 'string' && option.options.some((o) => o.value === value) : option?.type === 'boolean' && typeof value === 'boolean'
      if (!fits) {
        const message = option ? `The agent does not offer ${JSON.stringify(value)} for ${option.name} in this session.` : `The agent offers no option ${configId} in this session.`
        return fail({ kind: 'invalid-argument', message })
      }
    }
    this.conduct.chose(sessionId, configId, value)
    return this.withConnection(sessionId, async (connection, acpSessionId) => {
      // Raced against the deadline too: a reattach waits for this one (restoreMode), and every prompt waits for the reattach.
      const options = await this.withTimeout('session/set_config_option', connection.setConfigOption(acpSessionId, configId, value))
      if (!options) return
      const update = { sessionUpdate: 'config_option_update', configOptions: options }
      this.push(sessionId, { type: 'updates', updates: [update] })
      this.conduct.left(sessionId, update)
    })
  }

  closeSession(sessionId: string): Result<undefined> {
    const record = this.sessions.get(sessionId)
    if (!record) return fail({ kind: 'not-found', message: `No session ${sessionId}.` })
    this.cancel(sessionId)
    for (const listener of this.cancellationListeners) listener.closeSession?.(sessionId)
    // The agent may free what it holds for the session (`session/close`, where it offers it); its answer does not matter here.
    const closing = record.connection
    if (closing?.closeSession && closing.handshake?.capabilities.closeSession && !record.superseded) {
      closing.closeSession(record.acpSessionId).catch((error: unknown) => this.logger.debug(`session/close of ${sessionId} failed`, error))
    }
    // What the session did up to now is applied (and so kept in the history) before it goes.
    if (this.history) this.batcher.flush(sessionId)
    this.clearWatchdog(record)
    this.held.delete(sessionId)
    this.batcher.drop(sessionId)
    this.sessions.delete(sessionId)
    this.totalReceived -= record.received ?? 0
    const scoped = agentScopedId(record.agentId, record.acpSessionId)
    if (this.byAgentScopedId.get(scoped) === sessionId) this.byAgentScopedId.delete(scoped)
    this.subagentRoutes.forget(sessionId, record)
    this.history?.closed(sessionId)
    this.events.emit('sessionRemoved', { sessionId })
    return ok(undefined)
  }

  /**
   * Builds the session again on the agent, as closing it and opening it from the history would: `session/close`
   * (where the agent offers it), then the reattach a history session gets (`session/resume`, else `session/load`
   * with its replay dropped). The transcript stays and the agent's session id with it. For an agent that applies a
   * sign-in only to sessions built after it (claude-agent-acp's gateway login): the person reopens the session
   * instead of losing it. Refused while a turn runs or a reattach is under way, and for an agent that can neither
   * resume nor load sessions (closing it would lose it).
   */
  async reopenSession(sessionId: string): Promise<Result<undefined>> {
    const record = this.sessions.get(sessionId)
    if (!record) return fail({ kind: 'not-found', message: `No session ${sessionId}.` })
    if (record.turn || record.reattaching || record.reopening) return fail({ kind: 'invalid-argument', message: 'The session is busy: reopen it once its turn ended.' })
    const reopening = reopen(this.reattachPort, sessionId, record)
    record.reopening = reopening
    try {
      return await reopening
    } finally {
      record.reopening = undefined
    }
  }

  /**
   * The session's record once a reopen under way ended (whatever its outcome: a failed one leaves the session as
   * the next send finds it), so what is sent meanwhile goes to the rebuilt session, not to the one being closed.
   * Called only while one is under way: a send with none goes on in the same tick (its turn is marked at once).
   */
  private async afterReopen(sessionId: string): Promise<SessionRecord | undefined> {
    for (let record = this.sessions.get(sessionId); ; record = this.sessions.get(sessionId)) {
      if (!record?.reopening) return record
      // Its outcome is the reopen's caller's to tell.
      await record.reopening.catch(() => undefined)
    }
  }

  /**
   * Opens a session from the history: held in memory again, detached (its agent is not started). The first
   * prompt reattaches it like a session whose agent restarted: `session/resume`, else `session/load`.
   */
  restore(state: SessionState): Result<{ sessionId: string }> {
    const { sessionId } = state
    if (this.sessions.has(sessionId)) return ok({ sessionId })
    const room = this.roomForAnother()
    if (!room.ok) return room
    const record = newRecord({ agentId: state.agentId, acpSessionId: state.acpSessionId, state, connection: undefined, turn: undefined, cancelRequested: false, restored: true })
    const scoped = agentScopedId(state.agentId, state.acpSessionId)
    const other = this.sessions.get(this.byAgentScopedId.get(scoped) ?? '')
    // A live session the agent calls by the same id: the agent reused it, this one cannot be continued.
    if (other) record.superseded = true
    else this.byAgentScopedId.set(scoped, sessionId)
    this.sessions.set(sessionId, record)
    this.events.emit('sessionAdded', { session: state })
    return ok({ sessionId })
  }

  /** Asks the agent to delete its own copy of a session (`agent-sessions.ts`). */
  deleteAgentSession(agentId: string, acpSessionId: string): Promise<Result<{ sent: boolean }>> {
    return deleteAgentSession(this.agentSessions, agentId, acpSessionId)
  }

  /** The agent's own sessions for a folder (`agent-sessions.ts`); `signal`: the person cancelled. */
  listAgentSessions(agentId: string, cwd: string, signal?: AbortSignal): Promise<Result<AgentSessionInfo[] | null>> {
    return listAgentSessions(this.agentSessions, agentId, cwd, signal)
  }

  /**
   * Opens a session the agent has but Bosun never showed (from its `session/list`): `session/load` (v1) or a
   * replaying `session/resume` (v2). Nothing is stored for it, so the replay builds its transcript.
   * `options.additionalDirectories`: the folders the list gave it (checked by the caller), the complete list (E17):
   * the session keeps them as its roots, and they go on the call to an agent that advertises them (E1).
   * `options.missingFolders`: listed ones that are not folders here, named in a notice.
   * `options.title`: the title the list gave it, the session's until the agent sends one (`session_info_update`).
   */
  async openAgentSession(
    agentId: string,
    acpSessionId: string,
    cwd: string,
    options: { additionalDirectories?: readonly string[]; missingFolders?: readonly string[]; title?: string | null } = {},
  ): Promise<Result<{ sessionId: string }>> {
    const scoped = agentScopedId(agentId, acpSessionId)
    const open = this.byAgentScopedId.get(scoped)
    if (open !== undefined && this.sessions.get(open)?.connection) return ok({ sessionId: open })
    // Its place is held while the agent starts; from the answer on, the session itself holds it.
    const connected = await this.holdingAPlace(() => this.agents.connect(agentId))
    if (!connected.ok) return connected
    const { connection, protocolVersion } = connected.value
    // Asked twice at once (a double click): the first one to get here opens it, the other gets that session.
    const opened = this.byAgentScopedId.get(scoped)
    if (opened !== undefined && this.sessions.get(opened)?.connection === connection) return ok({ sessionId: opened })
    if (protocolVersion === 1 && !connection.handshake?.capabilities.loadSession) {
      return fail({ kind: 'invalid-argument', message: 'This agent cannot load its earlier sessions.' })
    }
    let sessionId = scoped
    while (this.sessions.has(sessionId) || this.history?.isTaken(sessionId)) sessionId = `${scoped}#${++this.suffix}`
    const created = createSessionState({ sessionId, acpSessionId, agentId, protocolVersion, cwd })
    const extra = [...(options.additionalDirectories ?? [])]
    if (extra.length > 0) created.additionalDirectories = extra
    // The listed title is the agent's word as much as a session_info_update is, and goes the same way (redacted).
    const state = options.title
      ? applyActions(created, this.redact([{ type: 'updates', updates: [{ sessionUpdate: 'session_info_update', title: options.title }] }]))
      : created
    // Attached before the call: the replay arrives while it runs and fills the transcript.
    const record = newRecord({ agentId, acpSessionId, state, connection, turn: undefined, cancelRequested: false })
    this.sessions.set(sessionId, record)
    this.byAgentScopedId.set(scoped, sessionId)
    this.history?.created(state, { capabilities: connection.handshake?.capabilities })
    this.events.emit('sessionAdded', { session: state })
    try {
      const mcp = await this.mcpServers?.(agentId, connection)
      const outcome = await this.withTimeout(
        'session/load',
        connection.resumeSession({ sessionId: acpSessionId, cwd, replay: true, ...(mcp ? { mcpServers: mcp.servers } : {}), ...additionalDirectoriesFor(connection, extra) }),
      )
      // Closed while the agent loaded it (the close told the agent): the window must not go to a session that is gone.
      if (this.sessions.get(sessionId) !== record) return fail({ kind: 'not-found', message: `No session ${sessionId}.` })
      const configured = configuredBy(outcome)
      if (configured) this.push(sessionId, configured)
      for (const action of [...mcpRefusals(record, mcp), ...foldersNotPassed(connection, extra), ...foldersMissing(options.missingFolders ?? [])]) this.push(sessionId, action)
      this.batcher.flush(sessionId)
      return ok({ sessionId })
    } catch (error) {
      // Closed meanwhile, and perhaps opened again from the history under the same id: that one is left alone.
      const reopened = this.sessions.has(sessionId) && this.sessions.get(sessionId) !== record
      if (!reopened) {
        this.history?.discarded?.(sessionId)
        this.closeSession(sessionId)
      }
      return fail(undelivered(toFailure(error), 'the request to open the session'))
    }
  }

  private async withConnection(sessionId: string, fn: (connection: AcpClientConnection, acpSessionId: string) => Promise<void>): Promise<Result<undefined>> {
    let record = this.sessions.get(sessionId)
    if (record?.reopening) record = await this.afterReopen(sessionId)
    if (!record) return fail({ kind: 'not-found', message: `No session ${sessionId}.` })
    if (!record.connection || (record.reattaching && !record.restoringMode)) {
      // A session reopened from the history (or left by a restarted agent) shows its mode and options: changing one
      // brings it back on its agent first, as sending a message does.
      const attached = await reattach(this.reattachPort, sessionId, record)
      if (!attached.ok) return fail(attached.error)
    }
    if (!record.connection) return fail({ kind: 'agent-not-running', message: 'The agent of this session is not running.' })
    try {
      await fn(record.connection, record.acpSessionId)
      return ok(undefined)
    } catch (error) {
      const failure = undelivered(error instanceof BosunError ? error.failure : toFailure(error), 'the change')
      // Gemini CLI refuses a mode with only "Internal error", and why in `data.details` ("Cannot enable privileged
      // approval modes in an untrusted folder."): the message the person sees says why.
      return fail(failure.kind === 'rpc-error' ? { ...failure, message: refusalReason(failure) } : failure)
    }
  }

  private handleUpdate(agentId: string, connection: AcpClientConnection, raw: SessionUpdateNotification): void {
    // Whatever the agent sent is cut to fixed bounds before anything keeps it (a 6,000-level rawInput, a 50 MB title),
    // and a tool call's `_meta` to what the session keeps of it: the session's budget counts what it keeps.
    // (Both `_meta` steps leave an update without one as it is: most of a flood is not looked at twice for it.)
    // A plain text chunk (most of a stream) within the bounds is kept as it came without boundJson walking it to say so,
    // and the batcher is told it is one (it would check again).
    const plain = isPlainTextChunk(raw.update) && plainChunkWithinBounds(raw.update)
    let update = plain ? raw.update : raw.update._meta === undefined ? boundJson(raw.update) : withoutUnkeptToolMeta(boundJson(withTerminalOutputTail(raw.update, TERMINAL_REPORT_CHARS)))
    // Only main marks a notice as Bosun's own: an agent's notice never carries the mark.
    if (update.sessionUpdate === 'notice' && FROM_BOSUN in update) {
      const { [FROM_BOSUN]: _taken, ...rest } = update as Record<string, unknown>
      update = rest as typeof update
    }
    const acpSessionId = raw.sessionId
    // A stream goes to one session thousands of times in a row: remember the last route (checked every time).
    let route = this.lastRoute
    if (route?.connection !== connection || route.acpSessionId !== acpSessionId || this.sessions.get(route.sessionId) !== route.record) {
      const sessionId = this.byAgentScopedId.get(agentScopedId(agentId, acpSessionId))
      const record = sessionId !== undefined ? this.sessions.get(sessionId) : undefined
      route = sessionId !== undefined && record && record.agentId === agentId ? { connection, acpSessionId: acpSessionId, sessionId, record } : undefined
      this.lastRoute = route
    }
    if (route && route.record.connection === connection) {
      const tail = route.record.replayTail
      if (tail) {
        tail.heard()
        if (!SESSION_FACTS.has(update.sessionUpdate)) return
      }
      if (update.sessionUpdate === 'subagent_update') this.subagentRoutes.adopt(route.sessionId, route.record, update)
      if (!route.record.full || KINDS_APPLIED_WHEN_FULL.has(update.sessionUpdate)) this.pushUpdate(route.sessionId, update, plain)
      // (Not what a `session/load` replays: the session as it was, modes the person may have chosen in an earlier run.)
      if ((update.sessionUpdate === 'current_mode_update' || update.sessionUpdate === 'config_option_update') && !tail) this.conduct.switched(route.sessionId, route.record, update)
      else if (!tail && update.sessionUpdate === 'agent_message_chunk') this.conduct.marker(route.sessionId, route.record, update)
      return
    }
    const parentId = this.subagentRoutes.parent(agentScopedId(agentId, acpSessionId))
    const parent = parentId !== undefined ? this.sessions.get(parentId) : undefined
    if (parentId !== undefined && parent && parent.agentId === agentId && parent.connection === connection) {
      // A subagent's own subagents belong to the same conversation: announced to the same parent.
      if (update.sessionUpdate === 'subagent_update') this.subagentRoutes.adopt(parentId, parent, update)
      if (SUBAGENT_KINDS.has(update.sessionUpdate) && !parent.full && !parent.replayTail) this.pushUpdate(parentId, fromSubagent(update, acpSessionId))
      return
    }
    const firstDrop = () => this.logger.warn(`agent ${agentId} sent more than ${MAX_EARLY_UPDATES} updates or ${formatBytes(MAX_EARLY_BYTES)} before answering session/new; dropping the rest`)
    if (this.early.hold(connection, acpSessionId, update, firstDrop)) return
    this.logger.debug(`dropping update for unknown session ${acpSessionId} from agent ${agentId}`)
  }

  /**
   * `session/new|load|resume|list|delete` and the session's settings raced against a deadline: an agent that never
   * answers gets a clear error instead of a spinner forever. (A late answer is ignored; the agent keeps a session nobody shows.)
   */
  private withTimeout<T>(method: string, call: Promise<T>): Promise<T> {
    const ms = this.sessionCallTimeoutMs
    let handle: unknown
    const timeout = new Promise<never>((_, reject) => {
      handle = this.scheduler.setTimeout(
        () => reject(new BosunError({ kind: 'timeout', message: `The agent did not answer ${method} within ${Math.round(ms / 1000)} s. Try again, or restart the agent.` })),
        ms,
      )
    })
    call.catch(() => undefined)
    return Promise.race([call, timeout]).finally(() => this.scheduler.clearTimeout(handle))
  }

  /** After Stop: if the turn is still running when the watchdog fires, the session offers to stop the agent. */
  private armWatchdog(sessionId: string, record: SessionRecord): void {
    this.clearWatchdog(record)
    const turn = record.turn
    record.watchdog = this.scheduler.setTimeout(() => {
      record.watchdog = undefined
      if (record.turn !== turn || this.sessions.get(sessionId) !== record) return
      // v2 work the agent started itself has no prompt of Bosun's to end: its idle says it stopped (F11).
      if (turn === undefined && this.state(sessionId)?.turn.state === 'idle') return
      const seconds = Math.round(this.stopWatchdogMs / 1000)
      this.logger.warn(`session ${sessionId}: the agent has not ended the turn ${seconds} s after Stop`)
      this.push(sessionId, {
        type: 'updates',
        updates: [bosunNotice('warning', STOP_OVERDUE_TITLE, `It did not end the turn within ${seconds} s of Stop. Stop the agent to end it (its other sessions stop too).`)],
      })
    }, this.stopWatchdogMs)
  }

  private clearWatchdog(record: SessionRecord): void {
    if (record.watchdog === undefined) return
    this.scheduler.clearTimeout(record.watchdog)
    record.watchdog = undefined
  }

  private flush(sessionId: string, actions: SessionAction[], grows: number, joined: boolean): void {
    const record = this.sessions.get(sessionId)
    if (!record || actions.length === 0) return
    // Runs of streamed text become one chunk each: the same session, a fraction of the updates to apply and send. (The
    // batcher joins them as they stream: only a batch with updates that came otherwise is looked through again.)
    if (!joined) {
      for (let i = 0; i < actions.length; i++) {
        const action = actions[i]!
        if (action.type === 'updates' && action.updates.length > 1) {
          const coalesced = coalesceTextChunks(action.updates)
          if (coalesced !== action.updates) actions[i] = { type: 'updates', updates: coalesced }
        }
      }
    }
    actions = this.redact(actions)
    // Applied now, or with later batches when the session is long (lazy-state.ts); readers see them applied either way.
    const seq = record.lazy.add(actions)
    this.history?.changed(record.lazy.last, () => record.state)
    this.events.emit('sessionActions', { sessionId, seq, actions })
    record.received = (record.received ?? 0) + grows
    this.totalReceived += grows
    if (record.full) return
    if (record.received > this.maxSessionBytes) this.sessionFull(sessionId, record)
    else if (this.totalReceived > this.maxTotalSessionBytes) this.sessionFull(sessionId, record, true)
  }

  /**
   * The session took {@link maxSessionBytes} from its agent: the turn is stopped, what arrived so far stays
   * (shown and in the history), what the agent sends for it from now on is dropped, and the person is told
   * where they type, with a new session in the same folder as the way on.
   */
  private sessionFull(sessionId: string, record: SessionRecord, together = false): void {
    const limit = formatBytes(together ? this.maxTotalSessionBytes : this.maxSessionBytes)
    // The renderer adds the way on (a new session in the same folder) where it shows the reason.
    const reason = together
      ? `The open sessions reached Bosun's limit of ${limit} of agent output together, so this session, which passed it, cannot go on. Everything up to the limit is kept. Closing sessions you no longer need makes room: new sessions share it.`
      : `This session reached Bosun's limit of ${limit} of agent output, so it cannot go on. Everything up to the limit is kept.`
    record.full = { reason }
    this.logger.warn(`session ${sessionId}: the agent sent more than ${together ? `the open sessions may take together (${limit})` : limit}; the turn is stopped and the rest of its output dropped`)
    this.push(
      sessionId,
      noticeAction(
        'warning',
        together ? `The open sessions reached their limit of ${limit}` : `This session reached its limit of ${limit}`,
        together
          ? 'The agents sent more than Bosun keeps in memory for all open sessions, so Bosun stopped this turn. What the agent sends to this session from now on is not shown.'
          : 'The agent sent more than one session keeps in memory, so Bosun stopped the turn. What it sends to this session from now on is not shown.',
      ),
    )
    this.push(sessionId, { type: 'cannot_continue', reason })
    if (record.turn || record.state.turn.state !== 'idle') this.cancel(sessionId)
  }

  dispose(): void {
    this.store.dispose()
    for (const record of this.sessions.values()) this.clearWatchdog(record)
    this.sessions.clear()
    this.lastRoute = undefined
    this.byAgentScopedId.clear()
    this.subagentRoutes.clear()
    this.early.dispose()
  }
}
