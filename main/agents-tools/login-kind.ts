/**
 * How Bosun signs in with an agent's auth method: pure, shared by the agent tools (sign-in, the Login tab), the
 * connection check and the connection's -32000 handling.
 */
import type { AuthMethodSummary } from '../acp/types'
import { ENV_NAME_PATTERN } from '../config/agent-definitions'

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
