/**
 * An agent that stops while it resumes (or loads) a session has not said it cannot continue it: the session stays
 * one that can go on, the send fails as the agent's exit, and the next one (the agent started again) resumes it.
 */
import { describe, expect, it } from 'vitest'
import { ErrorCodes } from 'vscode-jsonrpc/node.js'
import { AgentExitedError, RpcError } from '../../../main/base/errors'
import { createSessionState } from '../../../common/session/reducer'
import { fakeAgentConnection, sessionsOn } from '../../support/fake-agent-connection'

function setup(firstResume: () => Promise<unknown>) {
  let resumes = 0
  const { connection } = fakeAgentConnection({
    handshake: { protocolVersion: 1, capabilities: { loadSession: true, resumeSession: true } },
    resumeSession: async () => (++resumes === 1 ? firstResume() : { sessionId: 's1', raw: null }),
    prompt: async () => ({ stopReason: 'end_turn' }),
  })
  const service = sessionsOn(connection)
  return { service, resumes: () => resumes }
}

const hello = [{ type: 'text' as const, text: 'hello' }]

describe('an agent that stops during the resume of a session', () => {
  it('leaves it able to continue: the send fails as the exit, and the next send resumes it', async () => {
    const { service, resumes } = setup(() => Promise.reject(new AgentExitedError('Agent A exited with code 1.', 1, null)))
    service.restore(createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' }))
    const first = await service.prompt('a/s1', hello)
    expect(first.ok ? undefined : first.error.kind).toBe('agent-exited')
    expect(service.state('a/s1')!.cannotContinue).toBeFalsy()
    expect((await service.prompt('a/s1', hello)).ok).toBe(true)
    expect(resumes()).toBe(2)
    service.dispose()
  })

  it('a session whose resume the agent refuses still cannot continue', async () => {
    const { service } = setup(() => Promise.reject(new RpcError(-32603, 'Internal error')))
    service.restore(createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' }))
    expect((await service.prompt('a/s1', hello)).ok).toBe(false)
    expect(service.state('a/s1')!.cannotContinue?.reason).toMatch(/could not resume it \(Internal error\)/)
    service.dispose()
  })

  it('a resume that could not be written (the agent closed its input) says so and leaves the session able to continue', async () => {
    const { service, resumes } = setup(() => Promise.reject(new RpcError(ErrorCodes.MessageWriteError, 'write EPIPE')))
    service.restore(createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' }))
    const first = await service.prompt('a/s1', hello)
    expect(first.ok ? undefined : first.error.message).toBe('The agent closed its input (stdin), so the request to continue this session could not reach it (write EPIPE).')
    expect(service.state('a/s1')!.cannotContinue).toBeFalsy()
    expect((await service.prompt('a/s1', hello)).ok).toBe(true)
    expect(resumes()).toBe(2)
    service.dispose()
  })
})
