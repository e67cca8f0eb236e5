/**
 * Signing in and out through the agent (D2–D5, B10): which of its auth methods Bosun sends it, and whether an agent's
 * -32000 is a sign-in Bosun can offer.
 */
import { cutText } from '../../common/bounded'
import { BosunError } from '../base/errors'
import type { AcpConnectionOptions } from './connection-options'
import { UNTYPED_AUTH_METHOD } from './handshake'
import type { AgentHandshake, AuthMethodSummary, ProtocolVersion } from './types'

/** The agent listed a way to sign in that Bosun can run (none is known before it answered), or Bosun can ask for its keys. */
export function canSignIn(handshake: AgentHandshake | undefined, options: Pick<AcpConnectionOptions, 'runsAuthMethod' | 'signInByKeys'>): boolean {
  const runs = options.runsAuthMethod ?? ((method: AuthMethodSummary) => method.type !== UNTYPED_AUTH_METHOD)
  return (handshake?.authMethods.some(runs) ?? false) || options.signInByKeys?.() === true
}

/** The login request for `methodId`: v1 `authenticate`, v2 `auth/login`; refused for a method the agent does not run itself. */
export function loginCall(
  version: ProtocolVersion,
  handshake: AgentHandshake | undefined,
  methodId: string,
  meta: Record<string, unknown> | undefined,
): { method: string; params: Record<string, unknown> } {
  const method = handshake?.authMethods.find((m) => m.id === methodId)
  const login = version === 2 ? 'auth/login' : 'authenticate'
  // D2, D5: only a method the agent offered (v2: auth/login exists only with a non-empty authMethods).
  if (!method) throw new BosunError({ kind: 'invalid-argument', message: `The agent did not offer the sign-in method ${cutText(methodId, 200)}, so Bosun does not send it to ${login}.` })
  if (method.type === 'terminal' || method.type === UNTYPED_AUTH_METHOD) {
    // D2, D3, D5: a terminal login runs Bosun's own command; a v2 method without a type is no login the agent runs.
    throw new BosunError({
      kind: 'invalid-argument',
      message: `${cutText(method.name, 200)} is not a sign-in the agent runs itself (${method.type === 'terminal' ? 'it runs in a terminal' : 'its kind is unknown'}), so Bosun does not send it to ${login}.`,
    })
  }
  return { method: login, params: { methodId, ...(meta !== undefined ? { _meta: meta } : {}) } }
}

/** The logout method (v1 `logout`, v2 `auth/logout`); refused for an agent that does not support signing out. */
export function logoutMethod(version: ProtocolVersion, handshake: AgentHandshake | undefined): string {
  // D4 (v1: auth.logout advertised), D5 (v2: a non-empty authMethods).
  if (!handshake?.capabilities.logout) {
    throw new BosunError({ kind: 'unsupported', message: `This agent does not support signing out, so Bosun does not send it ${version === 2 ? 'auth/logout' : 'logout'}.` })
  }
  return version === 2 ? 'auth/logout' : 'logout'
}
