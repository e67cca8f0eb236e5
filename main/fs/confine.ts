/**
 * Confinement of agent-supplied paths to a session's roots (checklist G24). A path is resolved before it
 * is checked: `..` normalised, then the longest prefix that exists goes through `realpath` (symlinks
 * followed), and the missing rest is appended. Only then is it compared with the (real) roots, so a
 * symlink inside the folder that points outside, or `/proj/../etc`, is outside.
 */
import { promises as fs } from 'node:fs'
import { isAbsolute, join, normalize, relative, sep } from 'node:path'

export type Confined =
  | { ok: true; realPath: string; root: string; exists: boolean }
  | { ok: false; reason: 'not-absolute' | 'outside-roots' | 'no-roots' | 'invalid-path'; message: string }

/**
 * The longest path Bosun resolves: the system's own limit (Linux PATH_MAX, Windows' long paths). A longer one names no
 * file, and resolving it is not free: each of its missing segments costs a `realpath` of the whole path, so 200,000
 * segments held the file-system threads (every read and write of main's) for minutes.
 */
export const MAX_PATH_CHARS = process.platform === 'win32' ? 32_767 : 4_096

/** `path` resolved through the file system, or a reason it cannot be used. Never throws. */
export async function confinePath(path: string, roots: readonly string[]): Promise<Confined> {
  if (path.length === 0 || path.includes('\0')) return { ok: false, reason: 'invalid-path', message: 'The path is empty or contains a NUL character.' }
  if (path.length > MAX_PATH_CHARS) {
    return { ok: false, reason: 'invalid-path', message: `The path is ${path.length.toLocaleString('en')} characters long; a path has at most ${MAX_PATH_CHARS.toLocaleString('en')}: ${path.slice(0, 120)}…` }
  }
  if (!isAbsolute(path)) return { ok: false, reason: 'not-absolute', message: `Paths must be absolute: ${path}` }
  const realRoots = (await Promise.all(roots.map((root) => realpathOrUndefined(normalize(root))))).filter((r): r is string => r !== undefined)
  if (realRoots.length === 0) return { ok: false, reason: 'no-roots', message: 'The session has no folder Bosun can serve files from.' }
  const resolved = await resolveExistingPrefix(normalize(path))
  if (!resolved) return { ok: false, reason: 'invalid-path', message: `Cannot resolve ${path}.` }
  if ('link' in resolved) {
    const where = resolved.link === normalize(path) ? path : `${path}: ${resolved.link}`
    return { ok: false, reason: 'invalid-path', message: `${where} is a symbolic link that leads nowhere (to nothing, or round in a loop); Bosun does not follow it.` }
  }
  const root = realRoots.find((r) => isInside(resolved.realPath, r))
  if (!root) return { ok: false, reason: 'outside-roots', message: `${path} is outside the session's folders (${roots.join(', ')}).` }
  return { ok: true, realPath: resolved.realPath, root, exists: resolved.exists }
}

/** Whether `path` is `root` or below it (both already real and normalised). */
export function isInside(path: string, root: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel))
}

/**
 * `realpath` of the longest existing prefix of `path` (absolute, normalised), plus the missing segments.
 * A missing segment after a resolved prefix cannot be a symlink (it does not exist yet).
 */
async function resolveExistingPrefix(path: string): Promise<{ realPath: string; exists: boolean } | { link: string } | undefined> {
  const missing: string[] = []
  let current = path
  for (;;) {
    const real = await realpathOrUndefined(current)
    if (real !== undefined) return { realPath: missing.length ? join(real, ...missing.reverse()) : real, exists: missing.length === 0 }
    const parent = join(current, '..')
    if (parent === current) return undefined
    const name = current.slice(parent.length).replace(/^[\\/]+/, '')
    // A dangling symlink is "missing" to realpath; refuse to write through it (it may point anywhere).
    if (await isSymlink(current)) return { link: current }
    missing.push(name)
    current = parent
  }
}

async function realpathOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await fs.realpath(path)
  } catch {
    return undefined
  }
}

async function isSymlink(path: string): Promise<boolean> {
  try {
    return (await fs.lstat(path)).isSymbolicLink()
  } catch {
    return false
  }
}
