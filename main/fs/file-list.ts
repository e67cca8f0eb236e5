/**
 * The files and folders of a session's folder for the composer's `@` picker: a breadth-first walk that
 * skips version-control and dependency folders, never follows symlinked folders, and stops at a bound so a
 * home directory as working folder cannot stall main.
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'

export const MAX_LISTED_ENTRIES = 20_000
const MAX_DEPTH = 16
const SKIPPED = new Set(['.git', '.hg', '.svn', 'node_modules', '.venv', '__pycache__', '.cache', 'dist', 'out', 'target', '.next'])

export interface FileListing {
  /** Paths relative to the root, `/`-separated; folders end with `/`. Folders come before their contents. */
  entries: string[]
  truncated: boolean
}

export async function listFiles(root: string, max = MAX_LISTED_ENTRIES): Promise<FileListing> {
  const entries: string[] = []
  let queue: { dir: string; rel: string; depth: number }[] = [{ dir: root, rel: '', depth: 0 }]
  while (queue.length > 0) {
    const next: typeof queue = []
    for (const { dir, rel, depth } of queue) {
      let items
      try {
        items = await fs.readdir(dir, { withFileTypes: true })
      } catch {
        continue
      }
      items.sort((a, b) => a.name.localeCompare(b.name))
      for (const item of items) {
        if (entries.length >= max) return { entries, truncated: true }
        const path = rel ? `${rel}/${item.name}` : item.name
        if (item.isDirectory()) {
          if (SKIPPED.has(item.name)) continue
          entries.push(`${path}/`)
          if (depth + 1 < MAX_DEPTH) next.push({ dir: join(dir, item.name), rel: path, depth: depth + 1 })
        } else if (item.isFile() || item.isSymbolicLink()) {
          entries.push(path)
        }
      }
    }
    queue = next
  }
  return { entries, truncated: false }
}
