/**
 * Expected failures cross boundaries as values ({@link Failure}); exceptions are for bugs.
 * `kind` is a closed set the UI knows how to explain.
 */
import { AUTH_REQUIRED_CODE } from '../../common/acp-errors'

export type FailureKind =
  | 'agent-exited'
  | 'agent-spawn-failed'
  | 'agent-not-running'
  | 'initialize-failed'
  | 'unsupported-protocol-version'
  | 'auth-required'
  | 'rpc-error'
  | 'timeout'
  | 'cancelled'
  | 'not-found'
  | 'invalid-argument'
  | 'keychain-unavailable'
  | 'io-error'
  /** Main asked the person (a native dialog) and they did not confirm; nothing was done. */
  | 'not-confirmed'
  /** This host cannot do it (the browser host opening a local file in an editor). */
  | 'unsupported'
  /** As many sessions are open as main keeps (`MAX_OPEN_SESSIONS`): one must be closed first. */
  | 'too-many-sessions'
  /** Main is doing as much of this as it allows at once or in a short while (opening addresses); try again later. */
  | 'busy'
  | 'internal'

export interface Failure {
  kind: FailureKind
  message: string
  /** The last lines the agent wrote to stderr, when an agent is involved. */
  stderrTail?: string
  /** JSON-RPC error code, for `rpc-error`. */
  code?: number
  data?: unknown
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: Failure }

export const ok = <T>(value: T): Result<T> => ({ ok: true, value })
export const fail = (error: Failure): Result<never> => ({ ok: false, error })

/** An error carrying a {@link Failure}; thrown inside main, turned into a value at the IPC boundary. */
export class BosunError extends Error {
  readonly failure: Failure
  constructor(failure: Failure, options?: { cause?: unknown }) {
    super(failure.message, options)
    this.name = 'BosunError'
    this.failure = failure
  }
  get kind(): FailureKind {
    return this.failure.kind
  }
}

/** The agent process is gone: every request still waiting on it is rejected with this. */
export class AgentExitedError extends BosunError {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly signal: string | null,
    stderrTail?: string,
    /** Bosun stopped the agent (quit, the person's Stop or Restart): the message is Bosun's words, none of the agent's. */
    readonly byBosun = false,
  ) {
    super({ kind: 'agent-exited', message, ...(stderrTail ? { stderrTail } : {}) })
    this.name = 'AgentExitedError'
  }
}

/** Whether `error` is Bosun's own stop of an agent (see {@link AgentExitedError.byBosun}). */
export const stoppedByBosun = (error: unknown): error is AgentExitedError => error instanceof AgentExitedError && error.byBosun

/**
 * A JSON-RPC error the agent answered with. A -32000 is `auth-required` (the UI offers sign-in) only when the
 * agent has a way to sign in (`options.canSignIn`, default true): from an agent that listed no auth methods it is
 * an `rpc-error` shown with its message and details, since there is nothing to sign in with (B10).
 */
export class RpcError extends BosunError {
  constructor(readonly code: number, message: string, readonly data?: unknown, options: { canSignIn?: boolean } = {}) {
    const authRequired = code === AUTH_REQUIRED_CODE && options.canSignIn !== false
    super({ kind: authRequired ? 'auth-required' : 'rpc-error', message, code, ...(data !== undefined ? { data } : {}) })
    this.name = 'RpcError'
  }
}

export function toFailure(error: unknown): Failure {
  if (error instanceof BosunError) return error.failure
  if (error instanceof Error) return { kind: 'internal', message: error.message }
  return { kind: 'internal', message: String(error) }
}
