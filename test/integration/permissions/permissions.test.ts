/**
 * Permission requests against the scripted agent as a real child process (v1 and v2): the broker is
 * attached to a real AcpClientConnection; the agent reports the outcome it received as a text chunk
 * (`permission outcome: …`) or, for raw requests, the client's reply on stderr (`RAW-REPLY …`).
 */
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { Emitter, once } from '../../../main/base/event'
import { PermissionBroker } from '../../../main/permissions/broker'
import type { StoredToolCall } from '../../../main/permissions/normalize'
import type { PermissionRule } from '../../../main/permissions/rules'
import type { PermissionRequestView, SessionAction } from '../../../common/session/types'
import { killAll, startAgent, textPrompt, type AgentUnderTest } from '../acp/harness'

const scenario = fileURLToPath(new URL('./permissions.json', import.meta.url))

afterEach(async () => {
  await killAll()
})

/** Resolves when the agent's stderr satisfies `predicate` (event-driven, no polling). */
function stderrUntil(agent: AgentUnderTest, predicate: (stderr: string) => boolean): Promise<string> {
  return new Promise((resolve) => {
    const check = () => {
      if (!predicate(agent.stderr())) return false
      agent.child.stderr.off('data', onData)
      resolve(agent.stderr())
      return true
    }
    // Our listener runs after the harness's, which appends the chunk first.
    const onData = () => void check()
    agent.child.stderr.on('data', onData)
    check()
  })
}

const rawReplies = (stderr: string): { id: unknown; result?: { outcome: unknown }; error?: unknown }[] =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith('RAW-REPLY '))
    .map((l) => JSON.parse(l.slice('RAW-REPLY '.length)))

async function setup(v2: boolean, rules: PermissionRule[] = []) {
  const agent = startAgent(scenario, { v2 })
  const handshake = await agent.connection.initialize()
  const { sessionId } = await agent.connection.newSession({ cwd: '/tmp/proj' })
  const toolCalls = new Map<string, StoredToolCall>()
  agent.connection.onDidReceiveUpdate(({ update }) => {
    if ((update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') && typeof update.toolCallId === 'string') {
      const prev = toolCalls.get(update.toolCallId) ?? {}
      toolCalls.set(update.toolCallId, { ...prev, ...(typeof update.title === 'string' ? { title: update.title } : {}), ...(typeof update.kind === 'string' ? { toolKind: update.kind } : {}) })
    }
  })
  const actions: { sessionId: string; action: SessionAction }[] = []
  const ruleList = [...rules]
  const broker = new PermissionBroker({
    sink: (sid, action) => actions.push({ sessionId: sid, action }),
    sessions: {
      getSession: (agentId, sid) => (agentId === 'scripted' && sid === sessionId ? { cwd: '/tmp/proj' } : undefined),
      lookupToolCall: (_sid, id) => toolCalls.get(id),
      getBackground: () => null,
    },
    rules: { list: () => ruleList, add: async (rule) => void ruleList.push(rule) },
  })
  broker.attach(agent.connection, { agentId: 'scripted', agentName: 'Scripted', protocolVersion: handshake.protocolVersion })
  const requests = new Emitter<PermissionRequestView>()
  broker.onDidRequest((view) => requests.fire(view))
  const outcomes = () => agent.texts().filter((t) => t.startsWith('permission outcome: ')).map((t) => JSON.parse(t.slice('permission outcome: '.length)) as unknown)
  return { agent, sessionId, broker, actions, requests, outcomes, ruleList, version: handshake.protocolVersion }
}

describe.each([
  { name: 'v1', v2: false },
  { name: 'v2', v2: true },
])('permissions with the scripted $name agent', ({ v2 }) => {
  it('v1 request: prompt shown with the stored tool title, the choice reaches the agent', async () => {
    const t = await setup(v2)
    const asked = once(t.requests.event)
    const turn = t.agent.connection.prompt(t.sessionId, textPrompt('v1'))
    const view = await asked
    expect(view).toMatchObject({ sessionId: t.sessionId, title: 'Edit a.ts', subject: { type: 'tool_call', toolCallId: 'c1' }, agentName: 'Scripted' })
    expect(t.actions[0]!.action).toMatchObject({ type: 'permission_requested', toolCallPatch: { toolCallId: 'c1', status: 'pending' } })
    expect(t.broker.respond(view.requestId, 'allow').ok).toBe(true)
    await turn
    expect(t.outcomes()).toEqual([{ outcome: 'selected', optionId: 'allow' }])
  })

  it('v2 request: the prompt title stays out of the tool call', async () => {
    const t = await setup(v2)
    const asked = once(t.requests.event)
    const turn = t.agent.connection.prompt(t.sessionId, textPrompt('v2'))
    const view = await asked
    expect(view).toMatchObject({ title: 'Approve edit?', description: 'Allow the agent to edit a.ts?', toolCallId: 'c2' })
    expect(t.actions[0]!.action).toMatchObject({ toolCallPatch: { toolCallId: 'c2', title: 'Edit a.ts' } })
    t.broker.respond(view.requestId, 'reject')
    await turn
    expect(t.outcomes()).toEqual([{ outcome: 'selected', optionId: 'reject' }])
  })

  it('command subject is kept verbatim', async () => {
    const t = await setup(v2)
    const asked = once(t.requests.event)
    const turn = t.agent.connection.prompt(t.sessionId, textPrompt('command'))
    const view = await asked
    expect(view.subject).toEqual({ type: 'command', command: 'ls \u202e;rm -rf ~', cwd: '/tmp/proj', toolCallId: null, terminalId: null })
    t.broker.respond(view.requestId, null)
    await turn
    expect(t.outcomes()).toEqual([{ outcome: 'cancelled' }])
  })

  it('unknown subject and option kinds are kept and selectable', async () => {
    const t = await setup(v2)
    const asked = once(t.requests.event)
    const turn = t.agent.connection.prompt(t.sessionId, textPrompt('unknown'))
    const view = await asked
    expect(view.subject).toEqual({ type: 'unknown', raw: { type: '_acme_net', host: 'example.com' } })
    expect(view.options.map((o) => o.kind)).toEqual(['_acme_sandbox', 'allow'])
    t.broker.respond(view.requestId, 'sb')
    await turn
    expect(t.outcomes()).toEqual([{ outcome: 'selected', optionId: 'sb' }])
  })

  it('an unannounced tool call gets a prompt and a tool-call patch (G2)', async () => {
    const t = await setup(v2)
    const asked = once(t.requests.event)
    const turn = t.agent.connection.prompt(t.sessionId, textPrompt('unannounced'))
    const view = await asked
    expect(view.title).toBe('Permission requested')
    expect(t.actions[0]!.action).toMatchObject({ type: 'permission_requested', toolCallPatch: { toolCallId: 'never-seen', kind: 'edit' } })
    t.broker.respond(view.requestId, 'allow')
    await turn
    expect(t.outcomes()).toEqual([{ outcome: 'selected', optionId: 'allow' }])
  })

  it('empty options are answered cancelled; malformed options get -32602', async () => {
    const t = await setup(v2)
    await t.agent.connection.prompt(t.sessionId, textPrompt('empty'))
    expect(t.outcomes()).toEqual([{ outcome: 'cancelled' }])
    await t.agent.connection.prompt(t.sessionId, textPrompt('bad'))
    expect(t.agent.texts().at(-1)).toMatch(/permission outcome: .*-32602/)
  })

  it('a remembered rule answers the next match and not a near miss', async () => {
    const t = await setup(v2)
    let asked = once(t.requests.event)
    let turn = t.agent.connection.prompt(t.sessionId, textPrompt('rule-first'))
    t.broker.respond((await asked).requestId, 'always')
    await turn
    await Promise.resolve()
    expect(t.ruleList).toEqual([expect.objectContaining({ agentId: 'scripted', cwd: '/tmp/proj', toolKind: 'execute', command: { type: 'exact', value: 'rm -rf /tmp/x' } })])

    await t.agent.connection.prompt(t.sessionId, textPrompt('rule-again'))
    // Answered "once" by the rule: the agent takes no standing leave of its own from a request nobody saw.
    expect(t.outcomes().at(-1)).toEqual({ outcome: 'selected', optionId: 'allow' })
    expect(t.actions.at(-1)!.action).toMatchObject({ type: 'permission_resolved', resolution: { by: 'rule' } })

    asked = once(t.requests.event)
    turn = t.agent.connection.prompt(t.sessionId, textPrompt('rule-near'))
    const near = await asked
    expect(near.title).toBe('Run rm -rf /')
    t.broker.respond(near.requestId, 'reject')
    await turn
    expect(t.outcomes().at(-1)).toEqual({ outcome: 'selected', optionId: 'reject' })
  })
})

describe.each([
  { name: 'v1', v2: false },
  { name: 'v2', v2: true },
])('remembered rules keep the identity of what was approved, scripted $name agent', ({ v2 }) => {
  /** Sends `first` and answers "always", then checks which of the later prompts the rule answers. */
  async function remember(first: string, later: { prompt: string; byRule: boolean }[]) {
    const t = await setup(v2)
    const asked = once(t.requests.event)
    const turn = t.agent.connection.prompt(t.sessionId, textPrompt(first))
    t.broker.respond((await asked).requestId, 'always')
    await turn
    expect(t.ruleList).toHaveLength(1)
    for (const { prompt, byRule } of later) {
      const waiting = byRule ? null : once(t.requests.event)
      const next = t.agent.connection.prompt(t.sessionId, textPrompt(prompt))
      if (waiting) t.broker.respond((await waiting).requestId, 'reject')
      await next
      expect(t.outcomes().at(-1), prompt).toEqual({ outcome: 'selected', optionId: byRule ? 'allow' : 'reject' })
    }
    return t
  }

  it('an MCP tool: the rule answers that tool only, never every tool of kind `other`', async () => {
    const t = await remember('mcp-first', [
      { prompt: 'mcp-other', byRule: false },
      { prompt: 'mcp-again', byRule: true },
    ])
    expect(t.ruleList[0]).toMatchObject({ toolKind: 'other', tool: { name: 'mcp__github__get_issue', title: 'Get issue' } })
  })

  it('a fetch: the rule answers its origin only, never the cloud metadata address', async () => {
    const t = await remember('fetch-first', [
      { prompt: 'fetch-metadata', byRule: false },
      { prompt: 'fetch-again', byRule: true },
    ])
    expect(t.ruleList[0]).toMatchObject({ toolKind: 'fetch', origin: 'https://docs.example.com' })
  })
})

describe('cancellation and agent death (v1 scripted agent, raw concurrent requests)', () => {
  it('cancel with three pending answers each cancelled exactly once (F13)', async () => {
    const t = await setup(false)
    let seen = 0
    const allThree = new Promise<void>((resolve) => t.requests.event(() => ++seen === 3 && resolve()))
    const turn = t.agent.connection.prompt(t.sessionId, textPrompt('three'))
    await allThree
    expect(t.broker.pending().map((p) => p.title)).toEqual(['One', 'Two', 'Three'])
    t.agent.connection.cancel(t.sessionId)
    expect(t.broker.cancelSession(t.sessionId)).toBe(3)
    const stderr = await stderrUntil(t.agent, (s) => rawReplies(s).length >= 3)
    expect((await turn).stopReason).toBe('cancelled')
    const replies = rawReplies(stderr)
    expect(replies.map((r) => r.id).sort()).toEqual(['p1', 'p2', 'p3'])
    expect(replies.every((r) => JSON.stringify(r.result) === JSON.stringify({ outcome: { outcome: 'cancelled' } }))).toBe(true)
    expect(t.broker.cancelSession(t.sessionId)).toBe(0)
    expect(t.broker.pending()).toEqual([])
  })

  it('$/cancel_request from the agent answers cancelled once', async () => {
    const t = await setup(false)
    // Waits on the resolution, not the arrival: the cancel may even beat our handler (then it answers at once).
    const resolved = once(t.broker.onDidResolve)
    const turn = t.agent.connection.prompt(t.sessionId, textPrompt('withdraw'))
    const view = await resolved
    const stderr = await stderrUntil(t.agent, (s) => rawReplies(s).length >= 1)
    expect(rawReplies(stderr)).toEqual([{ jsonrpc: '2.0', id: 'q1', result: { outcome: { outcome: 'cancelled' } } }])
    expect(t.broker.pending()).toEqual([])
    expect(t.broker.respond(view.requestId, 'allow').ok).toBe(false)
    expect(t.actions.at(-1)!.action).toMatchObject({ type: 'permission_resolved', status: 'cancelled', resolution: { by: 'agent-cancel' } })
    t.agent.connection.cancel(t.sessionId)
    await turn
  })

  it('agent death with a pending request: gone, out of the inbox', async () => {
    const t = await setup(false)
    const asked = once(t.requests.event)
    const gone = once(t.broker.onDidResolve)
    const turn = t.agent.connection.prompt(t.sessionId, textPrompt('death')).catch((error: unknown) => error)
    const view = await asked
    expect(t.broker.pending()).toHaveLength(1)
    const resolved = await gone
    expect(resolved).toMatchObject({ requestId: view.requestId, status: 'gone', resolution: { by: 'agent-exit' } })
    expect(t.broker.pending()).toEqual([])
    expect(await turn).toBeInstanceOf(Error)
  })
})

describe('“Allow for this session” on a command Bosun sees only as a title (Gemini CLI’s run_shell_command, as captured)', () => {
  it('is kept for the session for that title only: another command is asked, not run unasked', async () => {
    const t = await setup(false)
    const asked = once(t.requests.event)
    const first = t.agent.connection.prompt(t.sessionId, textPrompt('gemini-shell'))
    const view = await asked
    expect(view.rememberNote).toMatch(/answers only requests with this same title/)
    t.broker.respond(view.requestId, 'proceed_always')
    await first
    expect(t.ruleList).toEqual([expect.objectContaining({ sessionId: t.sessionId, command: null, tool: { name: null, title: `python3 -c "open('touched.txt', 'w').write('x')"` } })])
    expect(t.ruleList[0]!.label).toMatch(/^Always allow commands titled “python3 -c .*” \(Bosun could not see the command itself\)/)

    // The same title again: answered by the session's rule.
    await t.agent.connection.prompt(t.sessionId, textPrompt('gemini-shell'))
    expect(t.outcomes().at(-1)).toEqual({ outcome: 'selected', optionId: 'proceed_once' })
    expect(t.actions.at(-1)!.action).toMatchObject({ type: 'permission_resolved', resolution: { by: 'rule' } })

    // Another command: the person's again (the rule used to answer every command of the session).
    const other = once(t.requests.event)
    const third = t.agent.connection.prompt(t.sessionId, textPrompt('gemini-shell-other'))
    expect((await other).title).toBe('touch made-by-agent.txt && echo made a file')
    t.broker.respond(t.broker.pending()[0]!.requestId, 'cancel')
    await third
    expect(t.outcomes().at(-1)).toEqual({ outcome: 'selected', optionId: 'cancel' })
  })
})
