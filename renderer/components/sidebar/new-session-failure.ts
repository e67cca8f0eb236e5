import { AUTH_REQUIRED_CODE, agentErrorWords } from '../../../common/acp-errors'
import type { IpcFailure } from '../../../common/contract'
import type { NewSessionFailure } from './NewSessionForm'

/**
 * What the new-session form says when a session did not start (not the sign-in case, which has its dialog). An
 * added folder main refused is named in `data.folder`, so the form marks its row. A -32000 from an agent that listed
 * no auth methods, or only ones Bosun cannot run (B10), says so, with the agent's words and details: there is
 * nothing in Bosun to sign in with.
 */
export function newSessionFailure(agentName: string, error: IpcFailure): NewSessionFailure {
  const folder = (error.data as { folder?: unknown } | undefined)?.folder
  // The agent's JSON-RPC error in its words: "Internal error: " dropped, what `data` says as text, the rest folded.
  const words = error.kind === 'rpc-error' && error.code !== undefined ? agentErrorWords(error.message, error.data) : null
  const raw = words?.data !== undefined ? { data: words.data } : {}
  if (error.code === AUTH_REQUIRED_CODE && error.kind !== 'auth-required') {
    const said = words ?? { message: error.message }
    return {
      message:
        `${agentName} asks for a sign-in but listed no way to sign in that Bosun can use, so Bosun has none to offer. ` +
        `Sign in the agent’s own way (often its command in a terminal), then try again. It said: ${said.message}${said.details ? ` (${said.details})` : ''}`,
      agentAtFault: true,
      ...raw,
    }
  }
  return {
    message: words ? (words.details ? `${words.message.trimEnd().replace(/[.:]$/, '')}: ${words.details}` : words.message) : error.message,
    ...raw,
    folder: typeof folder === 'string' ? folder : undefined,
    output: error.stderrTail,
    ...(AGENT_FAILURES.has(error.kind) ? { agentAtFault: true } : {}),
  }
}

/**
 * Failures of the agent itself: it could not be run, exited or hung while starting, or refused the session. Its page on
 * Agents (its definition, log and sign-in) is the way on; a folder that is not one is not its fault.
 */
const AGENT_FAILURES: ReadonlySet<string> = new Set(['agent-spawn-failed', 'agent-exited', 'agent-not-running', 'timeout', 'initialize-failed', 'unsupported-protocol-version', 'rpc-error'])
