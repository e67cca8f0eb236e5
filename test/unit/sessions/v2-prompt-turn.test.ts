/**
 * A v2 prompt turn through the real connection and the sessions service, with the agent scripted message by
 * message: what the session shows while the prompt's ack, its echo and the agent's state updates arrive in
 * the orders agents send them (F6, F7).
 */
import { describe, expect, it, vi } from 'vitest'
import type { MessageEntry, SessionState } from '../../../common/session/types'
import type { Json } from '../../support/acp-peer'
import { v2Peer } from './v2-peer'

const start = v2Peer()

/** A v2 agent on the other end of a real connection: reads what Bosun writes, writes what the test scripts. */
async function v2Session() {
  const { service, connection, next, send, open, update: updateOf } = await start()
  const sessionId = await open('s1')
  /** Sends a `session/update` for s1 and resolves once the service has been handed it. */
  const update = (body: Json) => updateOf('s1', body)
  return { service, sessionId, next, send, update, connection, state: (): SessionState => service.state(sessionId)! }
}

const users = (state: SessionState) => state.entries.filter((e): e is MessageEntry => e.kind === 'user_message')
const texts = (entry: MessageEntry) => entry.content.map((b) => ('text' in b ? b.text : `[${b.type}]`)).join('')

describe('a stale idle before the ack (F7)', () => {
  it('does not reach the session: it stays Working, counts no completion, and keeps waiting for the echo (one bubble)', async () => {
    const { service, sessionId, next, send, update, state } = await v2Session()
    const turn = service.prompt(sessionId, [{ type: 'text', text: 'hello' }])
    const prompt = await next()
    expect(prompt.method).toBe('session/prompt')
    // The idle of before the prompt (a change of background work), read after Bosun sent it; then the agent takes it.
    send({ method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'state_update', state: 'idle', background: [] } } })
    await update({ sessionUpdate: 'state_update', state: 'running' })
    expect(state().turn).toMatchObject({ state: 'running', completedTurns: 0 })
    await update({ sessionUpdate: 'user_message_chunk', messageId: 'u1', content: { type: 'text', text: 'hello' } })
    expect(users(state()).map(texts)).toEqual(['hello'])
    expect(state().turn.state).toBe('running')
    send({ id: prompt.id, result: { messageId: 'u1' } })
    await update({ sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' })
    expect((await turn).ok).toBe(true)
    expect(state().turn).toMatchObject({ state: 'idle', stopReason: 'end_turn', completedTurns: 1 })
    expect(users(state())).toMatchObject([{ local: true, messageId: 'u1' }])
  })
})

describe('the prompt\'s insertion (F6)', () => {
  it.each(['before', 'after'] as const)('an echo under the answered messageId with another text, %s the answer: one bubble, with the agent\'s text', async (when) => {
    const { service, sessionId, next, send, update, state } = await v2Session()
    const turn = service.prompt(sessionId, [{ type: 'text', text: 'fix it' }])
    const prompt = await next()
    await update({ sessionUpdate: 'state_update', state: 'running' })
    const echo = { sessionUpdate: 'user_message_chunk', messageId: 'u1', content: { type: 'text', text: 'Fix the bug, please' } }
    if (when === 'before') await update(echo)
    send({ id: prompt.id, result: { messageId: 'u1' } })
    await vi.waitFor(() => expect(users(state())[0]?.messageId).toBe('u1'))
    if (when === 'after') await update(echo)
    expect(users(state()).map(texts)).toEqual(['Fix the bug, please'])
    await update({ sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' })
    expect((await turn).ok).toBe(true)
    expect(users(state())).toMatchObject([{ local: true, messageId: 'u1' }])
  })
})

describe('the prompt\'s insertion (F6): corners', () => {
  it('an answer without messageId (older agents answer {}) is taken; the echo still lands on the prompt: one bubble', async () => {
    const { service, sessionId, next, send, update, state } = await v2Session()
    const turn = service.prompt(sessionId, [{ type: 'text', text: 'fix it' }])
    const prompt = await next()
    await update({ sessionUpdate: 'state_update', state: 'running' })
    send({ id: prompt.id, result: {} })
    await update({ sessionUpdate: 'user_message_chunk', messageId: 'u9', content: { type: 'text', text: 'fix it' } })
    await update({ sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' })
    expect((await turn).ok).toBe(true)
    expect(users(state()).map(texts)).toEqual(['fix it'])
    expect(state().turn).toMatchObject({ state: 'idle', stopReason: 'end_turn', completedTurns: 1 })
  })

  it('a whole user_message echo before the answer: one bubble', async () => {
    const { service, sessionId, next, send, update, state } = await v2Session()
    const turn = service.prompt(sessionId, [{ type: 'text', text: 'fix it' }])
    const prompt = await next()
    await update({ sessionUpdate: 'user_message', messageId: 'u1', content: [{ type: 'text', text: 'fix it' }] })
    send({ id: prompt.id, result: { messageId: 'u1' } })
    await update({ sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' })
    expect((await turn).ok).toBe(true)
    expect(users(state()).map(texts)).toEqual(['fix it'])
  })

  it('an error answer (not inserted) while the agent says it is running: the error is shown, the session is not taken for idle', async () => {
    const { service, sessionId, next, send, update, state } = await v2Session()
    const turn = service.prompt(sessionId, [{ type: 'text', text: 'fix it' }])
    const prompt = await next()
    await update({ sessionUpdate: 'state_update', state: 'running' })
    send({ id: prompt.id, error: { code: -32603, message: 'queue full' } })
    expect((await turn).ok).toBe(false)
    expect(state().turn.state).toBe('running')
    await update({ sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' })
    expect(state().turn).toMatchObject({ state: 'idle' })
  })
})

describe('a v2 session closed in the middle of a turn', () => {
  it('ends the turn Bosun waited for, as cancelled: the agent owes no idle for a session it was told to close', async () => {
    const { service, sessionId, next, send } = await v2Session()
    const turn = service.prompt(sessionId, [{ type: 'text', text: 'hello' }])
    const prompt = await next()
    send({ id: prompt.id, result: { messageId: 'u1' } })
    expect(service.closeSession(sessionId).ok).toBe(true)
    expect((await next()).method).toBe('session/cancel')
    const close = await next()
    expect(close.method).toBe('session/close')
    const ended = await Promise.race([turn, new Promise((resolve) => setTimeout(() => resolve('still waiting'), 200))])
    expect(ended).toEqual({ ok: true, value: { stopReason: 'cancelled' } })
    send({ id: close.id, result: {} })
  })
})
