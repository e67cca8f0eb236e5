/**
 * The browser host's side of {@link BosunApi}: the same calls and events as `window.bosun`, carried over one
 * WebSocket. Requests are paired with answers by id; events go to subscribers. When the socket drops, calls in
 * flight fail with `disconnected`, new calls wait for the next connection, and the client reconnects with
 * backoff; after a reconnect it fetches `getSnapshot` and hands it to {@link SocketClient.onDidRehydrate}
 * listeners (events sent while away are lost, so the UI rebuilds from the snapshot).
 *
 * No DOM and no zod here: the socket constructor and timers are injected, names come from the type only.
 */
import type { BosunApi, CallOutput, CallResult } from '../../common/contract'
import type { WireCall, WireFromHost } from '../../common/wire'

/** What we use of a WebSocket (the browser's and `ws`'s both fit). */
export interface SocketLike {
  readonly readyState: number
  send(data: string): void
  close(code?: number, reason?: string): void
  onopen: ((event: unknown) => void) | null
  onmessage: ((event: { data: unknown }) => void) | null
  onclose: ((event: unknown) => void) | null
  onerror: ((event: unknown) => void) | null
}

export interface SocketClientOptions {
  url: string
  connect: (url: string) => SocketLike
  setTimer?: (fn: () => void, ms: number) => unknown
  clearTimer?: (handle: unknown) => void
  /** First reconnect delay, doubled per failure up to `maxDelayMs`. */
  initialDelayMs?: number
  maxDelayMs?: number
  /** Calls waiting for a connection beyond this many fail at once. */
  maxQueued?: number
}

export type Snapshot = CallOutput<'getSnapshot'>

export interface SocketClient {
  readonly api: BosunApi
  /** Fires with a fresh snapshot after every reconnect (not after the first connect). */
  onDidRehydrate(listener: (snapshot: Snapshot) => void): () => void
  onDidChangeConnection(listener: (connected: boolean) => void): () => void
  readonly connected: boolean
  dispose(): void
}

const OPEN = 1

type Pending = { resolve: (result: CallResult<unknown>) => void }

export function createSocketClient(options: SocketClientOptions): SocketClient {
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms))
  const clearTimer = options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>))
  const initialDelay = options.initialDelayMs ?? 250
  const maxDelay = options.maxDelayMs ?? 10_000
  const maxQueued = options.maxQueued ?? 1000

  let socket: SocketLike | undefined
  let connected = false
  let everConnected = false
  let disposed = false
  let attempt = 0
  let timer: unknown
  let nextId = 1
  const inFlight = new Map<number, Pending>()
  const queued: { message: WireCall; pending: Pending }[] = []
  const subscribers = new Map<string, Set<(payload: unknown) => void>>()
  const rehydrateListeners = new Set<(snapshot: Snapshot) => void>()
  const connectionListeners = new Set<(connected: boolean) => void>()

  function open(): void {
    timer = undefined
    if (disposed) return
    let s: SocketLike
    try {
      s = options.connect(options.url)
    } catch {
      scheduleReconnect()
      return
    }
    socket = s
    s.onopen = () => {
      if (socket !== s) return
      const isReconnect = everConnected
      connected = true
      everConnected = true
      attempt = 0
      notifyConnection(true)
      for (const { message, pending } of queued.splice(0)) sendNow(message, pending)
      if (isReconnect) void rehydrate()
    }
    s.onmessage = (event) => {
      if (socket === s) receive(event.data)
    }
    s.onerror = () => undefined
    s.onclose = () => {
      if (socket !== s) return
      socket = undefined
      const wasConnected = connected
      connected = false
      for (const [id, pending] of inFlight) {
        inFlight.delete(id)
        pending.resolve({ ok: false, error: { kind: 'disconnected', message: 'Lost the connection to Bosun before it answered' } })
      }
      if (wasConnected) notifyConnection(false)
      scheduleReconnect()
    }
  }

  function scheduleReconnect(): void {
    if (disposed || timer !== undefined) return
    const delay = Math.min(maxDelay, initialDelay * 2 ** attempt)
    attempt++
    timer = setTimer(open, delay)
  }

  async function rehydrate(): Promise<void> {
    const result = (await call('getSnapshot', undefined)) as CallResult<Snapshot>
    if (!result.ok) return
    for (const listener of [...rehydrateListeners]) listener(result.value)
  }

  function notifyConnection(value: boolean): void {
    for (const listener of [...connectionListeners]) listener(value)
  }

  function receive(data: unknown): void {
    let message: WireFromHost
    try {
      message = JSON.parse(typeof data === 'string' ? data : String(data)) as WireFromHost
    } catch {
      return
    }
    if (message?.type === 'result') {
      const pending = inFlight.get(message.id)
      if (!pending) return
      inFlight.delete(message.id)
      pending.resolve(message.result)
    } else if (message?.type === 'event') {
      const set = subscribers.get(message.name)
      if (!set) return
      for (const listener of [...set]) {
        try {
          listener(message.payload)
        } catch (error) {
          // One broken subscriber must not starve the others.
          console.error(`listener for ${message.name} threw`, error)
        }
      }
    }
  }

  function sendNow(message: WireCall, pending: Pending): void {
    if (!socket || socket.readyState !== OPEN) {
      queued.push({ message, pending })
      return
    }
    inFlight.set(message.id, pending)
    try {
      socket.send(JSON.stringify(message))
    } catch {
      inFlight.delete(message.id)
      pending.resolve({ ok: false, error: { kind: 'invalid-argument', message: `Argument of ${message.name} could not be sent` } })
    }
  }

  function call(name: string, arg: unknown): Promise<CallResult<unknown>> {
    return new Promise((resolve) => {
      if (disposed) return resolve({ ok: false, error: { kind: 'disconnected', message: 'The connection to Bosun is closed' } })
      const message: WireCall = { type: 'call', id: nextId++, name, arg }
      if (!connected && queued.length >= maxQueued) {
        return resolve({ ok: false, error: { kind: 'disconnected', message: 'Not connected to Bosun' } })
      }
      sendNow(message, { resolve })
    })
  }

  function subscribe(name: string, listener: (payload: unknown) => void): () => void {
    let set = subscribers.get(name)
    if (!set) subscribers.set(name, (set = new Set()))
    // Wrap so subscribing the same function twice gives two independent subscriptions, like ipcRenderer.on.
    const entry = (payload: unknown) => listener(payload)
    set.add(entry)
    return () => {
      set.delete(entry)
    }
  }

  const methods = new Map<string, unknown>()
  const api = new Proxy(Object.create(null) as object, {
    get(_target, prop) {
      // `then` must stay undefined or `await api` would treat the api as a promise.
      if (typeof prop !== 'string' || prop === 'then') return undefined
      let method = methods.get(prop)
      if (method === undefined) {
        const match = /^on([A-Z].*)$/.exec(prop)
        method = match
          ? (listener: (payload: unknown) => void) => subscribe(match[1]![0]!.toLowerCase() + match[1]!.slice(1), listener)
          : (arg: unknown) => call(prop, arg)
        methods.set(prop, method)
      }
      return method
    },
    set: () => false,
  }) as BosunApi

  open()

  return {
    api,
    get connected() {
      return connected
    },
    onDidRehydrate(listener) {
      rehydrateListeners.add(listener)
      return () => rehydrateListeners.delete(listener)
    },
    onDidChangeConnection(listener) {
      connectionListeners.add(listener)
      return () => connectionListeners.delete(listener)
    },
    dispose() {
      if (disposed) return
      disposed = true
      if (timer !== undefined) clearTimer(timer)
      const s = socket
      socket = undefined
      connected = false
      s?.close(1000, 'client disposed')
      for (const pending of inFlight.values()) pending.resolve({ ok: false, error: { kind: 'disconnected', message: 'The connection to Bosun is closed' } })
      inFlight.clear()
      for (const { pending } of queued.splice(0)) pending.resolve({ ok: false, error: { kind: 'disconnected', message: 'The connection to Bosun is closed' } })
      subscribers.clear()
      rehydrateListeners.clear()
      connectionListeners.clear()
    },
  }
}
