/**
 * Opening and appending to files Bosun keeps in its home (agent logs, the permission audit, the confirmation record)
 * without trusting what is at their path: opened without blocking and used only when they are regular files. A FIFO
 * put there would otherwise hold the read or the append, every flush that waits for it, and Bosun's quit, until
 * something opened its other end.
 */
import { constants, promises as fs, type Stats } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { writeFileAtomic } from './atomic-write'

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

/**
 * Makes room in a bounded file Bosun appends to (an agent's log, the confirmation record): moves it to `<path>.1`,
 * replacing the previous one (the file is then empty). Where that cannot be done (a folder named `<path>.1`, which a
 * rename does not replace), the file keeps its newest `keepBytes` in place from a line start, and `why` says so in
 * words a person can act on: the rename used to fail each time, and what was to be appended was lost.
 */
export async function rotateFile(path: string, keepBytes: number): Promise<{ size: number; why?: string }> {
  const older = `${path}.1`
  try {
    await fs.rename(path, older)
    return { size: 0 }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { size: 0 }
    const found = await fs.lstat(older).catch(() => undefined)
    const why = found?.isDirectory()
      ? `${older} is a folder, so the older part of ${path} cannot be moved there; only its newest part is kept. Move or remove that folder to keep more.`
      : `${path} could not be moved to ${older} (${error instanceof Error ? error.message : String(error)}); only its newest part is kept.`
    const { text } = await readFileTail(path, keepBytes)
    await writeFileAtomic(path, text)
    return { size: Buffer.byteLength(text), why }
  }
}
