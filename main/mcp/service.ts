/**
 * MCP servers: settings in `mcp-servers.json` (written atomically; secret values in the keychain under
 * `mcp/<id>`), the servers each agent gets on session/new, load and resume ({@link McpService.forAgent}),
 * and "Check", which starts a stdio server with the official MCP SDK and lists its tools.
 */
import { promises as fs } from 'node:fs'
import { accessSync, constants as fsConstants, statSync } from 'node:fs'
import { delimiter, isAbsolute, join } from 'node:path'
import { writeFileAtomic } from '../base/atomic-write'
import { fail, ok, type Result } from '../base/errors'
import { createLogger, type Logger } from '../base/log'
import type { AgentCapabilitySummary, ProtocolVersion } from '../acp/types'
import { scrubEnv } from '../config/launch'
import { quoteExact, refuseAllConfirmation, type ConfirmationService } from '../trust/confirmation'
import { describeLaunch } from '../trust/launch-trust'
import type { SecretStore } from '../secrets/secret-store'
import type { CallHandlers } from '../../common/contract'
import { mcpServerShape, type McpServerConfig } from '../../common/contract/mcp'
import { appliesTo, selectMcpServers, type McpSelection, type ResolvedMcpServer } from './select'

const FILE = 'mcp-servers.json'
const CHECK_TIMEOUT_MS = 20_000

export type McpCallHandlers = Pick<CallHandlers, 'listMcpServers' | 'saveMcpServer' | 'removeMcpServer' | 'checkMcpServer'>

export interface McpService {
  handlers: McpCallHandlers
  /** The servers for a new/loaded/resumed session of `agentId`, and the ones it cannot take. */
  forAgent(agentId: string, version: ProtocolVersion, mcp: AgentCapabilitySummary['mcp']): Promise<McpSelection>
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
  const confirmation = options.confirmation ?? refuseAllConfirmation(options.log ?? createLogger('mcp'))
  let servers: McpServerConfig[] = await load()

  async function load(): Promise<McpServerConfig[]> {
    let text: string
    try {
      text = await fs.readFile(path, 'utf8')
    } catch {
      return []
    }
    try {
      const parsed = JSON.parse(text) as { servers?: unknown[] }
      // One bad entry does not lose the others.
      return (parsed.servers ?? []).flatMap((s) => {
        const checked = mcpServerShape.safeParse(s)
        return checked.success ? [checked.data] : []
      })
    } catch {
      await fs.rename(path, `${path}.corrupt-${Date.now()}`).catch(() => undefined)
      options.log?.warn(`${FILE} could not be read; kept aside`)
      return []
    }
  }

  const save = () => writeFileAtomic(path, JSON.stringify({ version: 1, servers }, null, 2) + '\n')

  async function resolve(config: McpServerConfig): Promise<Result<ResolvedMcpServer>> {
    const owner = secretOwner(config.id)
    const secretNames = [...(config.secretEnv ?? []), ...(config.secretHeaders ?? []).map(headerSecretName)]
    let values: Record<string, string> = {}
    if (secretNames.length) {
      const resolved = await options.secrets.resolveEnv(owner, secretNames)
      if (!resolved.ok) return resolved
      values = resolved.value
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

  return {
    async forAgent(agentId, version, mcp) {
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
      listMcpServers: async () => ok({ servers }),
      saveMcpServer: async ({ server, secrets }) => {
        if (server.transport === 'stdio' && !server.command) return fail({ kind: 'invalid-argument', message: 'A stdio server needs a command.' })
        if (server.transport !== 'stdio' && !/^https?:\/\//i.test(server.url ?? '')) return fail({ kind: 'invalid-argument', message: 'An HTTP or SSE server needs an http(s) URL.' })
        const allowed = new Set([...(server.secretEnv ?? []), ...(server.secretHeaders ?? []).map(headerSecretName)])
        const keys: [string, string][] = []
        for (const [name, value] of Object.entries(secrets ?? {})) {
          const key = allowed.has(name) ? name : headerSecretName(name)
          if (!allowed.has(key)) return fail({ kind: 'invalid-argument', message: `${name} is not one of the server's secret names.` })
          keys.push([key, value])
        }
        // What agents will run or connect to is new or changed: main shows it exactly and the person confirms, or nothing is saved.
        const previous = servers.find((s) => s.id === server.id)
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
        for (const [key, value] of keys) {
          const stored = await options.secrets.set(secretOwner(server.id), key, value)
          if (!stored.ok) return stored
        }
        servers = [...servers.filter((s) => s.id !== server.id), server]
        await save()
        return ok({ server })
      },
      removeMcpServer: async ({ id }) => {
        if (!servers.some((s) => s.id === id)) return fail({ kind: 'not-found', message: `No MCP server ${id}.` })
        servers = servers.filter((s) => s.id !== id)
        await save()
        await options.secrets.deleteAll(secretOwner(id))
        return ok(undefined)
      },
      checkMcpServer: async ({ id }) => {
        const config = servers.find((s) => s.id === id)
        if (!config) return fail({ kind: 'not-found', message: `No MCP server ${id}.` })
        if (config.transport !== 'stdio') return fail({ kind: 'invalid-argument', message: 'Check starts stdio servers only.' })
        const resolved = await resolve(config)
        if (!resolved.ok) return resolved
        if (!resolved.value.command) return fail({ kind: 'not-found', message: `${config.command ?? ''} was not found.` })
        return checkStdioServer(resolved.value.command, config.args ?? [], { ...scrubEnv(options.baseEnv ?? process.env), ...resolved.value.env })
      },
    },
  }
}

/** Starts the server, lists its tools, stops it (the SDK's stdio client; bounded in time). */
async function checkStdioServer(command: string, args: string[], env: Record<string, string>): Promise<Result<{ tools: { name: string; description?: string }[]; serverName?: string }>> {
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
