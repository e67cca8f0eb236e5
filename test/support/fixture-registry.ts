/**
 * A fixture ACP Registry for tests: an http server on loopback serving `registry.json`, icons and real
 * archives built here byte by byte (tar.gz and zip), so hostile entries (`../`, absolute paths, links out,
 * devices, bombs) can be made exactly as an attacker would, which archive libraries refuse to write.
 */
import { createHash } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { deflateRawSync, gzipSync, crc32 } from 'node:zlib'
import { scenarioPath } from '../agents/command'

export interface ArchiveEntry {
  path: string
  type?: 'file' | 'dir' | 'symlink' | 'hardlink' | 'chardev' | 'fifo'
  body?: string | Buffer
  linkpath?: string
  mode?: number
}

// ---- tar -------------------------------------------------------------------------------------------

function tarHeader(entry: ArchiveEntry, size: number): Buffer {
  const h = Buffer.alloc(512)
  const type = entry.type ?? 'file'
  h.write(entry.path, 0, 100, 'utf8')
  const octal = (n: number, len: number) => n.toString(8).padStart(len - 1, '0') + '\0'
  h.write(octal(entry.mode ?? (type === 'dir' ? 0o755 : 0o644), 8), 100)
  h.write(octal(0, 8), 108)
  h.write(octal(0, 8), 116)
  h.write(octal(size, 12), 124)
  h.write(octal(Math.floor(Date.now() / 1000), 12), 136)
  h.write('        ', 148)
  const flag = { file: '0', hardlink: '1', symlink: '2', chardev: '3', dir: '5', fifo: '6' }[type]
  h.write(flag, 156)
  if (entry.linkpath) h.write(entry.linkpath, 157, 100, 'utf8')
  h.write('ustar\0', 257)
  h.write('00', 263)
  let sum = 0
  for (const byte of h) sum += byte
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148)
  return h
}

export function makeTar(entries: ArchiveEntry[]): Buffer {
  const parts: Buffer[] = []
  for (const entry of entries) {
    const body = entry.type === undefined || entry.type === 'file' ? Buffer.from(entry.body ?? '') : Buffer.alloc(0)
    parts.push(tarHeader(entry, body.length), body, Buffer.alloc((512 - (body.length % 512)) % 512))
  }
  parts.push(Buffer.alloc(1024))
  return Buffer.concat(parts)
}

export const makeTarGz = (entries: ArchiveEntry[]): Buffer => gzipSync(makeTar(entries))

// ---- zip -------------------------------------------------------------------------------------------

export function makeZip(entries: ArchiveEntry[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const type = entry.type ?? 'file'
    const name = Buffer.from(type === 'dir' && !entry.path.endsWith('/') ? `${entry.path}/` : entry.path, 'utf8')
    const raw = type === 'symlink' ? Buffer.from(entry.linkpath ?? '') : Buffer.from(entry.body ?? '')
    const deflate = raw.length > 1024
    const data = deflate ? deflateRawSync(raw) : raw
    const crc = crc32(raw)
    const fileType = type === 'dir' ? 0o040000 : type === 'symlink' ? 0o120000 : 0o100000
    const mode = fileType | (entry.mode ?? (type === 'dir' ? 0o755 : 0o644))
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(0x0800, 6)
    local.writeUInt16LE(deflate ? 8 : 0, 8)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(data.length, 18)
    local.writeUInt32LE(raw.length, 22)
    local.writeUInt16LE(name.length, 26)
    locals.push(local, name, data)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE((3 << 8) | 20, 4) // made by Unix
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(0x0800, 8)
    central.writeUInt16LE(deflate ? 8 : 0, 10)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(data.length, 20)
    central.writeUInt32LE(raw.length, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE((mode << 16) >>> 0, 38)
    central.writeUInt32LE(offset, 42)
    centrals.push(central, name)
    offset += local.length + name.length + data.length
  }
  const centralDir = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(centralDir.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, centralDir, end])
}

export const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex')

/**
 * A shell script that runs the scripted ACP agent (test/agents/scripted-agent.ts) on `scenario` with this
 * Node, and appends a line to `startsFile` each time it starts (to count starts).
 */
export function agentScript(options: { scenario?: string; startsFile?: string } = {}): string {
  const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
  const loader = pathToFileURL(join(repoRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href
  const agent = join(repoRoot, 'test', 'agents', 'scripted-agent.ts')
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
  return [
    '#!/bin/sh',
    options.startsFile ? `echo started >> ${q(options.startsFile)}` : '',
    `exec ${q(process.execPath)} --import ${q(loader)} ${q(agent)} --scenario ${q(scenarioPath(options.scenario ?? 'basic'))} "$@"`,
    '',
  ].join('\n')
}

// ---- server ----------------------------------------------------------------------------------------

export interface FixtureRegistry {
  /** http://127.0.0.1:<port> */
  origin: string
  /** `${origin}/registry.json` */
  url: string
  /** Serve `body` at `path` (replaces what was there). */
  put(path: string, body: Buffer | string, contentType?: string): void
  /** Answer `path` with a 302 to `location`. */
  redirect(path: string, location: string): void
  /** The registry document served at /registry.json. */
  setRegistry(doc: unknown): void
  /** Stop answering (simulates being offline: connections are refused). */
  close(): Promise<void>
  /** Requests seen, by path. */
  hits: string[]
  /** Resolves at the next request for `path` (or at once if it was already asked for). */
  waitForHit(path: string): Promise<void>
  /** Paths whose response stalls after the first bytes until `release()` (a download to cancel). */
  stall(path: string): { release(): void }
}

export async function startFixtureRegistry(): Promise<FixtureRegistry> {
  const files = new Map<string, { body: Buffer; type: string }>()
  const redirects = new Map<string, string>()
  const stalls = new Map<string, Promise<void>>()
  const hits: string[] = []
  const hitWaiters: { path: string; resolve: () => void }[] = []
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    hits.push(path)
    for (const waiter of hitWaiters.filter((w) => w.path === path)) {
      hitWaiters.splice(hitWaiters.indexOf(waiter), 1)
      waiter.resolve()
    }
    const location = redirects.get(path)
    if (location !== undefined) {
      res.writeHead(302, { location }).end()
      return
    }
    const file = files.get(path)
    if (!file) {
      res.writeHead(404).end('not found')
      return
    }
    res.writeHead(200, { 'content-type': file.type, 'content-length': String(file.body.length) })
    const stalled = stalls.get(path)
    if (stalled) {
      res.write(file.body.subarray(0, 16))
      void stalled.then(() => res.end(file.body.subarray(16)))
    } else res.end(file.body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const sockets = new Set<Socket>()
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  let closed = false
  return {
    origin,
    url: `${origin}/registry.json`,
    hits,
    waitForHit(path) {
      if (hits.includes(path)) return Promise.resolve()
      return new Promise<void>((resolve) => hitWaiters.push({ path, resolve }))
    },
    put(path, body, type = 'application/octet-stream') {
      files.set(path, { body: Buffer.isBuffer(body) ? body : Buffer.from(body), type })
    },
    redirect(path, location) {
      redirects.set(path, location)
    },
    setRegistry(doc) {
      files.set('/registry.json', { body: Buffer.from(JSON.stringify(doc)), type: 'application/json' })
    },
    stall(path) {
      let release!: () => void
      stalls.set(path, new Promise<void>((resolve) => (release = resolve)))
      return {
        release: () => {
          stalls.delete(path)
          release()
        },
      }
    },
    async close() {
      if (closed) return
      closed = true
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** A registry entry with a binary distribution for this machine (and the others pointing at the same archive). */
export function binaryEntry(
  id: string,
  version: string,
  archiveUrl: string,
  options: { cmd?: string; sha256?: string; name?: string; args?: string[]; env?: Record<string, string>; icon?: string } = {},
): Record<string, unknown> {
  const target = {
    archive: archiveUrl,
    cmd: options.cmd ?? './bin/agent',
    ...(options.args ? { args: options.args } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.sha256 ? { sha256: options.sha256 } : {}),
  }
  return {
    id,
    name: options.name ?? `Agent ${id}`,
    version,
    description: `The ${id} test agent`,
    authors: ['Bosun tests'],
    license: 'MIT',
    ...(options.icon ? { icon: options.icon } : {}),
    distribution: { binary: { 'linux-x86_64': target, 'linux-aarch64': target, 'darwin-aarch64': target, 'darwin-x86_64': target } },
  }
}
