/**
 * The last line of defence of the main process (Electron's main, the browser host): a promise rejected where
 * nobody listens is logged, and Bosun keeps running. Plain Node ends the process on one, so a single library's
 * stray rejection (vscode-jsonrpc rethrows failed writes from a promise nobody awaits) would close every agent's
 * session at once. Known sources are handled where they arise; this only keeps an unknown one from ending the app.
 */
import type { EventEmitter } from 'node:events'

export function logUnhandledRejections(log: (message: string, reason: unknown) => void, target: Pick<EventEmitter, 'on' | 'off'> = process): () => void {
  const listener = (reason: unknown) => log('a promise was rejected and nobody handled it (Bosun keeps running)', reason)
  target.on('unhandledRejection', listener)
  return () => target.off('unhandledRejection', listener)
}
