/**
 * The transport-independent half of every call: look the name up in the contract, parse the argument from
 * `unknown` with the call's schema, run the handler, and turn anything unexpected into a failure value.
 * The Electron IPC wiring (`main/shell/ipc.ts`) and the browser host (`main/web/server.ts`) both go through
 * {@link dispatchCall}, so the two hosts cannot drift apart. No electron import here.
 */
import { z } from 'zod'
import { calls, type CallClient, type CallHandlers, type CallName, type CallResult, type IpcFailure } from '../../common/contract'
import { BosunError } from '../base/errors'
import { Emitter } from '../base/event'
import type { Logger } from '../base/log'

/** True when `name` is a call the contract declares (own key only: `toString`, `__proto__` are not calls). */
export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(calls, name)
}

const MAX_MESSAGE = 2000

function failure(kind: string, message: string): CallResult<never> {
  return { ok: false, error: { kind, message: message.length > MAX_MESSAGE ? message.slice(0, MAX_MESSAGE) + '…' : message } }
}

function isCallResult(value: unknown): value is CallResult<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean'
}

/**
 * Runs one call. Never throws: a malformed argument is `invalid-argument`, an unknown name is `unknown-call`,
 * a thrown {@link BosunError} becomes its failure, and any other throw is logged and answered `internal`.
 */
export async function dispatchCall(
  name: unknown,
  rawArg: unknown,
  handlers: CallHandlers,
  log: Logger,
  client?: CallClient,
): Promise<CallResult<unknown>> {
  if (!isCallName(name)) return failure('unknown-call', `No such call: ${String(name).slice(0, 100)}`)
  const parsed = calls[name].input.safeParse(rawArg)
  if (!parsed.success) return failure('invalid-argument', `Invalid argument for ${name}: ${z.prettifyError(parsed.error)}`)
  const handler = handlers[name] as ((arg: unknown, client?: CallClient) => Promise<CallResult<unknown>>) | undefined
  if (typeof handler !== 'function') {
    log.error(`no handler for call ${name}`)
    return failure('internal', `Call ${name} is not available`)
  }
  try {
    const result = await (client ? handler(parsed.data, client) : handler(parsed.data))
    if (isCallResult(result)) return result
    log.error(`handler for ${name} returned a value that is not a CallResult`)
    return failure('internal', `Call ${name} failed`)
  } catch (error) {
    if (error instanceof BosunError) return { ok: false, error: error.failure as IpcFailure }
    log.error(`call ${name} threw`, error)
    return failure('internal', `Call ${name} failed unexpectedly`)
  }
}

/** Calls one page (a socket, the window) may have running at once: far more than the UI ever has. */
export const MAX_CALLS_IN_FLIGHT = 256

/**
 * The calls of one caller, at most `max` running at once: past that a call is answered `busy` at once, so a renderer
 * that floods calls main cannot finish (each waiting on an agent, say) cannot make main hold them without end.
 */
export function createCallLimit(max = MAX_CALLS_IN_FLIGHT): (run: () => Promise<CallResult<unknown>>) => Promise<CallResult<unknown>> {
  let running = 0
  return async (run) => {
    if (running >= max) return failure('busy', `Too many calls at once (${max} are still running); try again when they have finished.`)
    running++
    try {
      return await run()
    } finally {
      running--
    }
  }
}

/**
 * A page as a {@link CallClient}: the transport calls `leave` when the page goes (its socket closed, the window's
 * page reloaded, crashed or closed), and everything tied to it is let go. A listener added after that runs at once.
 */
export function createCallClient(): { client: CallClient; leave(): void } {
  const left = new Emitter<void>()
  let gone = false
  return {
    client: {
      onDidLeave(listener) {
        if (gone) {
          listener()
          return { dispose() {} }
        }
        return left.event(listener)
      },
    },
    leave() {
      if (gone) return
      gone = true
      left.fire()
      left.dispose()
    },
  }
}
