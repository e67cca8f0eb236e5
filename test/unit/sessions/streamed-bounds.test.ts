/**
 * Streamed tokens and the bounds: a plain text chunk within the longest string Bosun keeps passes as it came; a
 * longer text or message id is cut, with the marker, like any other update (also when runs of chunks are joined).
 */
import { describe, expect, it } from 'vitest'
import { boundJson, DEFAULT_JSON_BOUNDS, TRUNCATION_MARKER } from '../../../common/bounded'
import type { MessageEntry } from '../../../common/session/types'
import { fakeAgentConnection, sessionsOn } from '../../support/fake-agent-connection'
import { plainChunkWithinBounds } from '../../../main/sessions/text-streams'
import type { TextChunk } from '../../../common/session/coalesce'

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
  it('a token within the longest string kept is handed back as it is; a longer one is not', () => {
    const fits = chunk('x'.repeat(MAX - 2), 'm1')
    expect(boundJson(fits)).toBe(fits)
    const longer = chunk('x'.repeat(MAX + 1), 'm1')
    expect(boundJson(longer)).not.toBe(longer)
  })

  it('the sessions service passes a plain chunk without boundJson exactly when boundJson would hand it back as it is', () => {
    const cases = [
      chunk(''),
      chunk('x'.repeat(MAX)),
      chunk('x'.repeat(MAX + 1)),
      chunk('x'.repeat(MAX), 'z'.repeat(MAX)),
      chunk('x', 'z'.repeat(MAX + 1)),
      chunk('x'.repeat(MAX + 1), 'z'.repeat(MAX + 1)),
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: '\u{1F600}'.repeat(MAX / 2) } },
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: '\u{1F600}'.repeat(MAX / 2 + 1) } },
    ]
    for (const update of cases) expect(plainChunkWithinBounds(update as TextChunk), `${update.content.text.length} characters`).toBe(boundJson(update) === update)
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
