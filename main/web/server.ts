/**
 * The browser host: the same services and the same contract as the Electron shell, served on 127.0.0.1.
 * The built renderer comes over HTTP, calls and events over a WebSocket at {@link WS_PATH}. A random token
 * in the printed URL is the only key: the page and every socket upgrade must carry it, the socket must come
 * from our own origin, and the Host header must be ours (a DNS-rebinding page gets nothing).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import type http from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { resolve } from 'node:path'
import type { Duplex } from 'node:stream'
import type { WorkerHistoryStore } from '../history/worker-history-store'
import { WebSocketServer, WebSocket, type RawData } from 'ws'
import type { EventName, EventPayload, EventSink } from '../../common/contract'
import { WS_PATH, type WireCall, type WireFromHost } from '../../common/wire'
import type { BosunServices, CreateBosunServices } from '../app/services'
import { createLogger, type Logger } from '../base/log'
import type { CallClient, CallHandlers } from '../../common/contract'
import { createCallClient, createCallLimit, dispatchCall } from './dispatch'
import { contentSecurityPolicy, readStaticFile } from './static-files'
import { lazyRequire } from '../base/lazy-require'
import { handlersForView, ViewFlow, type ViewFlowOptions } from './view-flow'

/**
 * `node:http` through `require`: an ES `import` of it builds a facade that reads every export, and one of them
 * loads undici (about 30 ms at start for a fetch this host never makes).
 */
const loadHttp = lazyRequire<typeof http>('node:http')

export interface WebHostOptions {
  /** 0 (the default) picks a free port. */
  port?: number
  home: string
  /** The built renderer (`out/renderer`). */
  rendererDir?: string
  createServices: CreateBosunServices
  /** The history's thread started ahead for `home` (cli.ts); handed to the services, which own it from then on. */
  historyThread?: WorkerHistoryStore
  appVersion?: string
  /** Fixed token (tests); otherwise 32 random bytes. */
  token?: string
  log?: Logger
  /** Default {@link MAX_BUFFERED_BYTES}. */
  maxBufferedBytes?: number
  /** Default {@link MAX_SOCKETS}. */
  maxSockets?: number
  /** Default {@link MAX_CONNECTIONS}. */
  maxConnections?: number
  /** Default {@link HEADERS_TIMEOUT_MS}. */
  headersTimeoutMs?: number
  /** Each page's flow control bounds (defaults in view-flow.ts; tests shrink them). */
  flow?: Pick<ViewFlowOptions, 'maxInFlightBytes' | 'maxHeldBytes' | 'maxMergedBytes'>
}

export interface WebHost {
  /** `http://127.0.0.1:PORT/?token=…`: the only URL that opens the app. */
  readonly url: string
  readonly port: number
  readonly token: string
  /** The origin sockets must come from. */
  readonly origin: string
  /**
   * What main holds for each open page: sent and not applied (`inFlight`), waiting for it (`held`), and written to its
   * socket and not read yet (`buffered`), in bytes (tests, figures).
   */
  views(): { inFlight: number; held: number; buffered: number }[]
  /** TCP connections accepted so far, and how many of them have closed (tests: a refused client is done with). */
  connections(): { accepted: number; closed: number }
  /** Closes every socket, stops listening and disposes the services. */
  dispose(): Promise<void>
}

/** Incoming socket messages above this size are refused by `ws` (prompts with attachments stay well below). */
const MAX_PAYLOAD = 32 * 1024 * 1024
/**
 * What main holds for a page that does not read its socket (hung, or hostile) before it drops the socket.
 * The page reconnects and rebuilds from a fresh snapshot, so nothing is lost; main's memory stays bounded.
 */
export const MAX_BUFFERED_BYTES = 64 * 1024 * 1024
/**
 * Sockets open at once (tabs of the page, each with its own socket). Each may hold up to {@link MAX_BUFFERED_BYTES}
 * of events and `MAX_CALLS_IN_FLIGHT` calls, so the number of them is what bounds main's memory for its clients.
 */
export const MAX_SOCKETS = 16
/**
 * Connections at once, before or after the token is checked. Anyone on the machine can reach a loopback port;
 * without a cap, connections that never finish their request (held up to the headers timeout each) could use
 * up main's file descriptors, and then no agent could start. Past it, new connections are dropped at once.
 */
export const MAX_CONNECTIONS = 256
/** A request's headers (an upgrade's too) must arrive within this; Node's default holds a silent connection 60 s and more. */
export const HEADERS_TIMEOUT_MS = 10_000

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const log = options.log ?? createLogger('web')
  const rendererDir = resolve(options.rendererDir ?? 'out/renderer')
  const token = options.token ?? randomBytes(32).toString('base64url')
  const sockets = new Set<WebSocket>()
  /** Each page's flow control: what it was sent and has not applied, and what waits for it (view-flow.ts). */
  const flows = new Map<WebSocket, ViewFlow>()
  const maxBuffered = options.maxBufferedBytes ?? MAX_BUFFERED_BYTES
  const maxSockets = options.maxSockets ?? MAX_SOCKETS
  /**
   * The largest answer a page asked for that may still be on its way to it. A snapshot of a session near its budget is
   * larger than `maxBuffered` by itself: the page reading it is slow, not gone, and was dropped by the next event, then
   * asked for the snapshot again on reconnecting, for ever. It may hold that much more until its buffer drains.
   */
  const answering = new WeakMap<WebSocket, number>()
  /** Whether the page still reads its socket; one that lets more than `maxBuffered` (besides that answer) wait is dropped. */
  const keeping = (ws: WebSocket): boolean => {
    if (ws.readyState !== WebSocket.OPEN) return false
    if (ws.bufferedAmount <= maxBuffered) {
      answering.delete(ws)
      return true
    }
    if (ws.bufferedAmount <= maxBuffered + (answering.get(ws) ?? 0)) return true
    log.warn(`a page left ${Math.round(ws.bufferedAmount / 2 ** 20)} MiB unread on its socket; dropping it (it reconnects and reloads the state)`)
    sockets.delete(ws)
    ws.terminate()
    return false
  }

  const events: EventSink = {
    emit<N extends EventName>(name: N, payload: EventPayload<N>): void {
      if (sockets.size === 0) return
      const frame = eventFrame(name, payload)
      if (frame === undefined) return
      for (const socket of sockets) flows.get(socket)?.emit(name, payload, frame.length, frame)
    },
  }

  /** An event as the socket carries it; undefined (and logged) when it cannot be serialised. */
  function eventFrame(name: EventName, payload: unknown): string | undefined {
    try {
      return JSON.stringify({ type: 'event', name, payload } satisfies WireFromHost)
    } catch (error) {
      log.error(`event ${name} could not be serialised`, error)
      return undefined
    }
  }

  /** Sends one event to one page (its flow decided it goes now); the bytes sent. */
  function deliver(ws: WebSocket, name: EventName, payload: unknown, frame: string | undefined): number {
    if (!keeping(ws)) return 0
    const text = frame ?? eventFrame(name, payload)
    if (text === undefined) return 0
    // A session sent whole goes once the page has applied all it was sent of it: like an answer it asked for, it may be
    // larger than what the page may otherwise leave unread.
    if (name === 'sessionState' && text.length > maxBuffered / 4) answering.set(ws, Math.max(answering.get(ws) ?? 0, Buffer.byteLength(text)))
    ws.send(text)
    return text.length
  }

  const services: BosunServices = await options.createServices({
    home: options.home,
    host: 'web',
    appVersion: options.appVersion ?? '0.0.0-dev',
    events,
    ...(options.historyThread ? { historyThread: options.historyThread } : {}),
  })

  let port = 0
  const hosts = () => new Set([`127.0.0.1:${port}`])
  const origin = () => `http://127.0.0.1:${port}`
  const csp = () => contentSecurityPolicy({ connectSrc: [`ws://127.0.0.1:${port}`] })

  const headersTimeout = options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS
  // Node checks the timeouts of open requests every `connectionsCheckingInterval`: a quarter of the timeout keeps it close.
  const server = loadHttp().createServer({ headersTimeout, requestTimeout: 3 * headersTimeout, connectionsCheckingInterval: Math.max(250, headersTimeout / 4) }, (req, res) => {
    handleHttp(req, res).catch((error: unknown) => {
      log.error('http request failed', error)
      if (!res.headersSent) res.writeHead(500)
      res.end()
    })
  })
  server.maxConnections = options.maxConnections ?? MAX_CONNECTIONS
  const connections = { accepted: 0, closed: 0 }
  server.on('connection', (connection: Duplex) => {
    connections.accepted++
    connection.once('close', () => connections.closed++)
  })
  // `allowSynchronousEvents: false`: one message per turn of the event loop. Otherwise every frame of a read
  // (a flooding page packs thousands into one) runs in one go, and an agent's output waits behind all of them.
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD, allowSynchronousEvents: false })

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hosts().has(req.headers.host ?? '')) return refuse(res, 403, 'Forbidden host')
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Method not allowed')
    const url = requestUrl(req, origin())
    if (url === null) return refuse(res, 400, 'Bad request')
    if (url.pathname === WS_PATH) return refuse(res, 426, 'Upgrade required')
    const file = await readStaticFile(rendererDir, url.pathname)
    if (!file.ok && file.status === 404 && url.pathname === '/favicon.ico') {
      // Browsers ask for it on their own: answer "nothing here" rather than an error in the console.
      res.writeHead(204, { 'Cache-Control': 'max-age=86400', 'X-Content-Type-Options': 'nosniff' })
      res.end()
      return
    }
    if (!file.ok) return refuse(res, file.status, file.status === 404 ? 'Not found' : 'Forbidden')
    // The page is the key to the app: it needs the token. The hashed assets it loads are public build output.
    const isPage = file.contentType.startsWith('text/html')
    if (isPage && !tokenMatches(url.searchParams.get('token'), token)) return refuse(res, 401, NO_TOKEN_PAGE)
    res.writeHead(200, {
      'Content-Type': file.contentType,
      'Content-Length': file.body.length,
      'Content-Security-Policy': csp(),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Opener-Policy': 'same-origin',
      // Other sites may not embed our assets (script, style, image) to probe the local host.
      'Cross-Origin-Resource-Policy': 'same-origin',
      'Cache-Control': isPage ? 'no-store' : 'no-cache',
    })
    res.end(req.method === 'HEAD' ? undefined : file.body)
  }

  // Any page in the browser may try to open a socket, as often as it likes: the log says so, but not every time.
  const warnUpgrade = throttledWarnings(log)
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const status = checkUpgrade(req)
    if (status !== 0) {
      warnUpgrade(`refused socket upgrade (${status})`, ` from origin ${String(req.headers.origin).slice(0, 200)}`)
      // Once upgrading, the socket is ours alone: a client that resets it while we answer (a page that gives up at
      // once) makes an 'error' with no listener, which would end the host. Nothing to do with it but let it go.
      socket.on('error', () => socket.destroy())
      socket.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
      return
    }
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws))
  })

  /** 0 when the upgrade may proceed, otherwise the HTTP status to refuse it with. Never throws: it runs in an event listener. */
  function checkUpgrade(req: IncomingMessage): UpgradeRefusal | 0 {
    if (!hosts().has(req.headers.host ?? '')) return 403
    const url = requestUrl(req, origin())
    if (url === null) return 400
    if (url.pathname !== WS_PATH) return 404
    if (!tokenMatches(url.searchParams.get('token'), token)) return 401
    if (req.headers.origin !== origin()) return 403
    if (sockets.size >= maxSockets) return 503
    return 0
  }

  function accept(ws: WebSocket): void {
    sockets.add(ws)
    const flow = new ViewFlow({
      ...options.flow,
      deliver: (name, payload, frame) => deliver(ws, name, payload, frame),
      stateOf: (sessionId) => services.sessionState?.(sessionId),
    })
    flows.set(ws, flow)
    // The page's word on what it applied goes to its own flow (the socket is the sender).
    const handlers = handlersForView(services.handlers, flow)
    const limit = createCallLimit()
    const warn = throttledWarnings(log)
    // The socket is the page: what its calls hold (an inspector it watches) goes with it, dropped or closed.
    const page = createCallClient()
    ws.on('close', () => {
      sockets.delete(ws)
      flows.delete(ws)
      flow.dispose()
      page.leave()
    })
    ws.on('error', (error) => log.warn('socket error', error))
    ws.on('message', (data: RawData, isBinary: boolean) => {
      void handleMessage(ws, data, isBinary, limit, warn, page.client, handlers)
    })
  }

  async function handleMessage(
    ws: WebSocket,
    data: RawData,
    isBinary: boolean,
    limit: ReturnType<typeof createCallLimit>,
    warn: (what: string) => void,
    client: CallClient,
    handlers: CallHandlers,
  ): Promise<void> {
    // A page that was dropped (or left) gets no answer: its calls still waiting to be read are not run at all.
    if (ws.readyState !== WebSocket.OPEN) return
    if (isBinary) return warn('ignored a binary socket message')
    let message: unknown
    try {
      message = JSON.parse(rawToString(data))
    } catch {
      return warn('ignored a socket message that is not JSON')
    }
    if (!isWireCall(message)) {
      const id = typeof message === 'object' && message !== null ? (message as { id?: unknown }).id : undefined
      if (typeof id === 'number') send(ws, { type: 'result', id, result: { ok: false, error: { kind: 'invalid-argument', message: 'Malformed call message' } } })
      return warn('ignored a malformed socket message')
    }
    const { name, arg } = message
    const result = await limit(() => dispatchCall(name, arg, handlers, log, client))
    send(ws, { type: 'result', id: message.id, result })
  }

  function send(ws: WebSocket, message: WireFromHost): void {
    if (!keeping(ws)) return
    try {
      const text = JSON.stringify(message)
      // Only an answer the page asked for widens what it may leave unread (the largest of them, never their sum); events never do.
      if (message.type === 'result' && text.length > maxBuffered / 4) answering.set(ws, Math.max(answering.get(ws) ?? 0, Buffer.byteLength(text)))
      ws.send(text)
    } catch (error) {
      log.error('could not send a socket message', error)
      if (message.type === 'result') {
        ws.send(JSON.stringify({ type: 'result', id: message.id, result: { ok: false, error: { kind: 'internal', message: 'Result could not be serialised' } } }))
      }
    }
  }

  try {
    port = await listen(server, options.port ?? 0)
  } catch (error) {
    await services.dispose()
    throw error
  }

  let disposed: Promise<void> | undefined
  const url = `${origin()}/?token=${encodeURIComponent(token)}`
  log.info(`listening on ${origin()}`)
  return {
    url,
    port,
    token,
    origin: origin(),
    views: () => [...flows].map(([ws, flow]) => ({ ...flow.bytes, buffered: ws.bufferedAmount })),
    connections: () => ({ ...connections }),
    dispose() {
      disposed ??= (async () => {
        for (const ws of sockets) ws.close(1001, 'Bosun is shutting down')
        const closed = new Promise<void>((done) => server.close(() => done()))
        wss.close()
        try {
          await services.dispose()
        } finally {
          for (const ws of sockets) ws.terminate()
          server.closeAllConnections()
          await closed
        }
      })()
      return disposed
    },
  }
}

/** Warnings of one kind logged as they come; past this many, only every {@link WARNING_SUMMARY_EVERY}th, with the count. */
export const WARNINGS_LOGGED_EACH = 5
const WARNING_SUMMARY_EVERY = 1000

/**
 * Warnings about what a client sends, at most a few of each kind (then a count now and then): a page that sends
 * garbage thousands of times a second, or a site that keeps trying to open a socket, must not fill the log.
 */
function throttledWarnings(log: Logger): (what: string, detail?: string) => void {
  const counts = new Map<string, number>()
  return (what, detail = '') => {
    const count = (counts.get(what) ?? 0) + 1
    counts.set(what, count)
    if (count <= WARNINGS_LOGGED_EACH) log.warn(`${what}${detail}`)
    else if (count % WARNING_SUMMARY_EVERY === 0) log.warn(`${what} (${count} times so far)`)
  }
}

/**
 * What a tab opened without the key sees. The page takes the key out of the address bar once loaded, so a reload
 * lands here too: say what to do, in the words the person saw when Bosun started.
 */
export const NO_TOKEN_PAGE = [
  'Bosun needs its full address, with the key in it, to open.',
  '',
  'Open the address Bosun printed when it started (the line "Bosun web host: http://127.0.0.1:…/?token=…").',
  'Bosun takes the key out of the address bar once the page has loaded, so reloading the tab needs that address again.',
].join('\n')

type UpgradeRefusal = 400 | 401 | 403 | 404 | 503
const STATUS_TEXT: Record<UpgradeRefusal, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 503: 'Service Unavailable' }

/**
 * The request's URL, or null when its target does not parse (`//[`, say). `new URL` throws on those, and a
 * throw in the upgrade listener would take the whole host down for anyone who can reach the port.
 */
function requestUrl(req: Pick<IncomingMessage, 'url'>, base: string): URL | null {
  try {
    return new URL(req.url ?? '/', base)
  } catch {
    return null
  }
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' })
  res.end(message)
}

function tokenMatches(given: string | null, expected: string): boolean {
  if (given === null) return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

function isWireCall(value: unknown): value is WireCall {
  if (typeof value !== 'object' || value === null) return false
  const m = value as Partial<WireCall>
  return m.type === 'call' && typeof m.id === 'number' && Number.isSafeInteger(m.id) && typeof m.name === 'string'
}

function rawToString(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8')
  return data.toString('utf8')
}

function listen(server: http.Server, port: number): Promise<number> {
  return new Promise((done, fail) => {
    const onError = (error: Error) => fail(error)
    server.once('error', onError)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError)
      const address = server.address()
      done(typeof address === 'object' && address !== null ? address.port : port)
    })
  })
}
