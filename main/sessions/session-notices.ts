/** What a session is told about its agent's errors and what Bosun could not pass on, as errors and notices. */
import { ErrorCodes } from 'vscode-jsonrpc/node.js'
import type { Failure, RpcError } from '../base/errors'
import { RESOURCE_NOT_FOUND, type AcpClientConnection } from '../acp/types'
import { cutText } from '../../common/bounded'
import { AUTH_REQUIRED_CODE, agentErrorWords, errorDetails } from '../../common/acp-errors'
import { lastPromptAt } from '../../common/session/answered'
import type { PromptError, SessionAction, SessionState } from '../../common/session/types'
import { bosunNotice } from '../../common/session/stop-watchdog'

/**
 * The agent's error for a refused prompt, in its words ({@link agentErrorWords}: "Internal error: " dropped, `data`'s
 * words as text, the rest of `data` kept as JSON for a fold).
 * `signIn` says whether a -32000 comes with a way to sign in (the agent listed auth methods, B10).
 */
export function promptError(failure: Failure): PromptError {
  const words = agentErrorWords(failure.message, failure.data)
  const error: PromptError = { message: words.message }
  if (failure.code !== undefined) error.code = failure.code
  if (failure.kind === 'auth-required') error.signIn = true
  else if (failure.code === AUTH_REQUIRED_CODE) error.signIn = false
  if (words.details !== undefined) error.details = words.details
  if (words.data !== undefined) error.data = words.data
  return error
}

/** Whether a call failed because Bosun could not write it to the agent: it closed its input (stdin). */
export function isInputClosed(failure: Failure): boolean {
  return failure.code === ErrorCodes.MessageWriteError && /\bEPIPE\b/.test(failure.message)
}

/**
 * A message (or another call: `what`) Bosun could not write to the agent says so: the write's own error ('write
 * EPIPE') read as the agent's refusal. An agent that closed its input (stdin) and lives on gets nothing more (it is stopped).
 */
export function undelivered(failure: Failure, what = 'this message'): Failure {
  if (!isInputClosed(failure)) return failure
  return { ...failure, message: `The agent closed its input (stdin), so ${what} could not reach it (${failure.message}).` }
}

/** Most of an agent's error details said in a one-line reason (the first line, cut with "…"). */
const MAX_REASON_DETAILS_CHARS = 300

export function cutReason(details: string): string {
  // At most MAX_REASON_DETAILS_CHARS in all, the "…" included.
  return cutText(details.trim().split('\n', 1)[0]!.trim(), MAX_REASON_DETAILS_CHARS - 1)
}

/**
 * An agent's refusal (of a mode, of resuming a session) as a one-line reason: its words, "Internal error: " dropped, then
 * what its `data` says in words, cut to a line (Gemini CLI says only "Internal error", and why in `data.details`). The
 * raw JSON of `data` stays in the inspector and the agent's log: on one line it said nothing.
 */
export function refusalReason(failure: Failure): string {
  if (failure.kind !== 'rpc-error') {
    const details = errorDetails(failure.data)
    return details === undefined ? failure.message : `${failure.message}: ${cutReason(details)}`
  }
  const words = agentErrorWords(failure.message, failure.data)
  return words.details === undefined ? words.message : `${words.message}: ${cutReason(words.details)}`
}

/** `{ additionalDirectories }` for a `session/new|load|resume` when there are some and the agent advertises them (E1), else nothing. */
export function additionalDirectoriesFor(connection: AcpClientConnection, folders: readonly string[]): { additionalDirectories?: string[] } {
  return folders.length > 0 && connection.handshake?.capabilities.additionalDirectories ? { additionalDirectories: [...folders] } : {}
}

/** One notice of Bosun's in a session, as the action that shows it. */
export function noticeAction(severity: 'info' | 'warning', title: string, description: string): SessionAction {
  return { type: 'updates', updates: [bosunNotice(severity, title, description)] }
}

/** Said in a new session whose agent does not take added folders: it is not told of them, yet Bosun serves them. */
export function foldersNotPassed(connection: AcpClientConnection, folders: readonly string[]): SessionAction[] {
  if (folders.length === 0 || connection.handshake?.capabilities.additionalDirectories) return []
  return [
    noticeAction(
      'info',
      `The agent was not told of the added folders (it does not take them): ${folders.join(', ').slice(0, 400)}`,
      'Bosun still serves its file and terminal requests in them; mention them in your message so the agent knows.',
    ),
  ]
}

/** Said in a session opened from the agent's list whose listed folders are not all folders on this computer. */
export function foldersMissing(missing: readonly string[]): SessionAction[] {
  if (missing.length === 0) return []
  return [
    noticeAction(
      'warning',
      `Not folders on this computer, so left out of the session: ${missing.join(', ').slice(0, 400)}`,
      'The agent listed them for this session. Bosun neither passes them to the agent nor serves its file and terminal requests in them.',
    ),
  ]
}

/** The notice of a session whose agent runs without its keys (the keychain could not be read when it started). */
export function keysNotPassed(withoutKeys: { names: string[]; reason: string } | undefined): SessionAction[] {
  if (!withoutKeys || withoutKeys.names.length === 0) return []
  return [
    noticeAction(
      'warning',
      `The agent runs without ${withoutKeys.names.slice(0, 8).join(', ')}: the system keychain could not be read`,
      `${withoutKeys.reason.slice(0, 400)} If the agent needs one of these keys, sign in another way, or start Bosun where a keychain (Secret Service) runs and restart the agent.`,
    ),
  ]
}

/** Whether the agent's error says it does not know the session (not a missing file the prompt named). */
export function isSessionGone(error: RpcError, acpSessionId: string): boolean {
  if (error.code !== RESOURCE_NOT_FOUND) return false
  const named = typeof error.data === 'object' && error.data !== null ? (error.data as { sessionId?: unknown }).sessionId : undefined
  return named !== undefined ? named === acpSessionId : /\bsession\b/i.test(error.message)
}

/** Whether the person's last message is marked not sent (the agent refused it before answering anything). */
export function lastPromptNotSent(state: SessionState): boolean {
  const entry = state.entries[lastPromptAt(state.entries)]
  return entry?.kind !== 'user_message' || entry.notSent !== undefined
}
