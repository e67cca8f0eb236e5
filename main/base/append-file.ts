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

/**
 * The last `maxBytes` of the regular file at `path` at most, from the start of a line (the cut line, and any UTF-8
 * sequence it split, dropped); `truncated` when there was more before, `bytes` what was read.
 */
export async function readFileTail(path: string, maxBytes: number): Promise<{ text: string; truncated: boolean; bytes: number }> {
  const { handle, stat } = await openRegularFile(path, constants.O_RDONLY)
  try {
    const length = Math.min(stat.size, maxBytes)
    const buffer = Buffer.alloc(length)
    if (length > 0) await handle.read(buffer, 0, length, stat.size - length)
    const text = buffer.toString('utf8')
    const truncated = stat.size > length
    if (!truncated) return { text, truncated, bytes: length }
    const newline = text.indexOf('\n')
    return { text: newline >= 0 ? text.slice(newline + 1) : text, truncated, bytes: length }
  } finally {
    await handle.close()
  }
}
