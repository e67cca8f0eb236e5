import { describe, expect, it } from 'vitest'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import type { Entry } from '../../../common/session/types'
import { bounded, encodeEntry, MAX_STRING } from '../../../main/history/entry-codec'
import { buildFloodUpdates } from '../../agents/flood-updates'

const slow = (entry: Entry) => JSON.stringify(bounded(entry))
const message = (text: string, more: Record<string, unknown> = {}, block: Record<string, unknown> = {}): Entry =>
  ({ kind: 'agent_message', id: 'm1', messageId: 'm1', content: [{ type: 'text', text, ...block }], ...more }) as Entry

describe('encodeEntry', () => {
  it('writes every entry exactly as bounded() makes it, plain messages by their shortcut included', () => {
    let state = createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' })
    state = applyActions(state, [{ type: 'local_prompt', content: [{ type: 'text', text: 'hello' }] }, { type: 'updates', updates: buildFloodUpdates(400) as never }])
    const entries: Entry[] = [
      ...state.entries,
      message('with an emoji 😀'),
      message('a lone \uD83D surrogate'),
      message('a NUL \u0000 here'),
      message('x'.repeat(MAX_STRING + 10)),
      message('y'.repeat(MAX_STRING / 2)),
      message('annotated', {}, { annotations: { priority: 1 } }),
      message('meta', { _meta: { a: 1 } }),
      message('not sent', { notSent: null, local: true, excluded: false }),
      message('undefined field', { messageId: undefined }),
      message('dirty id', { messageId: 'id \u0000 \uDC00' }),
      { kind: 'agent_thought', id: 't', content: Array.from({ length: 6000 }, () => ({ type: 'text', text: 'a' })) } as Entry,
      { kind: 'user_message', id: 'u', content: [{ type: 'image', data: 'aGk=', mimeType: 'image/png' }] } as Entry,
      Object.assign(Object.create({ inherited: 'x' }) as object, { kind: 'agent_message', id: 'p', content: [] }) as Entry,
    ]
    for (const entry of entries) expect(encodeEntry(entry).body).toBe(slow(entry))
    // The cleaning still happens where it must.
    expect(JSON.parse(encodeEntry(message('a NUL \u0000 here')).body).content[0].text).toBe('a NUL \uFFFD here')
    expect(encodeEntry(message('x'.repeat(MAX_STRING + 10))).body).toContain('[truncated 10 characters]')
  })
})
