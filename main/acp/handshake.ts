/**
 * Reading what the agent told us, leniently: `initialize` (C6–C8, D1, D5) and session setup
 * responses (E4, E5). Unknown keys are ignored, malformed optional fields fall back to defaults,
 * malformed auth methods are skipped. Never throws on agent input.
 */
import type { AgentCapabilitySummary, AgentHandshake, AuthMethodSummary, NewSessionOutcome, ProtocolVersion } from './types'
import { isWithinBounds } from '../../common/bounded'

type Json = Record<string, unknown>

/**
 * What Bosun keeps of an agent's self-description: it is shown on every status and sign-in screen, so a hostile
 * `initialize` (up to the 64 MiB message limit) must not become a 64 MiB name or a list of 100,000 login methods.
 */
export const HANDSHAKE_LIMITS = {
  infoChars: 200,
  authMethods: 32,
  authIdChars: 256,
  authNameChars: 200,
  authDescriptionChars: 2_000,
  authArgs: 64,
  authArgChars: 4_096,
  authEnvEntries: 64,
  /** Each extension field of a method kept for later reading (`_meta`, `vars` …), as JSON. */
  authRawChars: 64 * 1024,
} as const

/**
 * The kind of a v2 login method that names no `type` (v2 requires one, D5): kept and shown generically, like any
 * kind Bosun does not know, and never sent to `auth/login`.
 */
export const UNTYPED_AUTH_METHOD = 'unknown'

/** `text` cut to `max` characters, with `…` when it was longer. */
const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

export function normaliseHandshake(result: Json, version: ProtocolVersion, offered: ProtocolVersion): AgentHandshake {
  const authMethods = readAuthMethods(result.authMethods, version)
  return {
    protocolVersion: version,
    offeredVersion: offered,
    agentInfo: readInfo(version === 2 ? result.info : result.agentInfo),
    capabilities:
      version === 2 ? readV2Capabilities(record(result.capabilities), authMethods.length > 0) : readV1Capabilities(record(result.agentCapabilities)),
    authMethods,
  }
}

export function defaultCapabilities(): AgentCapabilitySummary {
  return {
    sessions: false,
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
  // v1 sessions and stdio MCP servers are baseline.
  summary.sessions = true
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
  summary.sessions = true
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
  const max = HANDSHAKE_LIMITS.infoChars
  return {
    name: cut(info.name, max),
    ...(typeof info.title === 'string' ? { title: cut(info.title, max) } : {}),
    ...(typeof info.version === 'string' ? { version: cut(info.version, max) } : {}),
  }
}

function readAuthMethods(value: unknown, version: ProtocolVersion): AuthMethodSummary[] {
  if (!Array.isArray(value)) return []
  const methods: AuthMethodSummary[] = []
  const limits = HANDSHAKE_LIMITS
  // A method is chosen by its id: another of an id already listed (kept or not) is left out. The sign-in panel showed
  // both, and the second one's button ran the first (main finds a method by id), whose terminal command may differ.
  const ids = new Set<string>()
  for (const item of value) {
    if (methods.length === limits.authMethods) break
    const method = record(item)
    if (!method) continue
    const id = version === 2 ? method.methodId : method.id
    // An id is sent back as given, so one too long to keep is skipped rather than cut.
    if (typeof id !== 'string' || id.length > limits.authIdChars || typeof method.name !== 'string' || ids.has(id)) continue
    ids.add(id)
    // v1: an omitted type means `agent` (D1). v2 requires it (D5): without one, the method is of a kind Bosun does not know.
    const type = typeof method.type === 'string' ? cut(method.type, limits.authIdChars) : version === 2 ? UNTYPED_AUTH_METHOD : 'agent'
    const summary: AuthMethodSummary = { id, name: cut(method.name, limits.authNameChars), type, raw: keptRaw(method) }
    if (typeof method.description === 'string') summary.description = cut(method.description, limits.authDescriptionChars)
    if (Array.isArray(method.args) && method.args.every((arg) => typeof arg === 'string')) {
      // Args run as given: a list too long to keep makes the method one Bosun cannot run (args left out, so it is not
      // run with some of them), rather than one run with cut args.
      const args = method.args as string[]
      if (args.length <= limits.authArgs && args.every((arg) => arg.length <= limits.authArgChars)) summary.args = args
      else if (type === 'terminal') continue
    }
    const env = readEnv(method.env)
    if (env) {
      const entries = Object.entries(env)
      if (entries.length > limits.authEnvEntries || entries.some(([name, v]) => name.length > limits.authArgChars || v.length > limits.authArgChars)) {
        if (type === 'terminal') continue
      } else summary.env = env
    }
    methods.push(summary)
  }
  return methods
}

/**
 * The extension fields Bosun reads from a method (legacy `varName`/`vars`, `_meta`), and only while they are small: at
 * most {@link HANDSHAKE_LIMITS.authRawChars} of text and keys, 32 levels deep. Checked without serialising (a `_meta`
 * nested a million levels deep would overflow the stack of `JSON.stringify`).
 */
function keptRaw(method: Json): Json {
  const kept: Json = {}
  const small = { maxDepth: 32, maxStringChars: HANDSHAKE_LIMITS.authRawChars, maxEntries: 1_000, maxTotalChars: HANDSHAKE_LIMITS.authRawChars }
  for (const key of ['id', 'methodId', 'name', 'type', 'varName', 'vars', '_meta'] as const) {
    if (method[key] !== undefined && isWithinBounds(method[key], small)) kept[key] = method[key]
  }
  return kept
}

/**
 * An extension entry of a login method: the own `_meta[key]` it carries (`"api-key"`, `"gateway"`,
 * `"terminal-auth"`), or `undefined`. Its shape is the reader's to check.
 */
export function methodMeta(method: AuthMethodSummary, key: string): unknown {
  const meta = record(record(method.raw)?._meta)
  return meta && Object.hasOwn(meta, key) ? meta[key] : undefined
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
  if (response.models !== undefined && response.models !== null) outcome.models = response.models
  if (Array.isArray(response.configOptions)) outcome.configOptions = response.configOptions
  if (Array.isArray(response.availableCommands)) outcome.availableCommands = response.availableCommands
  return outcome
}

/** `value` when it is a plain object (not an array, not null). */
export function record(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined
}

function isObject(value: unknown): boolean {
  return record(value) !== undefined
}
