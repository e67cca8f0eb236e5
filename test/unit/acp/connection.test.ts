import { describe, expect, it } from 'vitest'
import { MAX_SESSION_ID_CHARS, type AcpConnectionOptions } from '../../../main/acp/connection'
import type { AcpClientConnection } from '../../../main/acp/types'
import { AgentExitedError, BosunError, RpcError } from '../../../main/base/errors'
import { once } from '../../../main/base/event'

import { acpPeer, type Json } from '../../support/acp-peer'

/** An in-memory peer: reads what the client writes, writes what a test scripts. */
const pair = (options: Partial<AcpConnectionOptions> = {}) => acpPeer({ elicitation: { form: true }, ...options })

async function initialized(version: 1 | 2, result: Json = {}, offered?: 1 | 2, options: Partial<AcpConnectionOptions> = {}) {
  const peer = pair(options)
  const done = peer.connection.initialize(offered ? { preferredVersion: offered } : undefined)
  const request = await peer.next()
  peer.send({ id: request.id, result: { protocolVersion: version, ...(version === 2 ? { info: { name: 'a', version: '1' }, capabilities: { session: {} } } : {}), ...result } })
  await done
  return { ...peer, initializeRequest: request }
}

/** The connection's whenOutputRead (the real connection always has it). */
const outputReadOf = (connection: AcpClientConnection) => connection.whenOutputRead?.() ?? Promise.reject(new Error('no whenOutputRead'))
const update = (sessionId: string, body: Json) => ({ method: 'session/update', params: { sessionId, update: body } })

describe('initialize', () => {
  it('offers v2 with info and honest capabilities (elicitation only)', async () => {
    const { initializeRequest } = await initialized(2)
    expect(initializeRequest).toMatchObject({ method: 'initialize', params: { protocolVersion: 2, info: { name: 'bosun', version: '1.2.3' }, capabilities: { elicitation: { form: {} } } } })
    expect((initializeRequest.params as Json).capabilities).toEqual({ elicitation: { form: {} } })
  })

  it('reads a bare v1 result with everything optional off, ignoring unknown and malformed keys', async () => {
    const { connection } = await initialized(1, {
      agentCapabilities: { loadSession: 'yes', promptCapabilities: 7, mcpCapabilities: { http: true }, sessionCapabilities: { fork: {}, list: {} } },
      capabilities: { session: {} },
      authMethods: [{ id: 'a', name: 'A', type: 'env_var' }, { id: 3 }, null],
    })
    const handshake = connection.handshake!
    expect(handshake.capabilities).toMatchObject({ loadSession: false, listSessions: true, resumeSession: false, prompt: { image: false }, mcp: { stdio: true, http: true, sse: false } })
    expect(handshake.authMethods.map((m) => [m.id, m.type])).toEqual([['a', 'env_var']])
    expect(handshake.agentInfo).toBeNull()
  })

  it('retries with v1 once after -32022 and reports offeredVersion 1', async () => {
    const peer = pair()
    const done = peer.connection.initialize()
    const first = await peer.next()
    peer.send({ id: first.id, error: { code: -32022, message: 'unsupported', data: { requested: 2, supported: [1] } } })
    const second = await peer.next()
    expect(second.params).toMatchObject({ protocolVersion: 1, clientInfo: { name: 'bosun' }, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false, elicitation: { form: {} } } })
    peer.send({ id: second.id, result: { protocolVersion: 1 } })
    expect(await done).toMatchObject({ protocolVersion: 1, offeredVersion: 1 })
  })

  it('offered 1, a v2 agent refuses with -32022: offers 2 in the v2 shape on the same connection and goes on in v2', async () => {
    const peer = pair()
    const done = peer.connection.initialize({ preferredVersion: 1 })
    const first = await peer.next()
    expect(first.params).toMatchObject({ protocolVersion: 1, clientInfo: { name: 'bosun' } })
    peer.send({ id: first.id, error: { code: -32022, message: 'Unsupported protocol version', data: { requested: 1, supported: [2] } } })
    const second = await peer.next()
    expect(second).toMatchObject({ method: 'initialize' })
    expect(second.params).toEqual({ protocolVersion: 2, info: { name: 'bosun', version: '1.2.3' }, capabilities: { elicitation: { form: {} } } })
    peer.send({ id: second.id, result: { protocolVersion: 2, info: { name: 'v2-only', version: '1' }, capabilities: { session: {} } } })
    expect(await done).toMatchObject({ protocolVersion: 2, offeredVersion: 2, agentInfo: { name: 'v2-only' } })
    // The v2 surface: the session/new without mcpServers.
    void peer.connection.newSession({ cwd: '/p' })
    expect(await peer.next()).toMatchObject({ method: 'session/new', params: { cwd: '/p' } })
  })

  it('offered 1, an error whose data says the agent supports 2 is retried with 2; -32022 naming only versions Bosun lacks is refused clearly', async () => {
    const peer = pair()
    const done = peer.connection.initialize({ preferredVersion: 1 })
    const first = await peer.next()
    peer.send({ id: first.id, error: { code: -32600, message: 'bad version', data: { supported: [2] } } })
    const second = await peer.next()
    expect(second.params).toMatchObject({ protocolVersion: 2, info: { name: 'bosun' } })
    peer.send({ id: second.id, result: { protocolVersion: 2, info: { name: 'a', version: '1' } } })
    expect(await done).toMatchObject({ protocolVersion: 2, offeredVersion: 2 })

    const other = pair()
    const refused = other.connection.initialize({ preferredVersion: 1 })
    const request = await other.next()
    other.send({ id: request.id, error: { code: -32022, message: 'Unsupported protocol version', data: { requested: 1, supported: [3] } } })
    const error = await refused.then(() => undefined, (e: unknown) => e)
    expect(error).toBeInstanceOf(BosunError)
    expect(error).toMatchObject({ kind: 'unsupported-protocol-version', message: 'The agent speaks protocol versions [3]; Bosun speaks versions 1 and 2.' })
    expect(other.connection.handshake).toBeUndefined()
  })

  it('offered 1, an agent that answers 2 is initialized again in the v2 shape before anything else, and that answer counts (C10, L)', async () => {
    const peer = pair()
    const done = peer.connection.initialize({ preferredVersion: 1 })
    const first = await peer.next()
    peer.send({ id: first.id, result: { protocolVersion: 2, info: { name: 'first', version: '1' }, capabilities: {} } })
    const second = await peer.next()
    expect(second).toMatchObject({ method: 'initialize', params: { protocolVersion: 2, info: { name: 'bosun', version: '1.2.3' }, capabilities: { elicitation: { form: {} } } } })
    expect(second.params).not.toHaveProperty('clientCapabilities')
    peer.send({ id: second.id, result: { protocolVersion: 2, info: { name: 'second', version: '2' }, capabilities: { session: { delete: {} } } } })
    const handshake = await done
    expect(handshake).toMatchObject({ protocolVersion: 2, offeredVersion: 2, agentInfo: { name: 'second' }, capabilities: { deleteSession: true } })
  })

  it('offered 1, answered 2, the repeat refused: goes on in v2 with the first answer', async () => {
    const peer = pair()
    const done = peer.connection.initialize({ preferredVersion: 1 })
    const first = await peer.next()
    peer.send({ id: first.id, result: { protocolVersion: 2, info: { name: 'first', version: '1' }, capabilities: { session: {} } } })
    const second = await peer.next()
    peer.send({ id: second.id, error: { code: -32600, message: 'initialize must not be repeated' } })
    expect(await done).toMatchObject({ protocolVersion: 2, offeredVersion: 1, agentInfo: { name: 'first' } })
  })

  it('v2 without capabilities.session: session calls are refused with a clear error and nothing is sent (C7); v1 always has sessions', async () => {
    // A login method: logout is what goes out after the refused calls (v2: it exists iff authMethods is non-empty).
    const peer = await initialized(2, { capabilities: {}, authMethods: [{ methodId: 'm', name: 'M', type: 'agent' }] })
    expect(peer.connection.handshake!.capabilities.sessions).toBe(false)
    const calls: [string, () => Promise<unknown>][] = [
      ['session/new', () => peer.connection.newSession({ cwd: '/p' })],
      ['session/prompt', () => peer.connection.prompt('s', [{ type: 'text', text: 'hi' }])],
      ['session/resume', () => peer.connection.resumeSession({ sessionId: 's', cwd: '/p' })],
      ['session/list', () => peer.connection.listSessions!({})],
      ['session/close', () => peer.connection.closeSession!('s')],
      ['session/set_config_option', () => peer.connection.setConfigOption('s', 'model', 'fast')],
      ['terminal/cancel', () => peer.connection.cancelTerminal!('s', 't')],
      ['tool_call/cancel', () => peer.connection.cancelToolCall!('s', 't')],
    ]
    for (const [method, call] of calls) {
      const error = await call().then(() => undefined, (e: unknown) => e)
      expect(error).toBeInstanceOf(BosunError)
      expect((error as BosunError).failure).toEqual({ kind: 'unsupported', message: `This agent offers no sessions: its answer to initialize has no session capabilities, so Bosun sends it no ${method}.` })
    }
    peer.connection.cancel('s')
    // The next thing on the wire is what comes after: nothing was written for any of them.
    void peer.connection.logout().catch(() => undefined)
    expect(await peer.next()).toMatchObject({ method: 'auth/logout' })

    expect((await initialized(2)).connection.handshake!.capabilities.sessions).toBe(true)
    expect((await initialized(1)).connection.handshake!.capabilities.sessions).toBe(true)
  })

  it('sends no login for a method the agent did not offer, and no logout it does not support: v2 without authMethods has neither (D2, D4, D5)', async () => {
    const v2 = await initialized(2)
    for (const call of [() => v2.connection.authenticate('m'), () => v2.connection.logout()]) {
      expect(await call().then(() => undefined, (e: unknown) => e)).toBeInstanceOf(BosunError)
    }
    const v1 = await initialized(1, { authMethods: [{ id: 'a', name: 'A' }] })
    const unknown = await v1.connection.authenticate('b').then(() => undefined, (e: unknown) => e)
    expect(unknown).toMatchObject({ kind: 'invalid-argument', message: 'The agent did not offer the sign-in method b, so Bosun does not send it to authenticate.' })
    expect(await v1.connection.logout().then(() => undefined, (e: unknown) => e)).toMatchObject({ kind: 'unsupported' })
    // Nothing was written for any of them: the next thing on the wire is the login it offered.
    void v2.connection.newSession({ cwd: '/p' })
    expect(await v2.next()).toMatchObject({ method: 'session/new' })
    void v1.connection.authenticate('a')
    expect(await v1.next()).toMatchObject({ method: 'authenticate', params: { methodId: 'a' } })
  })

  it('v2: a login method without a type is kept as an unknown kind and never sent to auth/login, nor is a terminal one (D2, D5); v1 reads no type as agent', async () => {
    const peer = await initialized(2, {
      authMethods: [
        { methodId: 'plain', name: 'Plain' },
        { methodId: 'term', name: 'Terminal', type: 'terminal', args: ['--login'] },
        { methodId: 'login', name: 'Login', type: 'agent' },
      ],
    })
    expect(peer.connection.handshake!.authMethods.map((m) => [m.id, m.type])).toEqual([['plain', 'unknown'], ['term', 'terminal'], ['login', 'agent']])
    for (const methodId of ['plain', 'term']) {
      const error = await peer.connection.authenticate(methodId).then(() => undefined, (e: unknown) => e)
      expect(error).toBeInstanceOf(BosunError)
      expect(error).toMatchObject({ kind: 'invalid-argument', message: expect.stringMatching(/is not a sign-in the agent runs itself .*so Bosun does not send it to auth\/login\.$/) })
    }
    void peer.connection.authenticate('login')
    // Nothing was written for the other two.
    expect(await peer.next()).toMatchObject({ method: 'auth/login', params: { methodId: 'login' } })

    const v1 = await initialized(1, { authMethods: [{ id: 'x', name: 'X' }] })
    expect(v1.connection.handshake!.authMethods.map((m) => m.type)).toEqual(['agent'])
  })

  it('does not retry on other errors', async () => {
    const peer = pair()
    const done = peer.connection.initialize()
    const first = await peer.next()
    peer.send({ id: first.id, error: { code: -32603, message: 'boom' } })
    await expect(done).rejects.toBeInstanceOf(RpcError)
  })
})

describe('-32000 (auth required, B10)', () => {
  it.each([1, 2] as const)('v%s: is auth-required from an agent that listed auth methods, an rpc-error with its message and data from one that listed none', async (version) => {
    const refuse = async (authMethods: Json[], signInByKeys?: () => boolean) => {
      const peer = await initialized(version, { authMethods }, undefined, signInByKeys ? { signInByKeys } : {})
      const made = peer.connection.newSession({ cwd: '/p' })
      const request = await peer.next()
      peer.send({ id: request.id, error: { code: -32000, message: 'Authentication required', data: { details: 'run acme login' } } })
      return (await made.then(() => undefined, (e: unknown) => e)) as RpcError
    }
    const withMethods = await refuse([version === 2 ? { methodId: 'login', name: 'Log in', type: 'agent' } : { id: 'login', name: 'Log in' }])
    expect(withMethods).toBeInstanceOf(RpcError)
    expect(withMethods.failure).toMatchObject({ kind: 'auth-required', code: -32000, message: 'Authentication required' })
    const without = await refuse([])
    expect(without).toBeInstanceOf(RpcError)
    expect(without.failure).toEqual({ kind: 'rpc-error', code: -32000, message: 'Authentication required', data: { details: 'run acme login' } })
    // No auth methods, but the agent's definition names keys Bosun can ask for (its sign-in dialog does): a sign-in.
    expect((await refuse([], () => true)).failure).toMatchObject({ kind: 'auth-required', code: -32000 })
    expect((await refuse([], () => false)).failure).toMatchObject({ kind: 'rpc-error', code: -32000 })
  })

  it('from a v2 agent whose only methods have no type (none Bosun runs): an rpc-error, unless its definition names keys', async () => {
    const refuse = async (options: { signInByKeys?: () => boolean } = {}) => {
      const peer = await initialized(2, { authMethods: [{ methodId: 'sso', name: 'Company SSO' }] }, undefined, options)
      const made = peer.connection.newSession({ cwd: '/p' })
      const request = await peer.next()
      peer.send({ id: request.id, error: { code: -32000, message: 'Authentication required' } })
      return (await made.then(() => undefined, (e: unknown) => e)) as RpcError
    }
    expect((await refuse()).failure).toMatchObject({ kind: 'rpc-error', code: -32000 })
    expect((await refuse({ signInByKeys: () => true })).failure).toMatchObject({ kind: 'auth-required', code: -32000 })
  })

  it('asks `runsAuthMethod` which methods Bosun can run: a -32000 offers sign-in only when one of them can be', async () => {
    const refuse = async (runs: (type: string) => boolean) => {
      const authMethods = [
        { methodId: 'oauth', name: 'Browser', type: 'oauth-device' },
        { methodId: 'login', name: 'Log in', type: 'agent' },
      ]
      const peer = await initialized(2, { authMethods }, undefined, { runsAuthMethod: (m) => runs(m.type) })
      const made = peer.connection.newSession({ cwd: '/p' })
      const request = await peer.next()
      peer.send({ id: request.id, error: { code: -32000, message: 'Authentication required' } })
      return ((await made.then(() => undefined, (e: unknown) => e)) as RpcError).failure.kind
    }
    expect(await refuse((type) => type === 'agent')).toBe('auth-required')
    expect(await refuse(() => false)).toBe('rpc-error')
  })
})

describe('v2 turns', () => {
  it('ends at the idle state_update, not at the ack; repeated idles are idempotent', async () => {
    const { connection, next, send } = await initialized(2)
    let finished = false
    const turn = connection.prompt('s1', [{ type: 'text', text: 'hi' }]).then((o) => ((finished = true), o))
    const request = await next()
    send(update('s1', { sessionUpdate: 'state_update', state: 'running' }))
    send({ id: request.id, result: { messageId: 'm1' } })
    const chunk = once(connection.onDidReceiveUpdate, (u) => u.update.sessionUpdate === 'agent_message_chunk')
    send(update('s1', { sessionUpdate: 'agent_message_chunk', messageId: 'a1', content: { type: 'text', text: 'x' } }))
    await chunk
    expect(finished).toBe(false)
    send(update('s1', { sessionUpdate: 'state_update', state: 'idle', stopReason: 'error', error: { code: 5, message: 'model overloaded' } }))
    send(update('s1', { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' }))
    expect(await turn).toEqual({ stopReason: 'error', error: { code: 5, message: 'model overloaded' }, userMessageId: 'm1' })
  })

  it('accepts {} as the ack and an idle that arrives before the ack (after running)', async () => {
    const { connection, next, send } = await initialized(2)
    const turn = connection.prompt('s1', [{ type: 'text', text: 'hi' }])
    const request = await next()
    send(update('s1', { sessionUpdate: 'state_update', state: 'running' }))
    send(update('s1', { sessionUpdate: 'state_update', state: 'idle' }))
    send({ id: request.id, result: {} })
    expect(await turn).toEqual({ stopReason: null })
  })

  it('an idle that was on its way before the agent took the prompt (then running, then the ack) does not end the turn (F7, F9)', async () => {
    const { connection, next, send } = await initialized(2)
    let finished = false
    const turn = connection.prompt('s1', [{ type: 'text', text: 'hi' }]).then((o) => ((finished = true), o))
    const request = await next()
    send(update('s1', { sessionUpdate: 'state_update', state: 'idle', background: [] }))
    send(update('s1', { sessionUpdate: 'state_update', state: 'running' }))
    send({ id: request.id, result: { messageId: 'u1' } })
    const chunk = once(connection.onDidReceiveUpdate, (u) => u.update.sessionUpdate === 'agent_message_chunk')
    send(update('s1', { sessionUpdate: 'agent_message_chunk', messageId: 'a1', content: { type: 'text', text: 'x' } }))
    await chunk
    expect(finished).toBe(false)
    send(update('s1', { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' }))
    expect(await turn).toEqual({ stopReason: 'end_turn', userMessageId: 'u1' })
  })

  it('the stale idle never reaches listeners (the session stays working): they see running, then the turn\'s own idle', async () => {
    const { connection, next, send } = await initialized(2)
    const states: unknown[] = []
    connection.onDidReceiveUpdate((u) => {
      if (u.update.sessionUpdate === 'state_update') states.push(u.update.stopReason ? `${String(u.update.state)}:${String(u.update.stopReason)}` : u.update.state)
    })
    const turn = connection.prompt('s1', [{ type: 'text', text: 'hi' }])
    const request = await next()
    send(update('s1', { sessionUpdate: 'state_update', state: 'idle', background: [] }))
    send(update('s1', { sessionUpdate: 'state_update', state: 'running' }))
    send({ id: request.id, result: { messageId: 'u1' } })
    send(update('s1', { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' }))
    await turn
    expect(states).toEqual(['running', 'idle:end_turn'])
  })

  it('an agent that reports no busy state at all: its idle before the ack still ends the turn, and reaches listeners', async () => {
    const { connection, next, send } = await initialized(2)
    const seen: unknown[] = []
    connection.onDidReceiveUpdate((u) => seen.push(u.update))
    const turn = connection.prompt('s1', [{ type: 'text', text: 'hi' }])
    const request = await next()
    send(update('s1', { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' }))
    send({ id: request.id, result: {} })
    expect(await turn).toEqual({ stopReason: 'end_turn' })
    expect(seen).toEqual([{ sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' }])
  })

  it('tells the caller the messageId the prompt was inserted as when the answer comes, before the idle held back until then (F6)', async () => {
    const { connection, next, send } = await initialized(2)
    const heard: string[] = []
    connection.onDidReceiveUpdate((u) => heard.push(`update ${String(u.update.state)}`))
    const turn = connection.prompt('s1', [{ type: 'text', text: 'hi' }], { onInserted: (messageId) => heard.push(`inserted ${messageId}`) })
    const request = await next()
    send(update('s1', { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' }))
    send({ id: request.id, result: { messageId: 'u7' } })
    await turn
    expect(heard).toEqual(['inserted u7', 'update idle'])
  })

  it('an idle held before the ack reaches listeners when the agent rejects the prompt (its state after all)', async () => {
    const { connection, next, send } = await initialized(2)
    const seen: unknown[] = []
    connection.onDidReceiveUpdate((u) => seen.push(u.update))
    const turn = connection.prompt('s1', [{ type: 'text', text: 'hi' }])
    const request = await next()
    send(update('s1', { sessionUpdate: 'state_update', state: 'idle' }))
    send({ id: request.id, error: { code: -32602, message: 'Prompt too long' } })
    await expect(turn).rejects.toBeInstanceOf(RpcError)
    expect(seen).toEqual([{ sessionUpdate: 'state_update', state: 'idle' }])
  })

  it('resolves cancelled when the agent rejects the prompt after our cancel (F5)', async () => {
    const { connection, next, send } = await initialized(2)
    const turn = connection.prompt('s1', [{ type: 'text', text: 'hi' }])
    const request = await next()
    connection.cancel('s1')
    expect(await next()).toEqual({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's1' } })
    send({ id: request.id, error: { code: -32800, message: 'cancelled' } })
    expect(await turn).toEqual({ stopReason: 'cancelled' })
  })

  it('v1 session/set_model: exactly {sessionId, modelId}; the models of session/new are read', async () => {
    const { connection, next, send } = await initialized(1)
    const created = connection.newSession({ cwd: '/p' })
    const newRequest = await next()
    const models = { currentModelId: 'pro', availableModels: [{ modelId: 'pro', name: 'Pro' }] }
    send({ id: newRequest.id, result: { sessionId: 's1', models } })
    expect((await created).models).toEqual(models)
    const set = connection.setModel!('s1', 'pro')
    const request = await next()
    expect(request).toMatchObject({ method: 'session/set_model', params: { sessionId: 's1', modelId: 'pro' } })
    send({ id: request.id, result: {} })
    await set
  })

  it('sends v2 shapes for config options and resume, and refuses set_mode and set_model', async () => {
    const { connection, next, send } = await initialized(2, { authMethods: [{ methodId: 'm', name: 'M', type: 'agent' }] })
    const set = connection.setConfigOption('s1', 'model', 'fast')
    const request = await next()
    expect(request.params).toEqual({ sessionId: 's1', configId: 'model', type: 'id', value: 'fast' })
    send({ id: request.id, result: { configOptions: [{ configId: 'model' }] } })
    expect(await set).toEqual([{ configId: 'model' }])
    const resume = connection.resumeSession({ sessionId: 's1', cwd: '/p', replay: true })
    const resumeRequest = await next()
    expect(resumeRequest).toMatchObject({ method: 'session/resume', params: { sessionId: 's1', cwd: '/p', replayFrom: { type: 'start' } } })
    send({ id: resumeRequest.id, result: {} })
    expect((await resume).sessionId).toBe('s1')
    await expect(connection.setMode('s1', 'code')).rejects.toBeInstanceOf(BosunError)
    // Nor has v2 the unstable session models API (its model is a config option).
    await expect(connection.setModel!('s1', 'fast')).rejects.toBeInstanceOf(BosunError)
    const login = connection.authenticate('m')
    const loginRequest = await next()
    expect(loginRequest).toMatchObject({ method: 'auth/login', params: { methodId: 'm' } })
    send({ id: loginRequest.id, result: {} })
    await login
  })

  type Cancel = (connection: AcpClientConnection, sessionId: string, id: string) => Promise<void>
  it.each<[string, string, Cancel]>([
    ['terminal/cancel', 'terminalId', (c, sessionId, id) => c.cancelTerminal!(sessionId, id)],
    ['tool_call/cancel', 'toolCallId', (c, sessionId, id) => c.cancelToolCall!(sessionId, id)],
  ])("%s: exactly {sessionId, %s} on v2; the agent's -32602 is an RpcError; v1 refuses without sending", async (method, key, cancelOf) => {
    const { connection, next, send } = await initialized(2)
    const cancel = cancelOf(connection, 's1', 'id-7')
    const request = await next()
    expect(request).toMatchObject({ method })
    expect(request.params).toEqual({ sessionId: 's1', [key]: 'id-7' })
    send({ id: request.id, result: {} })
    await cancel
    const refused = cancelOf(connection, 's1', 'gone')
    const second = await next()
    send({ id: second.id, error: { code: -32602, message: 'not cancellable' } })
    await expect(refused).rejects.toMatchObject({ code: -32602 })
    const v1 = await initialized(1)
    await expect(cancelOf(v1.connection, 's1', 'id-7')).rejects.toMatchObject({ kind: 'invalid-argument' })
    v1.send({ id: 'probe', method: '_probe', params: {} })
    // The next thing v1's agent reads is the answer to its probe: no cancel went out before it.
    expect(await v1.next()).toMatchObject({ id: 'probe', error: { code: -32601 } })
  })
})

describe('session/delete (E10)', () => {
  it.each([1, 2] as const)('v%s: sends {sessionId}; -32002 (already gone) resolves, any other error rejects', async (version) => {
    const { connection, next, send } = await initialized(version)
    const first = connection.deleteSession!('s1')
    const request = await next()
    expect(request).toMatchObject({ method: 'session/delete', params: { sessionId: 's1' } })
    send({ id: request.id, result: {} })
    await first
    const again = connection.deleteSession!('s1')
    send({ id: (await next()).id, error: { code: -32002, message: 'Session not found', data: { sessionId: 's1' } } })
    await expect(again).resolves.toBeUndefined()
    const refused = connection.deleteSession!('s2')
    send({ id: (await next()).id, error: { code: -32603, message: 'disk full' } })
    await expect(refused).rejects.toMatchObject({ code: -32603, message: 'disk full' })
  })
})

describe('v1 surface', () => {
  it('ends the turn at the prompt response and maps F5', async () => {
    const { connection, next, send } = await initialized(1)
    const turn = connection.prompt('s1', [{ type: 'text', text: 'hi' }])
    const request = await next()
    send({ id: request.id, result: { stopReason: 'max_tokens' } })
    expect(await turn).toEqual({ stopReason: 'max_tokens' })
    const second = connection.prompt('s1', [{ type: 'text', text: 'again' }])
    const secondRequest = await next()
    connection.cancel('s1')
    await next()
    send({ id: secondRequest.id, error: { code: -32603, message: 'oops' } })
    expect(await second).toEqual({ stopReason: 'cancelled' })
  })

  it('sends v1 shapes: mcpServers on session/new, select/boolean config values, session/load', async () => {
    // Offered v1: its clientCapabilities advertised session.configOptions.boolean, so boolean values may go out (E13).
    const { connection, next, send, initializeRequest } = await initialized(1, { agentCapabilities: { loadSession: true } }, 1)
    expect(initializeRequest.params).toMatchObject({ clientCapabilities: { session: { configOptions: { boolean: {} } } } })
    const created = connection.newSession({ cwd: '/p' })
    const newRequest = await next()
    expect(newRequest.params).toEqual({ cwd: '/p', mcpServers: [] })
    send({ id: newRequest.id, result: { sessionId: 's1', modes: { currentModeId: 'a', availableModes: [] } } })
    expect(await created).toMatchObject({ sessionId: 's1', modes: { currentModeId: 'a' } })
    void connection.setConfigOption('s1', 'model', 'fast')
    expect((await next()).params).toEqual({ sessionId: 's1', configId: 'model', value: 'fast' })
    void connection.setConfigOption('s1', 'web', true)
    expect((await next()).params).toEqual({ sessionId: 's1', configId: 'web', type: 'boolean', value: true })
    const load = connection.resumeSession({ sessionId: 's1', cwd: '/p' })
    const loadRequest = await next()
    expect(loadRequest).toMatchObject({ method: 'session/load', params: { sessionId: 's1', cwd: '/p', mcpServers: [] } })
    send({ id: loadRequest.id, result: null })
    expect((await load).sessionId).toBe('s1')
  })
})

describe('robustness', () => {
  it('a request too large to send fails as a value with the reason, nothing is sent, no promise is left rejected unhandled, and the connection goes on', async () => {
    const { connection, next, send, problems } = await initialized(1, {}, undefined, { maxQueuedBytes: 4096 })
    const created = connection.newSession({ cwd: '/w' })
    const newRequest = await next()
    send({ id: newRequest.id, result: { sessionId: 's1' } })
    await created
    // vscode-jsonrpc rethrows a failed request write from a promise nobody awaits: the browser host (plain Node) would exit.
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', onUnhandled)
    try {
      const error = await connection.prompt('s1', [{ type: 'text', text: 'x'.repeat(10_000) }]).then(() => undefined, (e: unknown) => e)
      expect(error).toBeInstanceOf(RpcError)
      expect((error as RpcError).message).toMatch(/^The message is too large to send to the agent \(10 KiB; at most 4 KiB\)/)
      await new Promise((resolve) => setImmediate(resolve))
      expect(unhandled).toEqual([])
    } finally {
      process.off('unhandledRejection', onUnhandled)
    }
    const prompted = connection.prompt('s1', [{ type: 'text', text: 'small' }])
    const promptRequest = await next()
    expect(promptRequest).toMatchObject({ method: 'session/prompt', params: { sessionId: 's1', prompt: [{ type: 'text', text: 'small' }] } })
    send({ id: promptRequest.id, result: { stopReason: 'end_turn' } })
    await expect(prompted).resolves.toMatchObject({ stopReason: 'end_turn' })
    expect(problems.filter((p) => p.kind === 'unresponsive')).toEqual([])
  })

  it('an over-long answer fails the request it answers with a clear error, an over-long agent request is answered -32600, and the connection goes on (A9)', async () => {
    const peer = await initialized(2, {}, undefined, { maxMessageBytes: 256 })
    const listing = peer.connection.listSessions!({})
    const request = await peer.next()
    peer.send({ id: request.id, result: { sessions: [{ sessionId: 's', cwd: '/', title: 'x'.repeat(1000) }] } })
    const error = await listing.then(() => undefined, (e: unknown) => e)
    expect(error).toBeInstanceOf(RpcError)
    expect((error as RpcError).message).toMatch(/^The agent's answer to session\/list was too large to read \(\d+ bytes; Bosun reads lines of at most 256 bytes\)$/)

    peer.send({ id: 'big', method: 'fs/write_text_file', params: { sessionId: 's', path: '/x', content: 'y'.repeat(1000) } })
    expect(await peer.next()).toMatchObject({ id: 'big', error: { code: -32600, message: expect.stringMatching(/message too large/) } })
    expect(peer.problems.map((p) => p.kind)).toEqual(['oversized-line', 'oversized-line'])

    const again = peer.connection.listSessions!({})
    peer.send({ id: (await peer.next()).id, result: { sessions: [] } })
    expect(await again).toEqual({ sessions: [], nextCursor: null })
  })

  it('reports malformed session/update and unknown response ids without throwing', async () => {
    const { connection, send, problems } = await initialized(1)
    const good = once(connection.onDidReceiveUpdate)
    send({ method: 'session/update', params: { sessionId: 3, update: {} } })
    send({ method: 'session/update', params: { sessionId: 's', update: { content: 1 } } })
    send({ id: 4242, result: {} })
    send(update('s', { sessionUpdate: '_acme_new_kind', x: 1 }))
    expect((await good).update).toEqual({ sessionUpdate: '_acme_new_kind', x: 1 })
    expect(problems.map((p) => p.kind)).toEqual(['invalid-message', 'invalid-message', 'unknown-response-id'])
  })

  it('ignores a session/update whose sessionId is longer than any real one (it would key what Bosun keeps)', async () => {
    const { connection, send, problems } = await initialized(1)
    const seen: string[] = []
    connection.onDidReceiveUpdate((u) => seen.push(u.sessionId))
    const good = once(connection.onDidReceiveUpdate, (u) => u.sessionId === 's')
    send(update('x'.repeat(MAX_SESSION_ID_CHARS + 1), { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'a' } }))
    send(update('y'.repeat(MAX_SESSION_ID_CHARS), { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'b' } }))
    send(update('s', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'c' } }))
    await good
    expect(seen.map((id) => id.length)).toEqual([MAX_SESSION_ID_CHARS, 1])
    expect(problems).toEqual([expect.objectContaining({ kind: 'invalid-message', message: expect.stringContaining('longer than 1024 characters') })])
  })

  it('close(error) rejects every pending request with that error, aborts incoming signals, fires onDidClose once', async () => {
    const { connection, next, send } = await initialized(1)
    let signal: AbortSignal | undefined
    const handlerStarted = new Promise<void>((resolve) =>
      connection.handlers.registerRequest('session/request_permission', (_params, context) => {
        signal = context.signal
        resolve()
        return new Promise(() => {})
      }),
    )
    send({ id: 'p1', method: 'session/request_permission', params: {} })
    await handlerStarted
    const closes: unknown[] = []
    connection.onDidClose((e) => closes.push(e))
    const pendingNew = connection.newSession({ cwd: '/p' })
    const pendingPrompt = connection.prompt('s', [])
    await next()
    const error = new AgentExitedError('gone', 1, null)
    connection.close(error)
    connection.close(new Error('second'))
    await expect(pendingNew).rejects.toBe(error)
    await expect(pendingPrompt).rejects.toBe(error)
    expect(signal?.aborted).toBe(true)
    expect(closes).toEqual([{ error }])
    await expect(connection.newSession({ cwd: '/p' })).rejects.toBe(error)
  })

  it('fires onDidClose when the agent output ends; later calls fail as values, cancel is a no-op', async () => {
    const { connection, next, end } = await initialized(1)
    const inFlight = connection.newSession({ cwd: '/p' })
    await next()
    const closed = once(connection.onDidClose)
    end()
    expect(await closed).toEqual({})
    await expect(connection.newSession({ cwd: '/p' })).rejects.toMatchObject({ kind: 'agent-not-running' })
    await expect(connection.prompt('s', [])).rejects.toMatchObject({ kind: 'agent-not-running' })
    expect(() => connection.cancel('s')).not.toThrow()
    // What was in flight waits for the owner's typed reason.
    const error = new AgentExitedError('exited', 0, null)
    connection.close(error)
    await expect(inFlight).rejects.toBe(error)
  })

  it('whenOutputRead: once the output ended and every message read from it is handled (an answer behind queued requests too); at once when closed', async () => {
    const { connection, next, sendTogether, end } = await initialized(1)
    const created = connection.newSession({ cwd: '/p' })
    const request = await next()
    const outputRead = outputReadOf(connection)
    // Requests Bosun does not serve, queued one per turn ahead of the answer; the output ends in the same turn.
    sendTogether(...[1, 2, 3].map((id) => ({ id: 900 + id, method: '_x/ask', params: {} })), { id: request.id, result: { sessionId: 's1' } })
    end()
    await outputRead
    // Already answered: the race takes the settled promise first.
    expect(await Promise.race([created, Promise.resolve('not answered yet')])).toMatchObject({ sessionId: 's1' })

    const other = await initialized(1)
    const closed = outputReadOf(other.connection)
    other.connection.close()
    await closed
  })

  it('v2: an idle that follows the ack on the wire (without running) ends the turn', async () => {
    const { connection, next, send } = await initialized(2)
    const turn = connection.prompt('s1', [{ type: 'text', text: 'hi' }])
    const request = await next()
    send({ id: request.id, result: { messageId: 'm9' } })
    send(update('s1', { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' }))
    expect(await turn).toEqual({ stopReason: 'end_turn', userMessageId: 'm9' })
  })

  it('keeps id spaces per direction: our request 0 and the agent\'s request 0 are both answered (B5)', async () => {
    const peer = pair()
    peer.connection.handlers.registerRequest('_acme/ask', () => ({ mine: true }))
    const init = peer.connection.initialize()
    const request = await peer.next()
    expect(request.id).toBe(0)
    peer.send({ id: 0, method: '_acme/ask', params: {} })
    expect(await peer.next()).toEqual({ jsonrpc: '2.0', id: 0, result: { mine: true } })
    peer.send({ id: 0, result: { protocolVersion: 1 } })
    expect((await init).protocolVersion).toBe(1)
  })

  it('answers requests 7 and "7" that arrive in one chunk, each under its own id and id type (B3)', async () => {
    const peer = await initialized(2)
    peer.connection.handlers.registerRequest('_acme/echo', (params, context) => ({ params, id: context.requestId }))
    peer.sendTogether({ id: 7, method: '_acme/echo', params: { n: 1 } }, { id: '7', method: '_acme/echo', params: { n: 2 } })
    expect([await peer.next(), await peer.next()]).toEqual([
      { jsonrpc: '2.0', id: 7, result: { params: { n: 1 }, id: 7 } },
      { jsonrpc: '2.0', id: '7', result: { params: { n: 2 }, id: '7' } },
    ])
  })

  it('a request Bosun withdraws (a login the person cancelled) is over at once: no longer pending, settled for what was scoped to it; the answer that comes later is taken quietly', async () => {
    const peer = await initialized(2, { authMethods: [{ methodId: 'browser', name: 'Browser', type: 'agent' }] })
    const settled: unknown[] = []
    peer.connection.onDidSettleRequest((id) => settled.push(id))
    const abort = new AbortController()
    const login = peer.connection.authenticate('browser', undefined, abort.signal)
    login.catch(() => undefined)
    const request = await peer.next()
    expect(peer.connection.isRequestPending(request.id as number)).toBe(true)
    abort.abort()
    expect(await peer.next()).toEqual({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: request.id } })
    await expect(login).rejects.toMatchObject({ kind: 'cancelled' })
    // A form the agent asked under this login (request scope, G12) has nothing left to ask for.
    expect(peer.connection.isRequestPending(request.id as number)).toBe(false)
    expect(settled).toEqual([request.id])
    peer.send({ id: request.id, error: { code: -32800, message: 'Request cancelled' } })
    await new Promise((resolve) => setImmediate(resolve))
    expect(peer.problems).toEqual([])
  })

  it('$/cancel_request names one of 7 and "7" by its id and type, and only that handler is aborted', async () => {
    const peer = await initialized(2)
    peer.connection.handlers.registerRequest(
      '_acme/wait',
      (_params, context) => new Promise((resolve) => context.signal.addEventListener('abort', () => resolve({ cancelled: context.requestId }))),
    )
    peer.sendTogether({ id: 7, method: '_acme/wait', params: {} }, { id: '7', method: '_acme/wait', params: {} }, { method: '$/cancel_request', params: { requestId: '7' } })
    expect(await peer.next()).toEqual({ jsonrpc: '2.0', id: '7', result: { cancelled: '7' } })
    peer.send({ method: '$/cancel_request', params: { requestId: 7 } })
    expect(await peer.next()).toEqual({ jsonrpc: '2.0', id: 7, result: { cancelled: 7 } })
  })

  it('a request reusing the id of one still in progress is answered -32600; the first keeps its answer, and the id is free once answered', async () => {
    const peer = await initialized(2)
    const release: (() => void)[] = []
    peer.connection.handlers.registerRequest('_acme/slow', (params) => new Promise((resolve) => release.push(() => resolve({ params }))))
    peer.sendTogether({ id: 5, method: '_acme/slow', params: { n: 1 } }, { id: 5, method: '_acme/slow', params: { n: 2 } })
    expect(await peer.next()).toMatchObject({ id: 5, error: { code: -32600 } })
    expect(peer.problems.map((p) => p.kind)).toEqual(['invalid-message'])
    await new Promise((resolve) => setImmediate(resolve))
    expect(release).toHaveLength(1)
    release[0]!()
    expect(await peer.next()).toEqual({ jsonrpc: '2.0', id: 5, result: { params: { n: 1 } } })
    peer.send({ id: 5, method: '_acme/slow', params: { n: 3 } })
    await new Promise((resolve) => setImmediate(resolve))
    release[1]!()
    expect(await peer.next()).toEqual({ jsonrpc: '2.0', id: 5, result: { params: { n: 3 } } })
  })

  it('a request the agent sends during initialize sees the version offered (1 when Bosun offers 1)', async () => {
    for (const offered of [1, 2] as const) {
      const peer = pair()
      const seen: number[] = []
      peer.connection.handlers.registerRequest('_acme/ask', (_params, context) => {
        seen.push(context.protocolVersion)
        return {}
      })
      const init = peer.connection.initialize({ preferredVersion: offered })
      const request = await peer.next()
      peer.send({ id: 'ask', method: '_acme/ask', params: {} })
      expect(await peer.next()).toMatchObject({ id: 'ask', result: {} })
      peer.send({ id: request.id, result: { protocolVersion: 1 } })
      await init
      expect(seen).toEqual([offered])
    }
  })

  // B7: v2 wants integer or string ids; v1 (JSON-RPC 2.0) allows fractions, and null only as "discouraged". A null id
  // cannot be answered under its own id, so both versions answer it -32600 with id null; the connection goes on.
  it.each([
    { version: 2, id: null, refused: true },
    { version: 2, id: 1.5, refused: true },
    { version: 1, id: null, refused: true },
    { version: 1, id: 1.5, refused: false },
  ] as const)('v$version: an agent request with id $id is answered under its own id or -32600 with id null, and the next request is answered (B7)', async ({ version, id, refused }) => {
    const peer = await initialized(version)
    peer.connection.handlers.registerRequest('_acme/echo', (params) => ({ params }))
    peer.send({ id, method: '_acme/echo', params: { n: 1 } })
    if (refused) expect(await peer.next()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } })
    else expect(await peer.next()).toEqual({ jsonrpc: '2.0', id, result: { params: { n: 1 } } })
    peer.send({ id: 2, method: '_acme/echo', params: { n: 2 } })
    expect(await peer.next()).toEqual({ jsonrpc: '2.0', id: 2, result: { params: { n: 2 } } })
    expect(peer.problems.map((p) => p.kind)).toEqual(refused ? ['invalid-message'] : [])
  })

  it('v2 offered: a fractional id in a request sent during initialize is refused too (the offer is v2 until the agent answers)', async () => {
    const peer = pair()
    peer.connection.handlers.registerRequest('_acme/ask', () => ({}))
    const init = peer.connection.initialize()
    const request = await peer.next()
    peer.send({ id: 0.5, method: '_acme/ask', params: {} })
    expect(await peer.next()).toMatchObject({ id: null, error: { code: -32600, message: 'Invalid Request: a numeric id must be an integer' } })
    peer.send({ id: request.id, result: { protocolVersion: 2, info: { name: 'a', version: '1' }, capabilities: { session: {} } } })
    expect((await init).protocolVersion).toBe(2)
  })

  it('traces both directions for the inspector only while someone listens', async () => {
    const peer = pair()
    const traces: [string, unknown][] = []
    const sub = peer.connection.onDidTrace((t) => traces.push([t.direction, t.message]))
    const init = peer.connection.initialize()
    const request = await peer.next()
    const received = once(peer.connection.onDidReceiveUpdate)
    peer.send(update('s', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } }))
    await received
    sub.dispose()
    peer.send({ id: request.id, result: { protocolVersion: 1 } })
    await init
    expect(traces.map(([direction, message]) => [direction, (message as Json).method])).toEqual([
      ['out', 'initialize'],
      ['in', 'session/update'],
    ])
  })

  it('ignores unknown notifications and answers nothing to them', async () => {
    const { connection, send, next } = await initialized(1)
    const seen: unknown[] = []
    connection.handlers.registerNotification('_acme/ping', (params) => seen.push(params))
    send({ method: '_acme/unknown', params: {} })
    send({ method: '$/progress', params: {} })
    send({ method: '_acme/ping', params: { n: 1 } })
    send({ id: 9, method: '_acme/ask', params: {} })
    const reply = await next()
    expect(reply).toMatchObject({ id: 9, error: { code: -32601 } })
    expect(seen).toEqual([{ n: 1 }])
  })
})

export type { AcpClientConnection }

describe('wire order of agent requests and session/update', () => {
  const status = (n: { update: unknown }) => String((n.update as { status?: unknown }).status)
  const toolUpdate = (value: string) => update('s', { sessionUpdate: 'tool_call_update', toolCallId: 't', status: value })
  /** Resolves after the stream's own nextTick delivery, but before vscode-jsonrpc's queue (setImmediate) runs. */
  const afterDelivery = () => new Promise<void>((resolve) => process.nextTick(() => process.nextTick(resolve)))
  const drained = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)))

  it('an update behind a request is applied after the request’s handler started; the fast path resumes after', async () => {
    const peer = await initialized(2)
    const seen: string[] = []
    peer.connection.handlers.registerRequest('session/request_permission', () => {
      seen.push('request')
      return new Promise(() => {})
    })
    peer.connection.onDidReceiveUpdate((n) => seen.push(status(n)))
    // Written in one go, as an agent's burst arrives: update, request, update, update.
    peer.send(toolUpdate('pending'))
    peer.send({ id: 1, method: 'session/request_permission', params: { sessionId: 's', options: [] } })
    peer.send(toolUpdate('in_progress'))
    peer.send(toolUpdate('completed'))
    await afterDelivery()
    // The first update took the fast path; the rest wait for the request's turn in the queue.
    expect(seen).toEqual(['pending'])
    await drained()
    await drained()
    expect(seen).toEqual(['pending', 'request', 'in_progress', 'completed'])

    // Nothing queued any more: the next update is applied as soon as it is read.
    peer.send(toolUpdate('failed'))
    await afterDelivery()
    expect(seen.at(-1)).toBe('failed')
  })

  it('requests 7 and "7" each take their own place in the queue, and neither holds updates back for good', async () => {
    const peer = await initialized(2)
    peer.connection.handlers.registerRequest('session/request_permission', () => new Promise(() => {}))
    const seen: string[] = []
    peer.connection.onDidReceiveUpdate((n) => seen.push(status(n)))
    peer.send({ id: 7, method: 'session/request_permission', params: { sessionId: 's', options: [] } })
    peer.send({ id: '7', method: 'session/request_permission', params: { sessionId: 's', options: [] } })
    peer.send(toolUpdate('in_progress'))
    await drained()
    await drained()
    expect(seen).toEqual(['in_progress'])
    peer.send(toolUpdate('completed'))
    await afterDelivery()
    expect(seen).toEqual(['in_progress', 'completed'])
  })
})
