/**
 * Reading and writing text files for agents: UTF-8 only (binary and invalid UTF-8 refused, never lossy),
 * bounded in size, line windows that are exact substrings (G23), atomic writes that keep the file's mode,
 * line endings and BOM (G26).
 */
import { randomBytes } from 'node:crypto'
import { constants, promises as fs } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { formatBytes } from '../base/format-bytes'
import { readAtMost } from '../base/read-at-most'
import { isInside } from './confine'

/** Files larger than this are refused (an agent reading a build artefact would flood its own context). */
export const MAX_TEXT_FILE_BYTES = 10 * 1024 * 1024

export type TextFileProblem =
  | { kind: 'not-found'; message: string }
  | { kind: 'not-a-file'; message: string }
  | { kind: 'too-large'; message: string; size: number }
  | { kind: 'binary'; message: string }
  | { kind: 'not-writable'; message: string }
  | { kind: 'io-error'; message: string }

export type TextFileResult<T> = { ok: true; value: T } | { ok: false; problem: TextFileProblem }

const BOM = '\uFEFF'

export interface TextFile {
  /** Decoded text without a leading BOM. */
  text: string
  hadBom: boolean
  mode: number
}

/**
 * The whole file as text, or why not. With `root` (the session folder `path` was confined to), the file is
 * pinned first: opened without following a final symlink, and the opened file's own path checked to be
 * inside `root`, so a folder of `path` swapped for a symlink after the check cannot make Bosun read a file
 * outside (see {@link openedPathInside}).
 */
export async function readTextFile(path: string, maxBytes = MAX_TEXT_FILE_BYTES, root?: string): Promise<TextFileResult<TextFile>> {
  let handle: FileHandle
  try {
    // Non-blocking: opening a FIFO for reading would otherwise wait for a writer.
    handle = await fs.open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch (error) {
    return { ok: false, problem: ioProblem(error, path) }
  }
  try {
    return await readOpened(handle, path, maxBytes, root)
  } finally {
    await handle.close().catch(() => undefined)
  }
}

async function readOpened(handle: FileHandle, path: string, maxBytes: number, root: string | undefined): Promise<TextFileResult<TextFile>> {
  let stat
  try {
    stat = await handle.stat()
  } catch (error) {
    return { ok: false, problem: ioProblem(error, path) }
  }
  // FIFOs, sockets and devices are never read: a FIFO would block the handler forever.
  if (!stat.isFile()) return { ok: false, problem: { kind: 'not-a-file', message: `${path} is not a regular file.` } }
  if (root !== undefined) {
    const opened = await openedPath(handle, path)
    if (!opened || !isInside(opened.real, root)) return { ok: false, problem: movedProblem(path) }
  }
  if (stat.size > maxBytes) return { ok: false, problem: { kind: 'too-large', size: stat.size, message: `${path} is ${formatBytes(stat.size)}; Bosun serves text files up to ${formatBytes(maxBytes)}.` } }
  let bytes: Buffer
  try {
    bytes = await readAtMost(handle, maxBytes + 1)
  } catch (error) {
    return { ok: false, problem: ioProblem(error, path) }
  }
  // The file grew between stat and read, or its size said nothing (a /proc file says 0 and may never end).
  if (bytes.length > maxBytes) return { ok: false, problem: { kind: 'too-large', size: bytes.length, message: `${path} is larger than ${formatBytes(maxBytes)}.` } }
  const decoded = decodeUtf8(bytes)
  if (decoded === undefined) return { ok: false, problem: { kind: 'binary', message: `${path} is not a UTF-8 text file (binary content or another encoding).` } }
  const hadBom = decoded.startsWith(BOM)
  return { ok: true, value: { text: hadBom ? decoded.slice(1) : decoded, hadBom, mode: stat.mode & 0o7777 } }
}

/** Strict UTF-8 (no replacement characters); NUL bytes count as binary. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    return undefined
  }
}

/** A half of a UTF-16 surrogate pair without its other half (what JSON's `\ud800` escapes can make), matched by code unit. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** The index of the first lone surrogate in `text` (text UTF-8 cannot hold as it is), or -1. */
export function loneSurrogateAt(text: string): number {
  return text.search(LONE_SURROGATE)
}

/**
 * Lines `line` (1-based; 0 is read as 1) to `line + limit - 1`, terminators kept, so the window is an exact
 * substring of `text`. Past the end, or `limit` 0, gives `""`.
 */
export function lineWindow(text: string, line: number | undefined, limit: number | undefined): string {
  const first = Math.max(1, line ?? 1)
  if (limit === 0) return ''
  let start = 0
  for (let n = 1; n < first; n++) {
    const next = text.indexOf('\n', start)
    if (next < 0) return ''
    start = next + 1
  }
  if (start >= text.length && first > 1) return ''
  if (limit === undefined) return text.slice(start)
  let end = start
  for (let n = 0; n < limit; n++) {
    const next = text.indexOf('\n', end)
    if (next < 0) return text.slice(start)
    end = next + 1
  }
  return text.slice(start, end)
}

/**
 * Replaces (or creates) `path` with `content` atomically: a temp file beside it, fsync, rename. An existing
 * file keeps its mode, its CRLF line endings (when it used only CRLF and the new text has no CR) and its BOM.
 * Missing parent folders are created (the caller has checked that they fall inside the session's roots).
 */
export async function writeTextFileAtomic(path: string, content: string, previous: TextFile | undefined, root?: string): Promise<TextFileResult<{ written: string }>> {
  if (previous && !(await isWritable(path, previous.mode))) return { ok: false, problem: { kind: 'not-writable', message: `${path} is read-only.` } }
  let text = content
  if (previous && usesOnlyCrlf(previous.text) && !content.includes('\r')) text = text.replace(/\n/g, '\r\n')
  const data = (previous?.hadBom && !text.startsWith(BOM) ? BOM : '') + text
  const dir = dirname(path)
  const tmpName = `.${basename(path)}.bosun-${randomBytes(6).toString('hex')}.tmp`
  let folder: FileHandle | undefined
  let tmp: string | undefined
  try {
    try {
      await fs.mkdir(dir, { recursive: true })
    } catch (error) {
      // A file where a folder of the path should be: the path is wrong, not Bosun.
      const code = (error as { code?: string } | undefined)?.code
      if (code === 'EEXIST' || code === 'ENOTDIR') return { ok: false, problem: { kind: 'not-a-file', message: `${path}: a folder on its way is a file.` } }
      throw error
    }
    // The folder is pinned: opened once and checked to be inside `root`, then (where the system lets a path
    // name an open folder) the temp file and the rename go through that open folder, not through its path.
    // Windows cannot open a folder as a file: there the folder's path is resolved again instead.
    folder = process.platform === 'win32' ? undefined : await fs.open(dir, constants.O_RDONLY | constants.O_DIRECTORY)
    const opened = folder ? await openedPath(folder, dir) : { real: await fs.realpath(dir), pinned: undefined }
    if (root !== undefined && (!opened || !isInside(opened.real, root))) return { ok: false, problem: movedProblem(path) }
    const base = opened?.pinned ?? dir
    tmp = join(base, tmpName)
    const handle = await fs.open(tmp, 'wx', 0o666)
    try {
      await handle.writeFile(data, 'utf8')
      if (previous) await handle.chmod(previous.mode)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await fs.rename(tmp, join(base, basename(path)))
  } catch (error) {
    if (tmp !== undefined) await fs.rm(tmp, { force: true }).catch(() => undefined)
    return { ok: false, problem: ioProblem(error, path) }
  } finally {
    await folder?.close().catch(() => undefined)
  }
  return { ok: true, value: { written: text } }
}

/**
 * Whether Bosun may replace the file at `path` (of permission bits `mode`). `access(W_OK)` answers for this user (ACLs,
 * a read-only disk), but root passes it for every file on a writable disk: there a file without a write bit for
 * anyone is read-only still, as an editor run as root treats it (the rename that replaces it would not ask).
 */
export async function isWritable(path: string, mode: number, uid = process.getuid?.()): Promise<boolean> {
  if (uid === 0 && (mode & 0o222) === 0) return false
  try {
    await fs.access(path, constants.W_OK)
    return true
  } catch {
    return false
  }
}

/** Where the system names a process's open files (Linux); a path through it resolves to the open file itself. */
const OPEN_FILES = '/proc/self/fd'

/**
 * The real path of the file or folder open in `handle`. Linux reads it from `/proc/self/fd`, which no later
 * rename or symlink changes, and `pinned` is then a path that names the open file itself; elsewhere `path` is
 * resolved again, which narrows the window between the check and the use to this moment. Undefined when
 * neither works.
 */
async function openedPath(handle: FileHandle, path: string): Promise<{ real: string; pinned: string | undefined } | undefined> {
  const pinned = `${OPEN_FILES}/${handle.fd}`
  try {
    return { real: await fs.readlink(pinned), pinned }
  } catch {
    try {
      return { real: await fs.realpath(path), pinned: undefined }
    } catch {
      return undefined
    }
  }
}

const movedProblem = (path: string): TextFileProblem => ({
  kind: 'not-a-file',
  message: `${path} changed while Bosun was using it: a folder on its way now leads outside the session's folders.`,
})

function usesOnlyCrlf(text: string): boolean {
  const lf = (text.match(/\n/g) ?? []).length
  return lf > 0 && (text.match(/\r\n/g) ?? []).length === lf
}

function ioProblem(error: unknown, path: string): TextFileProblem {
  const code = (error as { code?: string } | undefined)?.code
  if (code === 'ENOENT') return { kind: 'not-found', message: `${path} does not exist.` }
  if (code === 'EISDIR' || code === 'ENOTDIR') return { kind: 'not-a-file', message: `${path} is not a regular file.` }
  // The path was resolved through its symlinks before; a symlink at its end now was put there since.
  if (code === 'ELOOP') return movedProblem(path)
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return { kind: 'not-writable', message: `${path}: permission denied.` }
  return { kind: 'io-error', message: `${path}: ${error instanceof Error ? error.message : String(error)}` }
}

