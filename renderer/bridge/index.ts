/**
 * How the renderer reaches main: `getBosun()` is `window.bosun` (the preload) in Electron, and a WebSocket
 * client with the same {@link BosunApi} in a browser served by the web host. The UI never knows which.
 */
import type { BosunApi } from '../../common/contract'
import { createSocketClient, type Snapshot, type SocketClient, type SocketLike } from './socket-client'
import { WS_PATH } from '../../common/wire'

declare global {
  interface Window {
    /** Present only in Electron (exposed by the preload). */
    readonly bosun?: BosunApi
  }
}

let api: BosunApi | undefined
let client: SocketClient | undefined

export type { Snapshot }

export function getBosun(): BosunApi {
  if (api) return api
  if (window.bosun) return (api = window.bosun)
  // We only assign handlers, and MessageEvent has the `data` we read: the DOM socket fits SocketLike.
  client = createSocketClient({ url: webSocketUrl(), connect: (url) => new WebSocket(url) as unknown as SocketLike })
  return (api = client.api)
}

/**
 * The browser host's socket URL, carrying the token the page was opened with. The token then leaves the
 * address bar (history, bookmarks, screen sharing, a copied link): the socket client keeps this URL for its
 * reconnects, so nothing needs it again. (A reload needs the printed URL again.)
 */
function webSocketUrl(): string {
  const params = new URLSearchParams(location.search)
  const token = params.get('token') ?? ''
  if (params.has('token')) {
    params.delete('token')
    const search = params.size > 0 ? `?${params.toString()}` : ''
    history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`)
  }
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:'
  return `${scheme}//${location.host}${WS_PATH}?token=${encodeURIComponent(token)}`
}

/**
 * After the browser transport reconnects, the listener gets a fresh `getSnapshot` result to rebuild state from
 * (events sent while disconnected are gone). In Electron a crashed renderer is reloaded instead, so this never fires.
 */
export function onDidRehydrate(listener: (snapshot: Snapshot) => void): () => void {
  getBosun()
  return client ? client.onDidRehydrate(listener) : () => undefined
}

/** Connection state of the browser transport (always connected in Electron). */
export function onDidChangeConnection(listener: (connected: boolean) => void): () => void {
  getBosun()
  return client ? client.onDidChangeConnection(listener) : () => undefined
}
