/** MCP server settings for tests: the tiny stdio server fixture (test/fixtures/mcp/tiny-server.ts) and an http one. */
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { McpServerConfig } from '../../common/contract/mcp'

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** Runs the tiny SDK server fixture with this Node (its one variable is no secret). */
export const tinyMcpServer: McpServerConfig = {
  id: 'tiny',
  name: 'tiny',
  transport: 'stdio',
  enabled: true,
  agents: null,
  command: process.execPath,
  args: ['--import', pathToFileURL(join(repoRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href, join(repoRoot, 'test', 'fixtures', 'mcp', 'tiny-server.ts')],
  env: { TINY_TOKEN: 'plain-value' },
}

/** An http server nothing answers (enough for what is sent on session/new). */
export const webMcpServer: McpServerConfig = { id: 'web', name: 'web search', transport: 'http', enabled: true, agents: null, url: 'https://mcp.example/api', headers: { 'X-Team': 'blue' } }
