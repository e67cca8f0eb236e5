/**
 * An agent that answers a prompt with "resource not found" for the session (it lost it: restarted without loading
 * it, or another client deleted it): the session says where the person types that it cannot continue, instead of
 * keeping a composer whose every send fails. A missing resource the prompt named is not that.
 */
import { describe, expect, it } from 'vitest'
import { RpcError } from '../../../main/base/errors'
import { fakeAgentConnection, sessionsOn } from '../../support/fake-agent-connection'

async function promptRefusedWith(error: RpcError) {
  const { connection } = fakeAgentConnection({ prompt: async () => Promise.reject(error) })
  const service = sessionsOn(connection)
  const created = await service.newSession('a', '/w')
  const sessionId = created.ok ? created.value.sessionId : ''
  const result = await service.prompt(sessionId, [{ type: 'text', text: 'hello' }])
  const state = service.state(sessionId)!
  service.dispose()
  return { result, state }
}

describe('a prompt the agent answers "resource not found"', () => {
  it('for this session (its id in data): the session cannot continue, and says why', async () => {
    const { result, state } = await promptRefusedWith(new RpcError(-32002, 'Session not found', { sessionId: 's1' }))
    expect(result.ok).toBe(false)
    expect(state.cannotContinue?.reason).toMatch(/no longer has this session \(it answered: Session not found\)/)
  })

  it('naming the session only in its message: the same', async () => {
    const { state } = await promptRefusedWith(new RpcError(-32002, 'Unknown session s1'))
    expect(state.cannotContinue).toBeTruthy()
  })

  it('for another session, or for a file the prompt named: the session goes on', async () => {
    expect((await promptRefusedWith(new RpcError(-32002, 'Session not found', { sessionId: 'other' }))).state.cannotContinue).toBeFalsy()
    expect((await promptRefusedWith(new RpcError(-32002, 'Resource not found', { uri: 'file:///w/gone.txt' }))).state.cannotContinue).toBeFalsy()
    expect((await promptRefusedWith(new RpcError(-32603, 'Session exploded'))).state.cannotContinue).toBeFalsy()
  })
})
