/**
 * Reading the files Bosun keeps in its home (agents, rules, MCP servers, trust, settings, indexes) without trusting
 * what is at their path: a FIFO or a device there is never waited on or read without end, a file past a size no
 * settings file reaches is not read into memory, and the three outcomes (missing, text, unreadable) stay apart, so
 * a caller never takes "could not read it" for "there is none" and writes an empty list over the person's file.
 */
import { constants, promises as fs } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { formatBytes } from './format-bytes'
import { readAtMost } from './read-at-most'

/** Far past any real settings file (10,000 agents or rules are a few MiB). */
export const MAX_SETTINGS_FILE_BYTES = 64 * 1024 * 1024

export type SettingsRead = { kind: 'missing' } | { kind: 'text'; text: string } | { kind: 'unreadable'; message: string }

export async function readSettingsFile(path: string, maxBytes = MAX_SETTINGS_FILE_BYTES): Promise<SettingsRead> {
  let handle: FileHandle
  try {
    // Non-blocking: opening a FIFO for reading would otherwise wait for a writer, for ever.
    handle = await fs.open(path, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' }
    return { kind: 'unreadable', message: `${path} cannot be read (${(error as Error).message})` }
  }
  try {
    const stat = await handle.stat()
    if (!stat.isFile()) return { kind: 'unreadable', message: `${path} is not a regular file` }
    if (stat.size > maxBytes) return { kind: 'unreadable', message: `${path} is ${formatBytes(stat.size)}, more than the ${formatBytes(maxBytes)} Bosun reads` }
    // Read to the end, past the bound by a chunk at most: a file that grows while it is read is refused, not read without end.
    const bytes = await readAtMost(handle, maxBytes + 1)
    if (bytes.length > maxBytes) return { kind: 'unreadable', message: `${path} is more than the ${formatBytes(maxBytes)} Bosun reads` }
    return { kind: 'text', text: bytes.toString('utf8') }
  } catch (error) {
    return { kind: 'unreadable', message: `${path} cannot be read (${(error as Error).message})` }
  } finally {
    await handle.close().catch(() => undefined)
  }
}

/**
 * Copies `path` aside as `<path>.<why>-<stamp>` (`-1`, `-2`… when that name is taken) before Bosun replaces what it
 * could not use; the copy's path, or null when no copy could be made (then the caller must not replace the file).
 */
export async function keepAside(path: string, why: string, stamp = String(Date.now())): Promise<string | null> {
  // Only a regular file is copied: copying a FIFO would wait for a writer, a device would never end.
  if (!(await fs.stat(path).then((stat) => stat.isFile(), () => false))) return null
  for (let attempt = 0; attempt < 5; attempt++) {
    const aside = `${path}.${why}-${stamp}${attempt ? `-${attempt}` : ''}`
    try {
      await fs.copyFile(path, aside, constants.COPYFILE_EXCL)
      return aside
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return null
    }
  }
  return null
}

/** {@link readSettingsFile} for code that reads in a `try`: the text, or a throw (an `ENOENT` error when there is no file). */
export async function readSettingsText(path: string): Promise<string> {
  const read = await readSettingsFile(path)
  if (read.kind === 'text') return read.text
  if (read.kind === 'missing') throw Object.assign(new Error(`${path} does not exist`), { code: 'ENOENT' })
  throw new Error(read.message)
}

/**
 * What the next save of a settings file must do first, from what its load found: a file that could not be read is
 * never replaced (its saves fail and say why); one Bosun read only in part (a bad entry, a field it does not know) is
 * copied aside once, then replaced; a file read whole, or none, is replaced as it is.
 */
export class ReplaceGuard {
  private unreadable: string | null = null
  private lossy = false

  constructor(private readonly path: string) {}

  /** The load could not read the file (`why` says so, naming it). */
  unreadableBecause(why: string): void {
    this.unreadable = why
  }

  /** The load left out part of the file. */
  partlyRead(): void {
    this.lossy = true
  }

  /**
   * Call before each save: `{ ok: true }` when the save may replace the file now (with `aside`, the copy just kept),
   * or why it may not.
   */
  async beforeReplace(): Promise<{ ok: true; aside?: string } | { ok: false; message: string }> {
    if (this.unreadable !== null) return { ok: false, message: `${this.unreadable}. Fix or remove the file, then restart Bosun.` }
    if (!this.lossy) return { ok: true }
    const aside = await keepAside(this.path, 'corrupt')
    if (!aside) return { ok: false, message: `${this.path} holds what this Bosun cannot use, and no copy of it could be kept.` }
    this.lossy = false
    return { ok: true, aside }
  }
}
