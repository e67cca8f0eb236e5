/**
 * A session opened from the agent's own list (`session/list`) is called what the list calls it, until the agent
 * names it itself (`session_info_update`), as a title the agent sends later renames any session.
 */
import { describe, expect, it } from 'vitest'
import { derivedTitle } from '../../../common/session/title'
import { fakeAgentConnection, sessionsOn } from '../../support/fake-agent-connection'

async function openListed(title: string | null, replay: object[] = []) {
  let send: (update: object) => void = () => undefined
  const fake = fakeAgentConnection({
    handshake: { protocolVersion: 1, capabilities: { loadSession: true } },
    resumeSession: async () => {
      for (const update of replay) send(update)
      return { sessionId: 's1', raw: null }
    },
  })
  send = fake.send
  const service = sessionsOn(fake.connection)
  const opened = await service.openAgentSession('a', 's1', '/w', { title })
  const state = service.state(opened.ok ? opened.value.sessionId : '')!
  service.dispose()
  return state
}

describe('the title of a session opened from the agent’s list', () => {
  it('is the listed title', async () => {
    const state = await openListed('Started in a terminal')
    expect(state.title).toBe('Started in a terminal')
    expect(derivedTitle(state)).toBe('Started in a terminal')
  })

  it('gives way to the title the agent sends', async () => {
    const state = await openListed('Started in a terminal', [{ sessionUpdate: 'session_info_update', title: 'Renamed by the agent' }])
    expect(state.title).toBe('Renamed by the agent')
  })

  it('listed without one: none, and the replayed prompt names it as for any session', async () => {
    const state = await openListed(null, [{ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'fix the parser' } }])
    expect(state.title).toBeNull()
    expect(derivedTitle(state)).toBe('fix the parser')
  })
})

describe('a session of the agent’s list opened twice at once (a double click)', () => {
  it('opens once: both calls get the one session, and the agent is asked to load it once', async () => {
    let loads = 0
    const { connection } = fakeAgentConnection({
      handshake: { protocolVersion: 1, capabilities: { loadSession: true } },
      resumeSession: async () => {
        loads++
        return { sessionId: 's1', raw: null }
      },
    })
    const service = sessionsOn(connection)
    const [first, second] = await Promise.all([service.openAgentSession('a', 's1', '/w'), service.openAgentSession('a', 's1', '/w')])
    expect(first).toEqual({ ok: true, value: { sessionId: 'a/s1' } })
    expect(second).toEqual(first)
    expect(service.snapshot().map((s) => s.sessionId)).toEqual(['a/s1'])
    expect(loads).toBe(1)
    service.dispose()
  })
})
