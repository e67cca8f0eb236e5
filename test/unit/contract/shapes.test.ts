import { describe, expect, it } from 'vitest'
import { events } from '../../../common/contract'
import { createSessionState } from '../../../common/session/reducer'
import { RecordingSink } from '../../support/recording-sink'

describe('runtime shapes of what main sends', () => {
  const session = createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 2, cwd: '/w' })

  it('accepts real payloads', () => {
    expect(events.sessionAdded.payload.safeParse({ session }).success).toBe(true)
    expect(events.sessionActions.payload.safeParse({ sessionId: 'a/s1', seq: 3, actions: [{ type: 'turn_started' }] }).success).toBe(true)
    expect(events.agentStatus.payload.safeParse({ agentId: 'a', name: 'A', status: 'ready', pid: 7 }).success).toBe(true)
  })

  it.each([
    ['a session without its entries', 'sessionAdded', { session: { ...session, entries: undefined } }],
    ['a session with protocol version 3', 'sessionAdded', { session: { ...session, protocolVersion: 3 } }],
    ['an action without a type', 'sessionActions', { sessionId: 'a/s1', seq: 1, actions: [{ updates: [] }] }],
    ['a negative seq', 'sessionActions', { sessionId: 'a/s1', seq: -1, actions: [] }],
    ['an unknown agent status', 'agentStatus', { agentId: 'a', name: 'A', status: 'dancing' }],
  ] as const)('refuses %s', (_label, name, payload) => {
    expect(events[name].payload.safeParse(payload).success).toBe(false)
  })

  it('the recording sink of the integration tests collects payloads that do not match', () => {
    RecordingSink.takeViolations()
    const sink = new RecordingSink()
    sink.emit('agentStatus', { agentId: 'a', name: 'A', status: 'dancing' } as never)
    sink.emit('agentStatus', { agentId: 'a', name: 'A', status: 'ready' })
    const violations = RecordingSink.takeViolations()
    expect(violations).toHaveLength(1)
    expect(violations[0]).toContain('agentStatus')
  })
})
