/**
 * Main's downloads through the environment's proxy: a real CONNECT proxy on this machine tunnels to a real https
 * server (the test CA's certificate for registry.test, a name nothing here resolves: only the proxy can reach
 * it). With HTTPS_PROXY the download works and the proxy saw `CONNECT registry.test:443`; credentials in the
 * proxy URL are sent as Basic auth, a refusal is a clear error; NO_PROXY rules as curl has them.
 */
import { readFileSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import { connect, type AddressInfo, type Socket } from 'node:net'
import tls from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { downloadToBuffer } from '../../../main/registry/download'
import { bypassesProxy, proxyFor } from '../../../main/registry/proxy'

const fixtures = 'test/fixtures/tls'
let target: https.Server
let proxy: http.Server
let proxyPort = 0
const connects: { authority: string; auth: string | undefined }[] = []
/** Tunnels' sockets: a server's close does not know about them. */
const tunnels = new Set<Socket>()
let requiredAuth: string | undefined
const defaults = tls.getCACertificates('default')

beforeAll(async () => {
  // This test file's thread trusts the test CA (nothing else shares it).
  tls.setDefaultCACertificates([...defaults, readFileSync(`${fixtures}/ca.pem`, 'utf8')])
  target = https.createServer({ key: readFileSync(`${fixtures}/server.key`), cert: readFileSync(`${fixtures}/server.pem`) }, (req, res) => {
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify({ path: req.url, host: req.headers.host }))
  })
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve))
  const targetPort = (target.address() as AddressInfo).port
  proxy = http.createServer((_req, res) => res.writeHead(405).end())
  proxy.on('connect', (req: http.IncomingMessage, client: Socket, head: Buffer) => {
    tunnels.add(client)
    client.once('close', () => tunnels.delete(client))
    connects.push({ authority: req.url ?? '', auth: req.headers['proxy-authorization'] })
    if (requiredAuth !== undefined && req.headers['proxy-authorization'] !== requiredAuth) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n')
      return
    }
    // Every tunnel leads to the one https server, whatever name was asked for.
    const upstream = connect(targetPort, '127.0.0.1', () => {
      tunnels.add(upstream)
      upstream.once('close', () => tunnels.delete(upstream))
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      if (head.length > 0) upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    // The server is done: the proxy says so to Bosun and waits for Bosun to close its end (the check below).
    upstream.on('close', () => {
      client.end()
      client.resume()
    })
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
    client.on('close', () => upstream.destroy())
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  proxyPort = (proxy.address() as AddressInfo).port
})

afterAll(async () => {
  tls.setDefaultCACertificates(defaults)
  for (const socket of tunnels) socket.destroy()
  proxy.closeAllConnections()
  target.closeAllConnections()
  await new Promise((resolve) => proxy.close(resolve))
  await new Promise((resolve) => target.close(resolve))
})

describe('downloads through the environment’s proxy', () => {
  it('tunnels https with CONNECT; the certificate is checked end to end', async () => {
    connects.length = 0
    requiredAuth = undefined
    const { body } = await downloadToBuffer('https://registry.test/v1/registry.json', { maxBytes: 4096, idleTimeoutMs: 5_000, env: { HTTPS_PROXY: `http://127.0.0.1:${proxyPort}` } })
    expect(JSON.parse(body.toString())).toEqual({ path: '/v1/registry.json', host: 'registry.test' })
    expect(connects).toEqual([{ authority: 'registry.test:443', auth: undefined }])
    // Bosun closes the tunnel once the download is done (no socket left open per download).
    await expect.poll(() => tunnels.size, { timeout: 10_000 }).toBe(0)
  })

  it('sends the proxy URL’s credentials as Basic auth, and reports a refusal with the proxy’s answer (never its credentials)', async () => {
    connects.length = 0
    requiredAuth = `Basic ${Buffer.from('me:p@ss word').toString('base64')}`
    const { body } = await downloadToBuffer('https://registry.test/a', { maxBytes: 4096, idleTimeoutMs: 5_000, env: { https_proxy: `http://me:p%40ss%20word@127.0.0.1:${proxyPort}` } })
    expect(JSON.parse(body.toString()).path).toBe('/a')
    const refused = downloadToBuffer('https://registry.test/a', { maxBytes: 4096, idleTimeoutMs: 5_000, env: { HTTPS_PROXY: `http://me:wrong@127.0.0.1:${proxyPort}` } })
    await expect(refused).rejects.toThrow(`the proxy 127.0.0.1:${proxyPort} answered 407 to CONNECT registry.test:443`)
    await expect(refused).rejects.not.toThrow(/wrong/)
    expect(connects).toHaveLength(2)
  })

  it('checks the certificate against the address asked for, through the tunnel', async () => {
    connects.length = 0
    requiredAuth = undefined
    // The tunnel reaches the same server, whose certificate names 127.0.0.1, not 192.0.2.7: refused.
    const wrong = downloadToBuffer('https://192.0.2.7/by-address', { maxBytes: 4096, idleTimeoutMs: 5_000, env: { HTTPS_PROXY: `http://127.0.0.1:${proxyPort}` } })
    await expect(wrong).rejects.toThrow(/192\.0\.2\.7 is not in the cert's list/)
    expect(connects).toEqual([{ authority: '192.0.2.7:443', auth: undefined }])
  })

  it('says so when the proxy cannot be reached', async () => {
    const closed = http.createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    await expect(downloadToBuffer('https://registry.test/a', { maxBytes: 4096, idleTimeoutMs: 5_000, env: { HTTPS_PROXY: `http://127.0.0.1:${port}` } })).rejects.toThrow(
      `could not reach the proxy 127.0.0.1:${port}`,
    )
  })
})

describe('which URLs go through the proxy', () => {
  const url = (u: string) => new URL(u)
  it('https only, by HTTPS_PROXY, https_proxy, then ALL_PROXY; never this machine; only http:// proxies', () => {
    expect(proxyFor(url('https://cdn.agentclientprotocol.com/x'), { HTTPS_PROXY: 'http://proxy:3128' })?.host).toBe('proxy:3128')
    expect(proxyFor(url('https://cdn.example/x'), { https_proxy: 'proxy.corp:8080' })?.href).toBe('http://proxy.corp:8080/')
    expect(proxyFor(url('https://cdn.example/x'), { ALL_PROXY: 'http://all:1' })?.host).toBe('all:1')
    expect(proxyFor(url('https://cdn.example/x'), {})).toBeNull()
    expect(proxyFor(url('http://127.0.0.1:8080/x'), { HTTPS_PROXY: 'http://proxy:3128', HTTP_PROXY: 'http://proxy:3128' })).toBeNull()
    expect(proxyFor(url('https://localhost/x'), { HTTPS_PROXY: 'http://proxy:3128' })).toBeNull()
    expect(proxyFor(url('https://127.0.0.2/x'), { HTTPS_PROXY: 'http://proxy:3128' })).toBeNull()
    expect(proxyFor(url('https://[::1]/x'), { HTTPS_PROXY: 'http://proxy:3128' })).toBeNull()
    expect(proxyFor(url('https://cdn.example/x'), { HTTPS_PROXY: 'socks5://proxy:1080' })).toBeNull()
    expect(proxyFor(url('https://cdn.example/x'), { HTTPS_PROXY: 'http://[not a url' })).toBeNull()
  })

  it('NO_PROXY: *, exact hosts, domains with or without a leading dot or *., ports, IPv6', () => {
    const skip = (u: string, list: string) => bypassesProxy(url(u), list)
    expect(skip('https://a.example/', '*')).toBe(true)
    expect(skip('https://example.com/', 'example.com')).toBe(true)
    expect(skip('https://api.example.com/', 'example.com')).toBe(true)
    expect(skip('https://api.example.com/', '.example.com')).toBe(true)
    expect(skip('https://api.example.com/', '*.example.com')).toBe(true)
    expect(skip('https://notexample.com/', 'example.com')).toBe(false)
    expect(skip('https://example.com/', 'other.org, example.com:443')).toBe(true)
    expect(skip('https://example.com/', 'example.com:8443')).toBe(false)
    expect(skip('https://[2001:db8::1]/', '2001:db8::1')).toBe(true)
    expect(skip('https://[2001:db8::1]:8443/', '[2001:db8::1]:8443')).toBe(true)
    expect(skip('https://example.com/', '')).toBe(false)
  })
})
