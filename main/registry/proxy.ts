/**
 * Main's downloads through the proxy the environment names, as curl, git and npm do: `HTTPS_PROXY` (or
 * `https_proxy`, else `ALL_PROXY`) for https URLs, skipped for hosts `NO_PROXY` lists and for this machine. Only
 * http:// proxies, reached with CONNECT (the TLS session is end to end, so certificates are checked as without
 * a proxy); credentials in the proxy URL go as Basic `Proxy-Authorization`. (Plain http downloads are loopback
 * only, see `safeDownloadUrl`, and never go through a proxy.)
 */
import type http from 'node:http'
import { isIP, type Socket } from 'node:net'
import type tls from 'node:tls'
import { isLoopbackHost } from './registry-schema'
import { lazyRequire } from '../base/lazy-require'

/** Node's http, loaded with the first tunnel. */
const loadHttp = lazyRequire<typeof http>('node:http')
/** Node's tls, loaded with the first tunnel (about 6 MiB of main's RSS otherwise held from start). */
const loadTls = lazyRequire<typeof tls>('node:tls')

const pick = (env: NodeJS.ProcessEnv, ...names: string[]): string | undefined => {
  for (const name of names) {
    const value = env[name]?.trim()
    if (value) return value
  }
  return undefined
}

/** A URL's hostname without the brackets of an IPv6 address. */
const unbracket = (hostname: string): string => hostname.replace(/^\[|\]$/g, '')

/** Whether `NO_PROXY` (a comma or space separated list: `*`, `host`, `.domain`, `*.domain`, each with an optional `:port`) covers `target`. */
export function bypassesProxy(target: URL, noProxy: string | undefined): boolean {
  if (isLoopbackHost(target.hostname) || target.hostname.endsWith('.localhost')) return true
  if (!noProxy) return false
  const host = unbracket(target.hostname).toLowerCase()
  const port = target.port || (target.protocol === 'https:' ? '443' : '80')
  for (const raw of noProxy.split(/[\s,]+/)) {
    let entry = raw.trim().toLowerCase()
    if (!entry) continue
    if (entry === '*') return true
    // `host:port` (one colon: not a bare IPv6 address) applies to that port only.
    const withPort = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry)
    if (withPort) {
      if (withPort[2] !== port) continue
      entry = withPort[1]!
    }
    entry = unbracket(entry).replace(/^\*?\./, '')
    if (host === entry || host.endsWith(`.${entry}`)) return true
  }
  return false
}

/** The proxy for an https `target` by the environment, or null (none, bypassed, or not an http:// proxy URL). */
export function proxyFor(target: URL, env: NodeJS.ProcessEnv = process.env): URL | null {
  if (target.protocol !== 'https:') return null
  const raw = pick(env, 'HTTPS_PROXY', 'https_proxy', 'ALL_PROXY', 'all_proxy')
  if (!raw) return null
  if (bypassesProxy(target, pick(env, 'NO_PROXY', 'no_proxy'))) return null
  let proxy: URL
  try {
    proxy = new URL(raw.includes('://') ? raw : `http://${raw}`)
  } catch {
    return null
  }
  return proxy.protocol === 'http:' ? proxy : null
}

/** The proxy as shown in messages: its host, never its credentials. */
export const proxyLabel = (proxy: URL): string => proxy.host

/**
 * `createConnection` for an https request through `proxy`: a CONNECT tunnel to the target's host and port,
 * then TLS over it (checked against the default roots, with the target's name).
 */
export function tunnelThrough(proxy: URL): (options: { host?: string | null; hostname?: string | null; port?: number | string | null; servername?: string }, done: (error: Error | null, socket?: Socket) => void) => undefined {
  return (options, done) => {
    const host = unbracket(options.hostname ?? options.host ?? '')
    const port = Number(options.port ?? 443)
    const authority = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`
    const headers: Record<string, string> = { host: authority }
    if (proxy.username || proxy.password) {
      headers['proxy-authorization'] = `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`
    }
    const connect = loadHttp().request({ host: unbracket(proxy.hostname), port: Number(proxy.port || 80), method: 'CONNECT', path: authority, headers, agent: false })
    let settled = false
    const refused = (status: number | undefined) => new Error(`the proxy ${proxyLabel(proxy)} answered ${status ?? '?'} to CONNECT ${authority}`)
    const fail = (error: Error) => {
      if (settled) return
      settled = true
      done(error)
    }
    connect.once('connect', (response, socket) => {
      if (response.statusCode !== 200) {
        socket.destroy()
        fail(refused(response.statusCode))
        return
      }
      settled = true
      // The certificate is checked against the target's name (`host`); SNI carries names only, never an address.
      done(null, loadTls().connect({ socket, host, ...(isIP(host) === 0 ? { servername: options.servername ?? host } : {}), ALPNProtocols: ['http/1.1'] }))
    })
    connect.once('response', (response) => {
      response.resume()
      fail(refused(response.statusCode))
    })
    connect.once('error', (error) => fail(new Error(`could not reach the proxy ${proxyLabel(proxy)}: ${error.message}`)))
    connect.end()
    return undefined
  }
}
