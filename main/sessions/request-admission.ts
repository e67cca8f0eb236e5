/**
 * Which of an agent's requests (permissions, questions, files, terminals) Bosun serves for the session they name: only
 * a session of the very process that asks (checklist G7). Everything else is answered -32002 before any handler sees it.
 */
import { sessionNotFound, type AcpClientConnection, type HandlerError } from '../acp/types'
import type { SessionsService } from './sessions-service'

/**
 * The connection's `admitRequest` for agent `agentId`: a request without a string `sessionId` is left to its handler
 * (a request-scoped elicitation names none; a malformed one is the handler's to refuse); one naming a session is let
 * through only when {@link SessionsService.sessionForRequest} finds it for this connection, once it knows.
 */
export function sessionRequestAdmission(
  sessions: Pick<SessionsService, 'sessionForRequest'>,
  agentId: string,
  connection: () => AcpClientConnection,
): (method: string, params: unknown, signal: AbortSignal) => HandlerError | undefined | Promise<HandlerError | undefined> {
  return (_method, params, signal) => {
    const acpSessionId = typeof params === 'object' && params !== null ? (params as { sessionId?: unknown }).sessionId : undefined
    if (typeof acpSessionId !== 'string') return undefined
    const found = sessions.sessionForRequest(agentId, connection(), acpSessionId, signal)
    const verdict = (sessionId: string | undefined) => (sessionId === undefined ? sessionNotFound(acpSessionId) : undefined)
    return found instanceof Promise ? found.then(verdict) : verdict(found)
  }
}
