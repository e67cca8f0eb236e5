import { afterEach, describe, expect, it } from 'vitest'
import { agentToolsCalls } from '../../../common/contract/agent-tools'
import { must, startHarness, type Harness } from './harness'

let harness: Harness | undefined
afterEach(async () => {
  await harness?.dispose()
  harness = undefined
})

const labels = [
  'Loads earlier sessions',
  'Resumes sessions',
  'Lists sessions',
  'Images in prompts',
  'Audio in prompts',
  'Embedded context (files) in prompts',
  'MCP servers over HTTP',
  'MCP servers over SSE',
  'Additional folders',
  'Signs out',
]

describe('check connection', () => {
  it('v1: name, version, protocol, capabilities in words, auth methods; the agent is stopped after', async () => {
    harness = await startHarness([{ id: 'a', name: 'Agent A', scenario: 'auth-v1' }])
    const result = must(await harness.tools.handlers.checkAgentConnection({ agentId: 'a' }))
    expect(result).toMatchObject({ ok: true, agentName: 'Agent A', protocolVersion: 1 })
    expect(result.capabilities.map((c) => c.label)).toEqual(labels)
    const supported = Object.fromEntries(result.capabilities.map((c) => [c.label, c.supported]))
    expect(supported).toMatchObject({ 'Loads earlier sessions': true, 'Resumes sessions': true, 'Images in prompts': true, 'Audio in prompts': false, 'Signs out': true })
    expect(result.authMethods).toEqual([
      { id: 'login', name: 'Log in', description: 'Log in with the agent', type: 'agent' },
      { id: 'term', name: 'Terminal login', type: 'terminal' },
    ])
    expect(result.error).toBeUndefined()
    // The answer is exactly the contract's shape (strict: no extra keys).
    expect(() => agentToolsCalls.checkAgentConnection.output.parse(result)).not.toThrow()
    // A separate process: the supervisor (sessions' agent) was never started.
    expect(harness.supervisor.get('a')).toBeUndefined()
    // Its exchange is in the agent's inspector, marked as coming from the check.
    const { messages } = must(await harness.tools.handlers.listInspectorMessages({ agentId: 'a', method: 'initialize' }))
    expect(messages.map((m) => [m.direction, m.kind, m.origin])).toEqual(
      expect.arrayContaining([
        ['out', 'request', 'check'],
        ['in', 'response', 'check'],
      ]),
    )
  })

  it('v2 scripted agent: agent info, protocol 2, its capabilities', async () => {
    harness = await startHarness([{ id: 'b', name: 'Agent B', scenario: 'basic', v2: true }])
    const result = must(await harness.tools.handlers.checkAgentConnection({ agentId: 'b' }))
    expect(result).toMatchObject({ ok: true, protocolVersion: 2, agentInfo: { name: 'scripted', title: 'Scripted agent', version: '1.0.0' } })
    expect(result.capabilities.map((c) => c.label)).toEqual(labels)
    expect(result.durationMs).toBeGreaterThanOrEqual(0)
  })

  it('v2 auth methods: agent, terminal and an unknown type shown generically', async () => {
    harness = await startHarness([{ id: 'c', scenario: 'auth-v2', v2: true }])
    const result = must(await harness.tools.handlers.checkAgentConnection({ agentId: 'c' }))
    expect(result.authMethods.map((m) => [m.id, m.type])).toEqual([
      ['login', 'agent'],
      ['term', 'terminal'],
      ['odd', '_acme'],
    ])
    expect(result.capabilities.find((c) => c.label === 'Signs out')?.supported).toBe(true)
  })

  it("claude-agent-acp 0.101.0's two \"Custom model gateway\" methods are told apart by the API their gateway speaks", async () => {
    // Its real initialize answer to a client offering `auth._meta.gateway`: the two methods differ only there.
    harness = await startHarness([{ id: 'cl', scenario: 'claude-gateway-methods' }])
    const result = must(await harness.tools.handlers.checkAgentConnection({ agentId: 'cl' }))
    expect(result.authMethods.map((m) => [m.id, m.name, m.gateway, m.gatewayProtocol])).toEqual([
      ['claude-ai-login', 'Claude Subscription', undefined, undefined],
      ['console-login', 'Anthropic Console', undefined, undefined],
      ['gateway', 'Custom model gateway', true, 'anthropic'],
      ['gateway-bedrock', 'Custom model gateway', true, 'bedrock'],
    ])
    expect(() => agentToolsCalls.checkAgentConnection.output.parse(result)).not.toThrow()
  })

  it('an agent that exits at start is a failed check with its stderr tail, not a call failure', async () => {
    harness = await startHarness([{ id: 'x', name: 'Broken', scenario: 'exit-at-start' }])
    const result = must(await harness.tools.handlers.checkAgentConnection({ agentId: 'x' }))
    expect(result.ok).toBe(false)
    expect(result.agentName).toBe('Broken')
    expect(result.protocolVersion).toBeNull()
    expect(result.error?.kind).toBe('agent-exited')
    expect(result.error?.message).toContain('code 7')
    expect(result.error?.stderrTail).toContain('error: missing API key')
    expect(() => agentToolsCalls.checkAgentConnection.output.parse(result)).not.toThrow()
  })

  it('an agent that refuses initialize with a JSON-RPC error is told in its words: no "Internal error: ", data’s words as text, the rest as JSON', async () => {
    harness = await startHarness([{ id: 'o', name: 'OpenCode', scenario: 'initialize-internal-error' }])
    const result = must(await harness.tools.handlers.checkAgentConnection({ agentId: 'o' }))
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'rpc-error', message: 'Provider openai could not start', details: 'OPENAI_API_KEY is not set for provider openai' },
    })
    expect(JSON.parse(result.error!.data!)).toEqual({ message: 'OPENAI_API_KEY is not set for provider openai', providerID: 'openai', name: 'ProviderAuthError' })
    expect(() => agentToolsCalls.checkAgentConnection.output.parse(result)).not.toThrow()
  })

  it('a command that does not exist is a failed check', async () => {
    harness = await startHarness([{ id: 'y', scenario: 'basic' }])
    const def = harness.config.definitions.get('y')!
    must(await harness.config.definitions.save({ ...def, command: '/nonexistent/agent-binary' }))
    const result = must(await harness.tools.handlers.checkAgentConnection({ agentId: 'y' }))
    expect(result).toMatchObject({ ok: false, error: { kind: 'agent-spawn-failed' } })
  })

  it('asked again while it runs, the same check answers (one process); a fifth agent at once is refused', async () => {
    harness = await startHarness(['s1', 's2', 's3', 's4', 's5'].map((id) => ({ id, scenario: 'slow-initialize', protocolVersion: 1 as const })))
    const checks = Array.from({ length: 5 }, () => harness!.tools.handlers.checkAgentConnection({ agentId: 's1' }))
    const others = ['s2', 's3', 's4'].map((agentId) => harness!.tools.handlers.checkAgentConnection({ agentId }))
    expect(await harness.tools.handlers.checkAgentConnection({ agentId: 's5' })).toMatchObject({ ok: false, error: { kind: 'invalid-argument', message: expect.stringContaining('already running') } })
    const results = await Promise.all(checks)
    for (const result of results) expect(must(result)).toBe(must(results[0]!))
    expect(must(results[0]!)).toMatchObject({ ok: true, agentInfo: { name: 'slow-starter' } })
    const initializes = must(await harness.tools.handlers.listInspectorMessages({ agentId: 's1', method: 'initialize' })).messages.filter((m) => m.direction === 'out')
    expect(initializes).toHaveLength(1)
    for (const other of await Promise.all(others)) expect(must(other)).toMatchObject({ ok: true })
    // Done: the fifth may run now.
    expect(must(await harness.tools.handlers.checkAgentConnection({ agentId: 's5' }))).toMatchObject({ ok: true })
  })

  it('an unknown agent id fails the call', async () => {
    harness = await startHarness([])
    const result = await harness.tools.handlers.checkAgentConnection({ agentId: 'nope' })
    expect(result).toMatchObject({ ok: false, error: { kind: 'not-found' } })
  })
})
