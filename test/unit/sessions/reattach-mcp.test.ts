/**
 * Reattaching a session (after its agent restarted, or the first prompt of one opened from the history) passes
 * Bosun's MCP servers again, and says which ones the agent cannot take as `session/new` does, but only when that
 * differs from what the session already said: an agent restart does not repeat the same notice.
 */
import { describe, expect, it } from 'vitest'
import type { McpServersForSession } from '../../../main/sessions/sessions-service'
import { createSessionState } from '../../../common/session/reducer'
import { fakeAgentConnection, sessionsOn } from '../../support/fake-agent-connection'

const refusedNotices = (notices: { title: string }[]) => notices.filter((n) => n.title.startsWith('Not passed to')).map((n) => n.title)

function setup() {
  const resumed: Record<string, unknown>[] = []
  let refused: McpServersForSession['refused'] = [{ name: 'web search', transport: 'http', reason: 'the agent does not take http servers' }]
  const { connection } = fakeAgentConnection({
    handshake: { protocolVersion: 1, capabilities: { loadSession: true, resumeSession: true } },
    resumeSession: async (params: Record<string, unknown>) => {
      resumed.push(params)
      return { sessionId: 's1', raw: null }
    },
    prompt: async () => ({ stopReason: 'end_turn' }),
  })
  const service = sessionsOn(connection, {
    mcpServers: async () => ({ servers: [{ name: 'files', command: 'mcp-files', args: [], env: [] }], refused }),
  })
  return {
    service,
    resumed,
    refuse: (next: McpServersForSession['refused']) => (refused = next),
    /** The agent's process goes away and the next prompt brings the session back on it. */
    reattach: async (sessionId: string) => {
      service.agentDisconnected('a', undefined)
      const result = await service.prompt(sessionId, [{ type: 'text', text: 'go on' }])
      expect(result.ok).toBe(true)
      return refusedNotices(service.state(sessionId)!.notices)
    },
  }
}

describe('MCP servers the agent cannot take, on reattach', () => {
  it('a new session says it once; reattaching with the same servers does not say it again, a change does', async () => {
    const { service, resumed, refuse, reattach } = setup()
    const created = await service.newSession('a', '/w')
    const sessionId = created.ok ? created.value.sessionId : ''
    expect(refusedNotices(service.state(sessionId)!.notices)).toEqual(['Not passed to a: web search'])
    expect(await reattach(sessionId)).toEqual(['Not passed to a: web search'])
    expect(resumed.at(-1)).toMatchObject({ mcpServers: [{ name: 'files' }] })
    refuse([...[{ name: 'web search', transport: 'http', reason: 'the agent does not take http servers' }], { name: 'db', transport: 'sse', reason: 'the agent does not take sse servers' }])
    expect(await reattach(sessionId)).toEqual(['Not passed to a: web search', 'Not passed to a: web search, db'])
    service.dispose()
  })

  it('a session opened from the history says it on its first reattach, once', async () => {
    const { service, reattach } = setup()
    const state = createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' })
    service.restore(state)
    expect(await reattach('a/s1')).toEqual(['Not passed to a: web search'])
    expect(await reattach('a/s1')).toEqual(['Not passed to a: web search'])
    service.dispose()
  })
})
