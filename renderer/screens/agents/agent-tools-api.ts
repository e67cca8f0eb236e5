/**
 * The agent tools calls (connection check, login, logs, protocol inspector) as the Agents screen uses them.
 *
 * These mirror `preload/contract/agent-tools.ts`. Reaching them through {@link agentTools} keeps the screen
 * working against any `BosunApi`: a call the host does not offer answers `not-available` (shown as a
 * message) and an event it does not offer never fires, instead of throwing.
 */
import type { BosunApi, CallResult, IpcFailure } from '../../../preload/contract'

export interface AgentInfoView {
  name: string
  title?: string
  version?: string
}

/** One capability in plain words ("Loads earlier sessions") and whether the agent offers it. */
export interface CapabilityView {
  label: string
  supported: boolean
}

/** `agent` = the agent logs in itself; `env_var` = a value we store and pass in; `terminal` = an interactive command. */
export interface AuthMethodView {
  id: string
  name: string
  description?: string
  type: string
  envName?: string
}

export interface CheckResult {
  ok: boolean
  agentName: string
  agentInfo: AgentInfoView | null
  protocolVersion: 1 | 2 | null
  capabilities: CapabilityView[]
  authMethods: AuthMethodView[]
  error?: IpcFailure
  durationMs: number
}

export interface InspectorMessage {
  seq: number
  /** Epoch ms. */
  time: number
  /** `in` = agent → Bosun, `out` = Bosun → agent. */
  direction: 'in' | 'out'
  kind: 'request' | 'response' | 'notification' | 'error' | 'invalid'
  method?: string
  id?: string | number
  sessionId?: string
  latencyMs?: number
  bytes: number
  message: unknown
}

export interface AgentToolsApi {
  checkAgentConnection(arg: { agentId: string }): Promise<CallResult<CheckResult>>
  listAuthMethods(arg: { agentId: string }): Promise<CallResult<{ methods: AuthMethodView[] }>>
  loginAgent(arg: { agentId: string; methodId: string; value?: string }): Promise<CallResult<{ restarted: boolean }>>
  startAuthTerminal(arg: { agentId: string; methodId: string }): Promise<CallResult<{ terminalId: string }>>
  authTerminalInput(arg: { terminalId: string; data: string }): Promise<CallResult<unknown>>
  closeAuthTerminal(arg: { terminalId: string }): Promise<CallResult<unknown>>
  onAuthTerminalOutput(listener: (payload: { terminalId: string; data: string; exit?: { code: number | null; signal?: string | null } | null }) => void): () => void
  logoutAgent(arg: { agentId: string }): Promise<CallResult<unknown>>
  getAgentLog(arg: { agentId: string; maxBytes?: number }): Promise<CallResult<{ text: string; truncated: boolean }>>
  onAgentLog(listener: (payload: { agentId: string; text: string }) => void): () => void
  listInspectorMessages(arg: {
    agentId: string
    method?: string
    sessionId?: string
    limit?: number
  }): Promise<CallResult<{ messages: InspectorMessage[]; dropped: number }>>
  onInspectorMessages(listener: (payload: { agentId: string; messages: InspectorMessage[] }) => void): () => void
  exportInspector(arg: { agentId: string }): Promise<CallResult<{ fileName: string; content: string }>>
  clearInspector(arg: { agentId: string }): Promise<CallResult<unknown>>
}

const CALLS = [
  'checkAgentConnection',
  'listAuthMethods',
  'loginAgent',
  'startAuthTerminal',
  'authTerminalInput',
  'closeAuthTerminal',
  'logoutAgent',
  'getAgentLog',
  'listInspectorMessages',
  'exportInspector',
  'clearInspector',
] as const
const EVENTS = ['onAuthTerminalOutput', 'onAgentLog', 'onInspectorMessages'] as const

/** The tools part of `api`, with missing calls answering `not-available` and missing events never firing. */
export function agentTools(api: BosunApi): AgentToolsApi {
  const source = api as unknown as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const name of CALLS) {
    const fn = source[name]
    out[name] =
      typeof fn === 'function'
        ? (arg: unknown) => (fn as (a: unknown) => Promise<unknown>).call(api, arg)
        : () => Promise.resolve({ ok: false, error: { kind: 'not-available', message: `This version of Bosun cannot ${name} yet.` } })
  }
  for (const name of EVENTS) {
    const fn = source[name]
    out[name] = typeof fn === 'function' ? (listener: unknown) => (fn as (l: unknown) => () => void).call(api, listener) : () => () => undefined
  }
  return out as unknown as AgentToolsApi
}

/** A failure as one line for a message area. */
export const failureText = (error: IpcFailure): string => error.message || error.kind
