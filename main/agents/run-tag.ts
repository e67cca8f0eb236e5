/**
 * Each agent process carries a tag of its run in its environment (`BOSUN_AGENT_RUN=<random>`), which every process it
 * starts inherits. Its process group is killed when it exits, but a descendant that left the group (`setsid`: Claude
 * Code runs its Bash tool's shells so) lives on, reparented to init, where Bosun can no longer see it as the agent's. On
 * Linux the tag finds it: a process of this user whose environment holds the run's tag is the agent's, and goes with
 * it. A descendant that cleared its environment is not found (its pipes are closed: see agent-process.ts).
 */
import { randomBytes } from 'node:crypto'
import { closeSync, openSync, readdirSync } from 'node:fs'
import { readAtMostSync } from '../base/read-at-most'

export const RUN_TAG_NAME = 'BOSUN_AGENT_RUN'

/** A new run's tag value: random, so no agent can name another's. */
export function newRunTag(): string {
  return randomBytes(16).toString('hex')
}

/** Whether `value` is a tag {@link newRunTag} makes (a record read back from the home is checked so). */
export function isRunTag(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{32}$/.test(value)
}

/**
 * How much of each process's environment the scan reads (one read's worth). It runs on main's thread at every agent
 * exit: an agent with hundreds of descendants of 2 MiB environments (Linux's cap) would have it read gigabytes. The tag
 * comes last in the agent's own environment (a few KiB); a descendant that pushed it further out is passed over, as
 * one that dropped it is.
 */
export const MAX_ENVIRON_BYTES = 64 * 1024

/** Whether `environ` (NUL-separated `NAME=value` entries) has `needle` (`NAME=value\0`) as one whole entry. */
function holds(environ: Buffer, needle: Buffer): boolean {
  for (let at = environ.indexOf(needle); at >= 0; at = environ.indexOf(needle, at + 1)) {
    if (at === 0 || environ[at - 1] === 0) return true
  }
  return false
}

/**
 * The pids of the processes (other than this one) whose environment holds `tag` (Linux: `/proc/<pid>/environ`;
 * processes of other users, and ones gone meanwhile, are passed over). Elsewhere none. Synchronous: procfs answers
 * from memory (a few milliseconds for a few hundred processes), and the reaping at start runs before anything else.
 */
export function processesTagged(tag: string, procRoot = '/proc', platform: NodeJS.Platform = process.platform): number[] {
  if (platform !== 'linux') return []
  const needle = Buffer.from(`${RUN_TAG_NAME}=${tag}\0`)
  return procPids(procRoot).filter((pid) => {
    if (pid === process.pid) return false
    const environ = readEnvironSync(`${procRoot}/${pid}/environ`)
    return environ !== undefined && holds(environ, needle)
  })
}

/** The pids `/proc` (or `procRoot`) lists; none when it cannot be read. */
export function procPids(procRoot: string): number[] {
  try {
    return readdirSync(procRoot).filter((name) => /^\d+$/.test(name)).map(Number)
  } catch {
    return []
  }
}

function readEnvironSync(path: string): Buffer | undefined {
  let fd: number | undefined
  try {
    fd = openSync(path, 'r')
    return readAtMostSync(fd, MAX_ENVIRON_BYTES)
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
