import { z } from 'zod'
import { boundedRecord, call, id } from './define'
import { HEADER_NAME_PATTERN } from '../http-header'

const name = z.string().min(1).max(200)
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).max(200)
const headerName = z.string().regex(HEADER_NAME_PATTERN).max(200)

/**
 * An MCP server Bosun passes to agents on `session/new`, `session/load` and `session/resume` (E2). Secret
 * values (`secretEnv`, `secretHeaders`) live in the keychain, never here. `agents: null` = every agent;
 * a list = only those agents (ids of configured agents; main refuses unknown ones when saving).
 */
export const mcpServerShape = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/),
  name,
  transport: z.enum(['stdio', 'http', 'sse']),
  enabled: z.boolean(),
  agents: z.array(id).max(200).nullable(),
  command: z.string().max(4096).optional(),
  args: z.array(z.string().max(4096)).max(200).optional(),
  env: boundedRecord(envName, z.string().max(65536), 200).optional(),
  secretEnv: z.array(envName).max(50).optional(),
  url: z.string().max(8192).optional(),
  headers: boundedRecord(headerName, z.string().max(65536), 200).optional(),
  secretHeaders: z.array(headerName).max(50).optional(),
})
export type McpServerConfig = z.infer<typeof mcpServerShape>

/**
 * A saved server as the renderer sees it: never a secret value, only whether each secret env or header
 * name has one in the keychain (`secretsSet`, by the name as listed; absent when the keychain cannot say).
 */
export const mcpServerViewShape = mcpServerShape.extend({ secretsSet: z.record(z.string(), z.boolean()) })
export type McpServerView = z.infer<typeof mcpServerViewShape>

/** One server as an agent gets it: `passed` unless its transport (known from the agent's handshake) rules it out. */
export const agentMcpServerShape = z.object({
  id: z.string(),
  name: z.string(),
  transport: z.enum(['stdio', 'http', 'sse']),
  /** `null` while the agent's transports are not known yet (it has not started since Bosun did). */
  passed: z.boolean().nullable(),
  reason: z.string().optional(),
})
export type AgentMcpServer = z.infer<typeof agentMcpServerShape>

export const mcpCalls = {
  listMcpServers: call(z.undefined(), z.object({ servers: z.array(mcpServerViewShape) })),
  /**
   * Adds or replaces a server; `secrets` (env or header name → value, write-only) go to the keychain. A
   * secret name the server no longer lists has its value removed. Unknown agent ids in `agents` are refused.
   */
  saveMcpServer: call(
    z.object({ server: mcpServerShape, secrets: boundedRecord(z.string().max(200), z.string().min(1).max(65536), 100).optional() }),
    z.object({ server: mcpServerViewShape }),
  ),
  removeMcpServer: call(z.object({ id: z.string().max(64) }), z.undefined()),
  /** Starts a stdio server and lists its tools (the official MCP SDK's client), then stops it. */
  checkMcpServer: call(
    z.object({ id: z.string().max(64) }),
    z.object({ tools: z.array(z.object({ name: z.string(), description: z.string().optional() })), serverName: z.string().optional() }),
  ),
  /** The enabled servers `agentId` gets, and (once its handshake is known) the ones its transports rule out. */
  listAgentMcpServers: call(z.object({ agentId: id }), z.object({ servers: z.array(agentMcpServerShape) })),
} as const

export const mcpEvents = {} as const
