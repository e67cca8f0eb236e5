/**
 * The session calls in each version's shape (`session/new`, `session/load|resume`, `session/set_config_option`) and
 * what Bosun keeps of the agent's answers to them and to `session/list`: session ids it can use, bounded lists.
 */
import { boundJson } from '../../common/bounded'
import { BosunError } from '../base/errors'
import { AGENT_ERROR_BOUNDS, isRecord } from './agent-errors'
import { readNewSessionOutcome } from './handshake'
import type { AgentHandshake, AgentSessionInfo, NewSessionOutcome, ProtocolVersion } from './types'

/** Real session ids are UUIDs or short names: a longer one is not a session Bosun keeps anything for (it would key maps). */
export const MAX_SESSION_ID_CHARS = 1024

export function newSessionParams(version: ProtocolVersion, params: { cwd: string; mcpServers?: unknown[]; additionalDirectories?: string[] }): Record<string, unknown> {
  const wire: Record<string, unknown> = { cwd: params.cwd }
  // v1 requires mcpServers (E1); v2 makes it optional.
  if (version === 1 || params.mcpServers) wire.mcpServers = params.mcpServers ?? []
  if (params.additionalDirectories?.length) wire.additionalDirectories = params.additionalDirectories
  return wire
}

/** The agent's answer to `session/new`, with a session id Bosun can use. */
export function newSessionOutcome(result: unknown): NewSessionOutcome {
  const outcome = readNewSessionOutcome(result, undefined)
  if (!outcome) throw new BosunError({ kind: 'rpc-error', message: 'The agent answered session/new without a sessionId', data: boundJson(result, AGENT_ERROR_BOUNDS.data) })
  return withUsableSessionId('session/new', outcome)
}

/** v2 `session/resume`; v1 `session/load` (replaying) or `session/resume`, as the agent's capabilities allow. */
export function resumeCall(
  version: ProtocolVersion,
  capabilities: AgentHandshake['capabilities'] | undefined,
  params: { sessionId: string; cwd: string; replay?: boolean; mcpServers?: unknown[]; additionalDirectories?: string[] },
): { method: string; wire: Record<string, unknown> } {
  let method: string
  const wire: Record<string, unknown> = { sessionId: params.sessionId, cwd: params.cwd }
  if (version === 2) {
    method = 'session/resume'
    if (params.replay) wire.replayFrom = { type: 'start' }
    // v2: the complete set; omitted means none (E8).
    if (params.mcpServers?.length) wire.mcpServers = params.mcpServers
  } else {
    const load = capabilities?.loadSession === true
    const resume = capabilities?.resumeSession === true
    if (load && (params.replay !== false || !resume)) method = 'session/load'
    else if (resume) method = 'session/resume'
    else throw new BosunError({ kind: 'invalid-argument', message: 'This agent can neither load nor resume sessions' })
    wire.mcpServers = params.mcpServers ?? []
  }
  // The complete list each time (E17); the caller passes it only to an agent that advertised it (E1).
  if (params.additionalDirectories?.length) wire.additionalDirectories = params.additionalDirectories
  return { method, wire }
}

/** The agent's answer to `session/load|resume` (`method`) for `sessionId`, with a session id Bosun can use. */
export function resumedOutcome(method: string, result: unknown, sessionId: string): NewSessionOutcome {
  // session/load may answer null (E6).
  return withUsableSessionId(method, readNewSessionOutcome(result, sessionId) ?? { sessionId, raw: result })
}

/** `booleansAdvertised`: v1, whether the initialize the agent answered advertised `session.configOptions.boolean`. */
export function configOptionParams(
  version: ProtocolVersion,
  booleansAdvertised: boolean,
  { sessionId, configId, value }: { sessionId: string; configId: string; value: string | boolean },
): Record<string, unknown> {
  const wire: Record<string, unknown> = { sessionId, configId, value }
  if (typeof value === 'boolean' && version === 1 && !booleansAdvertised) {
    // E13: v1 boolean values only after the client advertised `session.configOptions.boolean`.
    throw new BosunError({ kind: 'invalid-argument', message: 'Bosun did not advertise boolean config options to this agent, so it cannot set one (ACP v1).' })
  }
  if (typeof value === 'boolean') wire.type = 'boolean'
  else if (version === 2) wire.type = 'id'
  return wire
}

/** What Bosun keeps of a `session/list` answer: at most 1,000 sessions with usable ids and folders, bounded text. */
export function sessionList(result: unknown): { sessions: AgentSessionInfo[]; nextCursor: string | null } {
  const sessions: AgentSessionInfo[] = []
  const list = isRecord(result) && Array.isArray(result.sessions) ? result.sessions : []
  for (const item of list.slice(0, 1_000)) {
    if (!isRecord(item) || typeof item.sessionId !== 'string' || typeof item.cwd !== 'string' || !item.sessionId || item.sessionId.length > 512 || item.cwd.length > 4096) continue
    const folders = listedFolders(item.additionalDirectories)
    sessions.push({
      sessionId: item.sessionId,
      cwd: item.cwd,
      title: typeof item.title === 'string' ? item.title.slice(0, 512) : null,
      updatedAt: typeof item.updatedAt === 'string' ? item.updatedAt.slice(0, 64) : null,
      ...(folders ? { additionalDirectories: folders } : {}),
    })
  }
  const nextCursor = isRecord(result) && typeof result.nextCursor === 'string' && result.nextCursor.length <= 4096 ? result.nextCursor : null
  return { sessions, nextCursor }
}

/**
 * The outcome of `session/new|load|resume` when its session id is one Bosun can use: every event and update of the
 * session carries it, and an agent's update naming a longer one is ignored ({@link MAX_SESSION_ID_CHARS}).
 */
function withUsableSessionId(method: string, outcome: NewSessionOutcome): NewSessionOutcome {
  const id = outcome.sessionId
  if (id.length === 0 || id.length > MAX_SESSION_ID_CHARS) {
    throw new BosunError({
      kind: 'rpc-error',
      message: `The agent answered ${method} with a session id of ${id.length.toLocaleString('en')} characters; Bosun takes ids of 1 to ${MAX_SESSION_ID_CHARS.toLocaleString('en')} characters.`,
    })
  }
  return outcome
}

/** The most folders a listed session keeps beyond its `cwd` (as many as a new session takes). */
const MAX_LISTED_FOLDERS = 32

/**
 * A `SessionInfo.additionalDirectories` as Bosun keeps it: the agent's order, absolute paths only (at most 4096
 * characters, no NUL), at most {@link MAX_LISTED_FOLDERS}; undefined when the agent names none (E17).
 */
function listedFolders(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined
  const folders: string[] = []
  for (const folder of value) {
    if (folders.length === MAX_LISTED_FOLDERS) break
    if (typeof folder === 'string' && folder.length <= 4096 && !folder.includes('\0') && /^(\/|[A-Za-z]:[\\/])/.test(folder)) folders.push(folder)
  }
  return folders.length > 0 ? folders : undefined
}
