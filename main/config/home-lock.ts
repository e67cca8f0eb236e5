/**
 * One Bosun per home. The desktop app and `npm run start:web` both default to the same folder; two of
 * them each writing back their own copy of `agents.json` and `permission-rules.json` lost an agent and a
 * rule. The first process takes `bosun.lock` (created exclusively); the second is refused with who holds
 * it (pid, which host, since when) and how to choose another home. A lock whose process is gone (a crash,
 * SIGKILL, power loss; on Linux also a pid now used by another process, as after a reboot) is taken over, by one
 * process only. A home that cannot take the lock file at all (read-only, full) is used without one, with a warning.
 */
import { promises as fs, readFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { fail, ok, type Result } from '../base/errors'
import { readSettingsText } from '../base/settings-file'

export const LOCK_FILE = 'bosun.lock'
/** Held, created exclusively, by the one process that replaces a stale lock: two starting together never both win. */
const TAKEOVER_FILE = 'bosun.lock.takeover'
/** A takeover file older than this was left by a process that died in the middle of one. */
const TAKEOVER_STALE_MS = 10_000

export interface HomeLockHolder {
  pid: number
  host: 'electron' | 'web'
  hostname: string
  startedAt: string
  /** Linux: the boot the holder ran in; a lock from an earlier boot is stale whatever holds its pid now. */
  bootId?: string
  /** Linux: when the holder's process started (clock ticks since boot); another process with its pid started at another time. */
  processStart?: string
}

export interface HomeLock {
  readonly path: string
  readonly holder: HomeLockHolder
  /** Set when the home cannot take a lock file (read-only, full): Bosun runs without one, and says so. */
  readonly unlocked?: string
  /** Removes the lock if it is still ours. */
  release(): Promise<void>
}

/** Errors of a home that cannot be written: no second Bosun can write there either, so running without a lock loses nothing. */
const UNWRITABLE = new Set(['EROFS', 'ENOSPC', 'EDQUOT', 'EACCES', 'EPERM'])

export async function acquireHomeLock(
  home: string,
  host: HomeLockHolder['host'],
  options: { isAlive?: (pid: number) => boolean; processStartOf?: (pid: number) => string | undefined; bootId?: () => string | undefined } = {},
): Promise<Result<HomeLock>> {
  const isAlive = options.isAlive ?? processIsAlive
  const processStartOf = options.processStartOf ?? linuxProcessStart
  const bootId = (options.bootId ?? linuxBootId)()
  const path = join(home, LOCK_FILE)
  const start = processStartOf(process.pid)
  const holder: HomeLockHolder = { pid: process.pid, host, hostname: hostname(), startedAt: new Date().toISOString(), ...(bootId ? { bootId } : {}), ...(start ? { processStart: start } : {}) }
  const text = JSON.stringify(holder) + '\n'
  const mine = (): HomeLock => ({
    path,
    holder,
    release: async () => {
      if ((await lockText(path)) === text) await fs.rm(path, { force: true })
    },
  })
  try {
    await fs.mkdir(home, { recursive: true })
  } catch (error) {
    return fail({ kind: 'io-error', message: `Cannot use the Bosun home ${home}: ${(error as Error).message}` })
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    const created = await createExclusive(path, text)
    if (created === 'created') return ok(mine())
    if (created !== 'exists') {
      if (UNWRITABLE.has(created.code)) {
        return ok({ ...mine(), unlocked: `the home ${home} cannot take a lock file (${created.message}); nothing Bosun changes can be saved there until that is fixed` })
      }
      return fail({ kind: 'io-error', message: `Cannot lock the Bosun home ${home}: ${created.message}` })
    }
    const entry = await fs.lstat(path).catch(() => null)
    // No Bosun makes a folder there, and none can take it over: nothing would start on this home until it is moved.
    if (entry?.isDirectory()) return fail(folderInTheWay(path, home))
    const found = await lockText(path)
    const other = holderOf(found)
    // An unreadable lock is another process starting (it creates, then writes), or one that crashed mid-write; something
    // other than a file (a FIFO, a device, a link) is neither, and is taken over at once.
    if (other === null && entry?.isFile() === true && (await ageMs(path)) < 5_000) {
      return fail({ kind: 'io-error', message: `Another Bosun is starting on ${home}. Wait for it, or start this one with another home: BOSUN_HOME=/path/to/another/folder.` })
    }
    if (other !== null && !isStale(other, holder, isAlive, processStartOf)) return fail({ kind: 'io-error', message: describeConflict(home, other) })
    // Stale: replaced by whoever holds the takeover file, and only if it is still the lock that was found stale.
    const taken = await takeOver(home, path, found)
    if (taken === 'folder') return fail(folderInTheWay(join(home, TAKEOVER_FILE), home))
    if (!taken) {
      return fail({ kind: 'io-error', message: `Another Bosun is starting on ${home}. Wait for it, or start this one with another home: BOSUN_HOME=/path/to/another/folder.` })
    }
  }
  return fail({ kind: 'io-error', message: `Cannot lock the Bosun home ${home}: another process keeps taking it.` })
}

/** Creates `path` holding `text`, only if it does not exist; a file left empty by a failed write is removed. */
async function createExclusive(path: string, text: string): Promise<'created' | 'exists' | { code: string; message: string }> {
  let handle
  try {
    handle = await fs.open(path, 'wx', 0o600)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? ''
    return code === 'EEXIST' ? 'exists' : { code, message: (error as Error).message }
  }
  try {
    await handle.writeFile(text)
    await handle.close()
    return 'created'
  } catch (error) {
    await handle.close().catch(() => undefined)
    await fs.rm(path, { force: true }).catch(() => undefined)
    return { code: (error as NodeJS.ErrnoException).code ?? '', message: (error as Error).message }
  }
}

/** Removes the stale lock whose text was `found`, holding the takeover file meanwhile; false when another process holds it. */
async function takeOver(home: string, path: string, found: string | null): Promise<boolean | 'folder'> {
  const takeover = join(home, TAKEOVER_FILE)
  let created = await createExclusive(takeover, `${process.pid}\n`)
  if (created === 'exists' && (await fs.lstat(takeover).catch(() => null))?.isDirectory()) return 'folder'
  if (created === 'exists' && (await ageMs(takeover)) > TAKEOVER_STALE_MS) {
    await fs.rm(takeover, { force: true })
    created = await createExclusive(takeover, `${process.pid}\n`)
  }
  if (created !== 'created') return false
  try {
    // Still the stale lock (not one another process made meanwhile): remove it; the caller creates its own.
    if ((await lockText(path)) === found) await fs.rm(path, { force: true })
    return true
  } finally {
    await fs.rm(takeover, { force: true })
  }
}

/**
 * Whether the lock's process is gone: on this machine, its pid not alive, or alive but another process (another boot,
 * or a process that started at another time: the pid was reused, as after a reboot).
 */
function isStale(other: HomeLockHolder, me: HomeLockHolder, isAlive: (pid: number) => boolean, processStartOf: (pid: number) => string | undefined): boolean {
  if (other.hostname !== me.hostname || other.pid === process.pid) return false
  if (other.bootId && me.bootId && other.bootId !== me.bootId) return true
  if (!isAlive(other.pid)) return true
  const started = other.processStart ? processStartOf(other.pid) : undefined
  return started !== undefined && started !== other.processStart
}

/** Linux's id of this boot; undefined elsewhere. */
function linuxBootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined
  } catch {
    return undefined
  }
}

/** When `pid` started (field 22 of /proc/<pid>/stat, clock ticks since boot); undefined where there is no /proc or no such process. */
function linuxProcessStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
  } catch {
    return undefined
  }
}

/** A folder where Bosun keeps one of its lock files: no Bosun makes one there, and none can take it over. */
function folderInTheWay(path: string, home: string): { kind: 'io-error'; message: string } {
  return { kind: 'io-error', message: `${path} is a folder, where Bosun keeps the file that says which Bosun uses ${home}. Move or remove that folder, then start Bosun again.` }
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

/** The lock's text, or null when there is none or it cannot be read (read like a settings file: a FIFO there is never waited on). */
const lockText = (path: string): Promise<string | null> => readSettingsText(path).catch(() => null)

/** Who holds the lock, from its text; null when it says nothing usable. */
function holderOf(text: string | null): HomeLockHolder | null {
  if (text === null) return null
  try {
    const value = JSON.parse(text) as Partial<HomeLockHolder>
    if (typeof value.pid !== 'number' || (value.host !== 'web' && value.host !== 'electron') || typeof value.hostname !== 'string') return null
    return {
      pid: value.pid,
      host: value.host,
      hostname: value.hostname,
      startedAt: String(value.startedAt ?? 'unknown'),
      ...(typeof value.bootId === 'string' ? { bootId: value.bootId } : {}),
      ...(typeof value.processStart === 'string' ? { processStart: value.processStart } : {}),
    }
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
