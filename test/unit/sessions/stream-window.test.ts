/**
 * The secret window on streamed text (sessions-service `streamUpdate`): a chunk whose end could begin a secret is held
 * back and joined to the next chunk of its stream; every other update passes as it came, and a chunk without text
 * is dropped, whether or not anything is held.
 */
import { describe, expect, it } from 'vitest'
import type { EventPayload } from '../../../common/contract'
import type { MessageEntry } from '../../../common/session/types'
import { ok } from '../../../main/base/errors'
import { createLogger } from '../../../main/base/log'
import { SessionsService } from '../../../main/sessions/sessions-service'
import { fakeAgentConnection } from '../../support/fake-agent-connection'
import { RecordingSink } from '../../support/recording-sink'

const chunk = (text: string, messageId: string) => ({ sessionUpdate: 'agent_message_chunk', messageId, content: { type: 'text', text } })

/** A session whose window holds a trailing `sk` (the start of a made-up secret `sk-…`). */
async function session() {
  const { connection, send } = fakeAgentConnection()
  const sink = new RecordingSink()
  const service = new SessionsService({ connect: async () => ok({ connection, protocolVersion: 1 as const }) }, sink, createLogger('test', () => undefined), {
    streamHold: (text) => (text.endsWith('sk') ? 2 : 0),
  })
  service.attachConnection('a', connection)
  const created = await service.newSession('a', '/w')
  if (!created.ok) throw new Error(created.error.message)
  const sessionId = created.value.sessionId
  const messages = () =>
    service
      .state(sessionId)!
      .entries.filter((e): e is MessageEntry => e.kind === 'agent_message')
      .map((e) => [e.messageId, e.content.map((b) => (b as { text: string }).text).join('')])
  /** The updates sent to the windows, in order. */
  const sent = () =>
    sink.events
      .filter((e) => e.name === 'sessionActions')
      .flatMap((e) => (e.payload as EventPayload<'sessionActions'>).actions)
      .flatMap((action) => (action.type === 'updates' ? action.updates : []))
  return { send, messages, service, sessionId, sent }
}

describe('the secret window on streamed text', () => {
  it('drops a chunk without text, with nothing held as with something held', async () => {
    const { send, messages } = await session()
    send(chunk('', 'm0'))
    send(chunk('Hi sk', 'm1'))
    send(chunk('', 'm2'))
    send(chunk('-123', 'm1'))
    expect(messages()).toEqual([['m1', 'Hi sk-123']])
  })

  it('passes what holds nothing as it came, and lets a held end go before the next update of another kind', async () => {
    const { send, messages, service, sessionId, sent } = await session()
    const first = { ...chunk('Hello', 'm1'), _meta: { kept: 'whole' } }
    send(first)
    send(chunk(' there sk', 'm1'))
    send({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read' })
    expect(messages()).toEqual([['m1', 'Hello there sk']])
    expect(service.state(sessionId)!.entries.map((e) => e.kind)).toEqual(['agent_message', 'tool_call'])
    // The first chunk itself reached the windows (nothing copied for it); the held `sk` went before the tool call.
    expect(sent()[0]).toBe(first)
    expect(sent().map((u) => (u as { content?: { text: string } }).content?.text)).toEqual(['Hello', ' there sk', undefined])
  })
})
