/**
 * Node's compile cache (`module.enableCompileCache`): the code of the modules imported after it is turned on is kept
 * compiled in a folder of Bosun's home, so a later start compiles little of it again. Turned on by the entries
 * (`main/index.ts` through the shell, `main/web/cli.ts`) before they import the rest of Bosun.
 *
 * One folder per version of Bosun: an update brings files of other names (the chunks' hashes), and the folders of
 * other versions are removed when it starts, so the cache holds one version's code at most.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs'
import { enableCompileCache } from 'node:module'
import { join } from 'node:path'

/** In the home, private to its owner: a cache in the shared temporary folder (Node's default) could be written by another user. */
export const COMPILE_CACHE_FOLDER = join('cache', 'compiled')

/** A version as a folder's name. */
const folderName = (version: string) => {
  const name = version.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64)
  return name === '' || name === '.' || name === '..' ? 'unknown' : name
}

/**
 * Turns the cache on in `home` for this `version`, after removing what other versions left; a home that cannot hold it
 * (read-only, full) starts as before, compiling everything.
 */
export function cacheCompiledCode(home: string, version: string, enable: (folder: string) => unknown = enableCompileCache): void {
  try {
    const root = join(home, COMPILE_CACHE_FOLDER)
    const own = folderName(version)
    mkdirSync(join(root, own), { recursive: true, mode: 0o700 })
    for (const name of readdirSync(root)) if (name !== own) rmSync(join(root, name), { recursive: true, force: true })
    enable(join(root, own))
  } catch {
    // Compiled at every start, as without the cache.
  }
}
