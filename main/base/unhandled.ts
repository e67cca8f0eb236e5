/**
 * The last line of defence of the main process (Electron's main, the browser host): a promise rejected where
 * nobody listens is logged, and Bosun keeps running. Plain Node ends the process on one, so a single library's
 * stray rejection (vscode-jsonrpc rethrows failed writes from a promise nobody awaits) would close every agent's
 * session at once. Known sources are handled where they arise; this only keeps an unknown one from ending the app.
 * The same for an event listener that throws (main/base/event.ts).
 */
import type { EventEmitter } from 'node:events'
import { setListenerErrorHandler } from './event'

export function logUnhandledRejections(log: (message: string, reason: unknown) => void, target: Pick<EventEmitter, 'on' | 'off'> = process): () => void {
  const listener = (reason: unknown) => log('a promise was rejected and nobody handled it (Bosun keeps running)', reason)
  target.on('unhandledRejection', listener)
  // An event listener that throws (one agent's handler, say) is logged too: thrown again, as Emitter does by default,
  // it would be an uncaught exception.
  const restore = setListenerErrorHandler((error) => log('an event listener failed (Bosun keeps running)', error))
  return () => {
    target.off('unhandledRejection', listener)
    restore()
  }
}
