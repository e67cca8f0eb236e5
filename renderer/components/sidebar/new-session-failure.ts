import { AUTH_REQUIRED_CODE, errorDetails } from '../../../common/acp-errors'
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
  if (error.code === AUTH_REQUIRED_CODE && error.kind !== 'auth-required') {
    const details = errorDetails(error.data)
    return {
      message:
        `${agentName} asks for a sign-in but listed no way to sign in that Bosun can use, so Bosun has none to offer. ` +
        `Sign in the agent’s own way (often its command in a terminal), then try again. It said: ${error.message}${details ? ` (${details})` : ''}`,
    }
  }
  return { message: error.message, folder: typeof folder === 'string' ? folder : undefined, output: error.stderrTail }
}
