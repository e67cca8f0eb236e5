/**
 * Opening and appending to files Bosun keeps in its home (agent logs, the permission audit, the confirmation record)
 * without trusting what is at their path: opened without blocking and used only when they are regular files. A FIFO
 * put there would otherwise hold the read or the append, every flush that waits for it, and Bosun's quit, until
 * something opened its other end.
 */
import { constants, promises as fs, type Stats } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'

/** `path` opened with `flags` and without blocking, with its stat; refused (closed, thrown) unless it is a regular file. */
export async function openRegularFile(path: string, flags: number, mode?: number): Promise<{ handle: FileHandle; stat: Stats }> {
  const handle = await fs.open(path, flags | constants.O_NONBLOCK, mode)
  try {
    const stat = await handle.stat()
    if (!stat.isFile()) throw new Error(`${path} is not a regular file`)
    return { handle, stat }
  } catch (error) {
    await handle.close().catch(() => undefined)
    throw error
  }
}

export async function appendToFile(path: string, text: string, mode = 0o600): Promise<void> {
  const { handle } = await openRegularFile(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, mode)
  try {
    await handle.writeFile(text)
  } finally {
    await handle.close()
  }
}
