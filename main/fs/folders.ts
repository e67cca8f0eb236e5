/**
 * Folders a person adds to a session beyond its working folder (issue 14 §1): each must exist and be a
 * folder when the session starts. They become roots Bosun serves the agent's file and terminal requests in.
 */
import { promises as fs } from 'node:fs'
import { isAbsolute, normalize, sep } from 'node:path'
import { fail, ok, type Result } from '../base/errors'

/** More than this is refused (each is a root every file request is checked against). */
export const MAX_ADDED_FOLDERS = 32

/**
 * The folders normalised (no trailing separator), without duplicates or the working folder itself, in the
 * order given; or a failure naming the first one that is not an existing folder (`data.folder`).
 */
export async function checkAddedFolders(folders: readonly string[], cwd: string): Promise<Result<string[]>> {
  if (folders.length > MAX_ADDED_FOLDERS) return fail({ kind: 'invalid-argument', message: `A session takes at most ${MAX_ADDED_FOLDERS} added folders.` })
  const seen = new Set([trimmed(cwd)])
  const result: string[] = []
  for (const folder of folders) {
    if (folder.includes('\0') || !isAbsolute(folder)) return notAFolder(folder, `${folder} is not an absolute path.`)
    const path = trimmed(folder)
    if (seen.has(path)) continue
    seen.add(path)
    let stat
    try {
      stat = await fs.stat(path)
    } catch {
      return notAFolder(folder, `${folder} does not exist.`)
    }
    if (!stat.isDirectory()) return notAFolder(folder, `${folder} is not a folder.`)
    result.push(path)
  }
  return ok(result)
}

/**
 * The folders an agent lists for one of its sessions (`SessionInfo.additionalDirectories`, E17), as roots for it here:
 * normalised and without duplicates or the working folder, in the agent's order. Unlike {@link checkAddedFolders}
 * nothing fails: one that is not an existing folder on this computer (moved, deleted, another machine's) is left out
 * and named in `missing`, so the session still opens.
 */
export async function listedFoldersHere(folders: readonly string[], cwd: string): Promise<{ folders: string[]; missing: string[] }> {
  const seen = new Set([trimmed(cwd)])
  const kept: string[] = []
  const missing: string[] = []
  for (const folder of folders.slice(0, MAX_ADDED_FOLDERS)) {
    if (folder.includes('\0') || !isAbsolute(folder)) {
      missing.push(folder)
      continue
    }
    const path = trimmed(folder)
    if (seen.has(path)) continue
    seen.add(path)
    const stat = await fs.stat(path).catch(() => undefined)
    if (stat?.isDirectory()) kept.push(path)
    else missing.push(folder)
  }
  return { folders: kept, missing }
}

function trimmed(path: string): string {
  const normal = normalize(path)
  return normal.length > 1 && normal.endsWith(sep) && !/^[A-Za-z]:\\$/.test(normal) ? normal.slice(0, -1) : normal
}

function notAFolder(folder: string, message: string): Result<never> {
  return fail({ kind: 'invalid-argument', message, data: { folder } })
}
