/**
 * MCP servers: settings in `mcp-servers.json` (written atomically; secret values in the keychain under
 * `mcp/<id>`), the servers each agent gets on session/new, load and resume ({@link McpService.forAgent}),
 * and "Check", which starts a stdio server with the official MCP SDK and lists its tools.
 */
import { JoinedRuns } from '../base/joined-runs'
import { accessSync, constants as fsConstants, statSync } from 'node:fs'
import { delimiter, isAbsolute, join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { REDACTED } from '../agents-tools/redaction'
import { writeFileAtomic } from '../base/atomic-write'
import { fail, ok, type Result } from '../base/errors'
import { createLogger, type Logger } from '../base/log'
import { readSettingsFile, ReplaceGuard } from '../base/settings-file'
import type { AgentCapabilitySummary, ProtocolVersion } from '../acp/types'
import { scrubEnv } from '../config/launch'
import { quoteExact, refuseAllConfirmation, type ConfirmationService } from '../trust/confirmation'
import { describeLaunch } from '../trust/launch-trust'
import type { SecretStore } from '../secrets/secret-store'
import type { CallHandlers } from '../../common/contract'
import { mcpServerShape, type AgentMcpServer, type McpServerConfig, type McpServerView } from '../../common/contract/mcp'
import { appliesTo, selectMcpServers, transportRefusal, type McpSelection, type ResolvedMcpServer } from './select'

const FILE = 'mcp-servers.json'
/**
 * The servers Bosun keeps (far more than anyone configures): each applies to every session of its agents, and
 * 100,000 of them in the file were 6 MB of `mcpServers` in every session/new and as many rows in Settings.
 */
export const MAX_MCP_SERVERS = 500
const CHECK_TIMEOUT_MS = 20_000

export type McpCallHandlers = Pick<CallHandlers, 'listMcpServers' | 'saveMcpServer' | 'removeMcpServer' | 'checkMcpServer' | 'listAgentMcpServers'>

export interface McpService {
  handlers: McpCallHandlers
  /** The servers for a new/loaded/resumed session of `agentId`, and the ones it cannot take. */
  forAgent(agentId: string, version: ProtocolVersion, mcp: AgentCapabilitySummary['mcp']): Promise<McpSelection>
  /**
   * The person removed this agent: it leaves every server's list of agents, so a new agent that reuses the id
   * does not inherit servers chosen for the old one. A server chosen only for it then applies to no agent.
   */
  agentRemoved(agentId: string): Promise<void>
}

/** The keychain "agent" id of a server's secrets (agent ids never contain `/`, so no clash). */
const secretOwner = (id: string) => `mcp/${id}`
/** Header names may hold `-`; keychain names are env-style. */
export const headerSecretName = (header: string) => `HEADER_${header.replace(/[^A-Za-z0-9_]/g, '_')}`

export interface McpServiceOptions {
  home: string
  secrets: SecretStore
  log?: Logger
  baseEnv?: NodeJS.ProcessEnv
  /**
   * Main's confirmation with the person: a server whose command, arguments, environment or address is new
   * or changed is what agents will run or connect to, so it is saved only once confirmed (issue 10 §2).
   * Defaults to refusing (fail closed).
   */
  confirmation?: ConfirmationService
  /** The ids of the configured agents: a server's `agents` list may name only these. Without it, any id is taken. */
  agentIds?: () => Iterable<string>
  /** The handshake of the agent's process when it has one (which MCP transports it takes). */
  handshake?: (agentId: string) => AgentMcpHandshake | undefined
  /**
   * Told each secret value as soon as it is stored or read from the keychain (before it goes anywhere), so
   * that everything agent secrets are redacted from hides it too; `forget` when the server is removed.
   */
  secretValues?: { add(owner: string, value: string): void; forget(owner: string): void }
}

export interface AgentMcpHandshake {
  protocolVersion: ProtocolVersion
  mcp: AgentCapabilitySummary['mcp']
}

type Invalid = { kind: 'invalid-argument'; message: string }

/**
 * The server as it is kept: only its transport's fields, names listed once, the agent list without
 * repeats. A problem the person must fix (a name both plain and secret, two secret headers that would share
 * one keychain entry, an empty or unknown agent list) is a message.
 */
export function normalizeMcpServer(server: McpServerConfig, knownAgents?: ReadonlySet<string>): { ok: true; server: McpServerConfig } | { ok: false; error: Invalid } {
  const invalid = (message: string) => ({ ok: false as const, error: { kind: 'invalid-argument' as const, message } })
  const common = { id: server.id, name: server.name.trim() || server.id, transport: server.transport, enabled: server.enabled }
  let agents: string[] | null = null
  if (server.agents !== null) {
    agents = [...new Set(server.agents)]
    if (agents.length === 0) return invalid('Choose at least one agent, or “All agents”.')
    const unknown = knownAgents ? agents.filter((a) => !knownAgents.has(a)) : []
    if (unknown.length) return invalid(`No agent with the id ${unknown.map((a) => quoteExact(a)).join(', ')}: choose among the configured agents.`)
  }
  if (server.transport === 'stdio') {
    if (!server.command) return invalid('A stdio server needs a command.')
    const secretEnv = [...new Set(server.secretEnv ?? [])]
    const both = secretEnv.filter((n) => Object.hasOwn(server.env ?? {}, n))
    if (both.length) return invalid(`${both.join(', ')} is both a plain and a secret variable; keep it in one place.`)
    return {
      ok: true,
      server: { ...common, agents, command: server.command, args: server.args ?? [], env: { ...(server.env ?? {}) }, ...(secretEnv.length ? { secretEnv } : {}) },
    }
  }
  if (!/^https?:\/\//i.test(server.url ?? '')) return invalid('An HTTP or SSE server needs an http(s) URL.')
  const secretHeaders = [...new Set(server.secretHeaders ?? [])]
  const plain = new Set(Object.keys(server.headers ?? {}).map((h) => h.toLowerCase()))
  const keys = new Map<string, string>()
  for (const header of secretHeaders) {
    // Header names are case-insensitive: one header cannot be both, nor two secret headers share a keychain entry.
    if (plain.has(header.toLowerCase())) return invalid(`${header} is both a plain and a secret header; keep it in one place.`)
    const key = headerSecretName(header).toLowerCase()
    const other = keys.get(key)
    if (other !== undefined) return invalid(`${other} and ${header} are the same secret header; keep one.`)
    keys.set(key, header)
  }
  return { ok: true, server: { ...common, agents, url: server.url!, headers: { ...(server.headers ?? {}) }, ...(secretHeaders.length ? { secretHeaders } : {}) } }
}

/** The keychain names of a server's secrets, by the env or header name the server lists. */
function secretKeys(server: McpServerConfig): Map<string, string> {
  const keys = new Map<string, string>()
  for (const name of server.secretEnv ?? []) keys.set(name, name)
  for (const header of server.secretHeaders ?? []) keys.set(header, headerSecretName(header))
  return keys
}

/** What a server runs or connects to: a change to any of it is confirmed; `name`, `enabled` and `agents` are not part of it. */
export function mcpServerIdentity(server: McpServerConfig): string {
  const sorted = (record: Record<string, string> | undefined) => Object.entries(record ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return server.transport === 'stdio'
    ? JSON.stringify(['stdio', server.command ?? '', server.args ?? [], sorted(server.env), [...(server.secretEnv ?? [])].sort()])
    : JSON.stringify([server.transport, server.url ?? '', sorted(server.headers), [...(server.secretHeaders ?? [])].sort()])
}

/** Exactly what a server runs or connects to, for the confirmation dialog (every value quoted). */
export function describeMcpServer(server: McpServerConfig): string {
  if (server.transport === 'stdio') {
    return describeLaunch({ command: server.command ?? '', args: server.args ?? [], env: server.env ?? {}, secretEnv: server.secretEnv ?? [] })
  }
  const lines = [`Transport: ${server.transport}`, `Address: ${quoteExact(server.url ?? '')}`]
  const headers = Object.entries(server.headers ?? {})
  lines.push(headers.length ? `Headers (${headers.length}):` : 'Headers: none')
  for (const [name, value] of headers) lines.push(`  ${quoteExact(name)}: ${quoteExact(value)}`)
  if (server.secretHeaders?.length) lines.push(`Headers from the keychain (values not shown): ${server.secretHeaders.map(quoteExact).join(', ')}`)
  return lines.join('\n')
}

export async function createMcpService(options: McpServiceOptions): Promise<McpService> {
  const path = join(options.home, FILE)
  const log = options.log ?? createLogger('mcp')
  const confirmation = options.confirmation ?? refuseAllConfirmation(log)
  /** A file that could not be read is not replaced; one holding what the list leaves out is copied aside before a save. */
  const guard = new ReplaceGuard(path)
  let servers: McpServerConfig[] = await load()
  const checks = new JoinedRuns<CheckedServer>(MAX_CHECKS_AT_ONCE, (max) => `${max} MCP server checks are already running; try again when one has finished.`)

  /**
   * The servers of the file. Nothing the person wrote is lost to a save: a file that cannot be read is never replaced
   * (saves fail and say why); one of the wrong shape, or with an entry or field this Bosun does not know (a newer
   * Bosun's), is copied aside before the first save replaces it.
   */
  async function load(): Promise<McpServerConfig[]> {
    const read = await readSettingsFile(path)
    if (read.kind === 'missing') return []
    if (read.kind === 'unreadable') {
      guard.unreadableBecause(read.message)
      log.warn(`${read.message}; Bosun starts without its MCP servers and will not replace it`)
      return []
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(read.text)
    } catch {
      parsed = undefined
    }
    const entries = typeof parsed === 'object' && parsed !== null && Array.isArray((parsed as { servers?: unknown }).servers) ? ((parsed as { servers: unknown[] }).servers) : null
    // One bad entry does not lose the others. An id seen before is left out (a save or removal by id would
    // otherwise change both), and so is everything past the bound: every agent gets the servers on each session/new.
    const servers: McpServerConfig[] = []
    const ids = new Set<string>()
    let skipped = 0
    for (const entry of entries ?? []) {
      const checked = mcpServerShape.safeParse(entry)
      if (!checked.success || ids.has(checked.data.id) || servers.length >= MAX_MCP_SERVERS) {
        skipped++
        continue
      }
      ids.add(checked.data.id)
      servers.push(checked.data)
    }
    if (entries === null || skipped > 0 || servers.some((server, i) => !isDeepStrictEqual(server, entries[i]))) {
      guard.partlyRead()
      const why = entries === null ? 'is not a list of servers' : skipped > 0 ? `has ${skipped} server(s) Bosun leaves out (not valid, an id seen before, or past the first ${MAX_MCP_SERVERS})` : 'has fields this Bosun does not know'
      log.warn(`${FILE} ${why}; a copy is kept before it is next saved`)
    }
    return servers
  }

  /** Saves run one after another, each on the list the one before left. */
  let saving: Promise<unknown> = Promise.resolve()

  /** Writes the list `change` makes of the current one, and only then makes it the list: a failed write leaves memory as the file is. */
  function save(change: (current: McpServerConfig[]) => McpServerConfig[]): Promise<Result<void>> {
    const run = saving.then(async (): Promise<Result<void>> => {
      const allowed = await guard.beforeReplace()
      if (!allowed.ok) return fail({ kind: 'io-error', message: `Not saved: ${allowed.message}` })
      if (allowed.aside) log.warn(`${FILE} held what this Bosun cannot use; kept a copy at ${allowed.aside}`)
      const next = change(servers)
      try {
        await writeFileAtomic(path, JSON.stringify({ version: 1, servers: next }, null, 2) + '\n')
      } catch (error) {
        return fail({ kind: 'io-error', message: `Could not save the MCP servers to ${path}: ${(error as Error).message}` })
      }
      servers = next
      return ok(undefined)
    })
    saving = run.catch(() => undefined)
    return run
  }

  async function resolve(config: McpServerConfig): Promise<Result<ResolvedMcpServer>> {
    const owner = secretOwner(config.id)
    const secretNames = [...(config.secretEnv ?? []), ...(config.secretHeaders ?? []).map(headerSecretName)]
    let values: Record<string, string> = {}
    if (secretNames.length) {
      const resolved = await options.secrets.resolveEnv(owner, secretNames)
      if (!resolved.ok) return resolved
      values = resolved.value
      for (const value of Object.values(values)) options.secretValues?.add(owner, value)
    }
    const env: Record<string, string> = { ...(config.env ?? {}) }
    for (const name of config.secretEnv ?? []) if (values[name] !== undefined) env[name] = values[name]
    const headers: Record<string, string> = { ...(config.headers ?? {}) }
    for (const name of config.secretHeaders ?? []) {
      const value = values[headerSecretName(name)]
      if (value !== undefined) headers[name] = value
    }
    const command = config.command ? findExecutable(config.command, (options.baseEnv ?? process.env).PATH) : undefined
    return ok({ config, env, headers, ...(command ? { command } : {}) })
  }

  /** The last handshake seen of each agent: its transports are still known after it stopped. */
  const handshakes = new Map<string, AgentMcpHandshake>()
  const handshakeOf = (agentId: string): AgentMcpHandshake | undefined => {
    const current = options.handshake?.(agentId)
    if (current) handshakes.set(agentId, { protocolVersion: current.protocolVersion, mcp: { ...current.mcp } })
    return handshakes.get(agentId)
  }
  const knownAgents = () => (options.agentIds ? new Set(options.agentIds()) : undefined)

  /** The server for the renderer: whether each secret is set, when the keychain can say (`keychain` false: not asked again). */
  async function view(server: McpServerConfig, keychain?: boolean): Promise<McpServerView> {
    const secretsSet: Record<string, boolean> = {}
    if (secretKeys(server).size === 0) return { ...server, secretsSet }
    if (!(keychain ?? (await options.secrets.status()).available)) return { ...server, secretsSet }
    for (const [name, key] of secretKeys(server)) {
      const has = await options.secrets.has(secretOwner(server.id), key)
      if (has.ok) secretsSet[name] = has.value
    }
    return { ...server, secretsSet }
  }

  return {
    async agentRemoved(agentId) {
      handshakes.delete(agentId)
      if (!servers.some((s) => s.agents?.includes(agentId))) return
      // The agent is gone already: it leaves the lists at once, whether or not the file can take that now.
      const without = (list: McpServerConfig[]) => list.map((s) => (s.agents?.includes(agentId) ? { ...s, agents: s.agents.filter((id) => id !== agentId) } : s))
      servers = without(servers)
      const saved = await save(without)
      if (!saved.ok) log.warn(`the MCP servers chosen for the removed agent ${agentId} stay in ${FILE}: ${saved.error.message}`)
    },
    async forAgent(agentId, version, mcp) {
      handshakes.set(agentId, { protocolVersion: version, mcp: { ...mcp } })
      const resolved: ResolvedMcpServer[] = []
      const refused: McpSelection['refused'] = []
      for (const config of servers.filter((s) => appliesTo(s, agentId))) {
        const r = await resolve(config)
        if (r.ok) resolved.push(r.value)
        else refused.push({ name: config.name, transport: config.transport, reason: r.error.message })
      }
      const selection = selectMcpServers(resolved, version, mcp)
      return { servers: selection.servers, refused: [...refused, ...selection.refused] }
    },
    handlers: {
      listMcpServers: async () => {
        // One probe, not one per secret: without a Secret Service each keychain call can wait for its timeout.
        const keychain = servers.some((s) => secretKeys(s).size > 0) && (await options.secrets.status()).available
        const views: McpServerView[] = []
        for (const server of servers) views.push(await view(server, keychain))
        return ok({ servers: views })
      },
      listAgentMcpServers: async ({ agentId }) => {
        const known = knownAgents()
        if (known && !known.has(agentId)) return fail({ kind: 'not-found', message: `No agent with id ${agentId}` })
        const handshake = handshakeOf(agentId)
        const list: AgentMcpServer[] = servers
          .filter((s) => appliesTo(s, agentId))
          .map((s) => {
            const reason = handshake ? transportRefusal(s.transport, handshake.protocolVersion, handshake.mcp) : undefined
            return { id: s.id, name: s.name, transport: s.transport, passed: handshake ? reason === undefined : null, ...(reason ? { reason } : {}) }
          })
        return ok({ servers: list })
      },
      saveMcpServer: async ({ server: draft, secrets }) => {
        const normalized = normalizeMcpServer(draft, knownAgents())
        if (!normalized.ok) return fail(normalized.error)
        const server = normalized.server
        const allowed = secretKeys(server)
        const keys: [string, string][] = []
        for (const [name, value] of Object.entries(secrets ?? {})) {
          // By the name as listed (an env name or a header name), or by its keychain name.
          const key = allowed.get(name) ?? [...allowed.values()].find((k) => k === name)
          if (key === undefined) return fail({ kind: 'invalid-argument', message: `${name} is not one of the server's secret names.` })
          keys.push([key, value])
        }
        // What agents will run or connect to is new or changed: main shows it exactly and the person confirms, or nothing is saved.
        const previous = servers.find((s) => s.id === server.id)
        if (!previous && servers.length >= MAX_MCP_SERVERS) return fail({ kind: 'invalid-argument', message: `Bosun keeps up to ${MAX_MCP_SERVERS} MCP servers; remove one first.` })
        if (!previous || mcpServerIdentity(previous) !== mcpServerIdentity(server)) {
          const answer = await confirmation.confirm({
            kind: 'mcp-server',
            title: previous ? 'Change an MCP server' : 'Add an MCP server',
            message: `${previous ? 'Save the changed' : 'Add the'} MCP server ${quoteExact(server.name)}? ${
              server.transport === 'stdio' ? 'Agents will run exactly this command' : 'Agents will connect to exactly this address'
            } when a session starts.`,
            detail: describeMcpServer(server),
            confirmLabel: previous ? 'Save changes' : 'Add server',
          })
          if (!answer.confirmed) return fail({ kind: 'not-confirmed', message: 'Not saved: the MCP server was not confirmed.' })
        }
        const owner = secretOwner(server.id)
        // Known for redaction before the value goes anywhere (the keychain call included).
        for (const [, value] of keys) options.secretValues?.add(owner, value)
        for (const [key, value] of keys) {
          const stored = await options.secrets.set(owner, key, value)
          if (!stored.ok) return stored
        }
        // An edited server keeps its place (the order agents get them in).
        const saved = await save((list) => (list.some((s) => s.id === server.id) ? list.map((s) => (s.id === server.id ? server : s)) : [...list, server]))
        if (!saved.ok) return saved
        // A secret the server no longer lists would otherwise stay in the keychain.
        const kept = new Set(allowed.values())
        for (const key of previous ? secretKeys(previous).values() : []) {
          if (kept.has(key)) continue
          const removed = await options.secrets.delete(owner, key)
          if (!removed.ok) log.warn(`could not remove the secret ${key} of MCP server ${server.id}: ${removed.error.message}`)
        }
        return ok({ server: await view(server) })
      },
      removeMcpServer: async ({ id }) => {
        if (!servers.some((s) => s.id === id)) return fail({ kind: 'not-found', message: `No MCP server ${id}.` })
        const saved = await save((list) => list.filter((s) => s.id !== id))
        if (!saved.ok) return saved
        await options.secrets.deleteAll(secretOwner(id))
        options.secretValues?.forget(secretOwner(id))
        return ok(undefined)
      },
      // Each check starts the server: one per server at a time (asking again joins it), and a few at once.
      checkMcpServer: ({ id }) => checks.run(id, () => checkServer(id)),
    },
  }

  async function checkServer(id: string): Promise<Result<CheckedServer>> {
    const config = servers.find((s) => s.id === id)
    if (!config) return fail({ kind: 'not-found', message: `No MCP server ${id}.` })
    if (config.transport !== 'stdio') return fail({ kind: 'invalid-argument', message: 'Check starts stdio servers only.' })
    const resolved = await resolve(config)
    if (!resolved.ok) return resolved
    if (!resolved.value.command) return fail({ kind: 'not-found', message: `${config.command ?? ''} was not found.` })
    const checked = await checkStdioServer(resolved.value.command, config.args ?? [], { ...scrubEnv(options.baseEnv ?? process.env), ...resolved.value.env })
    if (checked.ok) return checked
    // The server may print its own key as it fails: its secret values never reach the renderer.
    const secretValues = (config.secretEnv ?? []).map((n) => resolved.value.env[n]).filter((v): v is string => typeof v === 'string' && v.length > 0)
    const hide = (text: string) => secretValues.reduce((t, v) => t.split(v).join(REDACTED), text)
    return fail({ ...checked.error, message: hide(checked.error.message), ...(checked.error.stderrTail !== undefined ? { stderrTail: hide(checked.error.stderrTail) } : {}) })
  }
}

/** What a check learned of a server. */
type CheckedServer = { tools: { name: string; description?: string }[]; serverName?: string }

/** MCP server checks running at once (each starts the server). */
const MAX_CHECKS_AT_ONCE = 4

/** Starts the server, lists its tools, stops it (the SDK's stdio client; bounded in time). */
async function checkStdioServer(command: string, args: string[], env: Record<string, string>): Promise<Result<CheckedServer>> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js')
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js')
  const transport = new StdioClientTransport({ command, args, env, stderr: 'pipe' })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-2000)
  })
  const client = new Client({ name: 'Bosun', version: '1' })
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS / 1000} s`)), CHECK_TIMEOUT_MS)))
  try {
    await Promise.race([client.connect(transport), timeout])
    const listed = await Promise.race([client.listTools(), timeout])
    const info = client.getServerVersion()
    return ok({
      tools: listed.tools.slice(0, 500).map((t) => ({ name: t.name, ...(t.description ? { description: t.description.slice(0, 1000) } : {}) })),
      ...(info?.name ? { serverName: info.name } : {}),
    })
  } catch (error) {
    return fail({ kind: 'rpc-error', message: `The server did not answer: ${error instanceof Error ? error.message : String(error)}`, ...(stderr ? { stderrTail: stderr } : {}) })
  } finally {
    clearTimeout(timer)
    await client.close().catch(() => undefined)
  }
}

function findExecutable(command: string, path: string | undefined): string | undefined {
  const candidates = isAbsolute(command) ? [command] : command.includes('/') ? [] : (path ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, command))
  return candidates.find((candidate) => {
    try {
      accessSync(candidate, fsConstants.X_OK)
      return statSync(candidate).isFile()
    } catch {
      return false
    }
  })
}
