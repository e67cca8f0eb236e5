/**
 * How Bosun signs in with an agent's auth method: pure, shared by the agent tools (sign-in, the Login tab), the
 * connection check and the connection's -32000 handling.
 */
import { methodMeta, record } from '../acp/handshake'
import type { AuthMethodSummary } from '../acp/types'
import { ENV_NAME_PATTERN } from '../config/agent-definitions'
import type { AuthMethodView } from '../../common/contract/agent-tools'

/** The variable an env-var auth method puts its value in (v1 legacy `varName` / `vars[]`), if it names one. */
export function envVarOf(method: AuthMethodSummary): string | undefined {
  const raw = method.raw as Record<string, unknown> | null
  if (!raw || typeof raw !== 'object') return undefined
  const candidates: unknown[] = [raw.varName]
  if (Array.isArray(raw.vars)) for (const v of raw.vars) candidates.push((v as Record<string, unknown> | null)?.name)
  return candidates.find((c): c is string => typeof c === 'string' && ENV_NAME_PATTERN.test(c))
}

/** How a method logs in: by the agent, through a terminal, with an env var, or not something Bosun invokes. */
export function loginKind(method: AuthMethodSummary): 'agent' | 'terminal' | 'env_var' | 'other' {
  if (method.type === 'terminal') return 'terminal'
  if (method.type === 'agent') return 'agent'
  if (method.type === 'env_var' || envVarOf(method) !== undefined) return 'env_var'
  return 'other'
}

/**
 * A method that takes a model gateway in its login request (`_meta.gateway`, an object such as Gemini CLI's
 * `{ protocol: "google" }`): what it says of itself, or `undefined`.
 */
export function gatewayOf(method: AuthMethodSummary): { protocol?: string } | undefined {
  const gateway = record(methodMeta(method, 'gateway'))
  if (!gateway) return undefined
  const protocol = gateway.protocol
  return typeof protocol === 'string' && protocol !== '' ? { protocol: protocol.slice(0, 64) } : {}
}

/** The `gateway` fields of a method's view. */
export function gatewayView(kind: ReturnType<typeof loginKind>, method: AuthMethodSummary): Pick<AuthMethodView, 'gateway' | 'gatewayProtocol'> {
  const gateway = kind === 'agent' ? gatewayOf(method) : undefined
  if (!gateway) return {}
  return { gateway: true, ...(gateway.protocol ? { gatewayProtocol: gateway.protocol } : {}) }
}
