import { describe, expect, it } from 'vitest'
import type { ClientNotificationHandler, ClientRequestContext, ClientRequestHandler, JsonRpcId, ProtocolVersion } from '../../../main/acp/types'
import { HandlerError } from '../../../main/acp/types'
import { Emitter } from '../../../main/base/event'
import { toDisposable } from '../../../main/base/lifecycle'
import type { Logger } from '../../../main/base/log'
import { ElicitationBroker, type ElicitationAttachInfo, type RequestScopedElicitation } from '../../../main/elicitation/broker'
import { createExternalOpener } from '../../../main/elicitation/open-external'
import type { SessionAction } from '../../../common/session/types'

function fakeConnection() {
  const requests = new Map<string, ClientRequestHandler>()
  const notifications = new Map<string, ClientNotificationHandler>()
  const close = new Emitter<{ error?: Error }>()
  let nextId = 1
  return {
    requests,
    notifications,
    connection: {
      handlers: {
        registerRequest: (method: string, handler: ClientRequestHandler) => {
          requests.set(method, handler)
          return toDisposable(() => requests.delete(method))
        },
        registerNotification: (method: string, handler: ClientNotificationHandler) => {
          notifications.set(method, handler)
          return toDisposable(() => notifications.delete(method))
        },
      },
      onDidClose: close.event,
    },
    close: () => close.fire({}),
    /** Sends a request as the agent would; returns the handler's promise and an abort function. */
    request(method: string, params: unknown, protocolVersion: ProtocolVersion = 2) {
      const controller = new AbortController()
      const handler = requests.get(method)
      if (!handler) throw new Error(`no handler for ${method}`)
      const context: ClientRequestContext = { protocolVersion, requestId: nextId++, method, signal: controller.signal }
      const promise = Promise.resolve().then(() => handler(params, context))
      return { promise, abort: () => controller.abort() }
    },
    notify(method: string, params: unknown) {
      notifications.get(method)?.(params, { protocolVersion: 2, method })
    },
  }
}

function setup(
  options: {
    protocolVersion?: ProtocolVersion
    advertised?: { form: boolean; url: boolean }
    knownSessions?: string[]
    attach?: Pick<ElicitationAttachInfo, 'isRequestPending' | 'onDidSettleRequest'>
  } = {},
) {
  const actions: { sessionId: string; action: SessionAction }[] = []
  const requestScoped: { change: string; item: RequestScopedElicitation }[] = []
  const arrived: { agentName: string; title: string; requestId: string; sessionId: string | null }[] = []
  const resolvedIds: string[] = []
  const refused: string[] = []
  const opened: string[] = []
  const logLines: string[] = []
  const log: Logger = {
    debug: (m) => void logLines.push(m),
    info: (m) => void logLines.push(m),
    warn: (m) => void logLines.push(m),
    error: (m) => void logLines.push(m),
    child: () => log,
  }
  const opener = createExternalOpener(async (url) => void opened.push(url))
  let n = 0
  const broker = new ElicitationBroker({
    sink: (sessionId, action) => actions.push({ sessionId, action }),
    onRequestScoped: (c) => requestScoped.push(c),
    onArrived: (a) => arrived.push(a),
    onResolved: (id) => resolvedIds.push(id),
    onRefused: (r) => refused.push(r.message),
    opener,
    resolveSession: (_agent, sessionId) => ((options.knownSessions ?? ['s1']).includes(sessionId) ? sessionId : undefined),
    newId: () => `el-${++n}`,
    now: () => 1000,
    log,
  })
  const fake = fakeConnection()
  const attachment = broker.attach(fake.connection, {
    agentId: 'agent-a',
    agentName: 'Agent A',
    protocolVersion: options.protocolVersion ?? 2,
    advertised: options.advertised ?? { form: true, url: true },
    ...options.attach,
  })
  const requested = () => actions.filter((a) => a.action.type === 'elicitation_requested')
  const resolved = () => actions.filter((a) => a.action.type === 'elicitation_resolved').map((a) => a.action)
  return { broker, fake, actions, requested, resolved, requestScoped, arrived, resolvedIds, refused, opened, opener, logLines, attachment }
}

const form = (extra: Record<string, unknown> = {}) => ({
  sessionId: 's1',
  mode: 'form',
  message: 'Which approach?',
  requestedSchema: { type: 'object', properties: { choice: { type: 'string', enum: ['a', 'b'] }, secret: { type: 'string' } }, required: ['choice'] },
  ...extra,
})
const urlParams = (extra: Record<string, unknown> = {}) => ({
  sessionId: 's1',
  mode: 'url',
  message: 'Sign in',
  url: 'https://auth.example.com/connect?id=1',
  elicitationId: 'ext-1',
  ...extra,
})

async function expectHandlerError(promise: Promise<unknown>, code: number): Promise<HandlerError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a HandlerError')
    },
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(HandlerError)
  expect((error as HandlerError).code).toBe(code)
  return error as HandlerError
}

/** Waits until the broker published the request (the handler runs after a microtask). */
async function arrivedOnce(t: ReturnType<typeof setup>, count = 1) {
  for (let i = 0; i < 20 && t.arrived.length < count; i++) await Promise.resolve()
  expect(t.arrived.length).toBe(count)
  return t.arrived[count - 1]!.requestId
}

describe('ElicitationBroker: form mode', () => {
  it('registers the final names and the seed aliases', () => {
    const t = setup()
    expect([...t.fake.requests.keys()].sort()).toEqual(['elicitation/create', 'session/elicitation'])
    expect([...t.fake.notifications.keys()].sort()).toEqual(['elicitation/complete', 'notifications/elicitation/complete'])
    t.attachment.dispose()
    expect(t.fake.requests.size + t.fake.notifications.size).toBe(0)
  })

  it('publishes a session-scoped request and answers accept with validated content', async () => {
    const t = setup()
    const { promise } = t.fake.request('elicitation/create', form({ toolCallId: 'tc1' }))
    const id = await arrivedOnce(t)
    expect(t.arrived[0]).toEqual({ agentName: 'Agent A', title: 'Which approach?', requestId: 'el-1', kind: 'elicitation', sessionId: 's1' })
    expect(t.requested()).toHaveLength(1)
    const view = (t.requested()[0]!.action as Extract<SessionAction, { type: 'elicitation_requested' }>).elicitation
    expect(view).toMatchObject({ elicitationRequestId: 'el-1', agentId: 'agent-a', agentName: 'Agent A', sessionId: 's1', toolCallId: 'tc1', mode: 'form', status: 'pending', createdAt: 1000 })

    const bad = t.broker.respond(id, { action: 'accept', content: { choice: 'zzz' } })
    expect(bad.ok).toBe(false)
    if (!bad.ok) expect((bad.error.data as { errors: Record<string, string> }).errors).toHaveProperty('choice')

    expect(t.resolvedIds).toEqual([])
    expect(t.broker.respond(id, { action: 'accept', content: { choice: 'b', secret: 'hunter2' } })).toEqual({ ok: true, value: undefined })
    expect(t.resolvedIds).toEqual(['el-1'])
    expect(await promise).toEqual({ action: 'accept', content: { choice: 'b', secret: 'hunter2' } })
    // What was sent is kept for a page loaded later, the field that looks like a secret withheld by name only.
    expect(t.resolved()).toEqual([{ type: 'elicitation_resolved', elicitationRequestId: 'el-1', status: 'accepted', answer: { content: { choice: 'b' }, withheld: ['secret'] } }])
    expect(JSON.stringify(t.actions)).not.toContain('hunter2')
    // Never answered twice.
    expect(t.broker.respond(id, { action: 'decline' }).ok).toBe(false)
    expect(t.broker.openCount).toBe(0)
    // Content never reaches the log (G21).
    expect(t.logLines.join('\n')).not.toContain('hunter2')
    expect(t.logLines.join('\n')).not.toContain('Which approach')
  })

  it.each(['decline', 'cancel'] as const)('answers %s', async (action) => {
    const t = setup()
    const { promise } = t.fake.request('elicitation/create', form())
    const id = await arrivedOnce(t)
    expect(t.broker.respond(id, { action }).ok).toBe(true)
    expect(await promise).toEqual({ action })
    expect(t.resolved()[0]).toMatchObject({ status: action === 'decline' ? 'declined' : 'cancelled' })
  })

  it('shows a form with an optional nested object (G15): accepted without it, refused with a value for it', async () => {
    const t = setup()
    const requestedSchema = { properties: { address: { type: 'object', properties: { street: { type: 'string' } } }, name: { type: 'string' } }, required: ['name'] }
    const { promise } = t.fake.request('elicitation/create', form({ requestedSchema }))
    const id = await arrivedOnce(t)
    expect(t.refused).toEqual([])
    expect(t.broker.respond(id, { action: 'accept', content: { name: 'Ada', address: { street: 'x' } } }).ok).toBe(false)
    expect(t.broker.respond(id, { action: 'accept', content: { name: 'Ada' } }).ok).toBe(true)
    expect(await promise).toEqual({ action: 'accept', content: { name: 'Ada' } })
  })

  it('serves the seed alias session/elicitation the same way', async () => {
    const t = setup()
    const { promise } = t.fake.request('session/elicitation', form())
    const id = await arrivedOnce(t)
    t.broker.respond(id, { action: 'decline' })
    expect(await promise).toEqual({ action: 'decline' })
  })

  it('refuses a schema no answer could satisfy with -32602 and tells the person', async () => {
    const t = setup()
    const error = await expectHandlerError(
      t.fake.request('elicitation/create', form({ requestedSchema: { properties: { a: { type: 'string', minLength: 5, maxLength: 2 } } } })).promise,
      -32602,
    )
    expect(error.message).toMatch(/minLength is larger than maxLength/)
    expect(t.refused[0]).toMatch(/Agent A asked for a form Bosun cannot show/)
    expect(t.actions).toEqual([])
  })
})

describe('ElicitationBroker: modes and scopes', () => {
  it('refuses an unadvertised known mode with -32602 (G11)', async () => {
    const t = setup({ advertised: { form: false, url: true } })
    await expectHandlerError(t.fake.request('elicitation/create', form()).promise, -32602)
  })
  it('advertised `elicitation: {}` (no mode present) takes neither mode, and form alone does not take url (C5)', async () => {
    for (const advertised of [{ form: false, url: false }, { form: true, url: false }]) {
      const t = setup({ advertised })
      await expectHandlerError(t.fake.request('elicitation/create', urlParams()).promise, -32602)
      if (!advertised.form) await expectHandlerError(t.fake.request('elicitation/create', form()).promise, -32602)
      expect(t.requested()).toEqual([])
    }
  })
  it('refuses an unknown or custom mode with -32602', async () => {
    const t = setup()
    await expectHandlerError(t.fake.request('elicitation/create', form({ mode: '_wizard' })).promise, -32602)
    await expectHandlerError(t.fake.request('elicitation/create', form({ mode: undefined })).promise, -32602)
  })
  it('v2 requires exactly one of sessionId and requestId', async () => {
    const t = setup()
    await expectHandlerError(t.fake.request('elicitation/create', form({ requestId: 7 })).promise, -32602)
    await expectHandlerError(t.fake.request('elicitation/create', form({ sessionId: undefined })).promise, -32602)
  })
  it('v1 tolerates both and uses the session', async () => {
    const t = setup({ protocolVersion: 1 })
    const { promise } = t.fake.request('elicitation/create', form({ requestId: 7 }), 1)
    const id = await arrivedOnce(t)
    expect(t.requested()).toHaveLength(1)
    t.broker.respond(id, { action: 'cancel' })
    await promise
  })
  it('answers -32002 with data {sessionId} for an unknown session (G7)', async () => {
    const t = setup()
    const error = await expectHandlerError(t.fake.request('elicitation/create', form({ sessionId: 'ghost' })).promise, -32002)
    expect(error.data).toEqual({ sessionId: 'ghost' })
    expect(t.actions).toEqual([])
  })
  it('refuses malformed params', async () => {
    const t = setup()
    await expectHandlerError(t.fake.request('elicitation/create', null).promise, -32602)
    await expectHandlerError(t.fake.request('elicitation/create', form({ message: 3 })).promise, -32602)
    await expectHandlerError(t.fake.request('elicitation/create', urlParams({ url: '' })).promise, -32602)
    await expectHandlerError(t.fake.request('elicitation/create', urlParams({ elicitationId: undefined })).promise, -32602)
  })
  it('shows a request-scoped elicitation before any session exists', async () => {
    const t = setup()
    const { promise } = t.fake.request('elicitation/create', form({ sessionId: undefined, requestId: 'init-1' }))
    const id = await arrivedOnce(t)
    expect(t.actions).toEqual([])
    expect(t.requestScoped[0]).toMatchObject({ change: 'added', item: { scopeRequestId: 'init-1', elicitation: { sessionId: null, agentName: 'Agent A' } } })
    expect(t.broker.listRequestScoped()).toHaveLength(1)
    t.broker.respond(id, { action: 'accept', content: { choice: 'a' } })
    expect(await promise).toEqual({ action: 'accept', content: { choice: 'a' } })
    expect(t.requestScoped[1]).toMatchObject({ change: 'updated', item: { elicitation: { status: 'accepted' } } })
    expect(t.broker.listRequestScoped()).toEqual([])
  })
})

/**
 * A fake of the connection's outgoing requests (G12): the ids Bosun is waiting on, and the event the
 * connection fires as each one is answered.
 */
function fakeOutgoing(...pending: JsonRpcId[]) {
  const ids = new Set<JsonRpcId>(pending)
  const settled = new Emitter<JsonRpcId>()
  return {
    attach: { isRequestPending: (id: JsonRpcId) => ids.has(id), onDidSettleRequest: settled.event },
    settled,
    settle(id: JsonRpcId) {
      ids.delete(id)
      settled.fire(id)
    },
  }
}

describe('ElicitationBroker: request scope is a request Bosun is waiting on (G12)', () => {
  const scoped = (requestId: JsonRpcId, extra: Record<string, unknown> = {}) => form({ sessionId: undefined, requestId, ...extra })

  it('refuses a requestId Bosun has no pending request for with -32602, and tells the person', async () => {
    const outgoing = fakeOutgoing(3)
    const t = setup({ attach: outgoing.attach })
    const error = await expectHandlerError(t.fake.request('elicitation/create', scoped(99)).promise, -32602)
    expect(error.message).toBe('requestId 99 is not a request Bosun is waiting on this agent for')
    expect(t.refused).toEqual(['requestId 99 is not a request Bosun is waiting on this agent for'])
    // `7` and `"7"` are different ids (B3): the string form of a pending number is not pending.
    await expectHandlerError(t.fake.request('elicitation/create', scoped('3')).promise, -32602)
    // A request that was answered is no longer a scope.
    outgoing.settle(3)
    await expectHandlerError(t.fake.request('elicitation/create', scoped(3)).promise, -32602)
    expect(t.requestScoped).toEqual([])
    expect(t.arrived).toEqual([])
    expect(t.broker.openCount).toBe(0)
  })

  it('shows one that names a pending request, and the person can answer it', async () => {
    const t = setup({ attach: fakeOutgoing(3).attach })
    const { promise } = t.fake.request('elicitation/create', scoped(3))
    const id = await arrivedOnce(t)
    expect(t.requestScoped[0]).toMatchObject({ change: 'added', item: { scopeRequestId: 3 } })
    expect(t.broker.respond(id, { action: 'accept', content: { choice: 'a' } }).ok).toBe(true)
    expect(await promise).toEqual({ action: 'accept', content: { choice: 'a' } })
  })

  it('when the scoped request settles, answers its pending elicitations cancel and withdraws them; others stay', async () => {
    const outgoing = fakeOutgoing(3, 4)
    const t = setup({ attach: outgoing.attach })
    const first = t.fake.request('elicitation/create', scoped(3))
    const other = t.fake.request('elicitation/create', scoped(4))
    await arrivedOnce(t, 2)
    const [id3, id4] = t.arrived.map((a) => a.requestId)
    outgoing.settle(3)
    expect(await first.promise).toEqual({ action: 'cancel' })
    expect(t.requestScoped.filter((c) => c.change === 'updated')).toEqual([
      { change: 'updated', item: { scopeRequestId: 3, elicitation: expect.objectContaining({ elicitationRequestId: id3, status: 'cancelled' }) } },
    ])
    expect(t.resolvedIds).toEqual([id3])
    expect(t.broker.listRequestScoped().map((i) => i.elicitation.elicitationRequestId)).toEqual([id4])
    expect(t.broker.respond(id3!, { action: 'decline' }).ok).toBe(false)
    // A settled id it never had, or again: nothing happens.
    outgoing.settle(3)
    outgoing.settle(42)
    expect(t.broker.openCount).toBe(1)
    expect(t.broker.respond(id4!, { action: 'decline' }).ok).toBe(true)
    expect(await other.promise).toEqual({ action: 'decline' })
  })

  it('withdraws a consented link still waiting for completion when its request settles', async () => {
    const outgoing = fakeOutgoing('auth-1')
    const t = setup({ attach: outgoing.attach })
    const { promise } = t.fake.request('elicitation/create', urlParams({ sessionId: undefined, requestId: 'auth-1' }))
    const id = await arrivedOnce(t)
    expect((await t.broker.openUrl(id)).ok).toBe(true)
    expect(await promise).toEqual({ action: 'accept' })
    outgoing.settle('auth-1')
    expect(t.requestScoped.at(-1)).toMatchObject({ change: 'updated', item: { elicitation: { status: 'gone' } } })
    expect(t.broker.openCount).toBe(0)
    expect(t.opener.offeredIds).toEqual([])
    expect((await t.broker.retryUrl(id)).ok).toBe(false)
  })

  it('leaves session-scoped elicitations alone (v1 with both ids: the session wins, the id is not checked)', async () => {
    const outgoing = fakeOutgoing()
    const t = setup({ protocolVersion: 1, attach: outgoing.attach })
    const { promise } = t.fake.request('elicitation/create', form({ requestId: 5 }), 1)
    const id = await arrivedOnce(t)
    outgoing.settle(5)
    expect(t.broker.respond(id, { action: 'decline' }).ok).toBe(true)
    expect(await promise).toEqual({ action: 'decline' })
  })

  it('stops listening when the connection is detached', () => {
    const outgoing = fakeOutgoing()
    const t = setup({ attach: outgoing.attach })
    expect(outgoing.settled.listenerCount).toBe(1)
    t.attachment.dispose()
    expect(outgoing.settled.listenerCount).toBe(0)
  })
})

describe('ElicitationBroker: URL mode', () => {
  it('refuses a second link under an elicitationId still outstanding, so the first one can still be completed (hostile12)', async () => {
    const t = setup()
    const first = t.fake.request('elicitation/create', urlParams())
    const id = await arrivedOnce(t)
    // The second took the id's place: the agent's completion ended it, and the first waited, holding one of the 8
    // places for links, until the agent exited.
    const second = t.fake.request('elicitation/create', urlParams({ url: 'https://other.example.com/' }))
    const refusal = await expectHandlerError(second.promise, -32602)
    expect(refusal.message).toBe('elicitationId "ext-1" is already used by another request that waits')
    await t.broker.openUrl(id)
    expect(await first.promise).toEqual({ action: 'accept' })
    t.fake.notify('elicitation/complete', { elicitationId: 'ext-1' })
    expect(t.resolved().at(-1)).toMatchObject({ elicitationRequestId: id, status: 'completed' })
    // Once it completed, the id may be used again.
    t.fake.request('elicitation/create', urlParams())
    await arrivedOnce(t, 2)
  })

  it('accepts only after consent through the chokepoint, then completes on elicitation/complete', async () => {
    const t = setup()
    const { promise } = t.fake.request('elicitation/create', urlParams())
    const id = await arrivedOnce(t)
    expect(t.opened).toEqual([])
    // A form-style accept is refused for URL mode.
    expect(t.broker.respond(id, { action: 'accept' }).ok).toBe(false)
    const opened = await t.broker.openUrl(id)
    expect(opened).toEqual({ ok: true, value: { openedBy: 'main', href: 'https://auth.example.com/connect?id=1' } })
    expect(t.opened).toEqual(['https://auth.example.com/connect?id=1'])
    expect(await promise).toEqual({ action: 'accept' })
    expect(t.resolved().at(-1)).toMatchObject({ status: 'accepted' })
    // Consent given: no longer waiting for the person (the badge drops), though the card waits for completion.
    expect(t.resolvedIds).toEqual([id])

    // Retry opens again while waiting.
    expect((await t.broker.retryUrl(id)).ok).toBe(true)
    expect(t.opened).toHaveLength(2)

    t.fake.notify('elicitation/complete', { elicitationId: 'unknown' })
    expect(t.resolved()).toHaveLength(1)
    t.fake.notify('elicitation/complete', { elicitationId: 'ext-1' })
    expect(t.resolved().at(-1)).toMatchObject({ status: 'completed' })
    t.fake.notify('notifications/elicitation/complete', { elicitationId: 'ext-1' })
    t.fake.notify('elicitation/complete', 'garbage')
    expect(t.resolved()).toHaveLength(2)
    expect(t.opener.offeredIds).toEqual([])
    expect((await t.broker.retryUrl(id)).ok).toBe(false)
  })

  it('a completion that arrives before consent ends the request (answered cancel, shown completed)', async () => {
    const t = setup()
    const { promise } = t.fake.request('elicitation/create', urlParams())
    const id = await arrivedOnce(t)
    t.fake.notify('elicitation/complete', { elicitationId: 'ext-1' })
    expect(await promise).toEqual({ action: 'cancel' })
    expect(t.resolved()).toEqual([{ type: 'elicitation_resolved', elicitationRequestId: id, status: 'completed' }])
    expect(t.resolvedIds).toEqual([id])
    expect((await t.broker.openUrl(id)).ok).toBe(false)
    expect(t.opened).toEqual([])
  })

  it('accepts the seed notification name for completion', async () => {
    const t = setup()
    t.fake.request('elicitation/create', urlParams())
    const id = await arrivedOnce(t)
    await t.broker.openUrl(id)
    t.fake.notify('notifications/elicitation/complete', { elicitationId: 'ext-1' })
    expect(t.resolved().at(-1)).toMatchObject({ status: 'completed' })
  })

  it('opens the link once when the person consents twice at once (a double click): the second call is refused', async () => {
    const t = setup()
    const { promise } = t.fake.request('elicitation/create', urlParams())
    const id = await arrivedOnce(t)
    const [a, b] = await Promise.all([t.broker.openUrl(id), t.broker.openUrl(id)])
    expect([a.ok, b.ok].sort()).toEqual([false, true])
    expect(t.opened).toEqual(['https://auth.example.com/connect?id=1'])
    expect(await promise).toEqual({ action: 'accept' })
  })

  it('lets the person dismiss when completion never comes', async () => {
    const t = setup()
    t.fake.request('elicitation/create', urlParams())
    const id = await arrivedOnce(t)
    await t.broker.openUrl(id)
    expect(t.broker.dismissUrl(id).ok).toBe(true)
    expect(t.resolved().at(-1)).toMatchObject({ status: 'dismissed' })
    expect(t.opener.offeredIds).toEqual([])
  })

  it('never opens a refused URL; the person can only decline', async () => {
    const t = setup()
    const { promise } = t.fake.request('elicitation/create', urlParams({ url: 'javascript:alert(1)' }))
    const id = await arrivedOnce(t)
    expect((await t.broker.openUrl(id)).ok).toBe(false)
    expect(t.opened).toEqual([])
    t.broker.respond(id, { action: 'decline' })
    expect(await promise).toEqual({ action: 'decline' })
  })

  it('declining withdraws the offer', async () => {
    const t = setup()
    t.fake.request('elicitation/create', urlParams())
    const id = await arrivedOnce(t)
    t.broker.respond(id, { action: 'decline' })
    expect(t.opener.offeredIds).toEqual([])
    expect((await t.opener.openAfterConsent({ elicitationRequestId: id, url: 'https://auth.example.com/connect?id=1' })).ok).toBe(false)
  })
})

describe('ElicitationBroker: cancellation and exit', () => {
  it('cancelSession answers pending elicitations of that session cancel (F15)', async () => {
    const t = setup({ knownSessions: ['s1', 's2'] })
    const a = t.fake.request('elicitation/create', form())
    const b = t.fake.request('elicitation/create', form({ sessionId: 's2' }))
    await arrivedOnce(t, 2)
    t.broker.cancelSession('s1')
    expect(await a.promise).toEqual({ action: 'cancel' })
    expect(t.broker.openCount).toBe(1)
    t.broker.cancelSession('s2')
    expect(await b.promise).toEqual({ action: 'cancel' })
  })

  it('closing a session withdraws its links awaiting completion too (each held one of the connection\'s places for links, with no card left to dismiss it from)', async () => {
    const t = setup({ knownSessions: ['s1', 's2'] })
    t.fake.request('elicitation/create', urlParams())
    const other = t.fake.request('elicitation/create', urlParams({ sessionId: 's2', elicitationId: 'ext-2' }))
    await arrivedOnce(t, 2)
    expect((await t.broker.openUrl(t.arrived[0]!.requestId)).ok).toBe(true)
    t.broker.closeSession('s1')
    expect(t.broker.openCount).toBe(1)
    expect(t.opener.offeredIds).toEqual(['el-2'])
    expect(t.resolved().at(-1)).toEqual({ type: 'elicitation_resolved', elicitationRequestId: 'el-1', status: 'gone' })
    // A completion that comes later for it is an unknown id (G20).
    t.fake.notify('elicitation/complete', { elicitationId: 'ext-1' })
    expect(t.resolved()).toHaveLength(2)
    t.broker.closeSession('s2')
    expect(await other.promise).toEqual({ action: 'cancel' })
  })

  it('$/cancel_request from the agent answers cancel and marks it cancelled', async () => {
    const t = setup()
    const { promise, abort } = t.fake.request('elicitation/create', form())
    const id = await arrivedOnce(t)
    abort()
    expect(await promise).toEqual({ action: 'cancel' })
    expect(t.resolved()).toEqual([{ type: 'elicitation_resolved', elicitationRequestId: id, status: 'cancelled' }])
  })

  it('agent exit marks everything gone, including URLs awaiting completion', async () => {
    const t = setup()
    const a = t.fake.request('elicitation/create', form())
    t.fake.request('elicitation/create', urlParams())
    await arrivedOnce(t, 2)
    await t.broker.openUrl(t.arrived[1]!.requestId)
    t.fake.close()
    await a.promise
    expect(t.resolved().filter((r) => r.type === 'elicitation_resolved' && r.status === 'gone')).toHaveLength(2)
    expect(t.resolvedIds.sort()).toEqual(['el-1', 'el-2'])
    expect(t.broker.openCount).toBe(0)
    expect(t.opener.offeredIds).toEqual([])
    expect(t.fake.requests.size).toBe(0)
  })

  it('dispose releases everything', async () => {
    const t = setup()
    const a = t.fake.request('elicitation/create', form())
    await arrivedOnce(t)
    t.broker.dispose()
    expect(await a.promise).toEqual({ action: 'cancel' })
    expect(t.broker.openCount).toBe(0)
    expect(t.fake.requests.size + t.fake.notifications.size).toBe(0)
  })
})
