/**
 * Why a program that exists still cannot run, in words the Agents page can show: a directory, or a script whose `#!`
 * line names an interpreter that is not there (the kernel then answers ENOENT, which reads as "command not found"
 * for a file the person can see), or one that ends in a Windows line break (`/bin/sh\r`, the classic). Reads at most
 * the file's first {@link HEAD_BYTES} bytes.
 */
import { promises as fs, constants as fsConstants, type Stats } from 'node:fs'
import { isAbsolute } from 'node:path'

const HEAD_BYTES = 256

/** Null when nothing here explains a failure to run `path` (an absolute path), else the reason. */
export async function unrunnableReason(path: string): Promise<string | null> {
  let stat
  try {
    stat = await fs.stat(path)
  } catch {
    return null
  }
  if (stat.isDirectory()) return `${path} is a folder, not a program`
  // Never opened (a device may act on an open).
  if (!stat.isFile()) return `${path} is not a program file (${specialKind(stat)})`
  const head = Buffer.alloc(HEAD_BYTES)
  let read = 0
  let file
  try {
    // Without blocking, and asked again what it is through the open file: a FIFO put in its place since the check
    // above would otherwise hold the open until something wrote to it, and the launch's report of its failure with it.
    file = await fs.open(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK)
    const opened = await file.stat()
    if (!opened.isFile()) return `${path} is not a program file (${specialKind(opened)})`
    read = (await file.read(head, 0, HEAD_BYTES, 0)).bytesRead
  } catch {
    return null
  } finally {
    await file?.close().catch(() => undefined)
  }
  const text = head.subarray(0, read).toString('latin1')
  if (!text.startsWith('#!')) return null
  const newline = text.indexOf('\n')
  const line = newline >= 0 ? text.slice(2, newline) : text.slice(2)
  if (line.endsWith('\r')) return `the first line of ${path} (#!) ends with a Windows line break; save it with Unix line endings`
  const interpreter = line.trim().split(/[ \t]+/)[0] ?? ''
  if (!interpreter) return `the first line of ${path} (#!) names no interpreter`
  if (!isAbsolute(interpreter)) return null
  return (await isExecutableFile(interpreter)) ? null : `its interpreter ${JSON.stringify(interpreter)} (the #! line of ${path}) is not there or cannot run`
}

/** A regular file this user may execute: `access(X_OK)` alone passes a folder (for root, every folder). */
export async function isExecutableFile(path: string): Promise<boolean> {
  try {
    if (!(await fs.stat(path)).isFile()) return false
    await fs.access(path, fsConstants.X_OK)
    return true
  } catch {
    return false
  }
}

function specialKind(stat: Stats): string {
  if (stat.isFIFO()) return 'a FIFO'
  if (stat.isSocket()) return 'a socket'
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device'
  return 'not a regular file'
}
