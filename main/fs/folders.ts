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
  const checked = await foldersHere(folders, cwd)
  const first = checked.problems[0]
  return first ? fail({ kind: 'invalid-argument', message: first.message, data: { folder: first.folder } }) : ok(checked.folders)
}

/**
 * The folders an agent lists for one of its sessions (`SessionInfo.additionalDirectories`, E17), as roots for it here:
 * normalised and without duplicates or the working folder, in the agent's order. Unlike {@link checkAddedFolders}
 * nothing fails: one that is not an existing folder on this computer (moved, deleted, another machine's) is left out
 * and named in `missing`, so the session still opens.
 */
export async function listedFoldersHere(folders: readonly string[], cwd: string): Promise<{ folders: string[]; missing: string[] }> {
  const checked = await foldersHere(folders.slice(0, MAX_ADDED_FOLDERS), cwd)
  return { folders: checked.folders, missing: checked.problems.map((p) => p.folder) }
}

/**
 * Each folder checked in order, as both callers take them: normalised, duplicates and the working folder skipped,
 * and those that are not an absolute path to an existing folder named with why.
 */
async function foldersHere(folders: readonly string[], cwd: string): Promise<{ folders: string[]; problems: { folder: string; message: string }[] }> {
  const seen = new Set([trimmed(cwd)])
  const kept: string[] = []
  const problems: { folder: string; message: string }[] = []
  for (const folder of folders) {
    if (folder.includes('\0') || !isAbsolute(folder)) {
      problems.push({ folder, message: `${folder} is not an absolute path.` })
      continue
    }
    const path = trimmed(folder)
    if (seen.has(path)) continue
    seen.add(path)
    const stat = await fs.stat(path).catch(() => undefined)
    if (!stat) problems.push({ folder, message: `${folder} does not exist.` })
    else if (!stat.isDirectory()) problems.push({ folder, message: `${folder} is not a folder.` })
    else kept.push(path)
  }
  return { folders: kept, problems }
}

function trimmed(path: string): string {
  const normal = normalize(path)
  return normal.length > 1 && normal.endsWith(sep) && !/^[A-Za-z]:\\$/.test(normal) ? normal.slice(0, -1) : normal
}
