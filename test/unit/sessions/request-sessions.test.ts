/**
 * Which session an agent's request (a permission, a question, a file, a terminal) is for (checklist G7): only one of
 * the very process that asks, attached to it or being resumed on it, and one it names before `session/new` is
 * answered once Bosun knows it. Over a real connection to a v2 agent the test scripts (`v2Peer`).
 */
import { describe, expect, it } from 'vitest'
import { createSessionState } from '../../../common/session/reducer'
import { MAX_EARLY_REQUESTS } from '../../../main/sessions/early-updates'
import { must } from '../../support/must'
import { v2Peer } from './v2-peer'

const start = v2Peer()
const never = new AbortController().signal

describe('a request names a session', () => {
  it('opened from the history and not resumed: not the running process’s to act in, though the agent calls it by that id', async () => {
    const { service, connection } = await start()
    const restored = service.restore(createSessionState({ sessionId: 'a/old', acpSessionId: 'old', agentId: 'a', protocolVersion: 2, cwd: '/elsewhere' }))
    expect(restored.ok).toBe(true)
    expect(service.resolve('a', 'old')).toBe('a/old')
    expect(service.sessionForRequest('a', connection, 'old', never)).toBeUndefined()
  })

  it('whose agent went away: the next process of the agent is not served in it', async () => {
    const { service, connection, open } = await start()
    const s1 = await open('s1')
    expect(service.sessionForRequest('a', connection, 's1', never)).toBe(s1)
    service.agentDisconnected('a', undefined)
    expect(service.resolve('a', 's1')).toBe(s1)
    expect(service.sessionForRequest('a', connection, 's1', never)).toBeUndefined()
  })

  it('being resumed on the asking process: served while `session/resume` waits (a v2 agent asks again then), and after', async () => {
    const { service, connection, next, send } = await start()
    must(service.restore(createSessionState({ sessionId: 'a/old', acpSessionId: 'old', agentId: 'a', protocolVersion: 2, cwd: '/w' })))
    const turn = service.prompt('a/old', [{ type: 'text', text: 'again' }])
    const resume = await next()
    expect(resume.method).toBe('session/resume')
    expect(service.sessionForRequest('a', connection, 'old', never)).toBe('a/old')
    send({ id: resume.id, result: {} })
    const prompt = await next()
    expect(prompt.method).toBe('session/prompt')
    expect(service.sessionForRequest('a', connection, 'old', never)).toBe('a/old')
    send({ method: 'session/update', params: { sessionId: 'old', update: { sessionUpdate: 'state_update', state: 'idle' } } })
    send({ id: prompt.id, result: {} })
    await turn
  })
})

describe('a request names a session before `session/new` is answered', () => {
  async function asking(options: Parameters<typeof start>[0] = {}) {
    const peer = await start(options)
    const created = peer.service.newSession('a', '/w')
    const request = await peer.next()
    return {
      ...peer,
      answer: (acpId: string) => {
        peer.send({ id: request.id, result: { sessionId: acpId } })
        return created
      },
      refuse: () => {
        peer.send({ id: request.id, error: { code: -32603, message: 'no' } })
        return created
      },
    }
  }

  it('of a subagent the agent announced meanwhile: waits, then is for the session that announced it', async () => {
    const { service, connection, update, answer } = await asking()
    await update('s1', { sessionUpdate: 'subagent_update', sessionId: 'child', title: 'Helper' })
    const found = service.sessionForRequest('a', connection, 'child', never)
    expect(found).toBeInstanceOf(Promise)
    const created = await answer('s1')
    expect(await found).toBe(created.ok ? created.value.sessionId : 'not created')
  })

  it('the session being made: waits, and is it once answered; a refused `session/new` leaves it unknown', async () => {
    const first = await asking()
    const waiting = first.service.sessionForRequest('a', first.connection, 's1', never)
    const created = await first.answer('s1')
    expect(await waiting).toBe(must(created).sessionId)

    const second = await asking()
    const unknown = second.service.sessionForRequest('a', second.connection, 's1', never)
    expect((await second.refuse()).ok).toBe(false)
    expect(await unknown).toBeUndefined()
  })

  it('waits a while only: an agent that waits for its answer before it answers session/new gets -32002, and the session opens', async () => {
    const { service, connection, answer } = await asking({ earlyRequestWaitMs: 0 })
    expect(await service.sessionForRequest('a', connection, 's1', never)).toBeUndefined()
    expect((await answer('s1')).ok).toBe(true)
  })

  it(`at most ${MAX_EARLY_REQUESTS} wait per connection; a withdrawn one stops waiting`, async () => {
    const { service, connection, answer } = await asking()
    const waiting = Array.from({ length: MAX_EARLY_REQUESTS }, (_, i) => service.sessionForRequest('a', connection, `c${i}`, never))
    expect(waiting.every((w) => w instanceof Promise)).toBe(true)
    expect(service.sessionForRequest('a', connection, 'one-more', never)).toBeUndefined()
    await answer('s1')
    expect(await Promise.all(waiting)).toEqual(waiting.map(() => undefined))

    const again = await asking()
    const withdrawn = new AbortController()
    const found = again.service.sessionForRequest('a', again.connection, 's1', withdrawn.signal)
    withdrawn.abort()
    expect(await found).toBeUndefined()
  })
})
