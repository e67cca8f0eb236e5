/**
 * Updates that arrive while a session is being reattached: a v1 `session/load` replays the whole history, which
 * the transcript already has, so only its facts are kept, as they arrive; a long replay cannot fill the early
 * buffer and push out the facts at its end.
 */
import { describe, expect, it } from 'vitest'
import { MAX_EARLY_UPDATES } from '../../../main/sessions/sessions-service'
import { createSessionState } from '../../../common/session/reducer'
import { fakeAgentConnection, sessionsOn } from '../../support/fake-agent-connection'

describe('reattaching by session/load', () => {
  it('keeps the facts at the end of a replay longer than the early buffer, and none of the replayed messages', async () => {
    const { connection, send } = fakeAgentConnection({
      handshake: { protocolVersion: 1, capabilities: { loadSession: true, resumeSession: false } },
      resumeSession: async () => {
        for (let i = 0; i < MAX_EARLY_UPDATES * 2; i++) send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `replayed ${i} ` } })
        send({ sessionUpdate: 'session_info_update', title: 'After the replay' })
        return {}
      },
      prompt: async () => ({ stopReason: 'end_turn' }),
    })
    const service = sessionsOn(connection)
    const restored = service.restore(createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' }))
    expect(restored.ok).toBe(true)
    expect(await service.prompt('a/s1', [{ type: 'text', text: 'go on' }])).toEqual({ ok: true, value: { stopReason: 'end_turn' } })
    const state = service.state('a/s1')!
    expect(state.title).toBe('After the replay')
    expect(JSON.stringify(state.entries)).not.toContain('replayed')
    expect(state.notices).toEqual([])
    service.dispose()
  })
})
