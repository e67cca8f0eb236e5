import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { once } from '../../../main/base/event'
import { AgentExitedError, BosunError, RpcError } from '../../../main/base/errors'
import { HandlerError } from '../../../main/acp/types'
import { killAll, startAgent, textPrompt } from './harness'

afterEach(async () => {
  await killAll()
})

describe.each([
  { name: 'v1', v2: false },
  { name: 'v2', v2: true },
])('ACP connection against the scripted $name agent', ({ v2 }) => {
  const version = v2 ? 2 : 1

  it('runs a full turn: initialize → new → prompt → updates → stopReason', async () => {
    const agent = startAgent('basic', { v2 })
    const handshake = await agent.connection.initialize()
    expect(handshake.protocolVersion).toBe(version)
    expect(handshake.offeredVersion).toBe(2)
    expect(handshake.agentInfo).toEqual({ name: 'scripted', title: 'Scripted agent', version: '1.0.0' })
    const session = await agent.connection.newSession({ cwd: '/tmp' })
    expect(session.sessionId).toBe('sess-1')
    const outcome = await agent.connection.prompt(session.sessionId, textPrompt('hello'))
    expect(outcome.stopReason).toBe('end_turn')
    const kinds = agent.updates.map((u) => u.update.sessionUpdate).filter((kind) => kind !== 'state_update' && kind !== 'user_message')
    if (v2) {
      expect(kinds).toEqual(['agent_thought_chunk', 'agent_message_chunk', 'agent_message_chunk', 'agent_message_chunk', 'plan_update', 'tool_call_update', 'tool_call_update', 'agent_message_chunk'])
      expect(outcome.userMessageId).toMatch(/^user-/)
    } else {
      expect(kinds).toEqual(['available_commands_update', 'agent_thought_chunk', 'agent_message_chunk', 'agent_message_chunk', 'agent_message_chunk', 'plan', 'tool_call', 'tool_call_update', 'agent_message_chunk'])
    }
    expect(agent.texts()).toEqual(['', 'Hello', ', world', 'Done.'])
    // The turn's updates all arrived before prompt() resolved.
    const second = await agent.connection.prompt(session.sessionId, textPrompt('refuse'))
    expect(second.stopReason).toBe('refusal')
    expect(agent.problems).toEqual([])
  })

  it('cancels mid-turn: stopReason cancelled', async () => {
    const agent = startAgent('basic', { v2 })
    await agent.connection.initialize()
    const { sessionId } = await agent.connection.newSession({ cwd: '/tmp' })
    const working = once(agent.connection.onDidReceiveUpdate, (u) => u.update.sessionUpdate === 'agent_message_chunk')
    const turn = agent.connection.prompt(sessionId, textPrompt('slow'))
    await working
    agent.connection.cancel(sessionId)
    expect((await turn).stopReason).toBe('cancelled')
    // The connection is still usable afterwards.
    expect((await agent.connection.prompt(sessionId, textPrompt('refuse'))).stopReason).toBe('refusal')
  })

  it('rejects the pending prompt with AgentExitedError when the agent crashes mid-turn', async () => {
    const agent = startAgent('basic', { v2 })
    await agent.connection.initialize()
    const { sessionId } = await agent.connection.newSession({ cwd: '/tmp' })
    const closed = once(agent.connection.onDidClose)
    const error = await agent.connection.prompt(sessionId, textPrompt('crash')).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(AgentExitedError)
    expect((error as AgentExitedError).exitCode).toBe(3)
    expect((error as AgentExitedError).failure.stderrTail).toContain('fatal: out of cheese')
    await closed
    await expect(agent.connection.newSession({ cwd: '/tmp' })).rejects.toBeInstanceOf(AgentExitedError)
  })

  it('survives garbage, escape-prefixed and oversized lines, reports them, and the next turn works', async () => {
    const agent = startAgent('wire', { v2, maxMessageBytes: 512 })
    await agent.connection.initialize()
    const { sessionId } = await agent.connection.newSession({ cwd: '/tmp' })
    expect((await agent.connection.prompt(sessionId, textPrompt('garbage'))).stopReason).toBe('end_turn')
    expect(agent.problems.map((p) => p.kind)).toEqual(['non-json-line', 'oversized-line', 'invalid-message'])
    expect(agent.problems[0]!.preview).toBe('Welcome to devshell!')
    expect(agent.texts()).toEqual(['after escape', 'still alive'])
    expect((await agent.connection.prompt(sessionId, textPrompt('next'))).stopReason).toBe('end_turn')
    expect(agent.texts()).toEqual(['after escape', 'still alive', 'echo: next'])
  })

  it('over-long lines: an answer fails the request it answers, a request is answered -32600, and the session goes on', async () => {
    const scenario = join(mkdtempSync(join(tmpdir(), 'bosun-oversized-')), 'oversized.json')
    writeFileSync(scenario, JSON.stringify({
      session: { list: [{ sessionId: 'old', title: 'T'.repeat(4000) }] },
      prompts: {
        'big-request': [{ type: 'raw_line', json: { jsonrpc: '2.0', id: 'big', method: '_bosun/echo', params: { pad: 'x'.repeat(4000) } }, replyIds: ['big'], awaitReply: true }],
      },
    }))
    try {
      const agent = startAgent(scenario, { v2, maxMessageBytes: 1024 })
      await agent.connection.initialize()
      const error = await agent.connection.listSessions!({ cwd: '/tmp' }).then(() => undefined, (e: unknown) => e)
      expect(error).toBeInstanceOf(RpcError)
      expect((error as RpcError).message).toMatch(/^The agent's answer to session\/list was too large to read/)
      const { sessionId } = await agent.connection.newSession({ cwd: '/tmp' })
      expect((await agent.connection.prompt(sessionId, textPrompt('big-request'))).stopReason).toBe('end_turn')
      const reply = JSON.parse(agent.texts()[0]!.replace('raw reply: ', ''))
      expect(reply).toMatchObject({ jsonrpc: '2.0', id: 'big', error: { code: -32600, message: expect.stringMatching(/^Invalid Request: message too large/) } })
      expect(agent.problems.map((p) => p.kind)).toEqual(['oversized-line', 'oversized-line'])
    } finally {
      rmSync(dirname(scenario), { recursive: true, force: true })
    }
  })

  it('answers an unknown agent method with -32601', async () => {
    const agent = startAgent('wire', { v2 })
    await agent.connection.initialize()
    const { sessionId } = await agent.connection.newSession({ cwd: '/tmp' })
    await agent.connection.prompt(sessionId, textPrompt('unknown-method'))
    const reply = JSON.parse(agent.texts()[0]!.replace('raw reply: ', ''))
    expect(reply).toMatchObject({ jsonrpc: '2.0', id: 'u1', error: { code: -32601 } })
  })

  it('echoes request ids with their JSON type ("abc", "7" and 7)', async () => {
    const agent = startAgent('wire', { v2 })
    agent.connection.handlers.registerRequest('_bosun/echo', (params, context) => ({ params, id: context.requestId }))
    await agent.connection.initialize()
    const { sessionId } = await agent.connection.newSession({ cwd: '/tmp' })
    await agent.connection.prompt(sessionId, textPrompt('string-id'))
    const replies = agent.texts().map((t) => JSON.parse(t.replace('raw reply: ', '')))
    expect(replies).toEqual([
      { jsonrpc: '2.0', id: 'abc', result: { params: { n: 1 }, id: 'abc' } },
      { jsonrpc: '2.0', id: '7', result: { params: { n: 2 }, id: '7' } },
      { jsonrpc: '2.0', id: 7, result: { params: { n: 3 }, id: 7 } },
    ])
  })

  it('answers a batch with exactly one -32600 (id null) and does not process its entries', async () => {
    const agent = startAgent('wire', { v2 })
    await agent.connection.initialize()
    const { sessionId } = await agent.connection.newSession({ cwd: '/tmp' })
    await agent.connection.prompt(sessionId, textPrompt('batch'))
    expect(agent.texts()).toHaveLength(1)
    expect(JSON.parse(agent.texts()[0]!.replace('raw reply: ', ''))).toMatchObject({ id: null, error: { code: -32600, message: 'JSON-RPC batches are not supported' } })
    expect((await agent.stderrMatching(/RAW-REPLY/)).match(/RAW-REPLY/g)).toHaveLength(1)
    expect(agent.problems.map((p) => p.kind)).toEqual(['batch-rejected'])
  })

  it('answers a non-object JSON value (42) with -32600', async () => {
    const agent = startAgent('wire', { v2 })
    await agent.connection.initialize()
    const { sessionId } = await agent.connection.newSession({ cwd: '/tmp' })
    await agent.connection.prompt(sessionId, textPrompt('not-object'))
    expect(JSON.parse(agent.texts()[0]!.replace('raw reply: ', ''))).toMatchObject({ id: null, error: { code: -32600 } })
  })

  it('aborts a handler on $/cancel_request and sends its one answer; unknown ids are ignored', async () => {
    const agent = startAgent('wire', { v2 })
    agent.connection.handlers.registerRequest(
      '_bosun/wait',
      (_params, context) =>
        new Promise((resolve) => context.signal.addEventListener('abort', () => resolve({ outcome: { outcome: 'cancelled' } }))),
    )
    await agent.connection.initialize()
    const { sessionId } = await agent.connection.newSession({ cwd: '/tmp' })
    await agent.connection.prompt(sessionId, textPrompt('cancel-request'))
    expect(agent.texts()).toEqual([`raw reply: {"jsonrpc":"2.0","id":"perm-x","result":{"outcome":{"outcome":"cancelled"}}}`, 'after cancel'])
    expect((await agent.stderrMatching(/RAW-REPLY/)).match(/RAW-REPLY/g)).toHaveLength(1)
  })

  it('maps a HandlerError to its code and any other throw to -32603', async () => {
    const agent = startAgent('wire', { v2 })
    agent.connection.handlers.registerRequest('_bosun/throw', () => {
      throw new Error('bug in handler')
    })
    agent.connection.handlers.registerRequest('_bosun/invalid', () => {
      throw new HandlerError(-32602, 'path is required')
    })
    await agent.connection.initialize()
    const { sessionId } = await agent.connection.newSession({ cwd: '/tmp' })
    await agent.connection.prompt(sessionId, textPrompt('throwing-handler'))
    const replies = agent.texts().map((t) => JSON.parse(t.replace('raw reply: ', '')))
    expect(replies[0]).toMatchObject({ id: 1, error: { code: -32603 } })
    expect(replies[1]).toMatchObject({ id: 2, error: { code: -32602, message: 'path is required' } })
    expect(agent.problems.map((p) => p.kind)).toEqual(['handler-crashed'])
  })

  it('routes session/request_permission to the registered handler and the agent sees the outcome', async () => {
    const agent = startAgent('wire', { v2 })
    const seen: unknown[] = []
    agent.connection.handlers.registerRequest('session/request_permission', (params, context) => {
      seen.push({ params, version: context.protocolVersion })
      return { outcome: { outcome: 'selected', optionId: 'allow' } }
    })
    await agent.connection.initialize()
    const { sessionId } = await agent.connection.newSession({ cwd: '/tmp' })
    await agent.connection.prompt(sessionId, textPrompt(v2 ? 'permission-v2' : 'permission-v1'))
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({ version, params: { sessionId } })
    const [report, done] = agent.texts()
    expect(JSON.parse(report!.replace('permission outcome: ', ''))).toEqual({ outcome: 'selected', optionId: 'allow' })
    expect(done).toBe('done')
  })

  it('authenticates after -32000 and then creates the session', async () => {
    const agent = startAgent(v2 ? 'auth-v2' : 'auth-v1', { v2 })
    const handshake = await agent.connection.initialize()
    expect(handshake.authMethods.map((m) => [m.id, m.type])).toEqual(
      v2 ? [['login', 'agent'], ['term', 'terminal'], ['odd', '_acme']] : [['login', 'agent'], ['term', 'terminal']],
    )
    expect(handshake.authMethods[1]!.env).toEqual({ X: '1' })
    expect(handshake.authMethods[1]!.args).toEqual(['--login'])
    expect(handshake.capabilities.prompt.image).toBe(true)
    expect(handshake.capabilities.logout).toBe(true)
    const error = await agent.connection.newSession({ cwd: '/tmp' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RpcError)
    expect((error as RpcError).code).toBe(-32000)
    expect((error as RpcError).kind).toBe('auth-required')
    await agent.connection.authenticate('login')
    expect((await agent.connection.newSession({ cwd: '/tmp' })).sessionId).toBe('sess-1')
    await agent.connection.logout()
  })
})

describe('version negotiation', () => {
  it('a v1 agent answers 1 to our v2 offer: v1 surface, offeredVersion 2', async () => {
    const agent = startAgent('basic')
    const handshake = await agent.connection.initialize()
    expect(handshake).toMatchObject({ protocolVersion: 1, offeredVersion: 2 })
    expect(await agent.stderrMatching(/"protocolVersion":2/)).toContain('"protocolVersion":2')
  })

  it('offers 1 when asked to (the host restarted the agent after a 1 answer)', async () => {
    const agent = startAgent('basic')
    const handshake = await agent.connection.initialize({ preferredVersion: 1 })
    expect(handshake).toMatchObject({ protocolVersion: 1, offeredVersion: 1 })
    expect(await agent.stderrMatching(/"clientInfo"/)).toContain('"clientInfo":{"name":"bosun-test","version":"0.0.0"}')
    // v1 session/new always carries mcpServers.
    await agent.connection.newSession({ cwd: '/tmp' })
    expect(await agent.stderrMatching(/SESSION-NEW/)).toContain('SESSION-NEW {"cwd":"/tmp","mcpServers":[]}')
  })

  it('an agent that rejects 2 with -32600 is retried with 1 on the same connection', async () => {
    const agent = startAgent('reject-v2')
    const handshake = await agent.connection.initialize()
    expect(handshake).toMatchObject({ protocolVersion: 1, offeredVersion: 1 })
    expect((await agent.connection.newSession({ cwd: '/tmp' })).sessionId).toBe('sess-1')
  })

  it('an agent answering 3 is refused with a clear error', async () => {
    const agent = startAgent('answer-3')
    const error = await agent.connection.initialize().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BosunError)
    expect((error as BosunError).kind).toBe('unsupported-protocol-version')
    expect((error as BosunError).message).toMatch(/version 3/)
    expect(agent.connection.handshake).toBeUndefined()
  })

  it('a v2 agent refuses an offer of 1 with -32022: offered 2 on the same connection, it runs on the v2 surface', async () => {
    const agent = startAgent('basic', { v2: true })
    const handshake = await agent.connection.initialize({ preferredVersion: 1 })
    expect(handshake).toMatchObject({ protocolVersion: 2, offeredVersion: 2 })
    // The SDK agent logs only the initialize it accepted: the v2 shape.
    const stderr = await agent.stderrMatching(/INITIALIZE/)
    expect(stderr).toContain('INITIALIZE {"protocolVersion":2,"info":{"name":"bosun-test","version":"0.0.0"}')
    const { sessionId } = await agent.connection.newSession({ cwd: '/tmp' })
    expect((await agent.connection.prompt(sessionId, textPrompt('hello'))).stopReason).toBe('end_turn')
  })
})

describe('scripted agent behaviours', () => {
  it.each([false, true])('delivers a flood of chunks in order (v2=%s)', async (v2) => {
    const agent = startAgent('wire', { v2 })
    await agent.connection.initialize()
    const { sessionId } = await agent.connection.newSession({ cwd: '/tmp' })
    expect((await agent.connection.prompt(sessionId, textPrompt('flood'))).stopReason).toBe('end_turn')
    const texts = agent.texts()
    expect(texts).toHaveLength(3001)
    expect(texts.slice(0, 3000)).toEqual(Array.from({ length: 3000 }, (_, i) => `${i} `))
    expect(texts[3000]).toBe('end of flood')
  })

  it.each([false, true])('routes elicitation/create and passes unknown update kinds through (v2=%s)', async (v2) => {
    const agent = startAgent('wire', { v2 })
    agent.connection.handlers.registerRequest('elicitation/create', (params) => {
      expect(params).toMatchObject({ mode: 'form', message: 'Which database?' })
      return { action: 'accept', content: { db: 'postgres' } }
    })
    // A v1 agent sees the elicitation capability only in a v1 offer (C10b).
    await agent.connection.initialize({ preferredVersion: v2 ? 2 : 1 })
    const { sessionId } = await agent.connection.newSession({ cwd: '/tmp' })
    await agent.connection.prompt(sessionId, textPrompt('elicitation'))
    expect(JSON.parse(agent.texts()[0]!.replace('elicitation response: ', ''))).toEqual({ action: 'accept', content: { db: 'postgres' } })
    await agent.connection.prompt(sessionId, textPrompt('unknown-update'))
    expect(agent.updates.find((u) => u.update.sessionUpdate === '_acme_sparkles')?.update).toEqual({ sessionUpdate: '_acme_sparkles', level: 11 })
  })

  it('v2: updates for a new session may arrive before the session/new response', async () => {
    const agent = startAgent('early-updates', { v2: true })
    await agent.connection.initialize()
    const order: string[] = []
    agent.connection.onDidReceiveUpdate((u) => order.push(`${u.sessionId}:${String(u.update.state)}`))
    const session = await agent.connection.newSession({ cwd: '/tmp' })
    order.push('response')
    expect(order).toEqual(['sess-1:running', 'sess-1:idle', 'response'])
    expect(session.configOptions).toHaveLength(1)
    expect(await agent.connection.setConfigOption('sess-1', 'model', 'smart')).toEqual([expect.objectContaining({ configId: 'model', currentValue: 'smart' })])
    const sent = JSON.parse(/SET-CONFIG (.*)/.exec(await agent.stderrMatching(/SET-CONFIG .*\n/))![1]!)
    expect(sent).toEqual({ sessionId: 'sess-1', configId: 'model', type: 'id', value: 'smart' })
  })

  it('an agent that exits at start rejects initialize with its exit code and stderr', async () => {
    const agent = startAgent('exit-at-start')
    const error = await agent.connection.initialize().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AgentExitedError)
    expect((error as AgentExitedError).exitCode).toBe(7)
    expect((error as AgentExitedError).failure.stderrTail).toContain('missing API key')
  })

  it('crash with a grandchild: the grandchild outlives the agent and is in its process group', async () => {
    const agent = startAgent('wire', { detached: true })
    await agent.connection.initialize()
    const { sessionId } = await agent.connection.newSession({ cwd: '/tmp' })
    await expect(agent.connection.prompt(sessionId, textPrompt('orphan'))).rejects.toBeInstanceOf(AgentExitedError)
    const pid = Number(/GRANDCHILD (\d+)/.exec(await agent.stderrMatching(/GRANDCHILD \d+\n/))?.[1])
    expect(pid).toBeGreaterThan(0)
    expect(() => process.kill(pid, 0)).not.toThrow()
    const gone = waitForPidGone(pid)
    process.kill(-agent.child.pid!, 'SIGKILL')
    await gone
  })
})

/** Polls: a grandchild re-parented to init emits no event we could await. A zombie counts as gone. */
async function waitForPidGone(pid: number): Promise<void> {
  for (;;) {
    let stat: string
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    } catch {
      return
    }
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return
    await new Promise((resolve) => setImmediate(resolve))
  }
}

describe('basic scenario prompts for e2e', () => {
  it.each([false, true])('"permission" sends the version-specific request shape (v2=%s)', async (v2) => {
    const agent = startAgent('basic', { v2 })
    const requests: Record<string, unknown>[] = []
    agent.connection.handlers.registerRequest('session/request_permission', (params) => {
      requests.push(params as Record<string, unknown>)
      return { outcome: { outcome: 'cancelled' } }
    })
    await agent.connection.initialize()
    const { sessionId } = await agent.connection.newSession({ cwd: '/tmp' })
    await agent.connection.prompt(sessionId, textPrompt('permission'))
    expect(requests).toHaveLength(1)
    if (v2) expect(requests[0]).toMatchObject({ sessionId, title: 'Run npm test?', subject: { type: 'tool_call', toolCall: { toolCallId: 'call-perm' } } })
    else expect(requests[0]).toMatchObject({ sessionId, toolCall: { toolCallId: 'call-perm' } })
    expect(agent.texts()).toEqual(['permission outcome: {"outcome":"cancelled"}', 'Tests ran.'])
  })
})
