/**
 * A session opened from the agent's own list keeps the folders the list gave it (E17), as a new session keeps the
 * ones the person added: they are its roots, and they go on the load only to an agent that takes them (E1).
 */
import { describe, expect, it } from 'vitest'
import { fakeAgentConnection, sessionsOn } from '../../support/fake-agent-connection'

async function openListed(additionalDirectories: boolean, folders?: string[]) {
  const sent: Record<string, unknown>[] = []
  const { connection } = fakeAgentConnection({
    handshake: { protocolVersion: 1, capabilities: { loadSession: true, additionalDirectories } },
    resumeSession: async (params: Record<string, unknown>) => {
      sent.push(params)
      return { sessionId: 'listed-1', raw: null }
    },
  })
  const service = sessionsOn(connection)
  const opened = await service.openAgentSession('a', 'listed-1', '/w', folders ? { additionalDirectories: folders } : {})
  const state = service.state(opened.ok ? opened.value.sessionId : '')!
  service.dispose()
  return { sent, state }
}

describe('opening a session from the agent’s list', () => {
  it('sends its folders, in order, to an agent that takes them, and the session has them', async () => {
    const { sent, state } = await openListed(true, ['/w2', '/w1'])
    expect(sent).toEqual([expect.objectContaining({ sessionId: 'listed-1', replay: true, additionalDirectories: ['/w2', '/w1'] })])
    expect(state.additionalDirectories).toEqual(['/w2', '/w1'])
    expect(state.notices).toEqual([])
  })

  it('to an agent that does not take them: not sent, still the session’s roots, and the session says so', async () => {
    const { sent, state } = await openListed(false, ['/w2'])
    expect(sent[0]).not.toHaveProperty('additionalDirectories')
    expect(state.additionalDirectories).toEqual(['/w2'])
    expect(state.notices.map((n) => n.title)).toEqual(['The agent was not told of the added folders (it does not take them): /w2'])
  })

  it('listed without folders: none sent, none assumed', async () => {
    const { sent, state } = await openListed(true)
    expect(sent[0]).not.toHaveProperty('additionalDirectories')
    expect(state.additionalDirectories).toBeUndefined()
  })
})
