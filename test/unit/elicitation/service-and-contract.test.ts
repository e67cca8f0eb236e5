import { describe, expect, it } from 'vitest'
import type { ClientRequestContext, ClientRequestHandler } from '../../../main/acp/types'
import { toDisposable } from '../../../main/base/lifecycle'
import { createElicitationService } from '../../../main/elicitation/service'
import { calls, events } from '../../../common/contract'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import type { SessionState } from '../../../common/session/types'

function fakeConnection() {
  const requests = new Map<string, ClientRequestHandler>()
  return {
    connection: {
      handlers: {
        registerRequest: (method: string, handler: ClientRequestHandler) => {
          requests.set(method, handler)
          return toDisposable(() => requests.delete(method))
        },
        registerNotification: () => toDisposable(() => {}),
      },
    },
    request(params: unknown) {
      const context: ClientRequestContext = { protocolVersion: 2, requestId: 1, method: 'elicitation/create', signal: new AbortController().signal }
      return Promise.resolve().then(() => requests.get('elicitation/create')!(params, context))
    },
  }
}

describe('createElicitationService', () => {
  it('answers through its IPC handlers and emits request-scoped events', async () => {
    const emitted: { name: string; payload: unknown }[] = []
    const arrived: string[] = []
    const service = createElicitationService({
      sink: () => {},
      events: { emit: (name, payload) => void emitted.push({ name, payload }) },
      onArrived: ({ requestId }) => void arrived.push(requestId),
    })
    const fake = fakeConnection()
    service.broker.attach(fake.connection, { agentId: 'a', agentName: 'A', protocolVersion: 2, advertised: { form: true, url: true } })
    const answer = fake.request({ requestId: 'r1', mode: 'form', message: 'Pick', requestedSchema: { properties: { n: { type: 'integer' } }, required: ['n'] } })
    await Promise.resolve()
    await Promise.resolve()
    const id = arrived[0]!
    expect(emitted[0]).toMatchObject({ name: 'requestScopedElicitation', payload: { change: 'added', scopeRequestId: 'r1' } })
    const listed = await service.handlers.listRequestScopedElicitations(undefined)
    expect(listed.ok && listed.value.map((x) => x.elicitation.elicitationRequestId)).toEqual([id])

    const bad = await service.handlers.respondElicitation({ elicitationRequestId: id, action: 'accept', content: { n: 1.5 } })
    expect(bad.ok).toBe(false)
    if (!bad.ok) expect(bad.error).toMatchObject({ kind: 'invalid-argument', data: { errors: { n: expect.any(String) } } })
    expect(await service.handlers.respondElicitation({ elicitationRequestId: id, action: 'accept', content: { n: 2 } })).toEqual({ ok: true, value: undefined })
    expect(await answer).toEqual({ action: 'accept', content: { n: 2 } })
    service.dispose()
  })

  it('in the browser host (no openExternal) tells the page to open the URL', async () => {
    const arrived: string[] = []
    const service = createElicitationService({ sink: () => {}, onArrived: ({ requestId }) => void arrived.push(requestId) })
    const fake = fakeConnection()
    service.broker.attach(fake.connection, { agentId: 'a', agentName: 'A', protocolVersion: 2, advertised: { form: true, url: true } })
    const answer = fake.request({ sessionId: 's', mode: 'url', message: 'Sign in', url: 'https://auth.example.com/', elicitationId: 'x' })
    await Promise.resolve()
    await Promise.resolve()
    const opened = await service.handlers.openElicitationUrl({ elicitationRequestId: arrived[0]! })
    expect(opened).toEqual({ ok: true, value: { openedBy: 'page', href: 'https://auth.example.com/' } })
    expect(await answer).toEqual({ action: 'accept' })
    expect((await service.handlers.dismissElicitationUrl({ elicitationRequestId: arrived[0]! })).ok).toBe(true)
    expect((await service.handlers.retryElicitationUrl({ elicitationRequestId: arrived[0]! })).ok).toBe(false)
    service.dispose()
  })
})

/** A session whose agent wrote `text` (and whose person wrote `typed`), as main holds it. */
function sessionSaying(text: string, typed = ''): SessionState {
  const state = createSessionState({ sessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' })
  return applyActions(state, [
    { type: 'local_prompt', content: [{ type: 'text', text: typed }] },
    { type: 'updates', updates: [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }] },
  ])
}

describe('openLink (links clicked in agent output)', () => {
  const agentText = 'See [docs](https://Docs.Example.com/a), javascript:alert(1), file:///etc/passwd, http://evil.example/, vscode://x, http://localhost:3000/x'

  it('opens through the same opener after the same check; a refused URL never reaches openExternal', async () => {
    const opened: string[] = []
    const service = createElicitationService({ sink: () => {}, openExternal: async (url) => void opened.push(url), sessionState: () => sessionSaying(agentText) })
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'http://evil.example/', 'vscode://x']) {
      const result = await service.handlers.openLink({ url, sessionId: 's1' })
      expect(result.ok).toBe(false)
    }
    expect(opened).toEqual([])
    expect(await service.handlers.openLink({ url: 'https://Docs.Example.com/a', sessionId: 's1' })).toEqual({ ok: true, value: { openedBy: 'main', href: 'https://docs.example.com/a' } })
    expect(opened).toEqual(['https://docs.example.com/a'])
    service.dispose()
  })

  it('in the browser host tells the page to open the checked href', async () => {
    const service = createElicitationService({ sink: () => {}, sessionState: () => sessionSaying(agentText) })
    expect(await service.handlers.openLink({ url: 'http://localhost:3000/x', sessionId: 's1' })).toEqual({ ok: true, value: { openedBy: 'page', href: 'http://localhost:3000/x' } })
    service.dispose()
  })

  it('main vouches only for links in that session\'s agent content: not the person\'s own text, not another session, not without sessions', async () => {
    const opened: string[] = []
    const sessions: Record<string, SessionState> = { s1: sessionSaying('Read https://docs.example.com/guide', 'open https://typed.example/ please'), s2: sessionSaying('nothing here') }
    const service = createElicitationService({ sink: () => {}, openExternal: async (url) => void opened.push(url), sessionState: (id) => sessions[id] })
    expect(await service.handlers.openLink({ url: 'https://evil.example/', sessionId: 's1' })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(await service.handlers.openLink({ url: 'https://typed.example/', sessionId: 's1' })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(await service.handlers.openLink({ url: 'https://docs.example.com/guide', sessionId: 's2' })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(await service.handlers.openLink({ url: 'https://docs.example.com/guide', sessionId: 'nope' })).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    expect(opened).toEqual([])
    expect((await service.handlers.openLink({ url: 'https://docs.example.com/guide', sessionId: 's1' })).ok).toBe(true)
    expect(opened).toEqual(['https://docs.example.com/guide'])

    const unwired = createElicitationService({ sink: () => {}, openExternal: async (url) => void opened.push(url) })
    expect(await unwired.handlers.openLink({ url: 'https://docs.example.com/guide', sessionId: 's1' })).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    expect(opened).toHaveLength(1)
    service.dispose()
    unwired.dispose()
  })

  it('contract: a non-empty url string and the session it was clicked in', () => {
    expect(calls.openLink.input.safeParse({ url: 'https://x/', sessionId: 's' }).success).toBe(true)
    expect(calls.openLink.input.safeParse({ url: 'https://x/' }).success).toBe(false)
    expect(calls.openLink.input.safeParse({ url: '', sessionId: 's' }).success).toBe(false)
    expect(calls.openLink.input.safeParse({ url: 'https://x/', sessionId: 's', extra: 1 }).success).toBe(false)
    expect(calls.openLink.output.safeParse({ openedBy: 'page', href: 'https://x/' }).success).toBe(true)
  })
})

describe('elicitation IPC contract', () => {
  const respond = calls.respondElicitation.input
  it('accepts the three actions and the four content value types', () => {
    expect(respond.safeParse({ elicitationRequestId: 'e', action: 'accept', content: { a: 's', b: 1, c: true, d: ['x'] } }).success).toBe(true)
    expect(respond.safeParse({ elicitationRequestId: 'e', action: 'decline' }).success).toBe(true)
    expect(respond.safeParse({ elicitationRequestId: 'e', action: 'cancel' }).success).toBe(true)
  })
  it('rejects unknown actions, nested values, extra keys and empty ids', () => {
    expect(respond.safeParse({ elicitationRequestId: 'e', action: '_custom' }).success).toBe(false)
    expect(respond.safeParse({ elicitationRequestId: 'e', action: 'accept', content: { a: { nested: 1 } } }).success).toBe(false)
    expect(respond.safeParse({ elicitationRequestId: 'e', action: 'accept', content: { a: [1] } }).success).toBe(false)
    expect(respond.safeParse({ elicitationRequestId: 'e', action: 'accept', content: { a: null } }).success).toBe(false)
    expect(respond.safeParse({ elicitationRequestId: 'e', action: 'accept', extra: 1 }).success).toBe(false)
    expect(respond.safeParse({ elicitationRequestId: '', action: 'decline' }).success).toBe(false)
    expect(calls.openElicitationUrl.input.safeParse({ elicitationRequestId: 'e', url: 'https://x' }).success).toBe(false)
  })
  it('declares the open result and the request-scoped event', () => {
    expect(calls.openElicitationUrl.output.safeParse({ openedBy: 'page', href: 'https://x/' }).success).toBe(true)
    expect(calls.openElicitationUrl.output.safeParse({ openedBy: 'renderer', href: 'https://x/' }).success).toBe(false)
    expect(events.requestScopedElicitation.kind).toBe('event')
  })
})
