/**
 * The agent tools calls (connection check, login, logs, protocol inspector) as the Agents screen uses them;
 * their types come from `preload/contract/agent-tools.ts`.
 *
 * Reaching them through {@link agentTools} keeps the screen working against a host that does not offer
 * them (an older browser host, a partial fake): a missing call answers `not-available` (shown as a
 * message) and a missing event never fires, instead of throwing.
 */
import type { BosunApi, IpcFailure } from '../../../common/contract'
import type { CheckResult } from '../../../common/contract/agent-tools'

export type { AgentAccountView, AuthMethodView, CheckResult, InspectorMessage } from '../../../common/contract/agent-tools'
export type CapabilityView = CheckResult['capabilities'][number]

export type AgentToolsApi = Pick<
  BosunApi,
  | 'checkAgentConnection'
  | 'listAuthMethods'
  | 'loginAgent'
  | 'saveAgentKey'
  | 'listEnvironmentKeys'
  | 'useEnvironmentKey'
  | 'startAuthTerminal'
  | 'authTerminalInput'
  | 'closeAuthTerminal'
  | 'onAuthTerminalOutput'
  | 'onAgentAccount'
  | 'logoutAgent'
  | 'cancelAgentLogin'
  | 'getAgentLog'
  | 'onAgentLog'
  | 'listInspectorMessages'
  | 'onInspectorMessages'
  | 'exportInspector'
  | 'clearInspector'
  | 'watchInspector'
>

const CALLS = [
  'checkAgentConnection',
  'listAuthMethods',
  'loginAgent',
  'saveAgentKey',
  'listEnvironmentKeys',
  'useEnvironmentKey',
  'startAuthTerminal',
  'authTerminalInput',
  'closeAuthTerminal',
  'logoutAgent',
  'cancelAgentLogin',
  'getAgentLog',
  'listInspectorMessages',
  'exportInspector',
  'clearInspector',
  'watchInspector',
] as const
const EVENTS = ['onAuthTerminalOutput', 'onAgentAccount', 'onAgentLog', 'onInspectorMessages'] as const

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
