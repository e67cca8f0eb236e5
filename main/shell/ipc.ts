/**
 * Every contract call becomes one `ipcMain.handle`. Each invocation is checked before anything else:
 * it must come from our window's main frame, showing our origin; then the argument is parsed from unknown
 * and the handler runs ({@link dispatchCall}, shared with the browser host). Nothing throws across IPC.
 */
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent, type WebContents } from 'electron'
import {
  callChannel,
  calls,
  eventChannel,
  events,
  subscriptionName,
  type CallClient,
  type CallHandlers,
  type CallName,
  type CallResult,
  type EventName,
  type EventPayload,
  type EventSink,
} from '../../common/contract'
import type { BridgeManifest } from '../../common/bridge-manifest'
import { toDisposable, type IDisposable } from '../base/lifecycle'
import type { Logger } from '../base/log'
import { createCallClient, createCallLimit, dispatchCall } from '../web/dispatch'
import { isAppUrl } from './protocol'
import { ViewFlow } from '../web/view-flow'
import { estimateJsonBytes } from '../sessions/estimate-json'
import type { SessionState } from '../../common/session/types'

export interface IpcOptions {
  /** The one window allowed to call (late-bound: the window may be re-created). */
  getWindow: () => BrowserWindow | undefined
  handlers: CallHandlers
  log: Logger
  /** Which frame URLs count as ours; defaults to `bosun://app/…`. */
  isTrustedUrl?: (url: string) => boolean
}

/** Why a sender is refused, or null when it is our window's main frame on our origin. */
export function senderRefusal(
  event: IpcMainInvokeEvent,
  window: BrowserWindow | undefined,
  isTrustedUrl: (url: string) => boolean = isAppUrl,
): string | null {
  if (!window || window.isDestroyed()) return 'no window'
  if (event.sender !== window.webContents) return 'another webContents'
  const frame = event.senderFrame
  // Electron reports null when the frame navigated away or was destroyed while the call was in flight.
  if (frame === null || frame === undefined) return 'no sender frame'
  if (frame.parent !== null) return 'a subframe'
  if (!isTrustedUrl(frame.url)) return `another origin (${frame.url.slice(0, 200)})`
  return null
}

/** Registers one handler per contract call; disposing removes them all. */
export function registerIpcHandlers(options: IpcOptions): IDisposable {
  const { getWindow, handlers, log } = options
  const isTrustedUrl = options.isTrustedUrl ?? isAppUrl
  const names = Object.keys(calls) as CallName[]
  // Every call comes from the one window: one limit for all of them.
  const limit = createCallLimit()
  const pages = pageClients()
  for (const name of names) {
    ipcMain.handle(callChannel(name), async (event: IpcMainInvokeEvent, ...args: unknown[]): Promise<CallResult<unknown>> => {
      const refusal = senderRefusal(event, getWindow(), isTrustedUrl)
      if (refusal !== null) {
        log.warn(`refused call ${name} from ${refusal}`)
        return { ok: false, error: { kind: 'forbidden', message: 'Caller is not the Bosun window' } }
      }
      // One argument per call: extra arguments mean someone is not using the preload.
      if (args.length > 1) return { ok: false, error: { kind: 'invalid-argument', message: `${name} takes one argument` } }
      return limit(() => dispatchCall(name, args[0], handlers, log, pages.of(event.sender)))
    })
  }
  return toDisposable(() => {
    for (const name of names) ipcMain.removeHandler(callChannel(name))
    pages.dispose()
  })
}

/**
 * The page the window shows, as the {@link CallClient} of its calls: one per loaded document, which leaves when the
 * page goes (another document is loaded, as on a reload; its renderer process ends; the window closes). The next
 * document's first call makes the next one.
 */
function pageClients(): { of(contents: WebContents): CallClient; dispose(): void } {
  const pages = new Map<WebContents, { client: CallClient; end(): void }>()
  return {
    of(contents) {
      const known = pages.get(contents)
      if (known) return known.client
      const page = createCallClient()
      const end = () => {
        contents.removeListener('did-navigate', end)
        contents.removeListener('render-process-gone', end)
        contents.removeListener('destroyed', end)
        pages.delete(contents)
        page.leave()
      }
      contents.on('did-navigate', end)
      contents.on('render-process-gone', end)
      contents.on('destroyed', end)
      pages.set(contents, { client: page.client, end })
      return page.client
    },
    dispose() {
      for (const page of [...pages.values()]) page.end()
    },
  }
}

/**
 * Events go to the window's webContents, and nowhere when it is gone (a reloading renderer rehydrates via `getSnapshot`).
 * `webContents.send` has no backpressure of its own: the window's page is one view with its {@link ViewFlow}, whose
 * `applied` the page's `sessionActionsApplied` calls reach (see `runElectronApp`).
 */
export function createWindowEventSink(
  getWindow: () => BrowserWindow | undefined,
  log: Logger,
  stateOf: (sessionId: string) => SessionState | undefined,
): EventSink & { readonly flow: ViewFlow } {
  /** The event being emitted and its size: sent as it is, it is not sized again. */
  let emitting: { payload: unknown; bytes: number } | undefined
  const flow = new ViewFlow({
    deliver(name, payload) {
      const window = getWindow()
      if (!window || window.isDestroyed() || window.webContents.isDestroyed()) return 0
      try {
        window.webContents.send(eventChannel(name), payload)
      } catch (error) {
        log.error(`could not send event ${name}`, error)
        return 0
      }
      if (payload === emitting?.payload) return emitting.bytes
      return name === 'sessionActions' || name === 'sessionState' ? estimateJsonBytes(payload) : 0
    },
    stateOf,
  })
  return {
    flow,
    emit<N extends EventName>(name: N, payload: EventPayload<N>): void {
      // Sized once, for what may wait: structured clone has no length to read.
      emitting = { payload, bytes: name === 'sessionActions' ? estimateJsonBytes(payload) : 0 }
      try {
        flow.emit(name, payload, emitting.bytes)
      } finally {
        emitting = undefined
      }
    },
  }
}

/** The preload's view of the contract: every call's channel and every subscription's channel, from the one list. */
export function bridgeManifest(): BridgeManifest {
  return {
    calls: Object.fromEntries((Object.keys(calls) as CallName[]).map((name) => [name, callChannel(name)])),
    events: Object.fromEntries((Object.keys(events) as EventName[]).map((name) => [subscriptionName(name), eventChannel(name)])),
  }
}
