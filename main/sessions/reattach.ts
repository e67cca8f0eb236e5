/**
 * Bringing a session back on its agent: the reattach of a session whose agent restarted or that was opened from the
 * history (`session/resume`, else `session/load` with its replay dropped), and the reopen the person asks for (the
 * session closed on the agent and built again). The sessions service owns the sessions and calls these with what they
 * need of it ({@link ReattachPort}).
 */
import { fail, ok, toFailure, type Result } from '../base/errors'
import type { Logger } from '../base/log'
import type { AcpClientConnection, SessionUpdateNotification } from '../acp/types'
import type { SessionAction } from '../../common/session/types'
import type { Scheduler } from './action-batcher'
import { droppedNotice, type EarlyUpdates } from './early-updates'
import { chosenMode, configuredBy, currentModel, restoreMode, tellModelChanged, type SessionSettingsPort } from './session-config'
import { settleLoadReplay } from './load-replay'
import type { SessionRecord } from './session-record'
import { additionalDirectoriesFor, isInputClosed, noticeAction, refusalReason, undelivered } from './session-notices'
import type { AgentPort, McpServersForSession } from './sessions-service'

/** What bringing a session back needs of the sessions service. */
export interface ReattachPort extends SessionSettingsPort {
  readonly logger: Logger
  readonly scheduler: Scheduler
  readonly early: EarlyUpdates
  connect: AgentPort['connect']
  /** The MCP servers for a session of this agent (none configured: undefined). */
  mcpServers(agentId: string, connection: AcpClientConnection): Promise<McpServersForSession> | undefined
  /** Whether the session is still open. */
  has(sessionId: string): boolean
  /** Whether `record` is still the session's (not closed, nor closed and opened again). */
  isCurrent(sessionId: string, record: SessionRecord): boolean
  /** Applies what waits in the session's batch. */
  flush(sessionId: string): void
  /** One of the agent's updates for the session, as if it had just arrived. */
  pushUpdate(sessionId: string, update: SessionUpdateNotification['update']): void
  /** The update names a subagent's session: it is routed to this session from now on. */
  adopt(sessionId: string, record: SessionRecord, update: SessionUpdateNotification['update']): void
  /** The call raced against the deadline for `method`. */
  withTimeout<T>(method: string, call: Promise<T>): Promise<T>
}

/**
 * Brings a detached session back on the agent's current process (starting it if needed): `session/resume`,
 * or `session/load` whose replayed history is dropped (the transcript already has it: updates for a
 * session arrive only once its record points at the connection).
 */
export function reattach(port: ReattachPort, sessionId: string, record: SessionRecord): Promise<Result<AcpClientConnection>> {
  record.reattaching ??= (async (): Promise<Result<AcpClientConnection>> => {
    const connected = await port.connect(record.agentId)
    if (!connected.ok) return connected
    const { connection, protocolVersion } = connected.value
    if (record.connection) return ok(record.connection)
    record.reattachingOn = connection
    const cannot = (why: string) => {
      const reason = record.restored
        ? `This agent ${why}, so it cannot continue this earlier session.`
        : `The agent restarted and ${why}, so this session cannot continue.`
      // Said where the person types, so the composer does not offer sends that can only fail.
      if (port.has(sessionId)) {
        port.push(sessionId, { type: 'cannot_continue', reason })
        port.flush(sessionId)
      }
      return record.restored
        ? fail({
            kind: 'agent-not-running',
            message: `${reason} Start a new session in ${record.state.cwd}.`,
            data: { offerNewSession: { agentId: record.agentId, cwd: record.state.cwd } },
          })
        : // Said where the person types (`cannot_continue`): the window need not say it again in a notice.
          fail({ kind: 'agent-not-running', message: `${reason} Start a new session.`, data: { cannotContinue: true } })
    }
    if (record.superseded) return cannot('gave its id to a newer session')
    if (protocolVersion !== record.state.protocolVersion) return cannot(`now speaks ACP v${protocolVersion}`)
    const capabilities = connection.handshake?.capabilities
    if (protocolVersion === 1 && !capabilities?.loadSession && !capabilities?.resumeSession) return cannot('can neither load nor resume sessions')
    // What the agent sends before answering (v2: its current state_update, E8) waits in the early buffer.
    const early = port.early.begin(connection)
    // v1 session/load replays the whole history first: the transcript has it, so only the session's current facts apply.
    const loaded = protocolVersion === 1 && !capabilities?.resumeSession
    // Filtered as it arrives, so a long replay cannot fill the early buffer and push out the facts at its end.
    if (loaded) early.factsOnly.add(record.acpSessionId)
    try {
      const mcp = await port.mcpServers(record.agentId, connection)
      const outcome = await port.withTimeout(
        'session/resume',
        connection.resumeSession({
          sessionId: record.acpSessionId,
          cwd: record.state.cwd,
          replay: false,
          ...(mcp ? { mcpServers: mcp.servers } : {}),
          // The complete list each time (E17): the folders the session was given.
          ...additionalDirectoriesFor(connection, record.state.additionalDirectories ?? []),
        }),
      )
      if (!port.isCurrent(sessionId, record)) {
        // Closed while the agent resumed it: the agent is told, as the close would have told an attached session.
        if (connection.closeSession && capabilities?.closeSession) {
          connection.closeSession(record.acpSessionId).catch((error: unknown) => port.logger.debug(`session/close of ${sessionId} failed`, error))
        }
        return fail({ kind: 'not-found', message: `No session ${sessionId}.` })
      }
      record.connection = connection
      port.logger.info(`reattached session ${sessionId} to the agent's new process`)
      if (record.state.cannotContinue) port.push(sessionId, { type: 'cannot_continue', reason: null })
      // The mode (and the model) the person had, before the agent's answer says which one it resumed in.
      const before = port.state(sessionId) ?? record.state
      const chosen = chosenMode(before)
      const model = currentModel(before)
      const configured = configuredBy(outcome)
      if (configured) port.push(sessionId, configured)
      // Said again only when it changed (a session opened from the history said nothing yet in this run).
      for (const action of mcpRefusals(record, mcp)) port.push(sessionId, action)
      // What the agent sent before answering, and (as for a new session) how many of those the buffer had no room for.
      const buffered = port.early.takeFor(early, record, (update) => port.adopt(sessionId, record, update))
      for (const update of buffered.updates) port.pushUpdate(sessionId, update)
      // (`push` lets out the held end of a text chunk first: what followed it was dropped.)
      if (buffered.dropped) port.push(sessionId, { type: 'updates', updates: [droppedNotice(buffered.dropped)] })
      if (loaded) await settleLoadReplay(record, port.scheduler)
      record.restoringMode = true
      try {
        await restoreMode(port, port.logger, sessionId, chosen)
      } finally {
        record.restoringMode = false
      }
      tellModelChanged(port, sessionId, model)
      return ok(connection)
    } catch (error) {
      const failure = toFailure(error)
      // The agent stopped before it answered, or closed its input so the call never reached it (it is stopped for
      // that): it did not refuse the session, and once it runs again the next send (or a Restart and a send) asks
      // it again. The agent's state shows it stopped; the send fails as its exit.
      if (failure.kind === 'agent-exited') return fail(failure)
      if (isInputClosed(failure)) return fail(undelivered(failure, 'the request to continue this session'))
      // Gemini CLI says only "Internal error", and why in `data.details` ("No previous sessions found for this project.").
      return cannot(`could not resume it (${refusalReason(failure)})`)
    } finally {
      early.factsOnly.delete(record.acpSessionId)
      port.early.release(connection, early)
    }
  })().finally(() => {
    record.reattaching = undefined
    record.reattachingOn = undefined
  })
  return record.reattaching
}

export async function reopen(port: ReattachPort, sessionId: string, record: SessionRecord): Promise<Result<undefined>> {
  const connection = record.connection
  if (connection) {
    const capabilities = connection.handshake?.capabilities
    if (record.superseded || (!capabilities?.resumeSession && !capabilities?.loadSession)) {
      return fail({ kind: 'invalid-argument', message: 'This agent can neither resume nor load sessions, so this one cannot be reopened.' })
    }
    if (connection.closeSession && capabilities.closeSession) {
      try {
        await port.withTimeout('session/close', connection.closeSession(record.acpSessionId))
      } catch (error) {
        // As a close from the history: the agent's answer does not decide anything, the resume does.
        port.logger.debug(`session/close of ${sessionId} before reopening it failed`, error)
      }
    }
    // Closed, or a turn started, meanwhile: nothing more is done to it.
    if (!port.isCurrent(sessionId, record) || record.turn || record.reattaching) return fail({ kind: 'invalid-argument', message: 'The session changed while it was reopened.' })
    if (record.connection === connection) record.connection = undefined
  }
  const attached = await reattach(port, sessionId, record)
  return attached.ok ? ok(undefined) : fail(attached.error)
}

/**
 * A notice naming the MCP servers the agent cannot take (they are not dropped silently), unless the session said
 * exactly that last time: each reattach passes the servers again, and an agent restart must not repeat it.
 */
export function mcpRefusals(record: SessionRecord, mcp: McpServersForSession | undefined): SessionAction[] {
  const description = (mcp?.refused ?? []).map((r) => `${r.name} (${r.transport}): ${r.reason}`).join('\n')
  if (description === record.mcpRefused) return []
  record.mcpRefused = description
  if (!mcp?.refused.length) return []
  return [noticeAction('warning', `Not passed to ${record.agentId}: ${mcp.refused.map((r) => r.name).join(', ')}`, description)]
}

