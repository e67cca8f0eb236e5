/** Issue 15: the downloader's bounds (redirects, size, early end, cancel) against a loopback server. */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DownloadError, downloadToBuffer, downloadToFile } from '../../../main/registry/download'

let server: Server
let origin: string
/** A second server: another origin a redirect may lead to. */
let other: Server
let otherOrigin: string
const otherHits: string[] = []
let dir: string

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bosun-download-'))
  server = createServer((req, res) => {
    const path = req.url ?? '/'
    if (path === '/ok') res.writeHead(200, { 'content-length': '5' }).end('hello')
    else if (path === '/to-ok') res.writeHead(302, { location: '/ok' }).end()
    else if (path === '/to-external-http') res.writeHead(302, { location: 'http://example.com/x' }).end()
    else if (path === '/loop') res.writeHead(302, { location: '/loop' }).end()
    else if (path === '/to-other-origin') res.writeHead(302, { location: `${otherOrigin}/ok` }).end()
    else if (path === '/to-same-server-by-name') res.writeHead(302, { location: `${origin.replace('127.0.0.1', 'localhost')}/ok` }).end()
    else if (path === '/short') {
      res.writeHead(200, { 'content-length': '100' })
      res.write('only a part')
      res.destroy()
    } else if (path === '/chunked-big') {
      res.writeHead(200)
      res.end(Buffer.alloc(64 * 1024))
    } else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  otherHits.length = 0
  other = createServer((req, res) => {
    otherHits.push(req.url ?? '/')
    res.writeHead(200, { 'content-length': '5' }).end('other')
  })
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
  otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`
})
afterEach(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
  await new Promise<void>((resolve) => other.close(() => resolve()))
  rmSync(dir, { recursive: true, force: true })
})

const failureOf = async (promise: Promise<unknown>) => {
  try {
    await promise
  } catch (error) {
    if (error instanceof DownloadError) return error.failure
    throw error
  }
  throw new Error('expected a DownloadError')
}

describe('download', () => {
  it('follows a same-origin redirect and reports progress and the SHA-256', async () => {
    const seen: number[] = []
    const file = join(dir, 'a')
    const { sha256, bytes } = await downloadToFile(`${origin}/to-ok`, file, { maxBytes: 100, onProgress: (p) => seen.push(p.received) })
    expect(readFileSync(file, 'utf8')).toBe('hello')
    expect(bytes).toBe(5)
    expect(sha256).toBe('2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824')
    expect(seen.at(-1)).toBe(5)
  })

  it('refuses a redirect to plain http on another machine, and redirect loops', async () => {
    expect(await failureOf(downloadToBuffer(`${origin}/to-external-http`, { maxBytes: 100 }))).toMatchObject({ reason: 'unsafe-url' })
    expect(await failureOf(downloadToBuffer(`${origin}/loop`, { maxBytes: 100 }))).toMatchObject({ reason: 'http-error', message: expect.stringMatching(/Too many redirects/) })
  })

  it('same-origin (icons, J2): refuses a redirect to another port or host name without asking it, follows one within the origin', async () => {
    const sameOrigin = { maxBytes: 100, redirects: 'same-origin' } as const
    expect(await failureOf(downloadToBuffer(`${origin}/to-other-origin`, sameOrigin))).toMatchObject({ reason: 'unsafe-url', message: expect.stringMatching(/another origin/) })
    expect(await failureOf(downloadToBuffer(`${origin}/to-same-server-by-name`, sameOrigin))).toMatchObject({ reason: 'unsafe-url' })
    expect(otherHits).toEqual([])
    expect((await downloadToBuffer(`${origin}/to-ok`, sameOrigin)).body.toString()).toBe('hello')
    // Other downloads follow it (an agent's archive moves from its release page to a CDN).
    expect((await downloadToBuffer(`${origin}/to-other-origin`, { maxBytes: 100 })).body.toString()).toBe('other')
  })

  it('refuses what is larger than allowed without Content-Length, removes a partial file, and reports an early end', async () => {
    const file = join(dir, 'big')
    expect(await failureOf(downloadToFile(`${origin}/chunked-big`, file, { maxBytes: 1024 }))).toMatchObject({ reason: 'too-large' })
    expect(existsSync(file)).toBe(false)
    expect(await failureOf(downloadToBuffer(`${origin}/short`, { maxBytes: 1000 }))).toMatchObject({ reason: 'network' })
    expect(await failureOf(downloadToBuffer(`${origin}/missing`, { maxBytes: 1000 }))).toMatchObject({ reason: 'http-error', message: expect.stringMatching(/HTTP 404/) })
  })

  it('refuses file: URLs and an already aborted signal', async () => {
    expect(await failureOf(downloadToBuffer('file:///etc/passwd', { maxBytes: 100 }))).toMatchObject({ reason: 'unsafe-url' })
    const controller = new AbortController()
    controller.abort()
    expect(await failureOf(downloadToBuffer(`${origin}/ok`, { maxBytes: 100, signal: controller.signal }))).toMatchObject({ reason: 'cancelled' })
  })
})
