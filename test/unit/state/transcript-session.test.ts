import { describe, expect, it } from 'vitest'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import type { SessionState } from '../../../common/session/types'
import { nextFloor, pickTranscriptSession } from '../../../renderer/screens/transcript-session'

const chunk = (text: string) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } })

describe('the session the transcript renders', () => {
  const empty = createSessionState({ sessionId: 's', acpSessionId: 's', agentId: 'a', protocolVersion: 1, cwd: '/w' })
  const sent = applyActions(empty, [{ type: 'local_prompt', content: [{ type: 'text', text: 'hello' }] }, { type: 'turn_started' }])
  const answered = applyActions(sent, [{ type: 'updates', updates: [chunk('hi')] }])

  it('never renders a deferred copy older than the prompt just sent', () => {
    // The urgent render after Enter: the deferred copy still lacks the message.
    const floor = nextFloor(undefined, sent)
    expect(floor).toBe(sent)
    expect(pickTranscriptSession(floor, empty)).toBe(sent)
    // The agent's first update arrives while the deferred copy is still the old one: the message stays.
    const later = nextFloor(floor, answered)
    expect(later).toBe(sent)
    expect(pickTranscriptSession(later, empty)).toBe(sent)
    // Once the deferred copy catches up, it is what renders.
    expect(pickTranscriptSession(later, answered)).toBe(answered)
  })

  it('leaves the deferred copy alone otherwise, and ignores another session’s floor', () => {
    expect(nextFloor(undefined, answered)).toBeUndefined()
    expect(pickTranscriptSession(undefined, empty)).toBe(empty)
    const other: SessionState = { ...createSessionState({ sessionId: 'o', acpSessionId: 'o', agentId: 'a', protocolVersion: 1, cwd: '/w' }) }
    expect(pickTranscriptSession(sent, other)).toBe(other)
    expect(nextFloor(sent, sent)).toBe(sent)
  })
})
