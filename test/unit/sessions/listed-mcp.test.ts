/**
 * A session opened from the agent's own list gets Bosun's MCP servers as a new session does, and like a new session
 * it says which ones the agent cannot take (they are not dropped silently).
 */
import { describe, expect, it } from 'vitest'
import { fakeAgentConnection, sessionsOn } from '../../support/fake-agent-connection'

describe('MCP servers on a session opened from the agent’s list', () => {
  it('go with the load, and those the agent cannot take are named in a notice', async () => {
    const sent: Record<string, unknown>[] = []
    const { connection } = fakeAgentConnection({
      handshake: { protocolVersion: 1, capabilities: { loadSession: true } },
      resumeSession: async (params: Record<string, unknown>) => {
        sent.push(params)
        return { sessionId: 'listed-1', raw: null }
      },
    })
    const service = sessionsOn(connection, {
      mcpServers: async () => ({
        servers: [{ name: 'files', command: 'mcp-files', args: [], env: [] }],
        refused: [{ name: 'web search', transport: 'http', reason: 'the agent does not take http servers' }],
      }),
    })
    const opened = await service.openAgentSession('a', 'listed-1', '/w')
    const state = service.state(opened.ok ? opened.value.sessionId : '')!
    service.dispose()
    expect(sent[0]).toMatchObject({ mcpServers: [{ name: 'files' }] })
    expect(state.notices).toEqual([
      expect.objectContaining({ severity: 'warning', title: 'Not passed to a: web search', description: 'web search (http): the agent does not take http servers' }),
    ])
  })
})
