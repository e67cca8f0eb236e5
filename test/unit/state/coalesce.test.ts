import { describe, expect, it } from 'vitest'
import { coalesceTextChunks } from '../../../common/session/coalesce'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import type { ProtocolVersion, SessionAction } from '../../../common/session/types'
import { buildFloodUpdates } from '../../agents/flood-updates'
import { seededRandom } from '../../support/seeded-random'

const text = (text: string, messageId?: string, kind = 'agent_message_chunk') => ({ sessionUpdate: kind, ...(messageId !== undefined ? { messageId } : {}), content: { type: 'text', text } })

/** The entries (and everything else but seq) a session reaches from `updates`, applied in batches of `batch`. */
function reduce(updates: unknown[], version: ProtocolVersion, batch: number, join: boolean) {
  let state = createSessionState({ sessionId: 's', agentId: 'a', protocolVersion: version, cwd: '/p' })
  state = applyActions(state, [{ type: 'local_prompt', content: [{ type: 'text', text: 'hello there' }], messageId: 'u1' } as SessionAction])
  for (let i = 0; i < updates.length; i += batch) {
    const slice = updates.slice(i, i + batch)
    state = applyActions(state, [{ type: 'updates', updates: (join ? coalesceTextChunks(slice) : slice) as never }])
  }
  return JSON.parse(JSON.stringify({ ...state, seq: 0 })) as unknown
}

describe('coalesceTextChunks', () => {
  it('joins a run of one message’s plain text chunks into one chunk, and runs of thoughts apart from it', () => {
    const joined = coalesceTextChunks([text('Hel', 'm1'), text('lo', 'm1'), text(', you', 'm1'), text('hmm ', undefined, 'agent_thought_chunk'), text('yes', undefined, 'agent_thought_chunk'), text('!', 'm1')])
    expect(joined).toEqual([text('Hello, you', 'm1'), text('hmm yes', undefined, 'agent_thought_chunk'), text('!', 'm1')])
  })

  it('keeps apart what is not one stream of plain text: other ids, the person’s chunks, other blocks, any other field', () => {
    const kept = [
      text('a', 'm1'),
      text('b', 'm2'),
      text('c', undefined),
      text('d', 'm2'),
      text('e', 'u', 'user_message_chunk'),
      text('f', 'u', 'user_message_chunk'),
      { sessionUpdate: 'agent_message_chunk', messageId: 'm2', content: { type: 'text', text: 'g', annotations: { priority: 1 } } },
      text('h', 'm2'),
      { sessionUpdate: 'agent_message_chunk', messageId: 'm2', content: { type: 'text', text: 'i' }, _meta: { x: 1 } },
      text('j', 'm2'),
      { sessionUpdate: 'agent_message_chunk', messageId: 'm2', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } },
      text('k', 'm2'),
      { sessionUpdate: 'agent_message_chunk', messageId: 7, content: { type: 'text', text: 'l' } },
      { sessionUpdate: 'agent_message_chunk', messageId: 7, content: { type: 'text', text: 'm' } },
      { sessionUpdate: 'agent_message_chunk', messageId: 'm2', content: { type: 'text', text: 5 } },
      text('n', 'm2'),
    ]
    const joined = coalesceTextChunks(kept)
    expect(joined).toBe(kept)
  })

  it('never changes its input: the updates given, their objects and their text stay as they were', () => {
    const input = [text('one ', 'm1'), text('two ', 'm1'), text('three', 'm1')]
    const copy = structuredClone(input)
    const joined = coalesceTextChunks(input)
    expect(joined).toEqual([text('one two three', 'm1')])
    expect(input).toEqual(copy)
  })

  it('an empty first chunk joins the run like any other', () => {
    expect(coalesceTextChunks([text('', 'm1'), text('Hi', 'm1')])).toEqual([text('Hi', 'm1')])
  })

  it('builds the same session as the chunks one by one: the flood, v1 and v2, in batches of every size', () => {
    const flood = buildFloodUpdates(2_000)
    for (const batch of [1, 7, 64, 857]) expect(reduce(flood, 1, batch, true)).toEqual(reduce(flood, 1, batch, false))
    // v2 needs a messageId on every chunk: the flood's thoughts (without one) are dropped either way.
    expect(reduce(flood, 2, 100, true)).toEqual(reduce(flood, 2, 100, false))
  })

  it('builds the same session as the chunks one by one for mixed, odd streams (seeded)', () => {
    const random = seededRandom(42)
    const pick = <T>(items: T[]): T => items[random(items.length)]!
    for (let round = 0; round < 40; round++) {
      const updates: unknown[] = []
      for (let i = 0; i < 200; i++) {
        const id = pick(['m1', 'm2', undefined])
        const kind = pick(['agent_message_chunk', 'agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk'])
        const roll = random(10)
        if (roll < 7) updates.push(text(pick(['', 'a', 'hello ', 'there', '\n', 'hello there']), id, kind))
        else if (roll < 8) updates.push({ sessionUpdate: kind, messageId: id, content: { type: 'text', text: 'x', _meta: { n: i } } })
        else if (roll < 9) updates.push({ sessionUpdate: 'tool_call', toolCallId: `t${i}`, title: 'Read', status: 'pending' })
        else updates.push({ sessionUpdate: kind, messageId: id, content: { type: 'resource_link', uri: 'file:///a', name: 'a' } })
      }
      for (const version of [1, 2] as const) expect(reduce(updates, version, 1 + random(50), true)).toEqual(reduce(updates, version, 200, false))
    }
  })
})
