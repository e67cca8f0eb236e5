import { DisposableStore, toDisposable, type IDisposable } from '../base/lifecycle'
import { BosunError, fail, ok, toFailure, type Failure, type Result } from '../base/errors'
import type { Logger } from '../base/log'
import type { AcpClientConnection, ProtocolVersion, SessionUpdateNotification } from '../acp/types'
import type { EventSink } from '../../common/contract'
import type { ContentBlock, SessionAction, SessionState } from '../../common/session/types'
import { applyActions, createSessionState } from '../../common/session/reducer'
import { ActionBatcher, type Scheduler } from './action-batcher'

/** What the sessions layer needs from the agent runtime (the supervisor, adapted by the composition root). */
export interface AgentPort {
  /** Starts the agent if needed and resolves with its live connection. */
  connect(agentId: string): Promise<Result<{ connection: AcpClientConnection; protocolVersion: ProtocolVersion }>>
}

/** The MCP servers a session gets, in the agent's wire shape, and the configured ones it cannot take. */
export interface McpServersForSession {
  servers: Record<string, unknown>[]
  refused: { name: string; transport: string; reason: string }[]
}

/** Told when a session's pending requests must be answered `cancelled` (permissions, elicitations). */
export interface SessionCancellationListener {
  cancelSession(sessionId: string): void
}

interface SessionRecord {
  agentId: string
  /** The agent's id for the session, used on the wire; Bosun's id (the map key) is what the rest of the app sees. */
  acpSessionId: string
  state: SessionState
  connection: AcpClientConnection | undefined
  turn: Promise<unknown> | undefined
  cancelRequested: boolean
  /** A restarted agent gave this session's id to a new session: this one can no longer be resumed. */
  superseded?: boolean
  /** A reattach to the agent's new process in progress (after a crash or stop). */
  reattaching?: Promise<Result<AcpClientConnection>> | undefined
}

/**
 * Where the agent's id for a session is unique: `<agentId>/<the agent's session id>`. Agent ids never
 * contain `/` (main/config/agent-definitions.ts), so two agents that both call a session `sess-1` differ.
 */
function agentScopedId(agentId: string, acpSessionId: string): string {
  return `${agentId}/${acpSessionId}`
}

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
  private suffix = 1
  /** Updates for session ids we do not know yet, while a `session/new` is in flight on that connection (v2 may send them first). */
  private readonly early = new Map<AcpClientConnection, { inFlight: number; updates: Map<string, SessionUpdateNotification['update'][]> }>()
  private readonly store = new DisposableStore()
  private readonly batcher: ActionBatcher
  private readonly cancellationListeners: SessionCancellationListener[] = []
  private readonly redact: (actions: SessionAction[]) => SessionAction[]
  private readonly mcpServers: ((agentId: string, connection: AcpClientConnection) => Promise<McpServersForSession>) | undefined

  constructor(
    private readonly agents: AgentPort,
    private readonly events: EventSink,
    private readonly logger: Logger,
    options: {
      batchIntervalMs?: number
      scheduler?: Scheduler
      /** Applied to every action before it reaches the state and the renderer (secret values hidden). */
      redact?: (actions: SessionAction[]) => SessionAction[]
      /** MCP servers for a session of this agent (new, load, resume), and the ones it cannot take (named in the session). */
      mcpServers?: (agentId: string, connection: AcpClientConnection) => Promise<McpServersForSession>
    } = {},
  ) {
    this.mcpServers = options.mcpServers
    this.redact = options.redact ?? ((actions) => actions)
    this.batcher = this.store.add(new ActionBatcher((id, actions) => this.flush(id, actions), options.batchIntervalMs ?? 16, options.scheduler))
  }

  addCancellationListener(listener: SessionCancellationListener): void {
    this.cancellationListeners.push(listener)
  }

  /** Subscribes to a (new) connection of an agent; the returned disposable is owned by the caller's connection scope. */
  attachConnection(agentId: string, connection: AcpClientConnection): IDisposable {
    const sub = connection.onDidReceiveUpdate((notification) => this.handleUpdate(agentId, connection, notification))
    return toDisposable(() => sub.dispose())
  }

  /**
   * The agent's process went away: running turns end with its error; the sessions stay, detached. The next
   * prompt reattaches them to the agent's new process when it can resume or load sessions.
   */
  agentDisconnected(agentId: string, failure: Failure | undefined): void {
    for (const [sessionId, record] of this.sessions) {
      if (record.agentId !== agentId || !record.connection) continue
      record.connection = undefined
      // Queued actions first: a turn that started within this frame must count as running.
      this.batcher.flush(sessionId)
      if (record.state.turn.state !== 'idle') this.endTurnWithError(sessionId, record, { message: failure?.message ?? 'The agent stopped.' })
      this.push(sessionId, { type: 'agent_gone' })
      this.batcher.flush(sessionId)
    }
  }

  /** Ends the running turn with an error. v2 turns end only with an idle `state_update`, which a dead agent never sends. */
  private endTurnWithError(sessionId: string, record: SessionRecord, error: { message: string; code?: number }): void {
    if (record.state.protocolVersion === 2) this.push(sessionId, { type: 'updates', updates: [{ sessionUpdate: 'state_update', state: 'idle' }] })
    this.push(sessionId, { type: 'turn_ended', stopReason: null, error })
  }

  has(sessionId: string): boolean {
    return this.sessions.has(sessionId)
  }

  agentOf(sessionId: string): string | undefined {
    return this.sessions.get(sessionId)?.agentId
  }

  /** Bosun's id of the session an agent calls `acpSessionId`, if that agent has it. */
  resolve(agentId: string, acpSessionId: string): string | undefined {
    const sessionId = this.byAgentScopedId.get(agentScopedId(agentId, acpSessionId))
    return sessionId !== undefined && this.sessions.get(sessionId)?.agentId === agentId ? sessionId : undefined
  }

  state(sessionId: string): SessionState | undefined {
    this.batcher.flush(sessionId)
    return this.sessions.get(sessionId)?.state
  }

  /** Queues a Bosun-side action for a session (permissions, elicitations, settings). */
  push(sessionId: string, action: SessionAction): void {
    if (!this.sessions.has(sessionId)) return
    this.batcher.push(sessionId, action)
  }

  snapshot(): SessionState[] {
    this.batcher.flush()
    return [...this.sessions.values()].map((r) => r.state)
  }

  async newSession(agentId: string, cwd: string): Promise<Result<{ sessionId: string }>> {
    const connected = await this.agents.connect(agentId)
    if (!connected.ok) return connected
    const { connection, protocolVersion } = connected.value
    const early = this.earlyBuffer(connection)
    early.inFlight++
    try {
      const mcp = await this.mcpServers?.(agentId, connection)
      const outcome = await connection.newSession({ cwd, ...(mcp ? { mcpServers: mcp.servers } : {}) })
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
      while (this.sessions.has(sessionId)) sessionId = `${scoped}#${++this.suffix}`
      this.byAgentScopedId.set(scoped, sessionId)
      const state = createSessionState({ sessionId, acpSessionId: outcome.sessionId, agentId, protocolVersion, cwd })
      const record: SessionRecord = { agentId, acpSessionId: outcome.sessionId, state, connection, turn: undefined, cancelRequested: false }
      this.sessions.set(sessionId, record)
      const configured: SessionAction = {
        type: 'session_configured',
        ...(outcome.modes !== undefined ? { modes: outcome.modes } : {}),
        ...(outcome.configOptions !== undefined ? { configOptions: outcome.configOptions } : {}),
        ...(outcome.availableCommands !== undefined ? { availableCommands: outcome.availableCommands } : {}),
      }
      // The reducer applies configuration first, then anything the agent sent before answering.
      const buffered = early.updates.get(outcome.sessionId)
      early.updates.delete(outcome.sessionId)
      const setup: SessionAction[] = [configured, ...this.mcpRefusals(agentId, mcp)]
      record.state = applyActions(state, this.redact(buffered?.length ? [...setup, { type: 'updates', updates: buffered }] : setup))
      this.events.emit('sessionAdded', { session: record.state })
      return ok({ sessionId })
    } catch (error) {
      return fail(toFailure(error))
    } finally {
      early.inFlight--
      if (early.inFlight === 0) early.updates.clear()
    }
  }

  async prompt(sessionId: string, prompt: ContentBlock[]): Promise<Result<{ stopReason: string | null }>> {
    const record = this.sessions.get(sessionId)
    if (!record) return fail({ kind: 'not-found', message: `No session ${sessionId}.` })
    if (record.turn) return fail({ kind: 'invalid-argument', message: 'A turn is already running in this session; stop it or wait for it to end.' })
    if (!record.connection) {
      const attached = await this.reattach(sessionId, record)
      if (!attached.ok) return attached
      if (record.turn) return fail({ kind: 'invalid-argument', message: 'A turn is already running in this session; stop it or wait for it to end.' })
    }
    const connection = record.connection!
    record.cancelRequested = false
    this.push(sessionId, { type: 'local_prompt', content: prompt })
    this.push(sessionId, { type: 'turn_started' })
    const turn = connection.prompt(record.acpSessionId, prompt)
    record.turn = turn
    try {
      const outcome = await turn
      this.push(sessionId, {
        type: 'turn_ended',
        stopReason: outcome.stopReason,
        ...(outcome.error ? { error: { message: outcome.error.message, ...(outcome.error.code !== undefined ? { code: outcome.error.code } : {}) } } : {}),
      })
      return ok({ stopReason: outcome.stopReason })
    } catch (error) {
      const failure = toFailure(error)
      if (record.cancelRequested && failure.kind !== 'agent-exited') {
        // An error after we cancelled is an agent bug; show it as cancelled, not as a scary error (checklist F5).
        this.push(sessionId, { type: 'turn_ended', stopReason: 'cancelled' })
        return ok({ stopReason: 'cancelled' })
      }
      // After a crash agentDisconnected already ended the turn with the agent's error.
      this.batcher.flush(sessionId)
      if (record.state.turn.state !== 'idle' || failure.kind !== 'agent-exited') {
        this.endTurnWithError(sessionId, record, { message: failure.message, ...(failure.code !== undefined ? { code: failure.code } : {}) })
      }
      return fail(failure)
    } finally {
      record.turn = undefined
      this.batcher.flush(sessionId)
    }
  }

  cancel(sessionId: string): Result<undefined> {
    const record = this.sessions.get(sessionId)
    if (!record) return fail({ kind: 'not-found', message: `No session ${sessionId}.` })
    if (record.connection && record.turn) {
      record.cancelRequested = true
      record.connection.cancel(record.acpSessionId)
      this.push(sessionId, { type: 'cancel_requested' })
    }
    // Pending permissions and elicitations of this session are answered `cancelled` right after session/cancel (F13, F15).
    for (const listener of this.cancellationListeners) listener.cancelSession(sessionId)
    return ok(undefined)
  }

  async setMode(sessionId: string, modeId: string): Promise<Result<undefined>> {
    return this.withConnection(sessionId, async (connection, acpSessionId) => {
      await connection.setMode(acpSessionId, modeId)
      this.push(sessionId, { type: 'updates', updates: [{ sessionUpdate: 'current_mode_update', currentModeId: modeId }] })
    })
  }

  async setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<Result<undefined>> {
    return this.withConnection(sessionId, async (connection, acpSessionId) => {
      const options = await connection.setConfigOption(acpSessionId, configId, value)
      if (options) this.push(sessionId, { type: 'updates', updates: [{ sessionUpdate: 'config_option_update', configOptions: options }] })
    })
  }

  closeSession(sessionId: string): Result<undefined> {
    const record = this.sessions.get(sessionId)
    if (!record) return fail({ kind: 'not-found', message: `No session ${sessionId}.` })
    this.cancel(sessionId)
    this.batcher.drop(sessionId)
    this.sessions.delete(sessionId)
    const scoped = agentScopedId(record.agentId, record.acpSessionId)
    if (this.byAgentScopedId.get(scoped) === sessionId) this.byAgentScopedId.delete(scoped)
    this.events.emit('sessionRemoved', { sessionId })
    return ok(undefined)
  }

  private async withConnection(sessionId: string, fn: (connection: AcpClientConnection, acpSessionId: string) => Promise<void>): Promise<Result<undefined>> {
    const record = this.sessions.get(sessionId)
    if (!record) return fail({ kind: 'not-found', message: `No session ${sessionId}.` })
    if (!record.connection) return fail({ kind: 'agent-not-running', message: 'The agent of this session is not running.' })
    try {
      await fn(record.connection, record.acpSessionId)
      return ok(undefined)
    } catch (error) {
      return fail(error instanceof BosunError ? error.failure : toFailure(error))
    }
  }

  /**
   * Brings a detached session back on the agent's current process (starting it if needed): `session/resume`,
   * or `session/load` whose replayed history is dropped (the transcript already has it: updates for a
   * session arrive only once its record points at the connection).
   */
  private reattach(sessionId: string, record: SessionRecord): Promise<Result<AcpClientConnection>> {
    record.reattaching ??= (async (): Promise<Result<AcpClientConnection>> => {
      const connected = await this.agents.connect(record.agentId)
      if (!connected.ok) return connected
      const { connection, protocolVersion } = connected.value
      if (record.connection) return ok(record.connection)
      const cannot = (why: string) =>
        fail({ kind: 'agent-not-running', message: `The agent restarted and ${why}, so this session cannot continue. Start a new session.` })
      if (record.superseded) return cannot('gave its id to a newer session')
      if (protocolVersion !== record.state.protocolVersion) return cannot(`now speaks ACP v${protocolVersion}`)
      const capabilities = connection.handshake?.capabilities
      if (protocolVersion === 1 && !capabilities?.loadSession && !capabilities?.resumeSession) return cannot('can neither load nor resume sessions')
      try {
        const mcp = await this.mcpServers?.(record.agentId, connection)
        const outcome = await connection.resumeSession({ sessionId: record.acpSessionId, cwd: record.state.cwd, replay: false, ...(mcp ? { mcpServers: mcp.servers } : {}) })
        if (!this.sessions.has(sessionId)) return fail({ kind: 'not-found', message: `No session ${sessionId}.` })
        record.connection = connection
        this.logger.info(`reattached session ${sessionId} to the agent's new process`)
        if (outcome.modes !== undefined || outcome.configOptions !== undefined) {
          this.push(sessionId, {
            type: 'session_configured',
            ...(outcome.modes !== undefined ? { modes: outcome.modes } : {}),
            ...(outcome.configOptions !== undefined ? { configOptions: outcome.configOptions } : {}),
          })
        }
        return ok(connection)
      } catch (error) {
        const failure = toFailure(error)
        return cannot(`could not resume it (${failure.message})`)
      }
    })().finally(() => {
      record.reattaching = undefined
    })
    return record.reattaching
  }

  /** A notice naming the MCP servers the agent cannot take (they are not dropped silently). */
  private mcpRefusals(agentId: string, mcp: McpServersForSession | undefined): SessionAction[] {
    if (!mcp?.refused.length) return []
    const description = mcp.refused.map((r) => `${r.name} (${r.transport}): ${r.reason}`).join('\n')
    return [{ type: 'updates', updates: [{ sessionUpdate: 'notice', severity: 'warning', title: `Not passed to ${agentId}: ${mcp.refused.map((r) => r.name).join(', ')}`, description }] }]
  }

  private earlyBuffer(connection: AcpClientConnection) {
    let buffer = this.early.get(connection)
    if (!buffer) {
      buffer = { inFlight: 0, updates: new Map() }
      this.early.set(connection, buffer)
      const sub = connection.onDidClose(() => {
        this.early.delete(connection)
        sub.dispose()
      })
    }
    return buffer
  }

  private handleUpdate(agentId: string, connection: AcpClientConnection, notification: SessionUpdateNotification): void {
    const sessionId = this.byAgentScopedId.get(agentScopedId(agentId, notification.sessionId))
    const record = sessionId !== undefined ? this.sessions.get(sessionId) : undefined
    if (sessionId !== undefined && record && record.agentId === agentId && record.connection === connection) {
      this.batcher.push(sessionId, { type: 'updates', updates: [notification.update] })
      return
    }
    const early = this.early.get(connection)
    if (early && early.inFlight > 0) {
      let list = early.updates.get(notification.sessionId)
      if (!list) early.updates.set(notification.sessionId, (list = []))
      list.push(notification.update)
      return
    }
    this.logger.debug(`dropping update for unknown session ${notification.sessionId} from agent ${agentId}`)
  }

  private flush(sessionId: string, actions: SessionAction[]): void {
    const record = this.sessions.get(sessionId)
    if (!record || actions.length === 0) return
    actions = this.redact(actions)
    record.state = applyActions(record.state, actions)
    this.events.emit('sessionActions', { sessionId, seq: record.state.seq, actions })
  }

  dispose(): void {
    this.store.dispose()
    this.sessions.clear()
    this.byAgentScopedId.clear()
    this.early.clear()
  }
}
