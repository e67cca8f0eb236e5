/**
 * Updates that arrive while a session is being reattached: a v1 `session/load` replays the whole history, which
 * the transcript already has, so only its facts are kept, as they arrive; a long replay cannot fill the early
 * buffer and push out the facts at its end.
 */
import { describe, expect, it } from 'vitest'
import { MAX_EARLY_UPDATES } from '../../../main/sessions/early-updates'
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

describe('more updates before the answer than the early buffer keeps', () => {
  const flood = (send: (update: object) => void) => {
    for (let i = 0; i < MAX_EARLY_UPDATES + 7; i++) send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `early ${i} ` } })
  }
  const said = (notices: readonly { severity: string; title: string; description?: string | null }[]) => notices.map(({ severity, title, description }) => ({ severity, title, description }))

  it('are counted and said the same way for a reattached session (session/resume) as for a new one', async () => {
    let sendNew: (update: object) => void = () => undefined
    const fresh = fakeAgentConnection({
      newSession: async () => {
        flood(sendNew)
        return { sessionId: 's1' }
      },
    })
    sendNew = fresh.send
    const newService = sessionsOn(fresh.connection)
    const opened = await newService.newSession('a', '/w')
    expect(opened.ok).toBe(true)
    const onNew = said(newService.state(opened.ok ? opened.value.sessionId : '')!.notices)
    expect(onNew).toEqual([{ severity: 'warning', title: 'Some early updates were dropped', description: expect.stringContaining('sent 7 more updates') }])
    newService.dispose()

    const { connection, send } = fakeAgentConnection({
      handshake: { protocolVersion: 1, capabilities: { loadSession: false, resumeSession: true } },
      resumeSession: async () => {
        flood(send)
        return {}
      },
      prompt: async () => ({ stopReason: 'end_turn' }),
    })
    const service = sessionsOn(connection)
    expect(service.restore(createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' })).ok).toBe(true)
    expect(await service.prompt('a/s1', [{ type: 'text', text: 'go on' }])).toMatchObject({ ok: true })
    const state = service.state('a/s1')!
    expect(said(state.notices)).toEqual(onNew)
    // What was kept is shown, up to what was dropped.
    expect(JSON.stringify(state.entries)).toContain('early 0 ')
    expect(JSON.stringify(state.entries)).not.toContain(`early ${MAX_EARLY_UPDATES + 6} `)
    service.dispose()
  })
})

describe('what the answer to a reattaching session/resume configures', () => {
  it('its commands, modes and config options apply to the session (a v2 agent may send its commands only there)', async () => {
    const { connection } = fakeAgentConnection({
      handshake: { protocolVersion: 1, capabilities: { loadSession: false, resumeSession: true } },
      resumeSession: async () => ({
        sessionId: 's1',
        availableCommands: [{ name: 'review', description: 'Review the change' }],
        modes: { currentModeId: 'plan', availableModes: [{ id: 'plan', name: 'Plan' }] },
      }),
      prompt: async () => ({ stopReason: 'end_turn' }),
    })
    const service = sessionsOn(connection)
    const old = { ...createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' }), availableCommands: [{ name: 'stale', description: 'From the last process', raw: {} }] }
    expect(service.restore(old).ok).toBe(true)
    expect(await service.prompt('a/s1', [{ type: 'text', text: 'go on' }])).toMatchObject({ ok: true })
    const state = service.state('a/s1')!
    expect(state.availableCommands).toMatchObject([{ name: 'review', description: 'Review the change' }])
    expect(state.availableCommands).toHaveLength(1)
    expect(state.modes).toMatchObject({ currentModeId: 'plan' })
    service.dispose()
  })
})

describe('dismissing a notice', () => {
  it('drops it from the session in main (every window, every later visit); an unknown session is refused, an unknown notice is a no-op', async () => {
    const { connection, send } = fakeAgentConnection()
    const service = sessionsOn(connection)
    const created = await service.newSession('a', '/w')
    expect(created.ok).toBe(true)
    const sessionId = created.ok ? created.value.sessionId : ''
    send({ sessionUpdate: 'notice', severity: 'warning', title: 'Rate limited' })
    send({ sessionUpdate: 'notice', severity: 'info', title: 'Indexed' })
    const [first, second] = service.state(sessionId)!.notices
    expect(service.dismissNotice(sessionId, first!.id)).toEqual({ ok: true, value: undefined })
    expect(service.state(sessionId)!.notices).toEqual([second])
    expect(service.dismissNotice(sessionId, 'notice-no-such')).toEqual({ ok: true, value: undefined })
    expect(service.state(sessionId)!.notices).toEqual([second])
    expect(service.dismissNotice('a/none', second!.id)).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    service.dispose()
  })
})

describe('a session closed while it is being reattached', () => {
  it('is closed on the agent too once the agent has resumed it (it would hold a session nobody shows)', async () => {
    let answer: (value: unknown) => void = () => undefined
    const closed: string[] = []
    const { connection } = fakeAgentConnection({
      handshake: { protocolVersion: 1, capabilities: { loadSession: true, resumeSession: true, closeSession: true } },
      resumeSession: () => new Promise((resolve) => (answer = resolve)),
      closeSession: async (sessionId: string) => void closed.push(sessionId),
    })
    const service = sessionsOn(connection)
    expect(service.restore(createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' })).ok).toBe(true)
    const prompt = service.prompt('a/s1', [{ type: 'text', text: 'go on' }])
    for (let i = 0; i < 10; i++) await Promise.resolve()
    expect(service.closeSession('a/s1').ok).toBe(true)
    answer({ sessionId: 's1', raw: {} })
    // The close withdrew the waiting message at once; the resume goes on, and the session is closed on the agent after it.
    expect(await prompt).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    await expect.poll(() => closed).toEqual(['s1'])
    service.dispose()
  })
})
