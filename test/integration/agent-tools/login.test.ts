import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, delimiter, dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { once } from '../../../main/base/event'
import { ENV_AGENT, must, startHarness, type Harness } from './harness'

let harness: Harness | undefined
afterEach(async () => {
  await harness?.dispose()
  harness = undefined
})

const sentMethods = async (h: Harness, agentId: string) =>
  must(await h.tools.handlers.listInspectorMessages({ agentId })).messages.filter((m) => m.direction === 'out' && m.kind === 'request')

describe.each([
  ['v1', false, 'authenticate'],
  ['v2', true, 'auth/login'],
])('agent-driven login (%s)', (_label, v2, loginMethod) => {
  it('session/new needs auth → loginAgent → session/new works; a terminal method is refused and never sent', async () => {
    harness = await startHarness([{ id: 'a', scenario: v2 ? 'auth-v2' : 'auth-v1', v2, protocolVersion: v2 ? 2 : 1 }])
    const before = await harness.newSession('a')
    expect(before).toMatchObject({ ok: false, error: { kind: 'auth-required', code: -32000 } })

    const { methods } = must(await harness.tools.handlers.listAuthMethods({ agentId: 'a' }))
    expect(methods.map((m) => m.id)).toContain('login')

    const refused = await harness.tools.handlers.loginAgent({ agentId: 'a', methodId: 'term' })
    expect(refused).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(must(await harness.tools.handlers.loginAgent({ agentId: 'a', methodId: 'login' }))).toEqual({ restarted: false })
    must(await harness.newSession('a'))

    const logins = (await sentMethods(harness, 'a')).filter((m) => m.method === loginMethod)
    expect(logins).toHaveLength(1)
    // Auth params are redacted except the method id (J6).
    expect(logins[0]!.message).toMatchObject({ params: { methodId: 'login' } })
  })

  it('logout where supported', async () => {
    harness = await startHarness([{ id: 'a', scenario: v2 ? 'auth-v2' : 'auth-v1', v2, protocolVersion: v2 ? 2 : 1 }])
    must(await harness.tools.handlers.loginAgent({ agentId: 'a', methodId: 'login' }))
    expect(await harness.tools.handlers.logoutAgent({ agentId: 'a' })).toEqual({ ok: true, value: undefined })
    expect(await harness.newSession('a')).toMatchObject({ ok: false, error: { kind: 'auth-required' } })
  })
})

it.each([
  ['v1', false],
  ['v2', true],
])('%s: a method of a kind Bosun cannot run is listed as such, with its name', async (_label, v2) => {
  harness = await startHarness([{ id: 'u', scenario: 'auth-unknown-kinds', v2, protocolVersion: v2 ? 2 : 1 }])
  const { methods } = must(await harness.tools.handlers.listAuthMethods({ agentId: 'u' }))
  // v2 requires a type (D5): a method without one is of a kind Bosun does not know. (v1 names methods by `id`.)
  expect(methods.map((m) => [m.name, m.type, m.unsupported ?? false])).toEqual([['Company SSO', 'oauth-device', true], ...(v2 ? [['No type', 'unknown', true]] : [])])
  // Check connection lists them the same way (it said "The agent signs you in" for them).
  const checked = must(await harness.tools.handlers.checkAgentConnection({ agentId: 'u' })).authMethods
  expect(checked.map((m) => [m.name, m.unsupported ?? false])).toEqual(methods.map((m) => [m.name, m.unsupported ?? false]))
})

it('a login that waits on the agent (a browser nobody finishes) can be cancelled: the agent is asked to withdraw it, and nothing is held any more', async () => {
  harness = await startHarness([{ id: 'h', scenario: 'auth-hangs', protocolVersion: 1 }])
  must(await harness.connect('h'))
  const pid = harness.supervisor.get('h')!.pid
  const waiting = harness.tools.handlers.loginAgent({ agentId: 'h', methodId: 'login' })
  await expect.poll(async () => (await sentMethods(harness!, 'h')).filter((m) => m.method === 'authenticate').length).toBe(1)
  must(await harness.tools.handlers.cancelAgentLogin({ agentId: 'h' }))
  expect(await waiting).toMatchObject({ ok: false, error: { kind: 'cancelled' } })
  // ACP's `$/cancel_request`, naming the login's request id.
  const out = must(await harness.tools.handlers.listInspectorMessages({ agentId: 'h' })).messages.filter((m) => m.direction === 'out')
  const login = out.find((m) => m.method === 'authenticate')!
  const cancel = out.find((m) => m.method === '$/cancel_request')
  expect(cancel?.message).toMatchObject({ params: { requestId: (login.message as { id: number }).id } })
  // The same process, and free for another login; cancelling when nothing waits is harmless.
  expect(harness.supervisor.get('h')!.pid).toBe(pid)
  const again = harness.tools.handlers.loginAgent({ agentId: 'h', methodId: 'login' })
  await expect.poll(async () => (await sentMethods(harness!, 'h')).filter((m) => m.method === 'authenticate').length).toBe(2)
  must(await harness.tools.handlers.cancelAgentLogin({ agentId: 'h' }))
  expect(await again).toMatchObject({ ok: false, error: { kind: 'cancelled' } })
  must(await harness.tools.handlers.cancelAgentLogin({ agentId: 'h' }))
})

it('one login at a time per agent: while one waits on the agent, another is refused; a restart ends the wait', async () => {
  harness = await startHarness([{ id: 'h', scenario: 'auth-hangs', protocolVersion: 1 }, { id: 'a', scenario: 'auth-v1', protocolVersion: 1 }])
  must(await harness.connect('h'))
  const waiting = harness.tools.handlers.loginAgent({ agentId: 'h', methodId: 'login' })
  // The first login has reached the agent before the second is asked for.
  await expect.poll(async () => (await sentMethods(harness!, 'h')).filter((m) => m.method === 'authenticate').length).toBe(1)
  for (let i = 0; i < 5; i++) {
    expect(await harness.tools.handlers.loginAgent({ agentId: 'h', methodId: 'login' })).toMatchObject({ ok: false, error: { kind: 'invalid-argument', message: expect.stringContaining('still busy') } })
  }
  expect(await harness.tools.handlers.logoutAgent({ agentId: 'h' })).toMatchObject({ ok: false, error: { message: expect.stringContaining('still busy') } })
  // Only the first reached the agent; another agent's login is not held up.
  expect((await sentMethods(harness, 'h')).filter((m) => m.method === 'authenticate')).toHaveLength(1)
  must(await harness.tools.handlers.loginAgent({ agentId: 'a', methodId: 'login' }))

  await harness.supervisor.stop('h', { deadlineMs: 2_000 })
  expect(await waiting).toMatchObject({ ok: false })
  // Free again: this login reaches the restarted agent (and waits on it in turn).
  const again = harness.tools.handlers.loginAgent({ agentId: 'h', methodId: 'login' })
  await expect.poll(async () => (await sentMethods(harness!, 'h')).filter((m) => m.method === 'authenticate').length).toBe(2)
  await harness.supervisor.stop('h', { deadlineMs: 2_000 })
  expect(await again).toMatchObject({ ok: false })
})

it('logout is refused when the agent does not support it', async () => {
  harness = await startHarness([{ id: 'b', scenario: 'basic', protocolVersion: 1 }])
  expect(await harness.tools.handlers.logoutAgent({ agentId: 'b' })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
  expect((await sentMethods(harness, 'b')).map((m) => m.method)).not.toContain('logout')
})

describe('env-var login', () => {
  it('auth required → value stored in the keychain as a secret env → agent restarted with it → session/new works', async () => {
    harness = await startHarness([{ id: 'e', envAgentArgs: ['--var', 'ACME_KEY'], protocolVersion: 1 }])
    expect(await harness.newSession('e')).toMatchObject({ ok: false, error: { kind: 'auth-required' } })

    const { methods } = must(await harness.tools.handlers.listAuthMethods({ agentId: 'e' }))
    expect(methods).toContainEqual({ id: 'api-key', name: 'API key', type: 'env_var', envName: 'ACME_KEY' })
    expect(await harness.tools.handlers.loginAgent({ agentId: 'e', methodId: 'api-key' })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })

    const firstPid = harness.supervisor.get('e')!.pid
    expect(must(await harness.tools.handlers.loginAgent({ agentId: 'e', methodId: 'api-key', value: 'sk-test-value-1234' }))).toEqual({ restarted: true })
    expect(harness.secretStore.values.get('e:ACME_KEY')).toBe('sk-test-value-1234')
    expect(harness.config.definitions.get('e')!.secretEnv).toEqual(['ACME_KEY'])
    expect(harness.supervisor.get('e')!.pid).not.toBe(firstPid)
    must(await harness.newSession('e'))
    // Env-var methods are never sent to the agent.
    expect((await sentMethods(harness, 'e')).map((m) => m.method)).not.toContain('authenticate')
  })

  it('refuses without a keychain and stores nothing', async () => {
    harness = await startHarness([{ id: 'e', envAgentArgs: ['--var', 'ACME_KEY'], protocolVersion: 1 }])
    harness.secretStore.available = false
    const result = await harness.tools.handlers.loginAgent({ agentId: 'e', methodId: 'api-key', value: 'sk-test-value-1234' })
    expect(result).toMatchObject({ ok: false, error: { kind: 'keychain-unavailable' } })
    expect(harness.config.definitions.get('e')!.secretEnv).toEqual([])
  })
})

describe('terminal login', () => {
  it('runs the configured command + the method args/env, takes typed input, restarts the agent on exit 0', async () => {
    harness = await startHarness([{ id: 't', protocolVersion: 1, envAgentArgs: [] }])
    const dump = join(harness.home, 'dump.json')
    const def = harness.config.definitions.get('t')!
    must(await harness.config.definitions.save({ ...def, args: [...def.args, '--dump-env', dump], env: { PLAIN: 'yes' } }))
    must(await harness.connect('t'))
    const firstPid = harness.supervisor.get('t')!.pid

    // D2: never sent to authenticate.
    expect(await harness.tools.handlers.loginAgent({ agentId: 't', methodId: 'term' })).toMatchObject({ ok: false })
    expect(await harness.tools.handlers.startAuthTerminal({ agentId: 't', methodId: 'api-key' })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })

    const reconnected = once(harness.supervisor.onDidConnect, (e) => e.agentId === 't')
    const { terminalId } = must(await harness.tools.handlers.startAuthTerminal({ agentId: 't', methodId: 'term' }))
    await harness.sink.next('authTerminalOutput', (p) => p.terminalId === terminalId && p.data.includes('Paste your token'))
    must(await harness.tools.handlers.authTerminalInput({ terminalId, data: 'ok\n' }))
    const exit = await harness.sink.next('authTerminalOutput', (p) => p.terminalId === terminalId && p.exit !== undefined)
    expect(exit.exit).toEqual({ code: 0, signal: null })
    expect(harness.sink.of('authTerminalOutput').map((p) => p.data).join('')).toContain('Logged in.')

    const spawned = JSON.parse(readFileSync(`${dump}.login`, 'utf8')) as { argv: string[]; env: Record<string, string> }
    expect(spawned.argv).toEqual(['--dump-env', dump, '--login'])
    expect(spawned.env).toMatchObject({ LOGIN_MODE: '1', PLAIN: 'yes' })

    await reconnected
    expect(harness.supervisor.get('t')!.pid).not.toBe(firstPid)
    // The terminal is gone: input now fails as a value.
    expect(await harness.tools.handlers.authTerminalInput({ terminalId, data: 'x' })).toMatchObject({ ok: false, error: { kind: 'not-found' } })
  })

  it('runs the configured program even when the method sets PATH: a program of that name on the agent’s PATH is never run (J8)', async () => {
    // The configured command is a bare name; the method's env puts a folder holding a program of that name on PATH.
    const decoy = mkdtempSync(join(tmpdir(), 'bosun-decoy-'))
    const marker = join(decoy, 'ran')
    const program = basename(process.execPath)
    writeFileSync(join(decoy, program), `#!/bin/sh\necho decoy > '${marker}'\nexit 0\n`, { mode: 0o755 })
    try {
      harness = await startHarness([{ id: 't', protocolVersion: 1, envAgentArgs: ['--login-path', decoy] }])
      const dump = join(harness.home, 'dump.json')
      const def = harness.config.definitions.get('t')!
      const ownPath = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`
      must(await harness.config.definitions.save({ ...def, command: program, args: [...def.args, '--dump-env', dump], env: { PATH: ownPath } }))
      must(await harness.connect('t'))

      const { terminalId } = must(await harness.tools.handlers.startAuthTerminal({ agentId: 't', methodId: 'term' }))
      await harness.sink.next('authTerminalOutput', (p) => p.terminalId === terminalId && p.data.includes('Paste your token'))
      must(await harness.tools.handlers.authTerminalInput({ terminalId, data: 'ok\n' }))
      expect((await harness.sink.next('authTerminalOutput', (p) => p.terminalId === terminalId && p.exit !== undefined)).exit).toEqual({ code: 0, signal: null })
      expect(existsSync(marker)).toBe(false)
      // The method's env applies to the program Bosun chose (D3), but for its PATH, which would choose the programs the
      // login starts in turn: left out, the configured PATH kept, and the person told before the terminal opens.
      const spawned = JSON.parse(readFileSync(`${dump}.login`, 'utf8')) as { argv: string[]; env: Record<string, string> }
      expect(spawned.argv).toEqual([...def.args.slice(1), '--dump-env', dump, '--login'])
      expect(spawned.env).toMatchObject({ LOGIN_MODE: '1', PATH: ownPath })
      const { methods } = must(await harness.tools.handlers.listAuthMethods({ agentId: 't' }))
      expect(methods.find((m) => m.id === 'term')?.envLeftOut).toEqual(['PATH'])
    } finally {
      rmSync(decoy, { recursive: true, force: true })
    }
  })

  it('leaves out the method env that would run other code in the login program (LD_PRELOAD, NODE_OPTIONS, a name with =), keeps the rest, and lists what it left out', async () => {
    const asked = {
      NODE_OPTIONS: '--require /nonexistent/bosun-evil.js',
      LD_PRELOAD: '/nonexistent/bosun-evil.so',
      'ld_library_path': '/nonexistent',
      'NODE_OPTIONS=--require /nonexistent/bosun-evil.js ': 'x',
      LOGIN_COLOR: 'blue',
    }
    harness = await startHarness([{ id: 't', protocolVersion: 1, envAgentArgs: ['--login-env', JSON.stringify(asked)] }])
    const dump = join(harness.home, 'dump.json')
    const def = harness.config.definitions.get('t')!
    must(await harness.config.definitions.save({ ...def, args: [...def.args, '--dump-env', dump] }))
    must(await harness.connect('t'))
    const { methods } = must(await harness.tools.handlers.listAuthMethods({ agentId: 't' }))
    expect(methods.find((m) => m.id === 'term')?.envLeftOut).toEqual(['NODE_OPTIONS', 'LD_PRELOAD', 'ld_library_path', 'NODE_OPTIONS=--require /nonexistent/bosun-evil.js '])
    const { terminalId } = must(await harness.tools.handlers.startAuthTerminal({ agentId: 't', methodId: 'term' }))
    // Node would not start with that NODE_OPTIONS: the prompt shows only because it was left out.
    await harness.sink.next('authTerminalOutput', (p) => p.terminalId === terminalId && p.data.includes('Paste your token'))
    must(await harness.tools.handlers.authTerminalInput({ terminalId, data: 'ok\n' }))
    expect((await harness.sink.next('authTerminalOutput', (p) => p.terminalId === terminalId && p.exit !== undefined)).exit).toEqual({ code: 0, signal: null })
    const spawned = JSON.parse(readFileSync(`${dump}.login`, 'utf8')) as { env: Record<string, string> }
    expect(spawned.env).toMatchObject({ LOGIN_MODE: '1', LOGIN_COLOR: 'blue' })
    expect(Object.keys(spawned.env).filter((name) => /^(NODE_OPTIONS|LD_PRELOAD|LD_LIBRARY_PATH)/i.test(name))).toEqual([])
  })

  it('a failed terminal login reports its exit code and does not restart the agent', async () => {
    harness = await startHarness([{ id: 't', protocolVersion: 1 }])
    must(await harness.connect('t'))
    const pid = harness.supervisor.get('t')!.pid
    const { terminalId } = must(await harness.tools.handlers.startAuthTerminal({ agentId: 't', methodId: 'term' }))
    must(await harness.tools.handlers.authTerminalInput({ terminalId, data: 'wrong\n' }))
    const exit = await harness.sink.next('authTerminalOutput', (p) => p.terminalId === terminalId && p.exit !== undefined)
    expect(exit.exit).toEqual({ code: 3, signal: null })
    expect(harness.supervisor.get('t')!.pid).toBe(pid)
    expect(harness.supervisor.get('t')!.status).toBe('ready')
  })

  it('at most two sign-in terminals per agent are open at once; closing one makes room', async () => {
    harness = await startHarness([{ id: 't', protocolVersion: 1 }])
    must(await harness.connect('t'))
    const first = must(await harness.tools.handlers.startAuthTerminal({ agentId: 't', methodId: 'term' }))
    must(await harness.tools.handlers.startAuthTerminal({ agentId: 't', methodId: 'term' }))
    expect(await harness.tools.handlers.startAuthTerminal({ agentId: 't', methodId: 'term' })).toMatchObject({ ok: false, error: { message: expect.stringContaining('Too many sign-in terminals') } })
    const exited = harness.sink.next('authTerminalOutput', (p) => p.terminalId === first.terminalId && p.exit !== undefined)
    must(await harness.tools.handlers.closeAuthTerminal({ terminalId: first.terminalId }))
    await exited
    must(await harness.tools.handlers.startAuthTerminal({ agentId: 't', methodId: 'term' }))
  })

  it('closeAuthTerminal stops it; a closed login never restarts the agent (D3: cancel = failure)', async () => {
    harness = await startHarness([{ id: 't', protocolVersion: 1 }])
    must(await harness.connect('t'))
    const pid = harness.supervisor.get('t')!.pid
    const { terminalId } = must(await harness.tools.handlers.startAuthTerminal({ agentId: 't', methodId: 'term' }))
    await harness.sink.next('authTerminalOutput', (p) => p.terminalId === terminalId && p.data.includes('Paste your token'))
    const exited = harness.sink.next('authTerminalOutput', (p) => p.terminalId === terminalId && p.exit !== undefined)
    must(await harness.tools.handlers.closeAuthTerminal({ terminalId }))
    // The fixture usually exits 0 when its stdin closes (SIGTERM if it is slow): either way, no login.
    expect((await exited).exit).toBeDefined()
    expect(harness.supervisor.get('t')!.pid).toBe(pid)
    expect(harness.supervisor.get('t')!.status).toBe('ready')
    expect(must(await harness.tools.handlers.closeAuthTerminal({ terminalId }))).toBeUndefined()
  })
})

describe('a login through a model gateway (`_meta.gateway`, Gemini CLI and claude-agent-acp)', () => {
  it('listed with its protocol; the address and headers go in the login request, are stored nowhere and show redacted', async () => {
    harness = await startHarness([{ id: 'g', scenario: 'auth-gateway', protocolVersion: 1 }])
    expect(await harness.newSession('g')).toMatchObject({ ok: false, error: { kind: 'auth-required' } })
    const { methods } = must(await harness.tools.handlers.listAuthMethods({ agentId: 'g' }))
    expect(methods.find((m) => m.id === 'gateway')).toMatchObject({ gateway: true, gatewayProtocol: 'google' })
    expect(methods.find((m) => m.id === 'oauth-personal')).not.toHaveProperty('gateway')

    // Refused before anything is sent: not a gateway method, an address that is not http(s), credentials in the address.
    const gateway = { baseUrl: 'https://gw.example.com/v1', headers: [{ name: 'x-team-token', value: 'Bearer team-canary-7731' }] }
    expect(await harness.tools.handlers.loginAgent({ agentId: 'g', methodId: 'oauth-personal', gateway })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(await harness.tools.handlers.loginAgent({ agentId: 'g', methodId: 'gateway', gateway: { baseUrl: 'file:///etc/passwd' } })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(await harness.tools.handlers.loginAgent({ agentId: 'g', methodId: 'gateway', gateway: { baseUrl: 'https://me:pw@gw.example.com' } })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect((await sentMethods(harness, 'g')).map((m) => m.method)).not.toContain('authenticate')

    // The agent refuses a gateway without its header, and takes the one with it.
    expect(await harness.tools.handlers.loginAgent({ agentId: 'g', methodId: 'gateway', gateway: { baseUrl: gateway.baseUrl } })).toMatchObject({ ok: false, error: { message: expect.stringContaining('x-team-token is missing') } })
    expect(must(await harness.tools.handlers.loginAgent({ agentId: 'g', methodId: 'gateway', gateway }))).toEqual({ restarted: false })
    must(await harness.newSession('g'))

    // Nothing stored; the header value (and the token in it) shows in neither the log nor the inspector.
    expect(harness.secretStore.values.size).toBe(0)
    expect(readFileSync(join(harness.home, 'agents.json'), 'utf8')).not.toContain('team-canary-7731')
    const inspected = JSON.stringify(must(await harness.tools.handlers.listInspectorMessages({ agentId: 'g' })).messages)
    expect(inspected).not.toContain('team-canary-7731')
    await harness.supervisor.get('g')!.flushLog()
    expect(must(await harness.tools.handlers.getAgentLog({ agentId: 'g' })).text).not.toContain('team-canary-7731')
  })
})

describe('who the agent says is signed in (`_auth/status_update`, claude-agent-acp)', () => {
  it('signed out after initialize, signed in after the login: sent as events, and with the methods', async () => {
    harness = await startHarness([{ id: 'c', scenario: 'e2e-prompt-auth', protocolVersion: 1 }])
    const signedOut = harness.sink.next('agentAccount', (p) => p.agentId === 'c')
    must(await harness.connect('c'))
    expect((await signedOut).account).toEqual({ signedIn: false, kind: 'none', label: 'Not logged in' })
    expect(must(await harness.tools.handlers.listAuthMethods({ agentId: 'c' })).account).toEqual({ signedIn: false, kind: 'none', label: 'Not logged in' })

    const signedIn = harness.sink.next('agentAccount', (p) => p.agentId === 'c' && p.account.signedIn)
    must(await harness.tools.handlers.loginAgent({ agentId: 'c', methodId: 'login' }))
    const expected = { signedIn: true, kind: 'account', label: 'Claude Max', detail: 'ada@example.com' }
    expect((await signedIn).account).toEqual(expected)
    expect(must(await harness.tools.handlers.listAuthMethods({ agentId: 'c' })).account).toEqual(expected)

    // Removed and added again under the same id: what the old one said is gone (this agent says nothing now).
    const def = harness.config.definitions.get('c')!
    await harness.supervisor.stop('c', { deadlineMs: 2_000 })
    must(await harness.config.definitions.remove('c'))
    must(await harness.config.definitions.save({ ...def, args: def.args.map((a) => a.replace('e2e-prompt-auth', 'auth-v1')) }))
    expect(must(await harness.tools.handlers.listAuthMethods({ agentId: 'c' }))).not.toHaveProperty('account')
  })

  it('an agent that floods them: the renderer hears a few, the last one the latest', async () => {
    harness = await startHarness([{ id: 'f', scenario: 'auth-status-flood', protocolVersion: 1 }])
    const latest = { signedIn: true, kind: 'account', label: 'Claude Pro', detail: 'ada@example.com' }
    must(await harness.connect('f'))
    // Only the last of the 20,000 is signed in: what the list says once the flood has been read.
    await expect.poll(async () => must(await harness!.tools.handlers.listAuthMethods({ agentId: 'f' })).account, { timeout: 20_000 }).toEqual(latest)
    await expect.poll(() => harness!.sink.of('agentAccount').at(-1)?.account, { timeout: 5_000 }).toEqual(latest)
    expect(harness.sink.of('agentAccount').length).toBeLessThan(100)
  })

  it('an agent that says nothing has no account in the list', async () => {
    harness = await startHarness([{ id: 'a', scenario: 'auth-v1', protocolVersion: 1 }])
    expect(must(await harness.tools.handlers.listAuthMethods({ agentId: 'a' }))).not.toHaveProperty('account')
    expect(harness.sink.of('agentAccount')).toEqual([])
  })
})

describe('the older terminal login, `_meta["terminal-auth"]` (OpenCode)', () => {
  const opencode = (state: string, extra: string[] = []) => ({ id: 'o', protocolVersion: 1 as const, envAgentArgs: ['--style', 'opencode', '--state', state, ...extra] })

  it('naming the agent\'s own program: listed as a terminal login with its command, never sent to authenticate; exit 0 restarts and the session starts', async () => {
    const state = join(tmpdir(), `bosun-opencode-state-${process.pid}-${Date.now()}`)
    harness = await startHarness([opencode(state)], {}, { clientCapabilities: { authTerminal: true } })
    expect(await harness.newSession('o')).toMatchObject({ ok: false, error: { kind: 'auth-required' } })
    const { methods } = must(await harness.tools.handlers.listAuthMethods({ agentId: 'o' }))
    expect(methods).toHaveLength(1)
    // The configured program by name, with the method's args in place of the configured ones.
    expect(methods[0]).toMatchObject({ id: 'opencode-login', type: 'terminal', commandLine: `${basename(process.execPath)} ${ENV_AGENT} --login --state ${state}` })
    // Check connection lists it the same way.
    expect(must(await harness.tools.handlers.checkAgentConnection({ agentId: 'o' })).authMethods).toEqual([
      { id: 'opencode-login', name: 'Login with env-agent', description: 'Run `env-agent auth login` in the terminal', type: 'terminal' },
    ])

    // Like OpenCode, the agent would answer `authenticate` with success and log no one in: Bosun never sends it.
    expect(await harness.tools.handlers.loginAgent({ agentId: 'o', methodId: 'opencode-login' })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect((await sentMethods(harness, 'o')).map((m) => m.method)).not.toContain('authenticate')

    const firstPid = harness.supervisor.get('o')!.pid
    const reconnected = once(harness.supervisor.onDidConnect, (e) => e.agentId === 'o')
    const { terminalId } = must(await harness.tools.handlers.startAuthTerminal({ agentId: 'o', methodId: 'opencode-login' }))
    await harness.sink.next('authTerminalOutput', (p) => p.terminalId === terminalId && p.data.includes('Paste your token'))
    must(await harness.tools.handlers.authTerminalInput({ terminalId, data: 'ok\n' }))
    expect((await harness.sink.next('authTerminalOutput', (p) => p.terminalId === terminalId && p.exit !== undefined)).exit).toEqual({ code: 0, signal: null })
    await reconnected
    expect(harness.supervisor.get('o')!.pid).not.toBe(firstPid)
    must(await harness.newSession('o'))
    rmSync(state, { force: true })
  })

  it('naming another program: nothing it names is run; the method stays agent-driven', async () => {
    const state = join(tmpdir(), `bosun-opencode-state-${process.pid}-${Date.now()}-other`)
    harness = await startHarness([opencode(state, ['--terminal-auth-command', '/bin/sh'])], {}, { clientCapabilities: { authTerminal: true } })
    const { methods } = must(await harness.tools.handlers.listAuthMethods({ agentId: 'o' }))
    expect(methods).toEqual([{ id: 'opencode-login', name: 'Login with env-agent', description: 'Run `env-agent auth login` in the terminal', type: 'agent' }])
    expect(must(await harness.tools.handlers.checkAgentConnection({ agentId: 'o' })).authMethods).toEqual(methods)
    expect(await harness.tools.handlers.startAuthTerminal({ agentId: 'o', methodId: 'opencode-login' })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(existsSync(state)).toBe(false)
  })

  it('naming another program, and the agent refuses `authenticate` (GitHub Copilot run through npx): the failure says what to run, and where', async () => {
    const state = join(tmpdir(), `bosun-opencode-state-${process.pid}-${Date.now()}-copilot`)
    harness = await startHarness([opencode(state, ['--terminal-auth-command', '/opt/copilot/copilot', '--authenticate-fails'])], {}, { clientCapabilities: { authTerminal: true } })
    const login = await harness.tools.handlers.loginAgent({ agentId: 'o', methodId: 'opencode-login' })
    expect(login).toMatchObject({ ok: false, error: { kind: 'auth-required' } })
    if (login.ok) return
    const message = login.error.message
    expect(message).toContain('Authentication required')
    // The command the agent named, shown for the person to run: Bosun runs nothing it names.
    expect(message).toContain(`/opt/copilot/copilot ${ENV_AGENT} --login --state ${state}`)
    expect(message).toContain(`run it yourself in a terminal, then try again`)
    expect(existsSync(state)).toBe(false)
  })
})

describe('terminal login in a PTY', () => {
  it('echoes what is typed (the PTY does, not the program) and Ctrl-C interrupts it', async () => {
    harness = await startHarness([{ id: 't', protocolVersion: 1 }])
    must(await harness.connect('t'))
    const pid = harness.supervisor.get('t')!.pid
    const { terminalId } = must(await harness.tools.handlers.startAuthTerminal({ agentId: 't', methodId: 'term' }))
    await harness.sink.next('authTerminalOutput', (p) => p.terminalId === terminalId && p.data.includes('Paste your token'))
    // The fixture never prints what it reads: "typed-here" in the output is the terminal's echo.
    must(await harness.tools.handlers.authTerminalInput({ terminalId, data: 'typed-here' }))
    await harness.sink.next('authTerminalOutput', (p) => p.terminalId === terminalId && p.data.includes('typed-here'))
    const exited = harness.sink.next('authTerminalOutput', (p) => p.terminalId === terminalId && p.exit !== undefined)
    must(await harness.tools.handlers.authTerminalInput({ terminalId, data: '\x03' }))
    expect((await exited).exit).toEqual({ code: null, signal: 'SIGINT' })
    // Interrupted is not a login: the agent was not restarted.
    expect(harness.supervisor.get('t')!.pid).toBe(pid)
  })
})

describe('an agent-driven login that fails', () => {
  it('with only "Internal error" and why in data.details (Cline offline): the failure says why', async () => {
    harness = await startHarness([{ id: 'c', envAgentArgs: ['--var', 'ACME_API_KEY', '--style', 'codex', '--browser-login-offline'], protocolVersion: 1 }])
    const failed = await harness.tools.handlers.loginAgent({ agentId: 'c', methodId: 'browser' })
    expect(failed).toMatchObject({ ok: false, error: { message: 'Internal error: Unable to connect. Is the computer able to access the url?' } })
  })
})

describe('a key for an agent-driven login', () => {
  it('codex-style: the failed login names its key variables → the key is stored under one → restart → the login goes through', async () => {
    harness = await startHarness([{ id: 'c', envAgentArgs: ['--var', 'ACME_API_KEY', '--style', 'codex'], protocolVersion: 1 }])
    expect(await harness.newSession('c')).toMatchObject({ ok: false, error: { kind: 'auth-required' } })
    const { methods } = must(await harness.tools.handlers.listAuthMethods({ agentId: 'c' }))
    expect(methods.map((m) => [m.id, m.type])).toEqual([['api-key', 'agent'], ['browser', 'agent']])

    // Before the agent named a variable, Bosun stores no key for it.
    expect(await harness.tools.handlers.loginAgent({ agentId: 'c', methodId: 'api-key', keyName: 'ACME_API_KEY', value: 'sk-early-1234' })).toMatchObject({
      ok: false,
      error: { kind: 'invalid-argument' },
    })
    expect(harness.secretStore.values.size).toBe(0)

    const failed = await harness.tools.handlers.loginAgent({ agentId: 'c', methodId: 'api-key' })
    // In the agent's words, without JSON-RPC's "Internal error: " before them.
    expect(failed).toMatchObject({ ok: false, error: { message: 'OTHER_KEY or ACME_API_KEY is not set', data: { envVars: ['OTHER_KEY', 'ACME_API_KEY', 'NODE_OPTIONS'] } } })

    // The agent named NODE_OPTIONS too: not a key name, never set.
    expect(await harness.tools.handlers.loginAgent({ agentId: 'c', methodId: 'api-key', keyName: 'NODE_OPTIONS', value: '--require /tmp/x.js' })).toMatchObject({
      ok: false,
      error: { kind: 'invalid-argument' },
    })
    const firstPid = harness.supervisor.get('c')!.pid
    expect(must(await harness.tools.handlers.loginAgent({ agentId: 'c', methodId: 'api-key', keyName: 'ACME_API_KEY', value: 'sk-codex-style-1234' }))).toEqual({ restarted: true })
    expect(harness.secretStore.values.get('c:ACME_API_KEY')).toBe('sk-codex-style-1234')
    expect([...harness.secretStore.values.keys()]).toEqual(['c:ACME_API_KEY'])
    expect(harness.config.definitions.get('c')!.secretEnv).toEqual(['ACME_API_KEY'])
    expect(harness.supervisor.get('c')!.pid).not.toBe(firstPid)
    must(await harness.newSession('c'))
  })

  it('gemini-style: a key the definition lists but has no value for is saved, the agent restarts, session/new works', async () => {
    harness = await startHarness([{ id: 'g', envAgentArgs: ['--var', 'ACME_API_KEY', '--style', 'gemini'], secretEnv: ['ACME_API_KEY'], protocolVersion: 1 }])
    must(await harness.tools.handlers.loginAgent({ agentId: 'g', methodId: 'api-key' }))
    expect(await harness.newSession('g')).toMatchObject({ ok: false, error: { kind: 'auth-required', message: 'API key is missing or not configured.' } })

    // A name the definition does not list, and the agent never asked for: refused, nothing stored.
    expect(await harness.tools.handlers.saveAgentKey({ agentId: 'g', name: 'OTHER_API_KEY', value: 'sk-x-1234' })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(harness.secretStore.values.size).toBe(0)

    expect(must(await harness.tools.handlers.saveAgentKey({ agentId: 'g', name: 'ACME_API_KEY', value: 'sk-gemini-style-1234' }))).toEqual({ restarted: true })
    expect(harness.secretStore.values.get('g:ACME_API_KEY')).toBe('sk-gemini-style-1234')
    must(await harness.newSession('g'))
  })

  it('a key set in Bosun’s own environment is offered by name and, asked for, stored for the agent (never another variable)', async () => {
    const environment = { PATH: process.env.PATH, HOME: '/home/someone', ACME_API_KEY: 'sk-from-the-shell-4242' }
    harness = await startHarness(
      [
        { id: 'g', envAgentArgs: ['--var', 'ACME_API_KEY', '--style', 'gemini'], secretEnv: ['ACME_API_KEY'], protocolVersion: 1 },
        { id: 'other', envAgentArgs: ['--var', 'OTHER_API_KEY', '--style', 'gemini'], secretEnv: ['OTHER_API_KEY'], protocolVersion: 1 },
      ],
      {},
      { environment },
    )
    expect(must(await harness.tools.handlers.listEnvironmentKeys({ agentId: 'g' }))).toEqual({ names: ['ACME_API_KEY'] })
    expect(must(await harness.tools.handlers.listEnvironmentKeys({ agentId: 'other' }))).toEqual({ names: [] })
    for (const name of ['PATH', 'HOME']) {
      expect(await harness.tools.handlers.useEnvironmentKey({ agentId: 'g', name })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    }
    expect(await harness.tools.handlers.useEnvironmentKey({ agentId: 'other', name: 'OTHER_API_KEY' })).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    expect(harness.secretStore.values.size).toBe(0)

    expect(must(await harness.tools.handlers.useEnvironmentKey({ agentId: 'g', name: 'ACME_API_KEY' }))).toEqual({ restarted: true })
    expect(harness.secretStore.values.get('g:ACME_API_KEY')).toBe('sk-from-the-shell-4242')
    must(await harness.newSession('g'))
  })

  it('a key an agent named in a failed login is never taken from Bosun’s environment (only the definition’s own keys are)', async () => {
    const environment = { PATH: process.env.PATH, OTHER_KEY: 'sk-someone-elses-7777', ACME_API_KEY: 'sk-also-set-8888' }
    harness = await startHarness([{ id: 'c', envAgentArgs: ['--var', 'ACME_API_KEY', '--style', 'codex'], protocolVersion: 1 }], {}, { environment })
    // The codex-style login names OTHER_KEY and ACME_API_KEY; neither is in the definition.
    expect(await harness.tools.handlers.loginAgent({ agentId: 'c', methodId: 'api-key' })).toMatchObject({ ok: false })
    expect(must(await harness.tools.handlers.listEnvironmentKeys({ agentId: 'c' }))).toEqual({ names: [] })
    for (const name of ['OTHER_KEY', 'ACME_API_KEY']) {
      expect(await harness.tools.handlers.useEnvironmentKey({ agentId: 'c', name })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    }
    expect(harness.secretStore.values.size).toBe(0)
  })

  it('an agent that quotes the key in its error details gets it redacted', async () => {
    harness = await startHarness([{ id: 'c', envAgentArgs: ['--var', 'ACME_API_KEY', '--style', 'codex', '--echo-secret-in-error'], secretEnv: ['ACME_API_KEY'], protocolVersion: 1 }], {
      'c:ACME_API_KEY': 'sk-quoted-secret-5678',
    })
    const failed = await harness.tools.handlers.loginAgent({ agentId: 'c', methodId: 'browser' })
    expect(failed).toMatchObject({ ok: false, error: { data: { key: '«redacted»' } } })
    expect(JSON.stringify(failed)).not.toContain('sk-quoted-secret-5678')
  })
})

describe('a login that takes its key in the request (`_meta["api-key"]`, as Gemini CLI)', () => {
  const KEY = 'AIza-test-key-0123456789'

  it('lists the method as taking a key; the key goes in _meta["api-key"], is not stored, and shows nowhere', async () => {
    harness = await startHarness([{ id: 'g', scenario: 'auth-api-key', protocolVersion: 1 }])
    expect(await harness.newSession('g')).toMatchObject({ ok: false, error: { kind: 'auth-required' } })

    const { methods } = must(await harness.tools.handlers.listAuthMethods({ agentId: 'g' }))
    expect(methods.find((m) => m.id === 'gemini-api-key')).toMatchObject({ type: 'agent', takesKey: true })
    // A method without the marker, or with one that is not an object, takes no key.
    expect(methods.find((m) => m.id === 'oauth-personal')!.takesKey).toBeUndefined()
    expect(methods.find((m) => m.id === 'odd-meta')!.takesKey).toBeUndefined()
    expect(await harness.tools.handlers.loginAgent({ agentId: 'g', methodId: 'oauth-personal', value: KEY })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })

    // Without the key the agent refuses, as Gemini CLI does; with it, the login goes through on the running agent.
    expect(await harness.tools.handlers.loginAgent({ agentId: 'g', methodId: 'gemini-api-key' })).toMatchObject({ ok: false })
    const pid = harness.supervisor.get('g')!.pid
    expect(must(await harness.tools.handlers.loginAgent({ agentId: 'g', methodId: 'gemini-api-key', value: KEY }))).toEqual({ restarted: false })
    expect(harness.supervisor.get('g')!.pid).toBe(pid)
    must(await harness.newSession('g'))

    // Nothing stored, the definition unchanged.
    expect([...harness.secretStore.values.keys()]).toEqual([])
    expect(harness.config.definitions.get('g')!.secretEnv).toEqual([])
    // The agent logged the request it got (with the key): Bosun's copy of its stderr and its inspector show it redacted.
    const log = must(await harness.tools.handlers.getAgentLog({ agentId: 'g' })).text
    expect(log).toMatch(/LOGIN .*"api-key"/)
    expect(log).not.toContain(KEY)
    const logins = (await sentMethods(harness, 'g')).filter((m) => m.method === 'authenticate')
    expect(logins.length).toBeGreaterThan(0)
    expect(JSON.stringify(logins)).not.toContain(KEY)
  })
})

describe('a key given in the login that the agent wants in its environment (codex-acp)', () => {
  it('is stored under the variables the agent named, the agent restarts with it and logs in: one paste', async () => {
    harness = await startHarness([{ id: 'c', envAgentArgs: ['--var', 'ACME_API_KEY', '--style', 'codex', '--api-key-meta'], protocolVersion: 1 }])
    const { methods } = must(await harness.tools.handlers.listAuthMethods({ agentId: 'c' }))
    expect(methods.find((m) => m.id === 'api-key')).toMatchObject({ type: 'agent', takesKey: true })

    const firstPid = harness.supervisor.get('c')!.pid
    const key = 'sk-codex-meta-0123456789'
    expect(must(await harness.tools.handlers.loginAgent({ agentId: 'c', methodId: 'api-key', value: key }))).toEqual({ restarted: true })
    // Both names it said it reads; never NODE_OPTIONS, which it named too.
    expect(harness.config.definitions.get('c')!.secretEnv).toEqual(['OTHER_KEY', 'ACME_API_KEY'])
    expect(harness.secretStore.values.get('c:ACME_API_KEY')).toBe(key)
    expect(harness.secretStore.values.get('c:NODE_OPTIONS')).toBeUndefined()
    expect(harness.supervisor.get('c')!.pid).not.toBe(firstPid)
    must(await harness.newSession('c'))
  })

  it('a second key, after the first one turned out wrong, replaces it where the agent reads it (not passed over for the stored one)', async () => {
    harness = await startHarness([{ id: 'c', envAgentArgs: ['--var', 'ACME_API_KEY', '--style', 'codex', '--api-key-meta'], protocolVersion: 1 }])
    expect(must(await harness.tools.handlers.loginAgent({ agentId: 'c', methodId: 'api-key', value: 'sk-codex-wrong-0123456789' }))).toEqual({ restarted: true })
    const firstPid = harness.supervisor.get('c')!.pid
    const right = 'sk-codex-right-0123456789'
    expect(must(await harness.tools.handlers.loginAgent({ agentId: 'c', methodId: 'api-key', value: right }))).toEqual({ restarted: true })
    expect(harness.secretStore.values.get('c:ACME_API_KEY')).toBe(right)
    expect(harness.secretStore.values.get('c:OTHER_KEY')).toBe(right)
    expect(harness.supervisor.get('c')!.pid).not.toBe(firstPid)
    expect(harness.config.definitions.get('c')!.secretEnv).toEqual(['OTHER_KEY', 'ACME_API_KEY'])
  })

  it('a key stored under names the definition already lists is announced: the Agents screen and the sign-in stop calling it not set', async () => {
    harness = await startHarness([{ id: 'c', envAgentArgs: ['--var', 'ACME_API_KEY', '--style', 'codex', '--api-key-meta'], protocolVersion: 1 }])
    must(await harness.tools.handlers.loginAgent({ agentId: 'c', methodId: 'api-key', value: 'sk-codex-wrong-0123456789' }))
    // Unset again (the person cleared them), then a key through the login: the same names, no definition change.
    for (const name of ['OTHER_KEY', 'ACME_API_KEY']) must(await harness.config.handlers.deleteAgentSecret({ agentId: 'c', name }))
    await harness.config.flush()
    const before = harness.sink.of('agentDefinitionsChanged').length
    expect(harness.sink.of('agentDefinitionsChanged').at(-1)!.agents[0]!.secretsSet).toEqual({ OTHER_KEY: false, ACME_API_KEY: false })
    must(await harness.tools.handlers.saveAgentKey({ agentId: 'c', name: 'ACME_API_KEY', value: 'sk-codex-right-0123456789' }))
    await harness.config.flush()
    expect(harness.sink.of('agentDefinitionsChanged').length).toBeGreaterThan(before)
    expect(harness.sink.of('agentDefinitionsChanged').at(-1)!.agents[0]!.secretsSet).toMatchObject({ ACME_API_KEY: true })
  })

  it('without a keychain: the agent’s refusal, nothing stored', async () => {
    harness = await startHarness([{ id: 'c', envAgentArgs: ['--var', 'ACME_API_KEY', '--style', 'codex', '--api-key-meta'], protocolVersion: 1 }])
    harness.secretStore.available = false
    const result = await harness.tools.handlers.loginAgent({ agentId: 'c', methodId: 'api-key', value: 'sk-codex-meta-0123456789' })
    expect(result).toMatchObject({ ok: false, error: { kind: 'keychain-unavailable' } })
    expect(harness.config.definitions.get('c')!.secretEnv).toEqual([])
  })
})
