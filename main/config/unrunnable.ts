/**
 * Why a program that exists still cannot run, in words the Agents page can show: a directory, or a script whose `#!`
 * line names an interpreter that is not there (the kernel then answers ENOENT, which reads as "command not found"
 * for a file the person can see), or one that ends in a Windows line break (`/bin/sh\r`, the classic). Reads at most
 * the file's first {@link HEAD_BYTES} bytes.
 */
import { promises as fs, constants as fsConstants } from 'node:fs'
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
  if (!stat.isFile()) return null
  const head = Buffer.alloc(HEAD_BYTES)
  let read = 0
  try {
    const file = await fs.open(path, 'r')
    try {
      read = (await file.read(head, 0, HEAD_BYTES, 0)).bytesRead
    } finally {
      await file.close()
    }
  } catch {
    return null
  }
  const text = head.subarray(0, read).toString('latin1')
  if (!text.startsWith('#!')) return null
  const newline = text.indexOf('\n')
  const line = newline >= 0 ? text.slice(2, newline) : text.slice(2)
  if (line.endsWith('\r')) return `the first line of ${path} (#!) ends with a Windows line break; save it with Unix line endings`
  const interpreter = line.trim().split(/[ \t]+/)[0] ?? ''
  if (!interpreter) return `the first line of ${path} (#!) names no interpreter`
  if (!isAbsolute(interpreter)) return null
  try {
    await fs.access(interpreter, fsConstants.X_OK)
    return null
  } catch {
    return `its interpreter ${JSON.stringify(interpreter)} (the #! line of ${path}) is not there or cannot run`
  }
}
