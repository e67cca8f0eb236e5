import { describe, expect, it } from 'vitest'
import { PermissionBroker } from '../../../main/permissions/broker'
import type { PermissionRequestView } from '../../../common/session/types'
import { AgentExitedError } from '../../../main/base/errors'
import { restartedMessage } from '../../../common/session/turn-stop'
import { FakeConnection, flushMicrotasks, MemoryRules, recordingSink, standardOptions } from './fakes'

const CANCELLED = { outcome: { outcome: 'cancelled' } }

function setup(options: { version?: 1 | 2; background?: unknown[] | null; rules?: MemoryRules } = {}) {
  const { actions, sink } = recordingSink()
  const audit: unknown[] = []
  let background = options.background ?? null
  const stopping = new Set<string>()
  const broker = new PermissionBroker({
    sink,
    sessions: {
      getSession: (agentId, sessionId) => (agentId === 'agent-a' && ['A', 'B'].includes(sessionId) ? { cwd: '/proj' } : undefined),
      lookupToolCall: (_s, id) => (id === 'known' ? { title: 'Stored title', toolKind: 'edit' } : undefined),
      getBackground: () => background,
      isStopping: (sessionId) => stopping.has(sessionId),
    },
    rules: options.rules,
    audit: { append: (r) => audit.push(r) },
    now: () => 1000,
    newRuleId: () => 'rule-1',
  })
  const connection = new FakeConnection(options.version ?? 1)
  const attachment = broker.attach(connection, { agentId: 'agent-a', agentName: 'Agent A', protocolVersion: options.version ?? 1 })
  return { broker, connection, actions, audit, attachment, stopping, setBackground: (b: unknown[] | null) => (background = b) }
}

const v1Request = (sessionId: string, toolCallId = 'call-1', extra: Record<string, unknown> = {}) => ({
  sessionId,
  toolCall: { toolCallId, title: `Edit ${toolCallId}`, kind: 'edit', locations: [{ path: '/proj/a.ts' }], ...extra },
  options: standardOptions,
})

describe('PermissionBroker', () => {
  it('answers the person’s choice exactly once', async () => {
    const { broker, connection, actions, audit } = setup()
    const answer = connection.request(0, v1Request('A'))
    const [pending] = broker.pending()
    expect(pending).toMatchObject({ sessionId: 'A', title: 'Edit call-1', status: 'pending', agentName: 'Agent A', toolCallId: 'call-1' })
    expect(broker.respond(pending!.requestId, 'allow')).toEqual({ ok: true, value: undefined })
    expect(await answer).toEqual({ result: { outcome: { outcome: 'selected', optionId: 'allow' } } })
    // A second answer is refused: nothing is sent twice.
    expect(broker.respond(pending!.requestId, 'reject')).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    expect(connection.answers).toHaveLength(1)
    expect(broker.pending()).toEqual([])
    expect(actions.map((a) => a.action.type)).toEqual(['permission_requested', 'permission_resolved'])
    expect(actions[0]!.action).toMatchObject({ toolCallPatch: { toolCallId: 'call-1', title: 'Edit call-1' } })
    expect(actions[1]!.action).toMatchObject({ status: 'answered', resolution: { by: 'person', optionId: 'allow', optionKind: 'allow_once' } })
    expect(audit).toEqual([expect.objectContaining({ by: 'person', outcome: 'selected', title: 'Edit call-1', option: { optionId: 'allow', name: 'Allow', kind: 'allow_once' } })])
  })

  it("gives an agent's first question after Bosun restarts an id of its own, not the id of the first question before (the history keeps those on their cards)", () => {
    // Each setup is one run of Bosun: a new broker, the agent attached first, its first request numbered 0.
    const before = setup()
    void before.connection.request(0, v1Request('A'))
    const after = setup()
    void after.connection.request(0, v1Request('A'))
    const [first] = before.broker.pending()
    const [again] = after.broker.pending()
    expect(first!.requestId).not.toBe(again!.requestId)
    expect(again!.requestId.startsWith('agent-a#')).toBe(true)
  })

  it('refuses an option that was not offered and keeps waiting', async () => {
    const { broker, connection } = setup()
    const answer = connection.request(1, v1Request('A'))
    const id = broker.pending()[0]!.requestId
    expect(broker.respond(id, 'made-up')).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(broker.pending()).toHaveLength(1)
    broker.respond(id, null)
    expect(await answer).toEqual({ result: CANCELLED })
  })

  it('v1 cancel answers every pending request of the session cancelled, once, and leaves other sessions alone (F13)', async () => {
    const { broker, connection, actions, audit } = setup()
    const a1 = connection.request(1, v1Request('A', 'c1'))
    const a2 = connection.request(2, v1Request('A', 'c2'))
    const a3 = connection.request(3, v1Request('A', 'c3'))
    const b1 = connection.request(4, v1Request('B', 'c4'))
    expect(broker.pending()).toHaveLength(4)
    expect(broker.cancelSession('A')).toBe(3)
    expect(await Promise.all([a1, a2, a3])).toEqual([{ result: CANCELLED }, { result: CANCELLED }, { result: CANCELLED }])
    expect(broker.cancelSession('A')).toBe(0)
    expect(broker.pending().map((p) => p.sessionId)).toEqual(['B'])
    expect(connection.answers).toHaveLength(3)
    const resolved = actions.filter((a) => a.action.type === 'permission_resolved')
    expect(resolved).toHaveLength(3)
    expect(resolved.every((a) => a.sessionId === 'A' && a.action.type === 'permission_resolved' && a.action.status === 'cancelled')).toBe(true)
    // Audited: the three cancelled by the turn (no option), then the person's answer in B.
    expect(audit).toEqual([
      ...['c1', 'c2', 'c3'].map((id) => ({ at: 1000, sessionId: 'A', agentId: 'agent-a', requestId: expect.any(String), by: 'cancel', outcome: 'cancelled', title: `Edit ${id}`, note: 'The turn was cancelled.' })),
    ])
    broker.respond(broker.pending()[0]!.requestId, 'reject')
    expect(await b1).toEqual({ result: { outcome: { outcome: 'selected', optionId: 'reject' } } })
    expect(audit.at(-1)).toMatchObject({ sessionId: 'B', by: 'person', outcome: 'selected', option: { optionId: 'reject', kind: 'reject_once' } })
  })

  it('a request that comes after Stop, before the turn ended, is answered cancelled as the waiting ones were', async () => {
    // A flood of 1,000: the person pressed Stop while the agent's requests were still coming in; the agent waited for
    // answers to the late ones from a person who had already said stop.
    const { broker, connection, stopping } = setup()
    const before = connection.request(1, v1Request('A', 'c1'))
    stopping.add('A')
    expect(broker.cancelSession('A')).toBe(1)
    const late = connection.request(2, v1Request('A', 'c2'))
    const other = connection.request(3, v1Request('B', 'c3'))
    expect(await Promise.all([before, late])).toEqual([{ result: CANCELLED }, { result: CANCELLED }])
    expect(broker.pending().map((p) => p.sessionId)).toEqual(['B'])
    // The turn ended: the next turn's requests wait for the person again.
    stopping.delete('A')
    void connection.request(4, v1Request('A', 'c4'))
    expect(broker.pending().map((p) => p.sessionId)).toEqual(['B', 'A'])
    broker.closeSession('A')
    broker.respond(broker.pending()[0]!.requestId, null)
    await other
  })

  it('v2: a request after Stop waits while the agent reports background work (F14), else is answered cancelled', async () => {
    const { broker, connection, stopping, setBackground } = setup({ version: 2, background: [{ type: 'tool_call', toolCallId: 'bg' }] })
    const req = (id: number) => ({ sessionId: 'A', title: 'Approve?', subject: { type: 'tool_call', toolCall: { toolCallId: `t${id}` } }, options: standardOptions })
    stopping.add('A')
    void connection.request(1, req(1))
    expect(broker.pending()).toHaveLength(1)
    setBackground([])
    const late = connection.request(2, req(2))
    expect(await late).toEqual({ result: CANCELLED })
    expect(broker.pending()).toHaveLength(1)
  })

  it('two requests about the same tool call are answered independently (G8)', async () => {
    const { broker, connection } = setup()
    const first = connection.request(7, v1Request('A', 'same'))
    const second = connection.request('7', v1Request('A', 'same'))
    const [p1, p2] = broker.pending()
    expect(p1!.requestId).not.toBe(p2!.requestId)
    broker.respond(p2!.requestId, 'reject')
    broker.respond(p1!.requestId, 'allow')
    expect(await first).toEqual({ result: { outcome: { outcome: 'selected', optionId: 'allow' } } })
    expect(await second).toEqual({ result: { outcome: { outcome: 'selected', optionId: 'reject' } } })
  })

  it('v2 cancel preempts only when no background work is reported (F14)', async () => {
    const { broker, connection, setBackground } = setup({ version: 2, background: [{ type: 'tool_call', toolCallId: 'bg' }] })
    const req = (id: number) => ({ sessionId: 'A', title: 'Approve?', subject: { type: 'tool_call', toolCall: { toolCallId: `t${id}` } }, options: standardOptions })
    const foreground = connection.request(1, req(1))
    expect(broker.cancelSession('A')).toBe(0)
    expect(broker.pending()).toHaveLength(1)
    // The agent cancels the request of the cancelled foreground work itself.
    connection.cancelRequest(1)
    expect(await foreground).toEqual({ result: CANCELLED })
    setBackground([])
    const other = connection.request(2, req(2))
    expect(broker.cancelSession('A')).toBe(1)
    expect(await other).toEqual({ result: CANCELLED })
  })

  it('$/cancel_request answers cancelled and marks it withdrawn by the agent (B17)', async () => {
    const { broker, connection, actions } = setup()
    const answer = connection.request(5, v1Request('A'))
    connection.cancelRequest(5)
    expect(await answer).toEqual({ result: CANCELLED })
    expect(broker.pending()).toEqual([])
    expect(actions.at(-1)!.action).toMatchObject({ type: 'permission_resolved', status: 'cancelled', resolution: { by: 'agent-cancel' } })
    connection.cancelRequest(99)
    expect(connection.answers).toHaveLength(1)
  })

  it('agent death turns pending requests into gone and empties the inbox', async () => {
    const { broker, connection, actions, audit } = setup()
    const changes: PermissionRequestView[][] = []
    broker.onDidChangePending((list) => changes.push([...list]))
    const answer = connection.request(1, v1Request('A'))
    // Whole-list events are coalesced: they come a microtask later.
    await Promise.resolve()
    expect(changes.at(-1)).toHaveLength(1)
    connection.close()
    await answer
    expect(broker.pending()).toEqual([])
    expect(changes.at(-1)).toEqual([])
    expect(actions.at(-1)!.action).toMatchObject({ type: 'permission_resolved', status: 'gone', resolution: { by: 'agent-exit', note: 'The agent exited.' } })
    // The handler is unregistered: a late request is not answered by us.
    expect(connection.requestHandlers.size).toBe(0)
    expect(audit).toEqual([
      { at: 1000, sessionId: 'A', agentId: 'agent-a', requestId: expect.any(String), by: 'agent-exit', outcome: 'gone', title: 'Edit call-1', note: 'The agent exited.' },
    ])
  })

  it('a request gone because Bosun stopped the agent (the person restarted it, Bosun quit) says so, not that the agent exited', async () => {
    const { broker, connection, actions } = setup()
    const answer = connection.request(1, v1Request('A'))
    connection.close(new AgentExitedError(restartedMessage('Claude'), null, null, undefined, true))
    await answer
    expect(broker.pending()).toEqual([])
    expect(actions.at(-1)!.action).toMatchObject({ resolution: { by: 'agent-exit', note: 'You restarted Claude.' } })
    // The agent's own exit (or words of its own in an error) stay "The agent exited.".
    const again = setup()
    const other = again.connection.request(1, v1Request('A'))
    again.connection.close(new AgentExitedError(restartedMessage('Claude'), 1, null))
    await other
    expect(again.actions.at(-1)!.action).toMatchObject({ resolution: { by: 'agent-exit', note: 'The agent exited.' } })
  })

  it('detach(agentId) makes requests gone with the reason', async () => {
    const { broker, connection, actions, audit } = setup()
    const answer = connection.request(1, v1Request('A'))
    broker.detach('agent-a', 'The agent crashed (exit code 1).')
    await answer
    expect(actions.at(-1)!.action).toMatchObject({ status: 'gone', resolution: { note: 'The agent crashed (exit code 1).' } })
    expect(audit).toEqual([expect.objectContaining({ by: 'agent-exit', outcome: 'gone', note: 'The agent crashed (exit code 1).' })])
    expect(audit[0]).not.toHaveProperty('option')
  })

  it('unknown session → -32002 with data {sessionId} (G7)', async () => {
    const { connection, actions } = setup()
    expect(await connection.request(1, v1Request('nope'))).toEqual({ error: { code: -32002, message: 'Session not found: nope', data: { sessionId: 'nope' } } })
    expect(actions).toEqual([])
  })

  it('malformed params → -32602', async () => {
    const { connection } = setup()
    expect((await connection.request(1, { sessionId: 'A', options: 'x' })).error?.code).toBe(-32602)
  })

  it('a malformed request is told once per session, and again in a later session of that id once the first closed', async () => {
    const { broker, connection, actions } = setup()
    const notices = () => actions.filter((a) => a.action.type === 'updates').length
    await connection.request(1, { sessionId: 'A', options: 'x' })
    await connection.request(2, { sessionId: 'A', options: 'x' })
    expect(notices()).toBe(1)
    broker.closeSession('A')
    await connection.request(3, { sessionId: 'A', options: 'x' })
    expect(notices()).toBe(2)
  })

  it('empty options are answered cancelled at once (G6)', async () => {
    const { broker, connection, actions } = setup()
    expect(await connection.request(1, { sessionId: 'A', title: 'Nothing to choose', options: [] })).toEqual({ result: CANCELLED })
    expect(broker.pending()).toEqual([])
    expect(actions.map((a) => a.action.type)).toEqual(['permission_requested', 'permission_resolved'])
  })

  it('a request a rule answers reaches the window with its answer: nothing that decides it reads the session in between', async () => {
    // Reading a session (is it stopping?) sends what is queued for its window. Read between the request and its answer,
    // the request went alone and the window showed it waiting (Gemini CLI, "Allow for this session": a dialog flashed
    // for each command the rule then answered, taking the focus).
    const rules = new MemoryRules()
    const events: string[] = []
    const broker = new PermissionBroker({
      sink: (_sessionId, action) => void events.push(action.type),
      sessions: {
        getSession: () => ({ cwd: '/proj' }),
        lookupToolCall: () => undefined,
        getBackground: () => null,
        isStopping: () => (events.push('read'), false),
      },
      rules,
      now: () => 1000,
      newRuleId: () => 'rule-1',
    })
    const connection = new FakeConnection(1)
    broker.attach(connection, { agentId: 'agent-a', agentName: 'Agent A', protocolVersion: 1 })
    const first = connection.request(1, v1Request('A', 'c1'))
    broker.respond(broker.pending()[0]!.requestId, 'always')
    await first
    events.length = 0
    expect(await connection.request(2, v1Request('A', 'c2'))).toEqual({ result: { outcome: { outcome: 'selected', optionId: 'allow' } } })
    expect(events).toEqual(['read', 'permission_requested', 'permission_resolved'])
    broker.dispose()
  })

  it('choosing allow_always remembers a rule that answers the next match, not a near miss', async () => {
    const rules = new MemoryRules()
    const { broker, connection, actions, audit } = setup({ rules })
    const first = connection.request(1, v1Request('A', 'c1'))
    broker.respond(broker.pending()[0]!.requestId, 'always')
    await first
    await Promise.resolve()
    expect(rules.rules).toHaveLength(1)
    expect(rules.rules[0]).toMatchObject({ agentId: 'agent-a', cwd: '/proj', toolKind: 'edit', decision: 'allow_always', paths: [{ type: 'exact', value: '/proj/a.ts' }] })

    // Answered "once" by the rule: the agent takes no standing leave of its own from a request nobody saw.
    expect(await connection.request(2, v1Request('A', 'c2'))).toEqual({ result: { outcome: { outcome: 'selected', optionId: 'allow' } } })
    expect(actions.at(-1)!.action).toMatchObject({ type: 'permission_resolved', status: 'answered', resolution: { by: 'rule', optionKind: 'allow_once' } })
    expect((actions.at(-1)!.action as { resolution: { note: string } }).resolution.note).toBe(`“${rules.rules[0]!.label}”`)
    // Audited as decided by that rule, naming it.
    expect(audit).toHaveLength(2)
    expect(audit[0]).toMatchObject({ by: 'person', option: { optionId: 'always', kind: 'allow_always' } })
    expect(audit[0]).not.toHaveProperty('ruleId')
    expect(audit[1]).toEqual({
      at: 1000,
      sessionId: 'A',
      agentId: 'agent-a',
      requestId: expect.any(String),
      by: 'rule',
      outcome: 'selected',
      title: 'Edit c2',
      option: { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
      ruleId: 'rule-1',
      note: `“${rules.rules[0]!.label}”`,
    })

    // Near miss: another file.
    const near = connection.request(3, v1Request('A', 'c3', { locations: [{ path: '/proj/b.ts' }] }))
    expect(broker.pending()).toHaveLength(1)
    broker.respond(broker.pending()[0]!.requestId, 'reject')
    expect(await near).toEqual({ result: { outcome: { outcome: 'selected', optionId: 'reject' } } })

    // Same facts but no allow_always offered: ask.
    const noAlways = connection.request(4, { ...v1Request('A', 'c4'), options: standardOptions.filter((o) => o.kind !== 'allow_always') })
    expect(broker.pending()).toHaveLength(1)
    broker.respond(broker.pending()[0]!.requestId, null)
    await noAlways
  })

  it('two “always allow” options (Gemini CLI’s MCP tools): the one chosen is answered, no rule is kept, the dialog says so first', async () => {
    const rules = new MemoryRules()
    const { broker, connection } = setup({ rules })
    const mcpOptions = [
      { optionId: 'proceed_always_server', name: 'Allow all server tools for this session', kind: 'allow_always' },
      { optionId: 'proceed_always_tool', name: 'Allow tool for this session', kind: 'allow_always' },
      { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
      { optionId: 'cancel', name: 'Reject', kind: 'reject_once' },
    ]
    const request = (toolCallId: string) => ({
      sessionId: 'A',
      toolCall: { toolCallId, status: 'pending', title: 'search_issues (github MCP Server)', content: [], locations: [], kind: 'other' },
      options: mcpOptions,
    })
    const first = connection.request(1, request('mcp-1'))
    const [pending] = broker.pending()
    expect(pending!.rememberNote).toBe(
      'Bosun will not remember “Allow all server tools for this session” or “Allow tool for this session”: a rule could not tell which one you chose. It answers this request only (the agent may keep it for its session).',
    )
    expect(broker.remembers(pending!.requestId, 'proceed_always_tool')).toBe(false)
    broker.respond(pending!.requestId, 'proceed_always_tool')
    expect(await first).toEqual({ result: { outcome: { outcome: 'selected', optionId: 'proceed_always_tool' } } })
    await flushMicrotasks()
    expect(rules.rules).toEqual([])

    // The same request again is the person's to answer: never "all server tools" on their behalf.
    const second = connection.request(2, request('mcp-2'))
    expect(broker.pending()).toHaveLength(1)
    broker.respond(broker.pending()[0]!.requestId, null)
    await second
  })

  it('options that repeat an id (G5): shown with the note, answered with that id, never auto-approved', async () => {
    const { broker, connection } = setup({ version: 2 })
    broker.setAutoApprove('A', true)
    const answer = connection.request(1, {
      sessionId: 'A',
      title: 'Run?',
      subject: { type: 'tool_call', toolCall: { toolCallId: 't1', kind: 'execute' } },
      options: [
        { optionId: 'x', name: 'Allow', kind: 'allow_once' },
        { optionId: 'x', name: 'Reject', kind: 'reject_once' },
      ],
    })
    const [pending] = broker.pending()
    expect(pending!.options.map((o) => o.name)).toEqual(['Allow', 'Reject'])
    expect(pending!.rememberNote).toContain('whichever you choose, it hears the same')
    expect(broker.respond(pending!.requestId, 'x')).toEqual({ ok: true, value: undefined })
    expect(await answer).toEqual({ result: { outcome: { outcome: 'selected', optionId: 'x' } } })
  })

  it('auto-approve picks allow_once only, never unknown kinds or unknown subjects', async () => {
    const { broker, connection, actions, audit } = setup({ version: 2 })
    broker.setAutoApprove('A', true)
    expect(actions.at(-1)).toEqual({ sessionId: 'A', action: { type: 'set_auto_approve', value: true } })
    const toolSubject = { type: 'tool_call', toolCall: { toolCallId: 't1' } }
    expect(await connection.request(1, { sessionId: 'A', title: 'Edit?', subject: toolSubject, options: standardOptions })).toEqual({
      result: { outcome: { outcome: 'selected', optionId: 'allow' } },
    })
    expect(audit).toEqual([
      { at: 1000, sessionId: 'A', agentId: 'agent-a', requestId: expect.any(String), by: 'auto-approve', outcome: 'selected', title: 'Edit?', option: { optionId: 'allow', name: 'Allow', kind: 'allow_once' } },
    ])
    const unknownKinds = connection.request(2, {
      sessionId: 'A',
      title: 'Edit?',
      subject: toolSubject,
      options: [
        { optionId: 'x', name: 'Allow', kind: 'allow' },
        { optionId: 'y', name: 'Sandbox', kind: '_acme_sandbox' },
      ],
    })
    const unknownSubject = connection.request(3, { sessionId: 'A', title: 'Socket?', subject: { type: '_acme_net', host: 'h' }, options: standardOptions })
    expect(broker.pending()).toHaveLength(2)
    // Other sessions are unaffected by A's switch.
    const otherSession = connection.request(4, { sessionId: 'B', title: 'Edit?', subject: toolSubject, options: standardOptions })
    expect(broker.pending()).toHaveLength(3)
    broker.closeSession('A')
    broker.closeSession('B')
    expect(await Promise.all([unknownKinds, unknownSubject, otherSession])).toEqual([{ result: CANCELLED }, { result: CANCELLED }, { result: CANCELLED }])
    expect(broker.isAutoApprove('A')).toBe(false)
    // Nothing else was auto-approved: the closed session's requests are audited as cancelled.
    expect(audit.slice(1).map((r) => [(r as { by: string }).by, (r as { outcome: string }).outcome, (r as { note?: string }).note])).toEqual([
      ['cancel', 'cancelled', 'The session was closed.'],
      ['cancel', 'cancelled', 'The session was closed.'],
      ['cancel', 'cancelled', 'The session was closed.'],
    ])
  })

  it('views carry the arrival order, for ordering requests created in the same millisecond', () => {
    const { broker, connection } = setup()
    for (const id of [9, 10, 2]) void connection.request(id, v1Request('A', `c${id}`))
    expect(broker.pending().map((p) => [p.title, p.arrival])).toEqual([
      ['Edit c9', 1],
      ['Edit c10', 2],
      ['Edit c2', 3],
    ])
    broker.dispose()
  })

  it('uses the stored tool call title for an untitled v1 request', () => {
    const { broker, connection } = setup()
    void connection.request(1, { sessionId: 'A', toolCall: { toolCallId: 'known' }, options: standardOptions })
    expect(broker.pending()[0]!.title).toBe('Stored title')
    broker.dispose()
  })

  it('an “always” that cannot be saved still answers, and the person is told in the session that it is kept only until Bosun quits', async () => {
    const rules = Object.assign(new MemoryRules(), {
      add: async () => {
        throw new Error('/home/permission-rules.json is not a regular file; not replacing it')
      },
    })
    const { broker, connection, actions } = setup({ rules })
    const answer = connection.request(1, v1Request('A'))
    broker.respond(broker.pending()[0]!.requestId, 'always')
    expect(await answer).toEqual({ result: { outcome: { outcome: 'selected', optionId: 'always' } } })
    await flushMicrotasks()
    const notices = actions.flatMap(({ action }) => (action.type === 'updates' ? action.updates : [])).filter((u) => u.sessionUpdate === 'notice')
    expect(notices).toEqual([
      expect.objectContaining({ severity: 'warning', title: 'Bosun could not save this decision', description: expect.stringContaining('It applies until Bosun quits, then you will be asked again: /home/permission-rules.json is not a regular file') }),
    ])
    broker.dispose()
  })

  it('an “always” option that says it is for this session (claude-agent-acp’s “Yes, allow all edits during this session”) is kept for this session only', async () => {
    const rules = new MemoryRules()
    const { broker, connection } = setup({ rules })
    const sessionOptions = [
      { optionId: 'allow', name: 'Yes', kind: 'allow_once' },
      { optionId: 'session', name: 'Yes, allow all edits during this session', kind: 'allow_always' },
      { optionId: 'reject', name: 'No', kind: 'reject_once' },
    ]
    const request = (id: string, sessionId: string) => ({ ...v1Request(sessionId, id), options: sessionOptions })
    const first = connection.request(1, request('c1', 'A'))
    broker.respond(broker.pending()[0]!.requestId, 'session')
    expect(await first).toEqual({ result: { outcome: { outcome: 'selected', optionId: 'session' } } })
    await Promise.resolve()
    expect(rules.rules).toEqual([expect.objectContaining({ sessionId: 'A', decision: 'allow_always', paths: [{ type: 'exact', value: '/proj/a.ts' }] })])
    expect(rules.rules[0]!.label).toMatch(/this session only/)
    // The same file in that session: answered by the rule. In another session of the folder: asked.
    expect(await connection.request(2, request('c2', 'A'))).toEqual({ result: { outcome: { outcome: 'selected', optionId: 'allow' } } })
    const other = connection.request(3, request('c3', 'B'))
    expect(broker.pending()).toHaveLength(1)
    broker.respond(broker.pending()[0]!.requestId, 'allow')
    expect(await other).toEqual({ result: { outcome: { outcome: 'selected', optionId: 'allow' } } })
  })

  it('“always” on a vague request: the dialog is told first, the rule is kept for this session only and goes when it closes', async () => {
    const rules = new MemoryRules()
    const forgotten: string[] = []
    const source = Object.assign(rules, { forgetSession: (sessionId: string) => void forgotten.push(sessionId) })
    const { broker, connection } = setup({ rules: source })
    const vague = (id: string, sessionId = 'A') => ({ sessionId, toolCall: { toolCallId: id, kind: 'other' }, options: standardOptions })
    const first = connection.request(1, vague('t1'))
    const [pending] = broker.pending()
    expect(pending!.rememberNote).toMatch(/^“Always” will be remembered for this session only: Bosun cannot tell this tool apart/)
    broker.respond(pending!.requestId, 'always')
    expect(await first).toEqual({ result: { outcome: { outcome: 'selected', optionId: 'always' } } })
    expect(rules.rules).toEqual([expect.objectContaining({ sessionId: 'A', tool: { name: null, title: null }, toolKind: 'other' })])
    // Same session: answered by it. Another session: asked.
    expect(await connection.request(2, vague('t2'))).toEqual({ result: { outcome: { outcome: 'selected', optionId: 'allow' } } })
    const other = connection.request(3, vague('t3', 'B'))
    expect(broker.pending()).toHaveLength(1)
    broker.respond(broker.pending()[0]!.requestId, null)
    await other
    broker.closeSession('A')
    expect(forgotten).toEqual(['A'])
    // A request with a distinguishing fact carries no note; an unknown subject says “always” is not remembered at all.
    const named = connection.request(4, { sessionId: 'B', toolCall: { toolCallId: 'n', kind: 'other', title: 'Get issue' }, options: standardOptions })
    expect(broker.pending()[0]!.rememberNote).toBeUndefined()
    broker.respond(broker.pending()[0]!.requestId, null)
    await named
    const unknown = connection.request(5, { sessionId: 'B', subject: { type: '_x' }, options: standardOptions })
    expect(broker.pending()[0]!.rememberNote).toMatch(/will not be remembered/)
    broker.respond(broker.pending()[0]!.requestId, 'always')
    await unknown
    expect(rules.rules).toHaveLength(1)
  })

  it('dispose answers what is pending and unregisters the handler', async () => {
    const { broker, connection } = setup()
    const answer = connection.request(1, v1Request('A'))
    broker.dispose()
    expect(await answer).toEqual({ result: CANCELLED })
    expect(connection.requestHandlers.size).toBe(0)
  })
})

describe('PermissionBroker under a flood', () => {
  it('keeps at most the per-session cap pending, cancels the excess with one note, and coalesces list events', async () => {
    const { actions, sink } = recordingSink()
    const broker = new PermissionBroker({
      sink,
      sessions: { getSession: (_a, sessionId) => (['A', 'B'].includes(sessionId) ? { cwd: '/proj' } : undefined) },
      now: () => 1000,
      maxPendingPerSession: 5,
    })
    const connection = new FakeConnection(1)
    broker.attach(connection, { agentId: 'agent-a', agentName: 'Agent A', protocolVersion: 1 })
    let changes = 0
    broker.onDidChangePending(() => changes++)
    const answers = Array.from({ length: 200 }, (_, i) => connection.request(i, v1Request('A', `call-${i}`)))
    const other = connection.request(1000, v1Request('B', 'call-b'))
    // The excess is answered at once, without waiting for anyone.
    const excess = await Promise.all(answers.slice(5))
    expect(excess.every((a) => JSON.stringify(a) === JSON.stringify({ result: CANCELLED }))).toBe(true)
    expect(broker.pendingCount('A')).toBe(5)
    expect(broker.pendingCount('B')).toBe(1)
    expect(broker.pending().map((v) => v.toolCallId)).toEqual(['call-0', 'call-1', 'call-2', 'call-3', 'call-4', 'call-b'])
    const notes = actions.filter((a) => a.action.type === 'updates')
    expect(notes).toHaveLength(1)
    expect(notes[0]).toMatchObject({ sessionId: 'A', action: { updates: [{ sessionUpdate: 'notice', title: 'Agent A asked for too many permissions at once' }] } })
    expect(changes).toBeLessThanOrEqual(2)
    // Cancelling a session touches only its own requests.
    expect(broker.cancelSession('A')).toBe(5)
    await Promise.all(answers.slice(0, 5))
    expect(broker.pending().map((v) => v.toolCallId)).toEqual(['call-b'])
    broker.respond(broker.pending()[0]!.requestId, null)
    await other
  })

  it('keeps deep raw input bounded with a visible marker', async () => {
    const { actions, sink } = recordingSink()
    const broker = new PermissionBroker({ sink, sessions: { getSession: () => ({ cwd: '/proj' }) }, now: () => 1000 })
    const connection = new FakeConnection(1)
    broker.attach(connection, { agentId: 'agent-a', agentName: 'Agent A', protocolVersion: 1 })
    let deep: unknown = 'bottom'
    for (let i = 0; i < 6000; i++) deep = { d: deep }
    const answer = connection.request(1, v1Request('A', 'call-1', { rawInput: deep }))
    const requested = actions.find((a) => a.action.type === 'permission_requested')!
    const text = JSON.stringify(requested.action)
    expect(text).toContain('truncated by Bosun')
    expect(text.length).toBeLessThan(2000)
    broker.respond(broker.pending()[0]!.requestId, null)
    await answer
  })
})

