/**
 * One Bosun per home. The desktop app and `npm run start:web` both default to the same folder; two of
 * them each writing back their own copy of `agents.json` and `permission-rules.json` lost an agent and a
 * rule. The first process takes `bosun.lock` (created exclusively); the second is refused with who holds
 * it (pid, which host, since when) and how to choose another home. A lock whose process is gone (a crash,
 * SIGKILL, power loss) is taken over.
 */
import { promises as fs } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { fail, ok, type Result } from '../base/errors'

export const LOCK_FILE = 'bosun.lock'

export interface HomeLockHolder {
  pid: number
  host: 'electron' | 'web'
  hostname: string
  startedAt: string
}

export interface HomeLock {
  readonly path: string
  readonly holder: HomeLockHolder
  /** Removes the lock if it is still ours. */
  release(): Promise<void>
}

export async function acquireHomeLock(home: string, host: HomeLockHolder['host'], options: { isAlive?: (pid: number) => boolean } = {}): Promise<Result<HomeLock>> {
  const isAlive = options.isAlive ?? processIsAlive
  const path = join(home, LOCK_FILE)
  const holder: HomeLockHolder = { pid: process.pid, host, hostname: hostname(), startedAt: new Date().toISOString() }
  const text = JSON.stringify(holder) + '\n'
  await fs.mkdir(home, { recursive: true })
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await fs.writeFile(path, text, { flag: 'wx', mode: 0o600 })
      return ok({
        path,
        holder,
        release: async () => {
          const current = await fs.readFile(path, 'utf8').catch(() => null)
          if (current === text) await fs.rm(path, { force: true })
        },
      })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        return fail({ kind: 'io-error', message: `Cannot lock the Bosun home ${home}: ${(error as Error).message}` })
      }
    }
    const other = await readHolder(path)
    const stale = other !== null && other.hostname === holder.hostname && other.pid !== process.pid && !isAlive(other.pid)
    // An unreadable lock is another process starting (it creates, then writes), or one that crashed mid-write.
    if (other === null && (await ageMs(path)) < 5_000) {
      return fail({ kind: 'io-error', message: `Another Bosun is starting on ${home}. Wait for it, or start this one with another home: BOSUN_HOME=/path/to/another/folder.` })
    }
    if (other === null || stale) {
      await fs.rm(path, { force: true })
      continue
    }
    return fail({ kind: 'io-error', message: describeConflict(home, other) })
  }
  return fail({ kind: 'io-error', message: `Cannot lock the Bosun home ${home}: another process keeps taking it.` })
}

/** What the second process says. */
export function describeConflict(home: string, other: HomeLockHolder): string {
  const which = other.host === 'web' ? 'the browser host (npm run start:web)' : 'the desktop app'
  const where = other.hostname !== hostname() ? ` on ${other.hostname}` : ''
  return (
    `Another Bosun is using ${home}: ${which}, pid ${other.pid}${where}, since ${other.startedAt}. ` +
    `Quit it first, or start this one with another home: BOSUN_HOME=/path/to/another/folder.`
  )
}

async function ageMs(path: string): Promise<number> {
  const stat = await fs.stat(path).catch(() => null)
  return stat ? Date.now() - stat.mtimeMs : Number.POSITIVE_INFINITY
}

async function readHolder(path: string): Promise<HomeLockHolder | null> {
  try {
    const value = JSON.parse(await fs.readFile(path, 'utf8')) as Partial<HomeLockHolder>
    if (typeof value.pid !== 'number' || (value.host !== 'web' && value.host !== 'electron') || typeof value.hostname !== 'string') return null
    return { pid: value.pid, host: value.host, hostname: value.hostname, startedAt: String(value.startedAt ?? 'unknown') }
  } catch {
    return null
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, it is just not ours.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
