/** Reading at most so much of a file, asynchronously and synchronously, with the same contract (read-at-most.ts). */
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { readAtMost, readAtMostSync } from '../../../main/base/read-at-most'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function fileOf(bytes: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'read-at-most-'))
  dirs.push(dir)
  const path = join(dir, 'f')
  writeFileSync(path, Buffer.alloc(bytes, 'x'))
  return path
}

const readSyncOf = (path: string, limit: number) => {
  const fd = openSync(path, 'r')
  try {
    return readAtMostSync(fd, limit)
  } finally {
    closeSync(fd)
  }
}
const readAsyncOf = async (path: string, limit: number) => {
  const handle = await open(path, 'r')
  try {
    return await readAtMost(handle, limit)
  } finally {
    await handle.close()
  }
}

it('reads a short file whole, and stops a long one within a chunk past the limit, both ways alike', async () => {
  const short = fileOf(4_097)
  expect(readSyncOf(short, 4_097).length).toBe(4_097)
  expect((await readAsyncOf(short, 4_097)).length).toBe(4_097)
  const long = fileOf(300 * 1024)
  // Asked for 5 bytes: one chunk is read (whole chunks only), not the whole file.
  expect(readSyncOf(long, 5).length).toBe(64 * 1024)
  expect((await readAsyncOf(long, 5)).length).toBe(64 * 1024)
  expect(readSyncOf(long, 1024 * 1024).length).toBe(300 * 1024)
  expect(readSyncOf(fileOf(0), 10).length).toBe(0)
})

it.runIf(process.platform === 'linux')('stops at the limit on a file whose end never comes', () => {
  const fd = openSync('/dev/zero', 'r')
  try {
    expect(readAtMostSync(fd, 100_000).length).toBe(128 * 1024)
  } finally {
    closeSync(fd)
  }
})
