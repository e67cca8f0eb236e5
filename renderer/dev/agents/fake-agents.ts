/**
 * A fake `BosunApi` for the Agents screen preview: canned definitions, presets, runtime status, a
 * connection check, auth methods with a scripted terminal, a stderr log that keeps growing, and an
 * inspector with a real-looking exchange. No backend, no network.
 */
import type { BosunApi, CallResult } from '../../../common/contract'
import type { AgentDefinitionView, AgentDraft, AgentPresetView } from '../../../common/contract/agents'
import type { AgentRuntimeView } from '../../../common/session/types'
import type { AuthMethodView, CheckResult, InspectorMessage } from '../../screens/agents/agent-tools-api'

type Listener = (payload: unknown) => void
const ok = <T>(value: T): Promise<CallResult<T>> => Promise.resolve({ ok: true, value })
const fail = (kind: string, message: string, extra: Record<string, unknown> = {}) => Promise.resolve({ ok: false as const, error: { kind, message, ...extra } })

export const PRESETS: AgentPresetView[] = [
  { id: 'claude', name: 'Claude', description: "Anthropic's Claude Code through the ACP adapter.", command: 'npx', args: ['-y', '@agentclientprotocol/claude-agent-acp'], argsText: '-y @agentclientprotocol/claude-agent-acp', env: {}, secretEnv: ['ANTHROPIC_API_KEY'] },
  { id: 'codex', name: 'Codex', description: "OpenAI's Codex CLI through the ACP adapter.", command: 'npx', args: ['-y', '@agentclientprotocol/codex-acp'], argsText: '-y @agentclientprotocol/codex-acp', env: {}, secretEnv: ['OPENAI_API_KEY'] },
  { id: 'gemini', name: 'Gemini CLI', description: "Google's Gemini CLI in ACP mode.", command: 'gemini', args: ['--acp'], argsText: '--acp', env: {}, secretEnv: ['GEMINI_API_KEY'] },
  { id: 'goose', name: 'goose', description: "Block's goose agent speaking ACP.", command: 'goose', args: ['acp'], argsText: 'acp', env: {}, secretEnv: [] },
  { id: 'opencode', name: 'OpenCode', description: 'The OpenCode terminal agent in ACP mode.', command: 'opencode', args: ['acp'], argsText: 'acp', env: {}, secretEnv: [] },
  { id: 'custom', name: 'Custom', description: 'Any program that speaks ACP over stdio.', command: '', args: [], argsText: '', env: {}, secretEnv: [] },
]

const DEFINITIONS: AgentDefinitionView[] = [
  {
    id: 'claude', name: 'Claude', command: 'npx', args: ['-y', '@agentclientprotocol/claude-agent-acp'], argsText: '-y @agentclientprotocol/claude-agent-acp',
    env: { CLAUDE_CODE_LOG: 'info' }, secretEnv: ['ANTHROPIC_API_KEY'], secretsSet: { ANTHROPIC_API_KEY: true }, defaultCwd: '/home/ada/src/webshop', presetId: 'claude',
  },
  { id: 'codex', name: 'Codex', command: 'npx', args: ['-y', '@agentclientprotocol/codex-acp'], argsText: '-y @agentclientprotocol/codex-acp', env: {}, secretEnv: ['OPENAI_API_KEY'], secretsSet: { OPENAI_API_KEY: false }, presetId: 'codex' },
  { id: 'gemini', name: 'Gemini CLI', command: 'gemini', args: ['--acp'], argsText: '--acp', env: {}, secretEnv: [], secretsSet: {}, protocolVersion: 2, presetId: 'gemini' },
  { id: 'local', name: 'My local agent', command: '/home/ada/bin/my-agent', args: ['--stdio', 'a value with spaces'], argsText: '--stdio "a value with spaces"', env: {}, secretEnv: [], secretsSet: {} },
]

const RUNTIME: AgentRuntimeView[] = [
  { agentId: 'claude', name: 'Claude', status: 'ready', pid: 48213, protocolVersion: 1, agentInfo: { name: 'claude-agent-acp', title: 'Claude Code', version: '0.21.4' } },
  { agentId: 'codex', name: 'Codex', status: 'stopped' },
  { agentId: 'gemini', name: 'Gemini CLI', status: 'starting', pid: 48302 },
  {
    agentId: 'local', name: 'My local agent', status: 'crashed', crashCount: 3,
    error: { kind: 'agent-exited', message: 'The agent exited with code 1 before answering initialize.', stderrTail: "Error: Cannot find module './config.json'\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)\n    at main (/home/ada/bin/my-agent:12:3)" },
  },
]

const CHECKS: Record<string, CheckResult> = {
  claude: {
    ok: true, agentName: 'Claude', agentInfo: { name: 'claude-agent-acp', title: 'Claude Code', version: '0.21.4' }, protocolVersion: 1, durationMs: 1840,
    capabilities: [
      { label: 'Loads earlier sessions', supported: true },
      { label: 'Resumes sessions', supported: true },
      { label: 'Lists sessions', supported: false },
      { label: 'Images in prompts', supported: true },
      { label: 'Audio in prompts', supported: false },
      { label: 'Embedded context (files) in prompts', supported: true },
      { label: 'MCP servers over HTTP', supported: true },
      { label: 'MCP servers over SSE', supported: false },
      { label: 'Additional folders', supported: false },
      { label: 'Signs out', supported: true },
    ],
    authMethods: [
      { id: 'claude-login', name: 'Log in with Claude', description: 'Opens claude.ai in your browser to sign in with your subscription.', type: 'agent' },
      { id: 'anthropic-api-key', name: 'Anthropic API key', type: 'env_var' },
    ],
  },
  local: {
    ok: false, agentName: 'My local agent', agentInfo: null, protocolVersion: null, capabilities: [], authMethods: [], durationMs: 312,
    error: { kind: 'agent-exited', message: 'The agent exited with code 1 before answering initialize.', stderrTail: "node:internal/modules/cjs/loader:1228\n  throw err;\n  ^\n\nError: Cannot find module './config.json'\nRequire stack:\n- /home/ada/bin/my-agent\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)\n    at main (/home/ada/bin/my-agent:12:3) {\n  code: 'MODULE_NOT_FOUND'\n}\n\nNode.js v20.20.0" },
  },
}

const AUTH: Record<string, AuthMethodView[]> = {
  claude: [
    { id: 'claude-login', name: 'Log in with Claude', description: 'Opens claude.ai in your browser to sign in with your subscription.', type: 'agent' },
    { id: 'anthropic-api-key', name: 'Anthropic API key', description: 'Use a key from console.anthropic.com instead of a subscription.', type: 'env_var', envName: 'ANTHROPIC_API_KEY' },
    { id: 'setup-token', name: 'Long-lived token', description: 'Runs `claude setup-token` so you can paste the code it prints.', type: 'terminal' },
  ],
  codex: [
    { id: 'chatgpt', name: 'Sign in with ChatGPT', type: 'agent' },
    { id: 'openai-api-key', name: 'OpenAI API key', type: 'env_var', envName: 'OPENAI_API_KEY' },
  ],
}

const LOG_LINES = [
  '[claude-agent-acp] starting (node v20.20.0, pid 48213)',
  '[claude-agent-acp] protocol version 1 negotiated',
  '[claude-agent-acp] \x1b[32mready\x1b[0m: 14 tools, 3 MCP servers',
  '[mcp:filesystem] connected over stdio',
  '[mcp:github] connected over http (https://api.githubcopilot.com/mcp/)',
  'warn: slow response from api.anthropic.com (2.3 s)',
  '[session 8f3c] prompt received (2 blocks)',
  '[session 8f3c] tool call Read src/auth/middleware.ts',
  '[session 8f3c] tool call Edit src/auth/middleware.ts (awaiting permission)',
]

function inspectorMessages(start: number): InspectorMessage[] {
  const t = start
  const initReq = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true }, clientInfo: { name: 'bosun', version: '0.1.0' } } }
  const initRes = { jsonrpc: '2.0', id: 0, result: { protocolVersion: 1, agentInfo: { name: 'claude-agent-acp', title: 'Claude Code', version: '0.21.4' }, agentCapabilities: { loadSession: true, promptCapabilities: { image: true, audio: false, embeddedContext: true }, mcpCapabilities: { http: true, sse: false } }, authMethods: [{ id: 'claude-login', name: 'Log in with Claude' }] } }
  const sess = '8f3c2a7e-61d4-4c4b-9d0f-3b2e1a0c9d11'
  const m = (seq: number, dt: number, rest: Omit<InspectorMessage, 'seq' | 'time' | 'bytes'>): InspectorMessage => ({ seq, time: t + dt, bytes: JSON.stringify(rest.message).length, ...rest })
  return [
    m(1, 0, { direction: 'out', kind: 'request', method: 'initialize', id: 0, message: initReq }),
    m(2, 412, { direction: 'in', kind: 'response', method: 'initialize', id: 0, latencyMs: 412, message: initRes }),
    m(3, 430, { direction: 'out', kind: 'request', method: 'session/new', id: 1, message: { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/home/ada/src/webshop', mcpServers: [] } } }),
    m(4, 1210, { direction: 'in', kind: 'response', method: 'session/new', id: 1, sessionId: sess, latencyMs: 780, message: { jsonrpc: '2.0', id: 1, result: { sessionId: sess, modes: { currentModeId: 'default', availableModes: [{ id: 'default', name: 'Default' }, { id: 'plan', name: 'Plan' }] } } } }),
    m(5, 5020, { direction: 'out', kind: 'request', method: 'session/prompt', id: 2, sessionId: sess, message: { jsonrpc: '2.0', id: 2, method: 'session/prompt', params: { sessionId: sess, prompt: [{ type: 'text', text: 'Why does login fail for anonymous users?' }] } } }),
    m(6, 5630, { direction: 'in', kind: 'notification', method: 'session/update', sessionId: sess, message: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: sess, update: { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'Looking at the middleware…' } } } } }),
    m(7, 5900, { direction: 'in', kind: 'request', method: 'fs/read_text_file', id: 0, sessionId: sess, message: { jsonrpc: '2.0', id: 0, method: 'fs/read_text_file', params: { sessionId: sess, path: '/home/ada/src/webshop/src/auth/middleware.ts' } } }),
    m(8, 5904, { direction: 'out', kind: 'response', method: 'fs/read_text_file', id: 0, sessionId: sess, latencyMs: 4, message: { jsonrpc: '2.0', id: 0, result: { content: 'export async function authenticate(req) {\n  …\n}\n' } } }),
    m(9, 6400, { direction: 'in', kind: 'request', method: 'session/request_permission', id: 1, sessionId: sess, message: { jsonrpc: '2.0', id: 1, method: 'session/request_permission', params: { sessionId: sess, toolCall: { toolCallId: 'call_7', title: 'Edit src/auth/middleware.ts' }, options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }, { optionId: 'reject', name: 'Reject', kind: 'reject_once' }] } } }),
    m(10, 9100, { direction: 'out', kind: 'response', method: 'session/request_permission', id: 1, sessionId: sess, latencyMs: 2700, message: { jsonrpc: '2.0', id: 1, result: { outcome: { outcome: 'selected', optionId: 'allow' } } } }),
    m(11, 9300, { direction: 'in', kind: 'notification', method: 'session/update', sessionId: sess, message: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: sess, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Fixed: the middleware now awaits verifyToken().' } } } } }),
    m(12, 9800, { direction: 'in', kind: 'error', method: 'session/set_mode', id: 3, sessionId: sess, latencyMs: 35, message: { jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'Unknown mode: turbo' } } }),
    m(13, 10240, { direction: 'in', kind: 'response', method: 'session/prompt', id: 2, sessionId: sess, latencyMs: 5220, message: { jsonrpc: '2.0', id: 2, result: { stopReason: 'end_turn' } } }),
  ]
}

export function createFakeAgentsBosun(options: { keychainAvailable?: boolean; liveLogMs?: number; corrupt?: boolean } = {}) {
  const listeners = new Map<string, Set<Listener>>()
  const emit = (name: string, payload: unknown) => {
    for (const l of [...(listeners.get(name) ?? [])]) l(payload)
  }
  const on = (name: string) => (listener: Listener) => {
    if (!listeners.has(name)) listeners.set(name, new Set())
    listeners.get(name)!.add(listener)
    return () => void listeners.get(name)!.delete(listener)
  }
  let definitions = DEFINITIONS.map((d) => ({ ...d }))
  const runtime = new Map(RUNTIME.map((r) => [r.agentId, { ...r }]))
  const logs = new Map<string, string>([['claude', LOG_LINES.join('\n') + '\n'], ['local', CHECKS.local!.error!.stderrTail + '\n']])
  const inspector = new Map<string, InspectorMessage[]>([['claude', inspectorMessages(Date.UTC(2026, 10, 22, 9, 14, 3, 120) + new Date().getTimezoneOffset() * 60_000)]])
  const keychainAvailable = options.keychainAvailable ?? true
  let nextSeq = 100
  let logLine = 0
  const timers = new Set<ReturnType<typeof setTimeout>>()
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t)
      fn()
    }, ms)
    timers.add(t)
  }
  const changed = () => emit('agentDefinitionsChanged', { agents: definitions, warning: null })
  const setStatus = (agentId: string, patch: Partial<AgentRuntimeView>) => {
    const cur = runtime.get(agentId) ?? { agentId, name: agentId, status: 'stopped' as const }
    const next = { ...cur, ...patch }
    runtime.set(agentId, next)
    emit('agentStatus', next)
  }
  if (options.liveLogMs) {
    const tick = () => {
      const line = `[session 8f3c] heartbeat ${++logLine}\n`
      logs.set('claude', (logs.get('claude') ?? '') + line)
      emit('agentLog', { agentId: 'claude', text: line })
      later(options.liveLogMs!, tick)
    }
    later(options.liveLogMs, tick)
  }

  const validate = (draft: AgentDraft) => {
    const errors: Record<string, string> = {}
    if (!draft.name.trim()) errors.name = 'Give the agent a name.'
    if (!draft.command.trim()) errors.command = 'Enter the program to run.'
    else if (draft.command.includes('missing')) errors.command = `"${draft.command}" was not found on PATH.`
    const quotes = (draft.argsText.match(/"/g) ?? []).length
    if (quotes % 2) errors.args = 'A quote is not closed.'
    const argv = quotes % 2 ? null : (draft.argsText.match(/"[^"]*"|\S+/g) ?? []).map((a) => a.replace(/^"|"$/g, ''))
    return { errors, argv }
  }

  const calls = {
    listAgentDefinitions: () =>
      ok({
        agents: definitions,
        warning: options.corrupt
          ? { status: 'corrupt' as const, message: 'agents.json is not valid JSON (line 14, column 3).', backupPath: '/home/ada/.config/Bosun/agents.json.corrupt-2026-11-22T09-10-00' }
          : null,
      }),
    listPresets: () => ok(PRESETS),
    getKeychainStatus: () => ok(keychainAvailable ? { available: true } : { available: false, message: 'No Secret Service provider on the session bus (org.freedesktop.secrets).' }),
    getSnapshot: () => ok({ agents: [...runtime.values()], sessions: [] }),
    listAgentMcpServers: () => ok({ servers: [{ id: 'filesystem', name: 'filesystem', transport: 'stdio' as const, passed: true }] }),
    validateAgentDefinition: ({ draft }: { draft: AgentDraft }) => ok(validate(draft)),
    saveAgentDefinition: ({ draft, secrets }: { draft: AgentDraft; secrets?: Record<string, string> }) => {
      const { errors, argv } = validate(draft)
      if (Object.keys(errors).length > 0) return fail('invalid-argument', 'Fix the marked fields.', { data: errors })
      const id = draft.id ?? draft.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')
      const prev = definitions.find((d) => d.id === id)
      const view: AgentDefinitionView = {
        id, name: draft.name, command: draft.command, args: argv ?? [], argsText: draft.argsText,
        env: Object.fromEntries(draft.env.filter((r) => r.name).map((r) => [r.name, r.value])), secretEnv: draft.secretEnv.filter(Boolean),
        secretsSet: Object.fromEntries(draft.secretEnv.filter(Boolean).map((n) => [n, Boolean(secrets?.[n]) || prev?.secretsSet[n] === true])),
        ...(draft.defaultCwd ? { defaultCwd: draft.defaultCwd } : {}), ...(draft.protocolVersion ? { protocolVersion: draft.protocolVersion } : {}), ...(draft.presetId ? { presetId: draft.presetId } : {}),
      }
      definitions = prev ? definitions.map((d) => (d.id === id ? view : d)) : [...definitions, view]
      if (!runtime.has(id)) runtime.set(id, { agentId: id, name: view.name, status: 'stopped' })
      changed()
      return ok({ agent: view })
    },
    removeAgentDefinition: ({ agentId }: { agentId: string }) => {
      definitions = definitions.filter((d) => d.id !== agentId)
      changed()
      return ok(undefined)
    },
    deleteAgentSecret: ({ agentId, name }: { agentId: string; name: string }) => {
      definitions = definitions.map((d) => (d.id === agentId ? { ...d, secretsSet: { ...d.secretsSet, [name]: false } } : d))
      changed()
      return ok(undefined)
    },
    restartAgent: ({ agentId }: { agentId: string }) => {
      setStatus(agentId, { status: 'starting', error: null })
      later(700, () => setStatus(agentId, { status: 'ready', pid: 50000 + Math.floor(Math.random() * 999) }))
      return ok(undefined)
    },
    stopAgent: ({ agentId }: { agentId: string }) => {
      setStatus(agentId, { status: 'stopped', pid: null, error: null })
      return ok(undefined)
    },
    checkAgentConnection: ({ agentId }: { agentId: string }) =>
      new Promise<CallResult<CheckResult>>((resolve) => {
        const name = definitions.find((d) => d.id === agentId)?.name ?? agentId
        const result: CheckResult = CHECKS[agentId] ?? { ok: true, agentName: name, agentInfo: { name }, protocolVersion: 1, capabilities: [{ label: 'Loads earlier sessions', supported: false }], authMethods: AUTH[agentId] ?? [], durationMs: 900 }
        later(500, () => {
          const msgs = inspectorMessages(Date.now() - 500).slice(0, 2).map((m) => ({ ...m, seq: ++nextSeq, origin: 'check' as const }))
          inspector.set(agentId, [...(inspector.get(agentId) ?? []), ...msgs])
          emit('inspectorMessages', { agentId, messages: msgs })
          resolve({ ok: true, value: result })
        })
      }),
    listAuthMethods: ({ agentId }: { agentId: string }) => ok({ methods: AUTH[agentId] ?? [] }),
    loginAgent: ({ methodId, value }: { agentId: string; methodId: string; value?: string }) =>
      new Promise<CallResult<{ restarted: boolean }>>((resolve) => later(400, () => resolve({ ok: true, value: { restarted: value !== undefined || methodId.endsWith('key') } }))),
    listEnvironmentKeys: () => ok({ names: [] }),
    useEnvironmentKey: () => new Promise<CallResult<{ restarted: true }>>((resolve) => later(400, () => resolve({ ok: true, value: { restarted: true } }))),
    saveAgentKey: () => new Promise<CallResult<{ restarted: true }>>((resolve) => later(400, () => resolve({ ok: true, value: { restarted: true } }))),
    startAuthTerminal: ({ methodId }: { agentId: string; methodId: string }) => {
      const terminalId = `term-${methodId}-${Date.now()}`
      later(150, () => emit('authTerminalOutput', { terminalId, data: '\x1b[1m$ claude setup-token\x1b[0m\r\n\x1b]8;;https://claude.ai/oauth/authorize?code=true\x07Open this link\x1b]8;;\x07 in your browser:\r\nhttps://claude.ai/oauth/authorize?code=true&client_id=…\r\n\r\nPaste code here if prompted > ' }))
      return ok({ terminalId })
    },
    authTerminalInput: ({ terminalId, data }: { terminalId: string; data: string }) => {
      later(200, () => {
        emit('authTerminalOutput', { terminalId, data: `${'*'.repeat(Math.max(0, data.length - 1))}\r\n\x1b[32m✓ Long-lived token created and saved.\x1b[0m\r\n` })
        emit('authTerminalOutput', { terminalId, data: '', exit: { code: 0, signal: null } })
      })
      return ok(undefined)
    },
    closeAuthTerminal: () => ok(undefined),
    logoutAgent: ({ agentId }: { agentId: string }) => (agentId === 'claude' ? ok(undefined) : fail('not-supported', 'This agent does not support logging out (no logout method).')),
    getAgentLog: ({ agentId }: { agentId: string }) => ok({ text: logs.get(agentId) ?? '', truncated: agentId === 'claude' }),
    listInspectorMessages: ({ agentId }: { agentId: string }) => ok({ messages: inspector.get(agentId) ?? [], dropped: 0 }),
    exportInspector: ({ agentId }: { agentId: string }) => ok({ fileName: `bosun-inspector-${agentId}.json`, content: JSON.stringify(inspector.get(agentId) ?? [], null, 2) }),
    clearInspector: ({ agentId }: { agentId: string }) => {
      inspector.set(agentId, [])
      return ok(undefined)
    },
  }

  const api = new Proxy(calls as Record<string, unknown>, {
    get(target, prop: string) {
      if (prop in target) return target[prop]
      if (/^on[A-Z]/.test(prop)) return on(prop[2]!.toLowerCase() + prop.slice(3))
      return () => fail('not-available', `${prop} is not in the dev fake`)
    },
  }) as unknown as BosunApi

  return {
    api,
    /** Pushes one more inspector message for an agent (as main would). */
    pushInspector(agentId: string, message: Omit<InspectorMessage, 'seq'>) {
      const full = { ...message, seq: ++nextSeq }
      inspector.set(agentId, [...(inspector.get(agentId) ?? []), full])
      emit('inspectorMessages', { agentId, messages: [full] })
    },
    dispose() {
      for (const t of timers) clearTimeout(t)
      timers.clear()
    },
  }
}
