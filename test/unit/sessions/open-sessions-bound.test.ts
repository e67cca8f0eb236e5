/**
 * Main bounds how many sessions are open at once (`MAX_OPEN_SESSIONS`), however they open: new, from the history,
 * from the agent's own list. A renderer that asks for thousands (at once, or one after another) gets a failure
 * that says to close one, and the agent is not asked for more sessions; closing one makes room again.
 */
import { describe, expect, it, vi } from 'vitest'
import type { AcpClientConnection } from '../../../main/acp/types'
import { Emitter } from '../../../main/base/event'
import { createLogger } from '../../../main/base/log'
import { ok } from '../../../main/base/errors'
import { NullHistoryStore } from '../../../main/history/history-store'
import { createHistoryService } from '../../../main/history/service'
import { MAX_OPEN_SESSIONS, SessionsService } from '../../../main/sessions/sessions-service'
import { createSessionState } from '../../../common/session/reducer'
import { RecordingSink } from '../../support/recording-sink'

/** An agent that answers every session/new (after a tick) with a new id, and counts the calls it got. */
function countingAgent() {
  const calls = { newSession: 0, loadSession: 0, connect: 0 }
  const connection = {
    newSession: async () => {
      await new Promise((done) => setTimeout(done, 1))
      return { sessionId: `s${++calls.newSession}` }
    },
    loadSession: async () => {
      calls.loadSession++
      return {}
    },
    resumeSession: async () => {
      calls.loadSession++
      return {}
    },
    handshake: { capabilities: { loadSession: true } },
    onDidReceiveUpdate: new Emitter<never>().event,
    onDidClose: new Emitter<never>().event,
  } as unknown as AcpClientConnection
  const service = new SessionsService(
    {
      connect: async () => {
        calls.connect++
        return ok({ connection, protocolVersion: 1 as const })
      },
    },
    new RecordingSink(),
    createLogger('test', () => undefined),
  )
  return { service, calls }
}

const TOO_MANY = { ok: false, error: { kind: 'too-many-sessions', message: expect.stringMatching(/Close a session to open another/) } }

describe('open sessions, at most MAX_OPEN_SESSIONS', () => {
  it('is generous: more than a person keeps open', () => {
    expect(MAX_OPEN_SESSIONS).toBeGreaterThanOrEqual(100)
  })

  it('new sessions asked for all at once: the ones past the bound fail at once, and the agent is asked for no more', async () => {
    const { service, calls } = countingAgent()
    const results = await Promise.all(Array.from({ length: MAX_OPEN_SESSIONS + 50 }, () => service.newSession('a', '/w')))
    expect(results.filter((r) => r.ok)).toHaveLength(MAX_OPEN_SESSIONS)
    expect(results.filter((r) => !r.ok)).toEqual(Array.from({ length: 50 }, () => TOO_MANY))
    expect(calls.newSession).toBe(MAX_OPEN_SESSIONS)
    expect(service.snapshot()).toHaveLength(MAX_OPEN_SESSIONS)
    // One after another, too.
    expect(await service.newSession('a', '/w')).toEqual(TOO_MANY)
    expect(calls.newSession).toBe(MAX_OPEN_SESSIONS)
    // Closing one makes room for one.
    const first = results[0]!
    expect(first.ok && service.closeSession(first.value.sessionId)).toEqual(ok(undefined))
    expect(await service.newSession('a', '/w')).toMatchObject({ ok: true })
    expect(await service.newSession('a', '/w')).toEqual(TOO_MANY)
    service.dispose()
  })

  it('a session that failed to open gives its place back', async () => {
    const failing = new SessionsService({ connect: async () => ({ ok: false, error: { kind: 'agent-spawn-failed', message: 'no' } }) }, new RecordingSink(), createLogger('test', () => undefined))
    for (let i = 0; i < MAX_OPEN_SESSIONS * 2; i++) expect(await failing.newSession('a', '/w')).toMatchObject({ ok: false, error: { kind: 'agent-spawn-failed' } })
    expect(await failing.openAgentSession('a', 'x', '/w')).toMatchObject({ ok: false, error: { kind: 'agent-spawn-failed' } })
    failing.dispose()
  })

  it('sessions opened from the history and from the agent’s list count, and are refused past the bound', async () => {
    const { service, calls } = countingAgent()
    for (let i = 0; i < MAX_OPEN_SESSIONS - 1; i++) expect(service.restore(createSessionState({ sessionId: `a/h${i}`, agentId: 'a', protocolVersion: 1, cwd: '/w' }))).toMatchObject({ ok: true })
    expect(await service.openAgentSession('a', 'listed', '/w')).toMatchObject({ ok: true })
    expect(service.snapshot()).toHaveLength(MAX_OPEN_SESSIONS)
    expect(service.restore(createSessionState({ sessionId: 'a/one-more', agentId: 'a', protocolVersion: 1, cwd: '/w' }))).toEqual(TOO_MANY)
    // One already open is no new one: it is answered as before.
    expect(service.restore(createSessionState({ sessionId: 'a/h0', agentId: 'a', protocolVersion: 1, cwd: '/w' }))).toEqual(ok({ sessionId: 'a/h0' }))
    const connects = calls.connect
    expect(await service.openAgentSession('a', 'another', '/w')).toEqual(TOO_MANY)
    // Refused before the agent was started or asked.
    expect(calls.connect).toBe(connects)
    expect(await service.newSession('a', '/w')).toEqual(TOO_MANY)
    expect(service.snapshot()).toHaveLength(MAX_OPEN_SESSIONS)
    service.dispose()
  })

  it('the history says so before it reads the stored session', async () => {
    const { service } = countingAgent()
    for (let i = 0; i < MAX_OPEN_SESSIONS; i++) service.restore(createSessionState({ sessionId: `a/h${i}`, agentId: 'a', protocolVersion: 1, cwd: '/w' }))
    const store = new NullHistoryStore()
    const load = vi.spyOn(store, 'load')
    vi.spyOn(store, 'has').mockReturnValue(true)
    const history = createHistoryService({ store, events: new RecordingSink(), logger: createLogger('test', () => undefined), openProblem: null })
    history.bind(service)
    expect(await history.handlers.historyOpen({ sessionId: 'a/stored' })).toEqual(TOO_MANY)
    expect(await history.handlers.historyOpenAgentSession({ agentId: 'a', acpSessionId: 'stored', cwd: '/w' })).toEqual(TOO_MANY)
    expect(load).not.toHaveBeenCalled()
    // One already open still opens (it is shown, nothing is read).
    expect(await history.handlers.historyOpen({ sessionId: 'a/h3' })).toEqual(ok({ sessionId: 'a/h3' }))
    history.dispose()
    service.dispose()
  })
})
