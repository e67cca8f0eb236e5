/**
 * What an agent's answers may carry into Bosun, bounded, and the errors Bosun's own requests fail with when the agent
 * never answers them (withdrawn, not running).
 */
import type { ResponseError } from 'vscode-jsonrpc/node.js'
import { boundJson, cutText } from '../../common/bounded'
import { BosunError, RpcError } from '../base/errors'

/** What an agent's error answer may carry into Bosun: its message and `data` reach every window and log. */
export const AGENT_ERROR_BOUNDS = { messageChars: 4096, data: { maxDepth: 16, maxStringChars: 16 * 1024, maxEntries: 256, maxTotalChars: 64 * 1024 } } as const

/**
 * The agent's error answer, bounded: a 50 MB message or data nested a million levels deep must not reach the UI as it is.
 * `canSignIn`: the agent listed auth methods, so a -32000 is a sign-in to offer (B10).
 */
export function agentError(error: ResponseError<unknown>, canSignIn: boolean): RpcError {
  const message = cutText(typeof error.message === 'string' ? error.message : String(error.message), AGENT_ERROR_BOUNDS.messageChars)
  return new RpcError(error.code, message, error.data === undefined ? undefined : boundJson(error.data, AGENT_ERROR_BOUNDS.data), { canSignIn })
}

/** A request Bosun withdrew before the agent answered it. */
export function withdrawn(method: string): BosunError {
  return new BosunError({ kind: 'cancelled', message: `Bosun withdrew its ${method} request.` })
}

export function notRunning(method: string): BosunError {
  return new BosunError({ kind: 'agent-not-running', message: `Cannot send ${method}: the agent's output has ended` })
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** At most 120 characters of a value's JSON, for a log line or a problem's preview. */
export function previewOf(value: unknown): string {
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    text = String(value)
  }
  return text.length > 120 ? text.slice(0, 120) + '…' : text
}
