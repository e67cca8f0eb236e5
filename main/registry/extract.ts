/**
 * Safe extraction of an agent's archive (tar.gz via `tar`, zip via `yauzl`) into an empty folder.
 *
 * Every entry is checked before anything is written, and the archive is refused whole, with the reason,
 * when one entry is bad: an absolute path, a `..` segment, a link whose target leaves the folder (zip
 * links are refused outright), a device file or FIFO, more than `maxEntries` entries or more than
 * `maxBytes` unpacked. After writing, the tree is walked again (links resolved) as a second line.
 */
import { createReadStream, createWriteStream, promises as fs } from 'node:fs'
import { dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { ReadEntry } from 'tar'
import type yauzl from 'yauzl'
import { formatBytes } from '../base/format-bytes'

export interface ExtractLimits {
  maxBytes: number
  maxEntries: number
}

export const DEFAULT_EXTRACT_LIMITS: ExtractLimits = { maxBytes: 1024 * 1024 * 1024, maxEntries: 20_000 }

export class UnsafeArchiveError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UnsafeArchiveError'
  }
}

export type ArchiveKind = 'tar.gz' | 'tar' | 'zip'

/** What the file is, from its first bytes (the URL's suffix can lie). */
export async function sniffArchive(file: string): Promise<ArchiveKind | null> {
  const handle = await fs.open(file, 'r')
  try {
    const head = Buffer.alloc(262)
    const { bytesRead } = await handle.read(head, 0, head.length, 0)
    if (bytesRead >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'tar.gz'
    if (bytesRead >= 4 && head.readUInt32LE(0) === 0x04034b50) return 'zip'
    if (bytesRead >= 262 && head.toString('latin1', 257, 262) === 'ustar') return 'tar'
    return null
  } finally {
    await handle.close()
  }
}

/** A relative archive path as safe POSIX segments, or the reason it is not. */
export function checkEntryPath(raw: string): { ok: true; path: string } | { ok: false; reason: string } {
  if (raw.includes('\0')) return { ok: false, reason: `a name with a NUL byte` }
  const slashed = raw.replace(/\\/g, '/')
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed)) return { ok: false, reason: `an absolute path (${clip(raw)})` }
  const parts = slashed.split('/').filter((p) => p !== '' && p !== '.')
  if (parts.some((p) => p === '..')) return { ok: false, reason: `a path that leaves the folder (${clip(raw)})` }
  return { ok: true, path: parts.join('/') }
}

/** Whether a link at `entryPath` pointing to `target` stays inside the archive's root. */
function linkStaysInside(entryPath: string, target: string, hard: boolean): boolean {
  const slashed = target.replace(/\\/g, '/')
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed)) return false
  // A hard link's target is relative to the archive root, a symbolic link's to the link's folder.
  const joined = hard ? posix.normalize(slashed) : posix.normalize(posix.join(posix.dirname(entryPath), slashed))
  return joined !== '..' && !joined.startsWith('../') && !posix.isAbsolute(joined)
}

const clip = (s: string) => (s.length > 120 ? `${s.slice(0, 117)}…` : s)

/** Extracts `file` (of `kind`) into `dest`, which must exist and be empty. Throws {@link UnsafeArchiveError} with the reason. */
export async function extractArchive(file: string, kind: ArchiveKind, dest: string, limits: ExtractLimits = DEFAULT_EXTRACT_LIMITS): Promise<void> {
  if (kind === 'zip') await extractZip(file, dest, limits)
  else await extractTar(file, dest, limits)
  await verifyTree(dest, limits)
}

// ---- tar -------------------------------------------------------------------------------------------

const TAR_OK_TYPES = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory', 'SymbolicLink', 'Link'])

/** Reads every header (no writing) and throws at the first problem, without decompressing the rest. */
async function checkTar(file: string, limits: ExtractLimits): Promise<void> {
  let entries = 0
  let bytes = 0
  let problem: string | null = null
  // tar and yauzl are loaded with the first install, not when Bosun starts.
  const { Parser } = await import('tar')
  const input = createReadStream(file)
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      entry.resume()
      if (problem) return
      entries++
      const checked = checkEntryPath(entry.path)
      if (!checked.ok) problem = `It holds ${checked.reason}.`
      else if (!TAR_OK_TYPES.has(entry.type)) problem = `It holds a ${entry.type} entry (${clip(entry.path)}); only files, folders and links are allowed.`
      else if ((entry.type === 'SymbolicLink' || entry.type === 'Link') && !linkStaysInside(checked.path, entry.linkpath ?? '', entry.type === 'Link'))
        problem = `It holds a link that points outside its folder (${clip(entry.path)} → ${clip(entry.linkpath ?? '')}).`
      else if (entries > limits.maxEntries) problem = `It holds more than ${limits.maxEntries} entries.`
      else {
        bytes += entry.size ?? 0
        if (bytes > limits.maxBytes) problem = `It unpacks to more than ${formatBytes(limits.maxBytes)}.`
      }
      if (problem) input.destroy()
    },
  })
  await new Promise<void>((resolvePromise, reject) => {
    const done = () => (problem ? reject(new UnsafeArchiveError(problem)) : resolvePromise())
    input.on('close', () => {
      if (problem) done()
    })
    input.on('error', (error) => reject(new UnsafeArchiveError(`It cannot be read: ${error.message}`)))
    parser.on('error', (error: Error) => reject(new UnsafeArchiveError(problem ?? `It is not a valid archive: ${error.message}`)))
    parser.on('end', done)
    input.pipe(parser)
  })
}

async function extractTar(file: string, dest: string, limits: ExtractLimits): Promise<void> {
  await checkTar(file, limits)
  try {
    const { x: tarExtract } = await import('tar')
    await tarExtract({ file, cwd: dest, strict: true, preserveOwner: false, noMtime: true })
  } catch (error) {
    throw new UnsafeArchiveError(`It could not be unpacked: ${(error as Error).message}`)
  }
}

// ---- zip -------------------------------------------------------------------------------------------

const S_IFMT = 0o170000
const S_IFLNK = 0o120000
const S_IFDIR = 0o040000
const S_IFREG = 0o100000

async function openZip(file: string): Promise<yauzl.ZipFile> {
  const { open } = (await import('yauzl')).default
  return new Promise((resolvePromise, reject) => {
    // Names are checked by us (for a clear reason), sizes by yauzl against the central directory.
    open(file, { lazyEntries: true, autoClose: false, validateEntrySizes: true, decodeStrings: true, strictFileNames: false }, (error, zip) =>
      error || !zip ? reject(new UnsafeArchiveError(`It is not a valid zip archive: ${error?.message ?? 'unknown error'}`)) : resolvePromise(zip),
    )
  })
}

/** Visits every entry in order; `visit` may be async. yauzl's own name checks surface as refusals. */
function eachZipEntry(zip: yauzl.ZipFile, visit: (entry: yauzl.Entry) => Promise<void>): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      visit(entry).then(
        () => zip.readEntry(),
        (error: unknown) => reject(error),
      )
    })
    zip.on('end', () => resolvePromise())
    zip.on('error', (error: Error) => reject(new UnsafeArchiveError(`It holds an unsafe or broken entry: ${error.message}`)))
    zip.readEntry()
  })
}

function zipMode(entry: yauzl.Entry): number {
  // Unix attributes live in the high 16 bits when the archive was made on Unix (version made by >> 8 === 3).
  return (entry.versionMadeBy >> 8) === 3 ? (entry.externalFileAttributes >>> 16) & 0xffff : 0
}

async function extractZip(file: string, dest: string, limits: ExtractLimits): Promise<void> {
  const check = await openZip(file)
  try {
    let entries = 0
    let bytes = 0
    await eachZipEntry(check, async (entry) => {
      entries++
      const checked = checkEntryPath(entry.fileName)
      if (!checked.ok) throw new UnsafeArchiveError(`It holds ${checked.reason}.`)
      const type = zipMode(entry) & S_IFMT
      if (type === S_IFLNK) throw new UnsafeArchiveError(`It holds a link (${clip(entry.fileName)}); links in zip archives are not accepted.`)
      if (type !== 0 && type !== S_IFDIR && type !== S_IFREG) throw new UnsafeArchiveError(`It holds a special file (${clip(entry.fileName)}).`)
      if (entries > limits.maxEntries) throw new UnsafeArchiveError(`It holds more than ${limits.maxEntries} entries.`)
      bytes += entry.uncompressedSize
      if (bytes > limits.maxBytes) throw new UnsafeArchiveError(`It unpacks to more than ${formatBytes(limits.maxBytes)}.`)
    })
  } finally {
    check.close()
  }

  const zip = await openZip(file)
  try {
    await eachZipEntry(zip, async (entry) => {
      const checked = checkEntryPath(entry.fileName)
      if (!checked.ok) throw new UnsafeArchiveError(`It holds ${checked.reason}.`)
      if (!checked.path) return
      const target = join(dest, ...checked.path.split('/'))
      if (!inside(dest, target)) throw new UnsafeArchiveError(`It holds a path that leaves the folder (${clip(entry.fileName)}).`)
      if (entry.fileName.endsWith('/') || (zipMode(entry) & S_IFMT) === S_IFDIR) {
        await fs.mkdir(target, { recursive: true })
        return
      }
      await fs.mkdir(dirname(target), { recursive: true })
      const mode = zipMode(entry) & 0o111 ? 0o755 : 0o644
      const stream = await new Promise<NodeJS.ReadableStream>((resolvePromise, reject) =>
        zip.openReadStream(entry, (error, s) => (error || !s ? reject(new UnsafeArchiveError(`It could not be unpacked: ${error?.message}`)) : resolvePromise(s))),
      )
      try {
        await pipeline(stream, createWriteStream(target, { flags: 'wx', mode }))
      } catch (error) {
        throw new UnsafeArchiveError(`It could not be unpacked (${clip(entry.fileName)}): ${(error as Error).message}`)
      }
    })
  } finally {
    zip.close()
  }
}

// ---- after -----------------------------------------------------------------------------------------

function inside(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.startsWith(`..${sep}`))
}

/** Walks what was written: every link must resolve inside `root`, only files, folders and links, within the limits. */
async function verifyTree(root: string, limits: ExtractLimits): Promise<void> {
  const realRoot = await fs.realpath(root)
  let count = 0
  const walk = async (dir: string): Promise<void> => {
    for (const dirent of await fs.readdir(dir, { withFileTypes: true })) {
      if (++count > limits.maxEntries) throw new UnsafeArchiveError(`It holds more than ${limits.maxEntries} entries.`)
      const path = join(dir, dirent.name)
      if (dirent.isSymbolicLink()) {
        let real: string
        try {
          real = await fs.realpath(path)
        } catch {
          throw new UnsafeArchiveError(`It holds a link that points nowhere (${relative(root, path)}).`)
        }
        if (!inside(realRoot, real)) throw new UnsafeArchiveError(`It holds a link that points outside its folder (${relative(root, path)}).`)
      } else if (dirent.isDirectory()) await walk(path)
      else if (!dirent.isFile()) throw new UnsafeArchiveError(`It holds a special file (${relative(root, path)}).`)
    }
  }
  await walk(root)
}

/** The command inside `root`: a regular file (links resolved) that stays inside; gets the executable bit. */
export async function prepareCommand(root: string, cmd: string): Promise<string> {
  const path = resolve(root, ...cmd.split('/'))
  if (!inside(root, path)) throw new UnsafeArchiveError(`Its command ${clip(cmd)} is outside its folder.`)
  let real: string
  try {
    real = await fs.realpath(path)
  } catch {
    throw new UnsafeArchiveError(`It does not contain its command ${clip(cmd)}.`)
  }
  if (!inside(await fs.realpath(root), real)) throw new UnsafeArchiveError(`Its command ${clip(cmd)} points outside its folder.`)
  const stat = await fs.stat(real)
  if (!stat.isFile()) throw new UnsafeArchiveError(`Its command ${clip(cmd)} is not a file.`)
  await fs.chmod(real, (stat.mode & 0o777) | 0o755)
  return path
}
