import { promises as fs } from 'node:fs'
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
  await fs.mkdir(dir, { recursive: true })
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
  const handle = await fs.open(tmp, 'w', options.mode ?? 0o600)
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
    throw error
  }
}

/** The file a symbolic link at `path` names, or `path` itself (no link there, or one that names nothing). */
async function linkTarget(path: string): Promise<string> {
  try {
    return (await fs.lstat(path)).isSymbolicLink() ? await fs.realpath(path) : path
  } catch {
    return path
  }
}
