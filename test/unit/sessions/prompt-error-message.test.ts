/**
 * A prompt the agent refuses with its model API's error passed on as JSON (Gemini CLI: a 400 from the API arrives as
 * the message `{"error":{"code":400,"message":"…","status":"INVALID_ARGUMENT"}}`): the message said is the API's own.
 */
import { describe, expect, it } from 'vitest'
import { readableErrorMessage } from '../../../common/acp-errors'
import { RpcError } from '../../../main/base/errors'
import { fakeAgentConnection, sessionsOn } from '../../support/fake-agent-connection'

const GEMINI_400 = '{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}'

describe('an agent error message that is a JSON-encoded API error', () => {
  it('is said as the API message, with its status', () => {
    expect(readableErrorMessage(GEMINI_400)).toBe('API key not valid. Please pass a valid API key. (INVALID_ARGUMENT)')
    expect(readableErrorMessage('{"message":"Overloaded"}')).toBe('Overloaded')
  })

  it('anything else is kept as the agent wrote it', () => {
    for (const message of ['Internal error', '{"error":{"code":400}}', '{not json}', '{"error":"flat"}', '[1,2]', '{"message":"  "}']) {
      expect(readableErrorMessage(message)).toBe(message)
    }
  })

  it('a refused prompt says the API message under the message not sent', async () => {
    const { connection } = fakeAgentConnection({ prompt: async () => Promise.reject(new RpcError(400, GEMINI_400)) })
    const service = sessionsOn(connection)
    const created = await service.newSession('a', '/w')
    const sessionId = created.ok ? created.value.sessionId : ''
    await service.prompt(sessionId, [{ type: 'text', text: 'hello' }])
    const state = service.state(sessionId)!
    service.dispose()
    const message = state.entries.find((e) => e.kind === 'user_message')
    expect(message && 'notSent' in message ? message.notSent : null).toMatchObject({ message: 'API key not valid. Please pass a valid API key. (INVALID_ARGUMENT)', code: 400 })
  })
})
