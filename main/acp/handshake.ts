/**
 * Reading what the agent told us, leniently: `initialize` (C6–C8, D1, D5) and session setup
 * responses (E4, E5). Unknown keys are ignored, malformed optional fields fall back to defaults,
 * malformed auth methods are skipped. Never throws on agent input.
 */
import type { AgentCapabilitySummary, AgentHandshake, AuthMethodSummary, NewSessionOutcome, ProtocolVersion } from './types'

type Json = Record<string, unknown>

export function normaliseHandshake(result: Json, version: ProtocolVersion, offered: ProtocolVersion): AgentHandshake {
  const authMethods = readAuthMethods(result.authMethods, version)
  return {
    protocolVersion: version,
    offeredVersion: offered,
    agentInfo: readInfo(version === 2 ? result.info : result.agentInfo),
    capabilities:
      version === 2 ? readV2Capabilities(record(result.capabilities), authMethods.length > 0) : readV1Capabilities(record(result.agentCapabilities)),
    authMethods,
    raw: result,
  }
}

export function defaultCapabilities(): AgentCapabilitySummary {
  return {
    loadSession: false,
    resumeSession: false,
    listSessions: false,
    closeSession: false,
    deleteSession: false,
    logout: false,
    prompt: { image: false, audio: false, embeddedContext: false },
    mcp: { stdio: false, http: false, sse: false },
    additionalDirectories: false,
  }
}

function readV1Capabilities(caps: Json | undefined): AgentCapabilitySummary {
  const summary = defaultCapabilities()
  // v1 stdio MCP servers are baseline.
  summary.mcp.stdio = true
  if (!caps) return summary
  summary.loadSession = caps.loadSession === true
  const prompt = record(caps.promptCapabilities)
  if (prompt) {
    summary.prompt.image = prompt.image === true
    summary.prompt.audio = prompt.audio === true
    summary.prompt.embeddedContext = prompt.embeddedContext === true
  }
  const mcp = record(caps.mcpCapabilities)
  if (mcp) {
    summary.mcp.http = mcp.http === true
    summary.mcp.sse = mcp.sse === true
  }
  const session = record(caps.sessionCapabilities)
  if (session) {
    summary.resumeSession = isObject(session.resume)
    summary.listSessions = isObject(session.list)
    summary.closeSession = isObject(session.close)
    summary.deleteSession = isObject(session.delete)
    summary.additionalDirectories = isObject(session.additionalDirectories)
  }
  summary.logout = isObject(record(caps.auth)?.logout)
  return summary
}

function readV2Capabilities(caps: Json | undefined, hasAuthMethods: boolean): AgentCapabilitySummary {
  const summary = defaultCapabilities()
  // v2: logout exists iff authMethods is non-empty (D5).
  summary.logout = hasAuthMethods
  const session = record(caps?.session)
  if (!session) return summary
  // A present `session` means the baseline new/list/resume/close/prompt/cancel (C7).
  summary.resumeSession = true
  summary.listSessions = true
  summary.closeSession = true
  summary.deleteSession = isObject(session.delete)
  summary.additionalDirectories = isObject(session.additionalDirectories)
  const prompt = record(session.prompt)
  if (prompt) {
    summary.prompt.image = isObject(prompt.image)
    summary.prompt.audio = isObject(prompt.audio)
    summary.prompt.embeddedContext = isObject(prompt.embeddedContext)
  }
  const mcp = record(session.mcp)
  if (mcp) {
    summary.mcp.stdio = isObject(mcp.stdio)
    summary.mcp.http = isObject(mcp.http)
  }
  return summary
}

function readInfo(value: unknown): AgentHandshake['agentInfo'] {
  const info = record(value)
  if (!info || typeof info.name !== 'string') return null
  return {
    name: info.name,
    ...(typeof info.title === 'string' ? { title: info.title } : {}),
    ...(typeof info.version === 'string' ? { version: info.version } : {}),
  }
}

function readAuthMethods(value: unknown, version: ProtocolVersion): AuthMethodSummary[] {
  if (!Array.isArray(value)) return []
  const methods: AuthMethodSummary[] = []
  for (const item of value) {
    const method = record(item)
    if (!method) continue
    const id = version === 2 ? method.methodId : method.id
    if (typeof id !== 'string' || typeof method.name !== 'string') continue
    // v1: omitted type means `agent` (D1); v2 requires it, but we stay lenient.
    const type = typeof method.type === 'string' ? method.type : 'agent'
    const summary: AuthMethodSummary = { id, name: method.name, type, raw: item }
    if (typeof method.description === 'string') summary.description = method.description
    if (Array.isArray(method.args) && method.args.every((arg) => typeof arg === 'string')) summary.args = method.args as string[]
    const env = readEnv(method.env)
    if (env) summary.env = env
    methods.push(summary)
  }
  return methods
}

/** v1 terminal env is a map; v2 is `[{name, value}]`. */
function readEnv(value: unknown): Record<string, string> | undefined {
  if (Array.isArray(value)) {
    const env: Record<string, string> = {}
    for (const entry of value) {
      const pair = record(entry)
      if (pair && typeof pair.name === 'string' && typeof pair.value === 'string') env[pair.name] = pair.value
    }
    return env
  }
  const map = record(value)
  if (!map) return undefined
  const env: Record<string, string> = {}
  for (const [key, entry] of Object.entries(map)) if (typeof entry === 'string') env[key] = entry
  return env
}

/** `session/new` / `load` / `resume` results; `fallbackSessionId` for responses that carry none. */
export function readNewSessionOutcome(result: unknown, fallbackSessionId: string | undefined): NewSessionOutcome | undefined {
  const response = record(result)
  const sessionId = typeof response?.sessionId === 'string' ? response.sessionId : fallbackSessionId
  if (sessionId === undefined) return undefined
  const outcome: NewSessionOutcome = { sessionId, raw: result }
  if (!response) return outcome
  if (response.modes !== undefined && response.modes !== null) outcome.modes = response.modes
  if (Array.isArray(response.configOptions)) outcome.configOptions = response.configOptions
  if (Array.isArray(response.availableCommands)) outcome.availableCommands = response.availableCommands
  return outcome
}

function record(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined
}

function isObject(value: unknown): boolean {
  return record(value) !== undefined
}
