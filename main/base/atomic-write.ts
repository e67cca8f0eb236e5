import { closeSync, fsyncSync, openSync, promises as fs, renameSync, rmSync, writeSync } from 'node:fs'
import { dirname, basename, join } from 'node:path'
import { randomBytes } from 'node:crypto'

/**
 * Writes a file atomically: a temp file beside it, fsync, then rename over the target. A crash leaves
 * either the old or the new content, never half of one. A symbolic link at `path` is written through: the file it
 * names is replaced, beside itself, and the link stays (renamed over, the link became a file of its own, and a
 * settings file the person keeps elsewhere, in a dotfiles folder, no longer heard of any change).
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: { mode?: number } = {}): Promise<void> {
  path = await linkTarget(path)
  const dir = dirname(path)
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
  let handle
  try {
    await fs.mkdir(dir, { recursive: true })
    handle = await fs.open(tmp, 'w', options.mode ?? 0o600)
  } catch (error) {
    throw writeFailure(dir, error)
  }
  try {
    try {
      await handle.writeFile(data)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await fs.rename(tmp, path)
  } catch (error) {
    // A full disk fails the write or the sync: the temp file goes too, the target is as it was.
    await fs.rm(tmp, { force: true }).catch(() => undefined)
    throw writeFailure(dir, error)
  }
}

/**
 * A write's failure in words a person can act on, naming the folder (the temporary file's name, which the system's
 * message gave, says nothing to them), with the system's code kept; other failures as they are.
 */
function writeFailure(folder: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  const words =
    code === 'EROFS'
      ? `${folder} is on a disk that is read-only (EROFS)`
      : code === 'ENOSPC' || code === 'EDQUOT'
        ? `the disk of ${folder} is full (${code}); free some space, then try again`
        : code === 'EACCES' || code === 'EPERM'
          ? `Bosun may not write in ${folder} (${code}); give it write access there`
          : undefined
  return words === undefined ? error : Object.assign(new Error(words, { cause: error }), { code })
}

/** The file a symbolic link at `path` names, or `path` itself (no link there, or one that names nothing). */
async function linkTarget(path: string): Promise<string> {
  try {
    return (await fs.lstat(path)).isSymbolicLink() ? await fs.realpath(path) : path
  } catch {
    return path
  }
}

/**
 * {@link writeFileAtomic} for where nothing may wait (Bosun quitting, a record written as a process starts): a new file
 * beside `path` (created, never opened if something is at its name: a FIFO would block, a link would be followed),
 * written, synced when `sync`, then renamed over `path`. Throws the system's error after removing the new file.
 */
export function writeFileAtomicSync(path: string, data: string, options: { mode?: number; sync?: boolean } = {}): void {
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`
  let fd: number | undefined
  try {
    fd = openSync(tmp, 'wx', options.mode ?? 0o600)
    writeSync(fd, data)
    if (options.sync) fsyncSync(fd)
    closeSync(fd)
    fd = undefined
    renameSync(tmp, path)
  } catch (error) {
    if (fd !== undefined) closeSync(fd)
    try {
      rmSync(tmp, { force: true })
    } catch {
      // No folder to leave it in.
    }
    throw error
  }
}
