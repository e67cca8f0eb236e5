/**
 * `npm run start:web`: the browser host as a plain Node process (`run-cli.ts`).
 *
 * This entry is small on purpose. Before the rest of Bosun loads, it
 *   - starts the history's thread, so the thread loads its code (SQLite's module among it) on the other core meanwhile
 *     instead of after; the thread opens nothing until the services hold the home's lock;
 *   - keeps Node's compiled code between starts ({@link COMPILE_CACHE_FOLDER} in the home), so a later start compiles
 *     little of it again.
 */
import { mkdirSync } from 'node:fs'
import { enableCompileCache } from 'node:module'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { startHistoryThread } from '../history/worker-history-store'
import { defaultHome } from './host-env'

/** Node's cache of the host's compiled code, in the home: one in the shared temporary folder could be written by another user. */
export const COMPILE_CACHE_FOLDER = join('cache', 'compiled')

/** Turns Node's compile cache on for what is imported from now on; a home that cannot hold it starts as before. */
function cacheCompiledCode(home: string): void {
  try {
    const folder = join(home, COMPILE_CACHE_FOLDER)
    mkdirSync(folder, { recursive: true, mode: 0o700 })
    enableCompileCache(folder)
  } catch {
    // Compiled at every start, as without the cache.
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const home = defaultHome()
  cacheCompiledCode(home)
  const historyThread = startHistoryThread(home)
  import('./run-cli')
    .then(({ runWebHostCli }) => runWebHostCli(process.env, historyThread))
    .catch((error: unknown) => {
      console.error('Bosun web host failed to start:', error)
      process.exit(1)
    })
}
