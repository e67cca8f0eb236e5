import { describe, expect, it } from 'vitest'
import { appliesTo, selectMcpServers, type ResolvedMcpServer } from '../../../main/mcp/select'
import type { McpServerConfig } from '../../../common/contract/mcp'

const base = { enabled: true, agents: null } as const
const stdio: ResolvedMcpServer = {
  config: { ...base, id: 'fs', name: 'files', transport: 'stdio', command: 'files-mcp', args: ['--root', '/p'] },
  command: '/usr/bin/files-mcp',
  env: { TOKEN: 's3cret' },
  headers: {},
}
const http: ResolvedMcpServer = { config: { ...base, id: 'web', name: 'web', transport: 'http', url: 'https://mcp.example/api' }, env: {}, headers: { Authorization: 'Bearer x' } }
const sse: ResolvedMcpServer = { config: { ...base, id: 'old', name: 'old', transport: 'sse', url: 'https://mcp.example/sse' }, env: {}, headers: {} }
const none = { stdio: false, http: false, sse: false }

describe('selectMcpServers (E2)', () => {
  it('v1: stdio is baseline (untagged, args and env always present); http and sse only with their capability', () => {
    const plain = selectMcpServers([stdio, http, sse], 1, none)
    expect(plain.servers).toEqual([{ name: 'files', command: '/usr/bin/files-mcp', args: ['--root', '/p'], env: [{ name: 'TOKEN', value: 's3cret' }] }])
    expect(plain.refused.map((r) => [r.name, r.transport])).toEqual([
      ['web', 'http'],
      ['old', 'sse'],
    ])
    const all = selectMcpServers([stdio, http, sse], 1, { stdio: true, http: true, sse: true })
    expect(all.servers.slice(1)).toEqual([
      { type: 'http', name: 'web', url: 'https://mcp.example/api', headers: [{ name: 'Authorization', value: 'Bearer x' }] },
      { type: 'sse', name: 'old', url: 'https://mcp.example/sse', headers: [] },
    ])
    expect(all.refused).toEqual([])
  })

  it('v2: stdio tagged and only with session.mcp.stdio; sse never', () => {
    expect(selectMcpServers([stdio], 2, none).refused).toHaveLength(1)
    const v2 = selectMcpServers([stdio, http, sse], 2, { stdio: true, http: true, sse: true })
    expect(v2.servers[0]).toMatchObject({ type: 'stdio', name: 'files' })
    expect(v2.servers).toHaveLength(2)
    expect(v2.refused).toEqual([{ name: 'old', transport: 'sse', reason: 'ACP v2 has no SSE transport' }])
  })

  it('refuses a missing command, a non-http URL and a duplicate name', () => {
    const missing = { ...stdio, command: undefined } as unknown as ResolvedMcpServer
    const file = { ...http, config: { ...http.config, name: 'file', url: 'file:///x' } }
    const twin = { ...stdio, config: { ...stdio.config, id: 'fs2' } }
    const result = selectMcpServers([missing, file, stdio, twin], 1, { stdio: true, http: true, sse: false })
    expect(result.servers).toHaveLength(1)
    expect(result.refused.map((r) => r.reason)).toEqual([expect.stringContaining('was not found'), 'its URL is not http(s)', 'another server has the same name'])
  })

  it('appliesTo: enabled, and every agent or the listed ones', () => {
    const server = (patch: Partial<McpServerConfig>): McpServerConfig => ({ ...stdio.config, ...patch })
    expect(appliesTo(server({}), 'a')).toBe(true)
    expect(appliesTo(server({ enabled: false }), 'a')).toBe(false)
    expect(appliesTo(server({ agents: ['b'] }), 'a')).toBe(false)
    expect(appliesTo(server({ agents: ['a'] }), 'a')).toBe(true)
  })
})
