/**
 * Elicitation against the scripted agent as a real child process (v1 and v2): the broker is attached to a
 * real AcpClientConnection, and the agent reports the response it received as a text chunk.
 */
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import type { JsonRpcId } from '../../../main/acp/types'
import { Emitter, once } from '../../../main/base/event'
import { ElicitationBroker, type ElicitationAttachInfo } from '../../../main/elicitation/broker'
import { createExternalOpener } from '../../../main/elicitation/open-external'
import type { SessionAction } from '../../../common/session/types'
import { killAll, startAgent, textPrompt } from '../acp/harness'

const scenario = fileURLToPath(new URL('./elicitation.json', import.meta.url))

afterEach(async () => {
  await killAll()
})

async function setup(v2: boolean, advertised?: { form: boolean; url: boolean }, outgoing?: Pick<ElicitationAttachInfo, 'isRequestPending' | 'onDidSettleRequest'>) {
  const agent = startAgent(scenario, { v2 })
  // A v1 agent sees the elicitation capability only in a v1 offer (C10b).
  const handshake = await agent.connection.initialize({ preferredVersion: v2 ? 2 : 1 })
  const { sessionId } = await agent.connection.newSession({ cwd: '/tmp' })
  const actions: { sessionId: string; action: SessionAction }[] = []
  const arrivals = new Emitter<string>()
  const actionEvents = new Emitter<{ sessionId: string; action: SessionAction }>()
  const opened: string[] = []
  const refused: string[] = []
  const requestScoped: unknown[] = []
  const broker = new ElicitationBroker({
    sink: (sid, action) => {
      actions.push({ sessionId: sid, action })
      actionEvents.fire({ sessionId: sid, action })
    },
    onArrived: ({ requestId }) => arrivals.fire(requestId),
    onRefused: ({ message }) => refused.push(message),
    onRequestScoped: (change) => requestScoped.push(change),
    opener: createExternalOpener(async (url) => void opened.push(url)),
    resolveSession: (_agentId, sid) => (sid === sessionId ? sid : undefined),
  })
  // The harness's connection advertises both modes; a test may make the broker believe it advertised fewer.
  broker.attach(agent.connection, { agentId: 'scripted', agentName: 'Scripted', protocolVersion: handshake.protocolVersion, advertised: advertised ?? { form: true, url: true }, ...outgoing })
  /** Runs a prompt, waiting for the agent to report the elicitation response. */
  const reported = () => agent.texts().filter((t) => t.startsWith('elicitation response: ')).map((t) => JSON.parse(t.slice('elicitation response: '.length)) as unknown)
  return { agent, sessionId, broker, actions, actionEvents, arrivals, opened, refused, requestScoped, reported, version: handshake.protocolVersion }
}

describe.each([
  { name: 'v1', v2: false },
  { name: 'v2', v2: true },
])('elicitation with the scripted $name agent', ({ v2 }) => {
  it.each([
    ['accept', { action: 'accept', content: { approach: 'b', tests: false, note: 'fine' } }],
    ['decline', { action: 'decline' }],
    ['cancel', { action: 'cancel' }],
  ] as const)('form: %s', async (_name, answer) => {
    const t = await setup(v2)
    const arrived = once(t.arrivals.event)
    const turn = t.agent.connection.prompt(t.sessionId, textPrompt('form'))
    const id = await arrived
    expect(t.actions[0]?.action).toMatchObject({ type: 'elicitation_requested', elicitation: { mode: 'form', sessionId: t.sessionId, agentName: 'Scripted' } })
    if (answer.action === 'accept') {
      // Main re-validates: a value outside the schema never reaches the agent.
      expect(t.broker.respond(id, { action: 'accept', content: { approach: 'zzz' } }).ok).toBe(false)
      expect(t.broker.respond(id, { action: 'accept', content: { approach: 'b', note: 'NOT lower' } }).ok).toBe(false)
    }
    expect(t.broker.respond(id, answer).ok).toBe(true)
    await turn
    expect(t.reported()).toEqual([answer])
  })

  it('answers -32602 for a mode the client did not advertise', async () => {
    const t = await setup(v2, { form: false, url: true })
    await t.agent.connection.prompt(t.sessionId, textPrompt('form'))
    expect(t.reported()).toEqual([{ error: { code: -32602, message: expect.stringMatching(/not advertised/) } }])
    expect(t.actions).toEqual([])
  })

  it('answers -32602 for an unknown mode', async () => {
    const t = await setup(v2)
    await t.agent.connection.prompt(t.sessionId, textPrompt('form-alias-mode'))
    expect(t.reported()).toEqual([{ error: { code: -32602, message: expect.stringMatching(/unsupported elicitation mode/) } }])
  })

  it('shows a form with an optional nested object and a lookahead pattern (G15); the answer leaves the object out', async () => {
    const t = await setup(v2)
    const arrived = once(t.arrivals.event)
    const turn = t.agent.connection.prompt(t.sessionId, textPrompt('nested'))
    const id = await arrived
    expect(t.refused).toEqual([])
    expect(t.broker.respond(id, { action: 'accept', content: { city: 'lisbon', address: {} } }).ok).toBe(false)
    // The lookahead is not run on either side: the answer is sent as the person gave it.
    expect(t.broker.respond(id, { action: 'accept', content: { city: 'lisbon' } }).ok).toBe(true)
    await turn
    expect(t.reported()).toEqual([{ action: 'accept', content: { city: 'lisbon' } }])
  })

  it('answers -32602 for a form no answer could satisfy and tells the person', async () => {
    const t = await setup(v2)
    await t.agent.connection.prompt(t.sessionId, textPrompt('impossible'))
    expect(t.reported()).toEqual([{ error: { code: -32602, message: expect.stringMatching(/minLength is larger than maxLength/) } }])
    expect(t.refused).toHaveLength(1)
  })

  it('answers -32002 with data {sessionId} for an unknown session (G7)', async () => {
    const t = await setup(v2)
    const sent: unknown[] = []
    t.agent.connection.onDidTrace((trace) => {
      if (trace.direction === 'out') sent.push(trace.message)
    })
    await t.agent.connection.prompt(t.sessionId, textPrompt('unknown-session'))
    expect(t.reported()).toEqual([{ error: { code: -32002, message: expect.any(String) } }])
    // What went over the wire (the scripted agent reports only code and message).
    expect(sent).toContainEqual(expect.objectContaining({ error: { code: -32002, message: 'Session not found: no-such-session', data: { sessionId: 'no-such-session' } } }))
  })

  it('shows a request-scoped elicitation outside any session', async () => {
    const t = await setup(v2)
    const arrived = once(t.arrivals.event)
    const turn = t.agent.connection.prompt(t.sessionId, textPrompt('request-scoped'))
    const id = await arrived
    expect(t.actions).toEqual([])
    expect(t.requestScoped).toEqual([
      { change: 'added', item: { scopeRequestId: 'init-7', elicitation: expect.objectContaining({ sessionId: null, agentName: 'Scripted', status: 'pending' }) } },
    ])
    t.broker.respond(id, { action: 'accept', content: { ws: 'two' } })
    await turn
    expect(t.reported()).toEqual([{ action: 'accept', content: { ws: 'two' } }])
  })

  it('refuses a request-scoped elicitation whose requestId Bosun is not waiting on with -32602 (G12)', async () => {
    const asked: unknown[] = []
    const isRequestPending = (id: JsonRpcId) => {
      asked.push(id)
      return false
    }
    const t = await setup(v2, undefined, { isRequestPending })
    await t.agent.connection.prompt(t.sessionId, textPrompt('request-scoped'))
    expect(asked).toEqual(['init-7'])
    expect(t.reported()).toEqual([{ error: { code: -32602, message: 'requestId "init-7" is not a request Bosun is waiting on this agent for' } }])
    expect(t.requestScoped).toEqual([])
  })

  it('URL mode: accept after consent opens the URL, then elicitation/complete marks it done (duplicates ignored)', async () => {
    const t = await setup(v2)
    const arrived = once(t.arrivals.event)
    // `elicitation/complete` may be handled after the v2 idle update that ends the turn (updates take a fast path).
    const completed = once(t.actionEvents.event, ({ action }) => action.type === 'elicitation_resolved' && action.status === 'completed')
    const turn = t.agent.connection.prompt(t.sessionId, textPrompt('url'))
    const id = await arrived
    expect(t.opened).toEqual([])
    const opened = await t.broker.openUrl(id)
    expect(opened).toEqual({ ok: true, value: { openedBy: 'main', href: 'https://auth.example.com/connect?session=abc' } })
    await turn
    expect(t.reported()).toEqual([{ action: 'accept' }])
    expect(t.agent.texts()).toContain('url flow done')
    await completed
    const statuses = t.actions.flatMap((a) => (a.action.type === 'elicitation_resolved' ? [a.action.status] : []))
    expect(statuses).toEqual(['accepted', 'completed'])
    expect(t.opened).toEqual(['https://auth.example.com/connect?session=abc'])
    expect(t.broker.openCount).toBe(0)
  })

  it('cancelling the session answers its pending elicitation cancel', async () => {
    const t = await setup(v2)
    const arrived = once(t.arrivals.event)
    const turn = t.agent.connection.prompt(t.sessionId, textPrompt('cancel'))
    await arrived
    t.agent.connection.cancel(t.sessionId)
    t.broker.cancelSession(t.sessionId)
    await turn
    expect(t.reported()).toEqual([{ action: 'cancel' }])
    expect(t.actions.at(-1)?.action).toMatchObject({ type: 'elicitation_resolved', status: 'cancelled' })
  })

  it('marks pending elicitations gone when the agent dies', async () => {
    const t = await setup(v2)
    const arrived = once(t.arrivals.event)
    void t.agent.connection.prompt(t.sessionId, textPrompt('cancel')).catch(() => undefined)
    await arrived
    t.agent.child.kill('SIGKILL')
    await t.agent.exited
    expect(t.actions.at(-1)?.action).toMatchObject({ type: 'elicitation_resolved', status: 'gone' })
    expect(t.broker.openCount).toBe(0)
  })
})
