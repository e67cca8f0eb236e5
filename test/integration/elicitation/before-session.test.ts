/**
 * Elicitations through the composition root (`createBosunServices`), against the scripted agent as a real
 * child process, v1 and v2:
 *
 * - request-scoped (G12), before any session exists: the agent asks while Bosun's `initialize`,
 *   `session/new` or `authenticate`/`auth/login` is pending, with `requestId` = that request's id, and
 *   replies only after the answer. The agent reports what it got as text in the next new session.
 * - the capabilities Bosun sends in `initialize` (read from the protocol inspector);
 * - cancelling a session through the `cancel` call answers its pending elicitation `cancel`.
 */
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { CallHandlers, EventPayload } from '../../../common/contract'
import type { MessageEntry, SessionState } from '../../../common/session/types'
import type { RecordingSink } from '../../support/recording-sink'
import { must, servicesPerTest } from '../../support/services'

const sessionScenario = fileURLToPath(new URL('./elicitation.json', import.meta.url))

const startServices = servicesPerTest()
const start = (scenario: string, v2: boolean) => startServices([{ id: 'scripted', name: 'Scripted', scenario, v2 }])

/** The texts of the session's agent messages. */
async function agentTexts(handlers: CallHandlers, sessionId: string): Promise<string[]> {
  const session = must(await handlers.getSnapshot(undefined)).sessions.find((s: SessionState) => s.sessionId === sessionId)
  return (session?.entries ?? [])
    .filter((e): e is MessageEntry => e.kind === 'agent_message')
    .flatMap((e) => e.content.flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : [])))
}

/** What the agent reports it received for its request-scoped elicitation during `method`. */
async function reported(handlers: CallHandlers, sessionId: string, method: string): Promise<unknown[]> {
  const prefix = `request-scoped elicitation response (${method}): `
  return (await agentTexts(handlers, sessionId)).filter((t) => t.startsWith(prefix)).map((t) => JSON.parse(t.slice(prefix.length)) as unknown)
}

/** The id Bosun gave its own request `method` (from the protocol inspector: what went over the wire). */
async function outgoingRequestIds(handlers: CallHandlers, method: string): Promise<(string | number | null | undefined)[]> {
  const { messages } = must(await handlers.listInspectorMessages({ agentId: 'scripted', method }))
  return messages.filter((m) => m.direction === 'out' && m.kind === 'request').map((m) => m.id)
}

type Added = EventPayload<'requestScopedElicitation'>

/**
 * The next request-scoped elicitation, raced against the call that should be waiting for it: if the call
 * finishes first, nobody was asked (e.g. the agent got -32601 because no broker listened yet).
 */
function nextAsk(sink: RecordingSink, waiting: Promise<unknown>, skip: ReadonlySet<string> = new Set()): Promise<Added> {
  return Promise.race([
    sink.next('requestScopedElicitation', (e) => e.change === 'added' && !skip.has(e.elicitation.elicitationRequestId)),
    waiting.then((result) => {
      throw new Error(`finished without a request-scoped elicitation: ${JSON.stringify(result)}`)
    }),
  ])
}

/** The checks every request-scoped elicitation must pass while it waits: in the inbox, named, with no session. */
async function expectWaitingOutsideAnySession(sink: RecordingSink, handlers: CallHandlers, added: Added, message: string): Promise<void> {
  expect(added.elicitation).toMatchObject({ agentId: 'scripted', agentName: 'Scripted', sessionId: null, status: 'pending', mode: 'form', message })
  // No session exists while it waits.
  expect(sink.of('sessionAdded')).toEqual([])
  expect(must(await handlers.getSnapshot(undefined)).sessions).toEqual([])
  // A fresh renderer's snapshot lists it too (the inbox is rebuilt from this).
  expect(must(await handlers.listRequestScopedElicitations(undefined))).toEqual([{ elicitation: added.elicitation, scopeRequestId: added.scopeRequestId }])
}

describe.each([
  { label: 'v1', v2: false },
  { label: 'v2', v2: true },
])('request-scoped elicitation before any session exists ($label agent)', ({ v2 }) => {
  it.each([
    ['accept', { action: 'accept', content: { ws: 'beta', fresh: true } }],
    ['decline', { action: 'decline' }],
    ['cancel', { action: 'cancel' }],
  ] as const)('during session/new, answered %s: listed with the agent name and no session; the agent gets the answer', async (_name, answer) => {
    const { sink, handlers, workspace } = await start('elicit-session-new', v2)
    const creating = handlers.newSession({ agentId: 'scripted', cwd: workspace })
    const added = await nextAsk(sink, creating)
    await expectWaitingOutsideAnySession(sink, handlers, added, 'Which workspace should the new session use?')
    // Scoped to the pending session/new: the id is the one Bosun sent it with.
    expect(await outgoingRequestIds(handlers, 'session/new')).toEqual([added.scopeRequestId])

    const { elicitationRequestId } = added.elicitation
    if (answer.action === 'accept') {
      // Validated in main: a value outside the schema never reaches the agent, and the request stays.
      const bad = await handlers.respondElicitation({ elicitationRequestId, action: 'accept', content: { ws: 'gamma' } })
      expect(bad.ok).toBe(false)
      expect(must(await handlers.listRequestScopedElicitations(undefined))).toHaveLength(1)
    }
    must(await handlers.respondElicitation({ elicitationRequestId, ...answer }))

    const { sessionId } = must(await creating)
    expect(await reported(handlers, sessionId, 'session/new')).toEqual([answer])
    const status = { accept: 'accepted', decline: 'declined', cancel: 'cancelled' }[answer.action]
    expect(sink.of('requestScopedElicitation').map((e) => [e.change, e.elicitation.status])).toEqual([
      ['added', 'pending'],
      ['updated', status],
    ])
    expect(must(await handlers.listRequestScopedElicitations(undefined))).toEqual([])
    // The request-scoped one never entered the session's transcript.
    const session = must(await handlers.getSnapshot(undefined)).sessions[0]!
    expect(session.entries.some((e) => e.kind === 'elicitation')).toBe(false)
  })

  it('a form Bosun cannot show (no answer could satisfy it): -32602 to the agent, a toast for the person, nothing in the inbox', async () => {
    const { sink, handlers, workspace } = await start('elicit-refused-session-new', v2)
    const { sessionId } = must(await handlers.newSession({ agentId: 'scripted', cwd: workspace }))
    const [answer] = (await reported(handlers, sessionId, 'session/new')) as { error?: { code?: number } }[]
    expect(answer?.error?.code).toBe(-32602)
    expect(sink.of('appNotice')).toEqual([expect.objectContaining({ severity: 'warning', title: 'Scripted asked for input Bosun cannot show' })])
    expect(sink.of('appNotice')[0]!.description).toMatch(/minimum is larger than maximum/)
    expect(sink.of('requestScopedElicitation')).toEqual([])
  })

  it('during initialize: the broker answers before the handshake is over', async () => {
    const { sink, handlers, workspace } = await start('elicit-initialize', v2)
    const creating = handlers.newSession({ agentId: 'scripted', cwd: workspace })
    // The scripted v1 agent's definition says version 1 (as a preset's does): one start, one ask.
    const rounds = 1
    const answered = new Set<string>()
    for (let round = 1; round <= rounds; round++) {
      const added = await nextAsk(sink, creating, answered)
      await expectWaitingOutsideAnySession(sink, handlers, added, "Accept the agent's terms of use before it starts?")
      // The agent is still starting: its initialize has not been answered.
      expect(must(await handlers.getSnapshot(undefined)).agents[0]).toMatchObject({ agentId: 'scripted', status: 'starting' })
      const initializeIds = await outgoingRequestIds(handlers, 'initialize')
      expect(initializeIds).toHaveLength(round)
      expect(initializeIds.at(-1)).toBe(added.scopeRequestId)
      answered.add(added.elicitation.elicitationRequestId)
      must(await handlers.respondElicitation({ elicitationRequestId: added.elicitation.elicitationRequestId, action: 'accept', content: { agree: true } }))
    }
    const { sessionId } = must(await creating)
    expect(sink.of('requestScopedElicitation').filter((e) => e.change === 'added')).toHaveLength(rounds)
    expect(await reported(handlers, sessionId, 'initialize')).toEqual([{ action: 'accept', content: { agree: true } }])
    expect(must(await handlers.getSnapshot(undefined)).agents[0]).toMatchObject({ status: 'ready', protocolVersion: v2 ? 2 : 1 })
  })

  it.each([
    ['accept', { action: 'accept', content: { account: 'octocat' } }],
    ['decline', { action: 'decline' }],
  ] as const)('during %s login: the login goes on only with the answer', async (_name, answer) => {
    const { sink, handlers, workspace } = await start('elicit-login', v2)
    const refused = await handlers.newSession({ agentId: 'scripted', cwd: workspace })
    expect(refused.ok).toBe(false)
    const loggingIn = handlers.loginAgent({ agentId: 'scripted', methodId: 'login' })
    const added = await nextAsk(sink, loggingIn)
    await expectWaitingOutsideAnySession(sink, handlers, added, 'Which account should the agent use?')
    expect(await outgoingRequestIds(handlers, v2 ? 'auth/login' : 'authenticate')).toEqual([added.scopeRequestId])

    must(await handlers.respondElicitation({ elicitationRequestId: added.elicitation.elicitationRequestId, ...answer }))
    const login = await loggingIn
    if (answer.action === 'decline') {
      expect(login.ok).toBe(false)
      if (!login.ok) expect(login.error.message).toContain('Login not completed: {"action":"decline"}')
      expect((await handlers.newSession({ agentId: 'scripted', cwd: workspace })).ok).toBe(false)
      return
    }
    expect(must(login)).toEqual({ restarted: false })
    const { sessionId } = must(await handlers.newSession({ agentId: 'scripted', cwd: workspace }))
    expect(await reported(handlers, sessionId, v2 ? 'auth/login' : 'authenticate')).toEqual([answer])
  })
})

describe.each([
  { label: 'v1', v2: false },
  { label: 'v2', v2: true },
])('elicitation through the composition root ($label agent)', ({ v2 }) => {
  it('initialize advertises elicitation {form: {}, url: {}}', async () => {
    const { handlers, workspace } = await start(sessionScenario, v2)
    must(await handlers.newSession({ agentId: 'scripted', cwd: workspace }))
    const { messages } = must(await handlers.listInspectorMessages({ agentId: 'scripted', method: 'initialize' }))
    const sent = messages.filter((m) => m.direction === 'out' && m.kind === 'request').map((m) => (m.message as { params: Record<string, unknown> }).params)
    // The v2 offer to a v1 agent is answered 1, and Bosun restarts it with a v1 offer (C10b): the last offer counts.
    const params = sent.at(-1)!
    const capabilities = (v2 ? params.capabilities : params.clientCapabilities) as Record<string, unknown>
    expect(capabilities.elicitation).toEqual({ form: {}, url: {} })
  })

  it('cancelling the session through the cancel call answers its pending elicitation cancel', async () => {
    const { sink, handlers, workspace } = await start(sessionScenario, v2)
    const { sessionId } = must(await handlers.newSession({ agentId: 'scripted', cwd: workspace }))
    const turn = handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'cancel' }] })
    await sink.next('sessionActions', (batch) => batch.sessionId === sessionId && batch.actions.some((a) => a.type === 'elicitation_requested'))

    must(await handlers.cancel({ sessionId }))
    await sink.next('sessionActions', (batch) =>
      batch.actions.some((a) => a.type === 'elicitation_resolved' && a.status === 'cancelled'),
    )
    expect(must(await turn).stopReason).toBe('cancelled')
    // The agent was answered `cancel` (it says so before it sees its turn was cancelled).
    expect(await agentTexts(handlers, sessionId)).toContain('elicitation response: {"action":"cancel"}')
  })
})
