/**
 * Which MCP servers an agent gets for a session, in its version's wire shape (checklist E2): stdio is
 * baseline in v1 and needs `session.mcp.stdio` in v2; http needs the agent's http capability; sse exists in
 * v1 only, with its capability. A server the agent cannot take is returned as refused, to be named in the
 * session, never dropped silently.
 */
import type { AgentCapabilitySummary, ProtocolVersion } from '../acp/types'
import type { McpServerConfig } from '../../common/contract/mcp'

export interface ResolvedMcpServer {
  config: McpServerConfig
  /** Plain env plus the keychain's values (stdio). */
  env: Record<string, string>
  /** Plain headers plus the keychain's values (http, sse). */
  headers: Record<string, string>
  /** The command as an absolute path (v1 requires one), when it could be found. */
  command?: string
}

export interface McpSelection {
  servers: Record<string, unknown>[]
  refused: { name: string; transport: string; reason: string }[]
}

export function appliesTo(server: McpServerConfig, agentId: string): boolean {
  return server.enabled && (server.agents === null || server.agents.includes(agentId))
}

/** Why an agent of this version and these MCP capabilities cannot take the server's transport, or undefined when it can. */
export function transportRefusal(transport: McpServerConfig['transport'], version: ProtocolVersion, mcp: AgentCapabilitySummary['mcp']): string | undefined {
  const supported = transport === 'stdio' ? version === 1 || mcp.stdio : transport === 'http' ? mcp.http : version === 1 && mcp.sse
  if (supported) return undefined
  return transport === 'sse' && version === 2 ? 'ACP v2 has no SSE transport' : `the agent does not take ${transport} MCP servers`
}

export function selectMcpServers(resolved: readonly ResolvedMcpServer[], version: ProtocolVersion, mcp: AgentCapabilitySummary['mcp']): McpSelection {
  const selection: McpSelection = { servers: [], refused: [] }
  const names = new Set<string>()
  for (const server of resolved) {
    const { config } = server
    const refuse = (reason: string) => selection.refused.push({ name: config.name, transport: config.transport, reason })
    const unsupported = transportRefusal(config.transport, version, mcp)
    if (unsupported) {
      refuse(unsupported)
      continue
    }
    // v2 rejects duplicate names; v1 agents would confuse them.
    if (names.has(config.name)) {
      refuse('another server has the same name')
      continue
    }
    const pairs = (map: Record<string, string>) => Object.entries(map).map(([name, value]) => ({ name, value }))
    if (config.transport === 'stdio') {
      if (!server.command) {
        refuse(`its command ${config.command ?? ''} was not found`)
        continue
      }
      const entry: Record<string, unknown> = { name: config.name, command: server.command, args: config.args ?? [], env: pairs(server.env) }
      if (version === 2) entry.type = 'stdio'
      selection.servers.push(entry)
    } else {
      if (!config.url || !/^https?:\/\//i.test(config.url)) {
        refuse('its URL is not http(s)')
        continue
      }
      selection.servers.push({ type: config.transport, name: config.name, url: config.url, headers: pairs(server.headers) })
    }
    names.add(config.name)
  }
  return selection
}
