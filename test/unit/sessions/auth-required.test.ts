/**
 * A prompt refused with -32000 (B10): the message is marked not sent, and whether Bosun can offer a sign-in for it
 * (the agent listed auth methods) travels with it, so the transcript offers one only where there is one.
 */
import { describe, expect, it } from 'vitest'
import { RpcError } from '../../../main/base/errors'
import type { MessageEntry } from '../../../common/session/types'
import { fakeAgentConnection, sessionsOn } from '../../support/fake-agent-connection'

async function notSentAfter(error: RpcError) {
  const { connection } = fakeAgentConnection({ prompt: async () => Promise.reject(error) })
  const service = sessionsOn(connection)
  const created = await service.newSession('a', '/w')
  const sessionId = created.ok ? created.value.sessionId : ''
  const result = await service.prompt(sessionId, [{ type: 'text', text: 'hello' }])
  const message = service.state(sessionId)!.entries.find((e): e is MessageEntry => e.kind === 'user_message')
  service.dispose()
  return { result, notSent: message?.notSent }
}

describe('a prompt refused with -32000', () => {
  it('from an agent with auth methods: auth-required, and the note offers a sign-in', async () => {
    const { result, notSent } = await notSentAfter(new RpcError(-32000, 'Authentication required', undefined, { canSignIn: true }))
    expect(result).toMatchObject({ ok: false, error: { kind: 'auth-required' } })
    expect(notSent).toEqual({ message: 'Authentication required', code: -32000, signIn: true })
  })

  it('from an agent that listed none: an rpc-error, with its details, and the note says there is no sign-in', async () => {
    const { result, notSent } = await notSentAfter(new RpcError(-32000, 'Authentication required', { details: 'Run `acme login` first.' }, { canSignIn: false }))
    expect(result).toMatchObject({ ok: false, error: { kind: 'rpc-error', code: -32000 } })
    expect(notSent).toEqual({ message: 'Authentication required', code: -32000, details: 'Run `acme login` first.', signIn: false })
  })

  it('any other code carries no sign-in either way', async () => {
    // (v1: an internal error may come after the agent took the message, so the note says it failed, not that it was refused.)
    expect((await notSentAfter(new RpcError(-32603, 'Internal error'))).notSent).toEqual({ message: 'Internal error', code: -32603, mayHaveTaken: true })
  })
})
