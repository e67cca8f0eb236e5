/**
 * Plain http(s) GET in main, bounded: a size limit (checked on Content-Length and while streaming), a
 * deadline without progress, at most 5 redirects (never from https down to http; for icons, never to another
 * origin), cancel through an AbortSignal. The SHA-256 of the body is computed while it streams. Through the environment's proxy (proxy.ts).
 */
import { createHash } from 'node:crypto'
import { createWriteStream, promises as fs } from 'node:fs'
import type http from 'node:http'
import type https from 'node:https'
import { safeDownloadUrl } from './registry-schema'
import { proxyFor, tunnelThrough } from './proxy'
import { formatBytes } from '../base/format-bytes'
import { beforeTlsRequest } from '../base/system-certificates'
import { lazyRequire } from '../base/lazy-require'

/** Node's http and https, loaded with the first download (the Electron app otherwise never needs them at start). */
const loadHttp = lazyRequire<typeof http>('node:http')
const loadHttps = lazyRequire<typeof https>('node:https')

export interface DownloadProgress {
  received: number
  /** From Content-Length, when the server sent one. */
  total: number | null
}

export interface DownloadOptions {
  maxBytes: number
  signal?: AbortSignal
  onProgress?: (progress: DownloadProgress) => void
  /** No bytes for this long: give up. */
  idleTimeoutMs?: number
  /** Accept header. */
  accept?: string
  /** Where `HTTPS_PROXY`/`NO_PROXY` are read (default `process.env`; see proxy.ts). */
  env?: NodeJS.ProcessEnv
  /**
   * `same-origin`: a redirect to another scheme, host or port is refused (icons, checklist J2). Default `any`:
   * followed within the rules above (an agent's archive moves from its release page to a CDN).
   */
  redirects?: 'any' | 'same-origin'
}

export type DownloadFailure = { reason: 'cancelled' | 'too-large' | 'http-error' | 'network' | 'timeout' | 'unsafe-url'; message: string }

export class DownloadError extends Error {
  constructor(readonly failure: DownloadFailure) {
    super(failure.message)
    this.name = 'DownloadError'
  }
}

const MAX_REDIRECTS = 5

/** Downloads `url` into memory (small documents: the registry, icons). */
export async function downloadToBuffer(url: string, options: DownloadOptions): Promise<{ body: Buffer; contentType: string | null; finalUrl: string }> {
  const chunks: Buffer[] = []
  const result = await download(url, options, (chunk) => {
    chunks.push(chunk)
  })
  return { body: Buffer.concat(chunks), contentType: result.contentType, finalUrl: result.finalUrl }
}

/** Downloads `url` to `file` (created exclusively); returns the SHA-256 (hex) of what was written. The file is removed on failure. */
export async function downloadToFile(url: string, file: string, options: DownloadOptions): Promise<{ sha256: string; bytes: number }> {
  const out = createWriteStream(file, { flags: 'wx', mode: 0o600 })
  const opened = new Promise<void>((resolve, reject) => {
    out.once('open', () => resolve())
    out.once('error', reject)
  })
  const hash = createHash('sha256')
  let bytes = 0
  try {
    await opened
    await download(url, options, async (chunk) => {
      hash.update(chunk)
      bytes += chunk.length
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', resolve))
    })
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())))
    return { sha256: hash.digest('hex'), bytes }
  } catch (error) {
    out.destroy()
    await fs.rm(file, { force: true })
    throw error
  }
}

async function download(
  startUrl: string,
  options: DownloadOptions,
  onChunk: (chunk: Buffer) => void | Promise<void>,
): Promise<{ contentType: string | null; finalUrl: string }> {
  let url = startUrl
  for (let hop = 0; ; hop++) {
    const safe = safeDownloadUrl(url)
    if (!safe) throw new DownloadError({ reason: 'unsafe-url', message: `Refusing to download from ${url.slice(0, 300)} (only https, or http on this machine)` })
    const outcome = await requestOnce(safe, options, onChunk)
    if (outcome.kind === 'done') return { contentType: outcome.contentType, finalUrl: safe }
    if (hop >= MAX_REDIRECTS) throw new DownloadError({ reason: 'http-error', message: `Too many redirects from ${startUrl.slice(0, 300)}` })
    const next = new URL(outcome.location, safe)
    const from = new URL(safe)
    if (from.protocol === 'https:' && next.protocol !== 'https:') {
      throw new DownloadError({ reason: 'unsafe-url', message: `Refusing a redirect from https to ${next.protocol}` })
    }
    if (options.redirects === 'same-origin' && next.origin !== from.origin) {
      throw new DownloadError({ reason: 'unsafe-url', message: `Refusing a redirect from ${from.origin} to another origin` })
    }
    url = next.href
  }
}

type Outcome = { kind: 'done'; contentType: string | null } | { kind: 'redirect'; location: string }

function requestOnce(url: string, options: DownloadOptions, onChunk: (chunk: Buffer) => void | Promise<void>): Promise<Outcome> {
  return new Promise<Outcome>((resolve, reject) => {
    const { signal } = options
    if (signal?.aborted) {
      reject(new DownloadError({ reason: 'cancelled', message: 'The download was cancelled' }))
      return
    }
    const client = url.startsWith('https:') ? loadHttps() : loadHttp()
    let settled = false
    const finish = (error: DownloadError | null, outcome?: Outcome) => {
      if (settled) return
      settled = true
      clearTimeout(idle)
      signal?.removeEventListener('abort', onAbort)
      if (error) {
        request.destroy()
        reject(error)
      } else resolve(outcome!)
    }
    const idleMs = options.idleTimeoutMs ?? 30_000
    let idle = setTimeout(() => finish(new DownloadError({ reason: 'timeout', message: `No data from ${new URL(url).host} for ${Math.round(idleMs / 1000)} s` })), idleMs)
    const touch = () => {
      clearTimeout(idle)
      idle = setTimeout(() => finish(new DownloadError({ reason: 'timeout', message: `No data from ${new URL(url).host} for ${Math.round(idleMs / 1000)} s` })), idleMs)
    }
    const onAbort = () => finish(new DownloadError({ reason: 'cancelled', message: 'The download was cancelled' }))
    signal?.addEventListener('abort', onAbort)

    // The system's roots (a company proxy's CA) are read now, before main's first TLS request, not at start.
    if (url.startsWith('https:')) beforeTlsRequest()
    const proxy = proxyFor(new URL(url), options.env)
    // A createConnection and no agent: this request's socket is the tunnel (no pooling across requests).
    const through = proxy ? { defaultPort: 443, createConnection: tunnelThrough(proxy) as unknown as http.RequestOptions['createConnection'] } : {}
    const request = client.get(url, { headers: { accept: options.accept ?? '*/*', 'user-agent': 'Bosun' }, ...through }, (response) => {
      const status = response.statusCode ?? 0
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume()
        finish(null, { kind: 'redirect', location: response.headers.location })
        return
      }
      if (status !== 200) {
        response.resume()
        finish(new DownloadError({ reason: 'http-error', message: `${new URL(url).host} answered HTTP ${status}` }))
        return
      }
      const declared = Number(response.headers['content-length'])
      const total = Number.isFinite(declared) && declared >= 0 ? declared : null
      if (total !== null && total > options.maxBytes) {
        response.resume()
        finish(new DownloadError({ reason: 'too-large', message: `The file is ${formatBytes(total)}, more than the ${formatBytes(options.maxBytes)} allowed` }))
        return
      }
      let received = 0
      const contentType = typeof response.headers['content-type'] === 'string' ? response.headers['content-type'] : null
      // Chunks are handed over one at a time (a file write may wait for drain): pause while each is handled.
      response.on('data', (chunk: Buffer) => {
        touch()
        received += chunk.length
        if (received > options.maxBytes) {
          finish(new DownloadError({ reason: 'too-large', message: `The file is larger than the ${formatBytes(options.maxBytes)} allowed` }))
          return
        }
        response.pause()
        Promise.resolve(onChunk(chunk)).then(
          () => {
            options.onProgress?.({ received, total })
            if (!settled) response.resume()
          },
          (error: unknown) => finish(new DownloadError({ reason: 'network', message: `Could not write the download: ${(error as Error).message}` })),
        )
      })
      response.on('end', () => {
        // The last chunk's handler may still be writing; 'end' fires only after every 'data' was resumed.
        if (total !== null && received !== total) finish(new DownloadError({ reason: 'network', message: `The download ended early (${received} of ${total} bytes)` }))
        else finish(null, { kind: 'done', contentType })
      })
      response.on('error', (error) => finish(new DownloadError({ reason: 'network', message: `The download failed: ${error.message}` })))
      response.on('aborted', () => finish(new DownloadError({ reason: 'network', message: 'The server closed the connection' })))
    })
    request.on('error', (error) => finish(new DownloadError({ reason: 'network', message: `Could not reach ${new URL(url).host}: ${networkReason(error)}` })))
  })
}


/** What a request's network error means, in words, with the system's own message after it (`connect ECONNREFUSED …`). */
export function networkReason(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code
  const words =
    code === 'ECONNREFUSED'
      ? 'nothing answers there (connection refused)'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'the name could not be looked up (is this computer offline?)'
        : code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT'
          ? 'it did not answer in time'
          : code === 'ECONNRESET'
            ? 'the connection was cut'
            : code === 'ENETUNREACH' || code === 'EHOSTUNREACH'
              ? 'no route to it (is this computer offline?)'
              : undefined
  return words === undefined ? error.message : `${words}; ${error.message}`
}
