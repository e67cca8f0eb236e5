/**
 * A session opened from the agent's own list and closed by the person while its `session/load` runs: the open does
 * not say it opened (the window would show a session that is gone), and a load that fails afterwards leaves alone a
 * session opened again under the same id meanwhile.
 */
import { describe, expect, it } from 'vitest'
import { RpcError } from '../../../main/base/errors'
import { createSessionState } from '../../../common/session/reducer'
import { fakeAgentConnection, sessionsOn } from '../../support/fake-agent-connection'

function withLoadHeld() {
  let answer!: { resolve: (value: unknown) => void; reject: (error: unknown) => void }
  const { connection } = fakeAgentConnection({
    handshake: { protocolVersion: 1, capabilities: { loadSession: true } },
    resumeSession: () => new Promise((resolve, reject) => (answer = { resolve, reject })),
  })
  return { service: sessionsOn(connection), answer: () => answer }
}

const loading = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('a listed session closed while it loads', () => {
  it('is not reported opened when the load is answered', async () => {
    const { service, answer } = withLoadHeld()
    const opening = service.openAgentSession('a', 's1', '/w')
    await loading()
    expect(service.has('a/s1')).toBe(true)
    service.closeSession('a/s1')
    answer().resolve({ sessionId: 's1', raw: null })
    const opened = await opening
    expect(opened.ok ? 'opened' : opened.error.kind).toBe('not-found')
    expect(service.has('a/s1')).toBe(false)
    service.dispose()
  })

  it('a failing load does not close the session opened again under its id meanwhile', async () => {
    const { service, answer } = withLoadHeld()
    const opening = service.openAgentSession('a', 's1', '/w')
    await loading()
    service.closeSession('a/s1')
    // Opened again from the history, where the close kept it.
    service.restore(createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' }))
    answer().reject(new RpcError(-32603, 'Internal error'))
    expect((await opening).ok).toBe(false)
    expect(service.has('a/s1')).toBe(true)
    service.dispose()
  })
})
