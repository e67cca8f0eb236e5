import { z } from 'zod'
import { call, id } from './define'

const name = z.string().min(1).max(200)
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).max(200)
const headerName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/).max(200)

/**
 * An MCP server Bosun passes to agents on `session/new`, `session/load` and `session/resume` (E2). Secret
 * values (`secretEnv`, `secretHeaders`) live in the keychain, never here. `agents: null` = every agent.
 */
export const mcpServerShape = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/),
  name,
  transport: z.enum(['stdio', 'http', 'sse']),
  enabled: z.boolean(),
  agents: z.array(id).max(200).nullable(),
  command: z.string().max(4096).optional(),
  args: z.array(z.string().max(4096)).max(200).optional(),
  env: z.record(envName, z.string().max(65536)).optional(),
  secretEnv: z.array(envName).max(50).optional(),
  url: z.string().max(8192).optional(),
  headers: z.record(headerName, z.string().max(65536)).optional(),
  secretHeaders: z.array(headerName).max(50).optional(),
})
export type McpServerConfig = z.infer<typeof mcpServerShape>

export const mcpCalls = {
  listMcpServers: call(z.undefined(), z.object({ servers: z.array(mcpServerShape) })),
  /** Adds or replaces a server; `secrets` (env or header name → value) go to the keychain. */
  saveMcpServer: call(z.object({ server: mcpServerShape, secrets: z.record(z.string().max(200), z.string().min(1).max(65536)).optional() }), z.object({ server: mcpServerShape })),
  removeMcpServer: call(z.object({ id: z.string().max(64) }), z.undefined()),
  /** Starts a stdio server and lists its tools (the official MCP SDK's client), then stops it. */
  checkMcpServer: call(
    z.object({ id: z.string().max(64) }),
    z.object({ tools: z.array(z.object({ name: z.string(), description: z.string().optional() })), serverName: z.string().optional() }),
  ),
} as const

export const mcpEvents = {} as const
