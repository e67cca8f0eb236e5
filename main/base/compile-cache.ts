/**
 * Node's compile cache (`module.enableCompileCache`): the code of the modules imported after it is turned on is kept
 * compiled in a folder of Bosun's home, so a later start compiles little of it again. Turned on by the entries
 * (`main/index.ts` through the shell, `main/web/cli.ts`) before they import the rest of Bosun.
 */
import { mkdirSync } from 'node:fs'
import { enableCompileCache } from 'node:module'
import { join } from 'node:path'

/** In the home, private to its owner: a cache in the shared temporary folder (Node's default) could be written by another user. */
export const COMPILE_CACHE_FOLDER = join('cache', 'compiled')

/** Turns the cache on in `home`; a home that cannot hold it (read-only, full) starts as before, compiling everything. */
export function cacheCompiledCode(home: string): void {
  try {
    const folder = join(home, COMPILE_CACHE_FOLDER)
    mkdirSync(folder, { recursive: true, mode: 0o700 })
    enableCompileCache(folder)
  } catch {
    // Compiled at every start, as without the cache.
  }
}
