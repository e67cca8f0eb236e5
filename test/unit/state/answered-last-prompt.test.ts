import { describe, expect, it } from 'vitest'
import type { Entry } from '../../../common/session/types'
import { answeredLastPrompt } from '../../../common/session/answered'

const you = (id: string): Entry => ({ kind: 'user_message', id, content: [{ type: 'text', text: id }], local: true })
const agent = (id: string): Entry => ({ kind: 'agent_message', id, content: [{ type: 'text', text: id }] })

describe('whether the agent answered the last message (a send that failed when the agent died)', () => {
  it('is true when a message, thought or tool call of the agent follows it', () => {
    expect(answeredLastPrompt({ entries: [you('u1'), agent('a1')] })).toBe(true)
    expect(answeredLastPrompt({ entries: [you('u1'), { kind: 'tool_call', id: 't', toolCallId: 't' } as Entry] })).toBe(true)
  })

  it('is false when nothing of the agent follows it, or only an earlier turn answered', () => {
    expect(answeredLastPrompt({ entries: [you('u1'), agent('a1'), you('u2')] })).toBe(false)
    expect(answeredLastPrompt({ entries: [you('u1'), agent('a1'), you('u2'), { kind: 'turn_error', id: 'e', message: 'died' }] })).toBe(false)
    expect(answeredLastPrompt({ entries: [agent('replayed')] })).toBe(false)
    expect(answeredLastPrompt(undefined)).toBe(false)
  })
})
