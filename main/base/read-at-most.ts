import { readSync } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'

/** What is read in one go (a 10 MiB file takes 160 reads). */
const READ_CHUNK_BYTES = 64 * 1024

/**
 * The open file read from its start until its end, or until it has `limit` bytes (a chunk more at most): never the
 * whole of a file whose end does not come (`readFile` reads `/proc/self/pagemap` for ever, growing) or that grows as
 * fast as it is read. A caller that wants at most `max` bytes asks for `max + 1` and refuses a longer result. Whole
 * chunks only: some /proc files refuse a read of a size their records do not divide (EINVAL).
 */
export async function readAtMost(handle: FileHandle, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let total = 0
  while (total < limit) {
    const chunk = Buffer.alloc(READ_CHUNK_BYTES)
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, total)
    if (bytesRead === 0) break
    chunks.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead))
    total += bytesRead
  }
  return Buffer.concat(chunks, total)
}

/** {@link readAtMost} for a descriptor, synchronously (the process records read at start, `/proc` scans). */
export function readAtMostSync(fd: number, limit: number): Buffer {
  const chunks: Buffer[] = []
  let total = 0
  while (total < limit) {
    const chunk = Buffer.alloc(READ_CHUNK_BYTES)
    const bytesRead = readSync(fd, chunk, 0, chunk.length, total)
    if (bytesRead === 0) break
    chunks.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead))
    total += bytesRead
  }
  return Buffer.concat(chunks, total)
}
