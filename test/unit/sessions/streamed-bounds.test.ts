/**
 * Streamed tokens skip the bounds walk on main's hot path only where it would change nothing: a plain text chunk
 * whose text (with its message id) fits the longest string Bosun keeps. A longer one still goes through
 * `boundJson` and is cut, with the marker, like any other update.
 */
import { describe, expect, it } from 'vitest'
import { boundJson, DEFAULT_JSON_BOUNDS, TRUNCATION_MARKER } from '../../../common/bounded'
import type { MessageEntry } from '../../../common/session/types'
import { fakeAgentConnection, sessionsOn } from '../../support/fake-agent-connection'

const MAX = DEFAULT_JSON_BOUNDS.maxStringChars
const chunk = (text: string, messageId?: string) => ({ sessionUpdate: 'agent_message_chunk', ...(messageId !== undefined ? { messageId } : {}), content: { type: 'text', text } })

async function session() {
  const { connection, send } = fakeAgentConnection()
  const service = sessionsOn(connection)
  const created = await service.newSession('a', '/w')
  if (!created.ok) throw new Error(created.error.message)
  void service.prompt(created.value.sessionId, [{ type: 'text', text: 'go' }])
  const entry = () => service.state(created.value.sessionId)!.entries.find((e) => e.kind === 'agent_message') as MessageEntry
  const text = () => entry().content.map((b) => (b as { text: string }).text).join('')
  return { send, text, entry }
}

describe('streamed tokens and the bounds', () => {
  it('a token the fast path lets through is one boundJson hands back as it is', () => {
    // The fast path's test (text and id together within the longest string kept) is stricter than the bounds.
    const fits = chunk('x'.repeat(MAX - 2), 'm1')
    expect(boundJson(fits)).toBe(fits)
    const longer = chunk('x'.repeat(MAX + 1), 'm1')
    expect(boundJson(longer)).not.toBe(longer)
  })

  it('a token longer than the longest string kept is still cut, with the marker', async () => {
    const { send, text } = await session()
    send(chunk('x'.repeat(MAX + 10), 'm1'))
    expect(text()).toBe(`${'x'.repeat(MAX)}${TRUNCATION_MARKER} (10 more characters)`)
  })

  it('so is a token whose message id is longer than the longest string kept', async () => {
    const { send, entry } = await session()
    send(chunk('hello', 'z'.repeat(MAX + 3)))
    expect(entry().messageId).toBe(`${'z'.repeat(MAX)}${TRUNCATION_MARKER} (3 more characters)`)
  })
})
