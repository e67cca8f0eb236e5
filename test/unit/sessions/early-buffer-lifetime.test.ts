/**
 * The early buffer of a connection (updates for sessions whose session/new|load|resume is not answered yet) lives
 * only while one of those calls runs: one made for a connection that had already closed (its close is never said
 * again) must not stay, holding the connection, for as long as the app runs.
 */
import { describe, expect, it } from 'vitest'
import { AgentExitedError } from '../../../main/base/errors'
import type { SessionsService } from '../../../main/sessions/sessions-service'
import { fakeAgentConnection, sessionsOn } from '../../support/fake-agent-connection'

/** What the service keeps per connection for early updates (private: only its size is read). */
const buffers = (service: SessionsService) => (service as unknown as { early: Map<unknown, unknown> }).early.size

describe('the early buffer', () => {
  it('is not kept for a connection that closed before the session/new went out', async () => {
    const { connection } = fakeAgentConnection({ newSession: async () => Promise.reject(new AgentExitedError('The agent exited.', 1, null)) })
    const service = sessionsOn(connection)
    expect((await service.newSession('a', '/w')).ok).toBe(false)
    expect(buffers(service)).toBe(0)
    service.dispose()
  })

  it('is not kept once the session/new is answered', async () => {
    const { connection } = fakeAgentConnection()
    const service = sessionsOn(connection)
    expect((await service.newSession('a', '/w')).ok).toBe(true)
    expect(buffers(service)).toBe(0)
    service.dispose()
  })
})
