/**
 * E5 (v2): the agent may report the new session's state before it answers `session/new`. What it reported stands: the
 * answer does not reset the session to the default idle, and what came with the early updates (commands) is kept
 * beside what the answer configures.
 */
import { describe, expect, it } from 'vitest'
import { v2Peer } from '../sessions/v2-peer'

const start = v2Peer()

describe('updates before the session/new answer (E5)', () => {
  it('a running state reported first is what the session shows once the answer comes', async () => {
    const { service, next, send } = await start()
    const created = service.newSession('a', '/w')
    const request = await next()
    expect(request.method).toBe('session/new')
    const early = (update: Record<string, unknown>) => send({ method: 'session/update', params: { sessionId: 'n1', update } })
    early({ sessionUpdate: 'state_update', state: 'running' })
    early({ sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: 'Warming up' } })
    send({ id: request.id, result: { sessionId: 'n1', availableCommands: [{ type: 'command', name: 'init', description: 'Set up' }] } })
    const result = await created
    if (!result.ok) throw new Error(result.error.message)
    const state = service.state(result.value.sessionId)!
    expect(state.turn.state).toBe('running')
    expect(state.entries.map((e) => e.kind)).toEqual(['agent_message'])
    expect(state.availableCommands.map((c) => c.name)).toEqual(['init'])
  })
})
