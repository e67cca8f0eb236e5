/**
 * `npm run start:web`: the browser host as a plain Node process (`run-cli.ts`).
 *
 * This entry is small on purpose. Before the rest of Bosun loads, it
 *   - starts the history's thread, so the thread loads its code (SQLite's module among it) on the other core meanwhile
 *     instead of after; the thread opens nothing until the services hold the home's lock;
 *   - keeps Node's compiled code between starts (`base/compile-cache.ts`), so a later start compiles little of it again.
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { cacheCompiledCode } from '../base/compile-cache'
import { startHistoryThread } from '../history/worker-history-store'
import { appVersion, defaultHome } from './host-env'

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const home = defaultHome()
  const version = appVersion()
  cacheCompiledCode(home, version)
  const historyThread = startHistoryThread(home)
  import('./run-cli')
    .then(({ runWebHostCli }) => runWebHostCli(process.env, { historyThread, version }))
    .catch((error: unknown) => {
      console.error('Bosun web host failed to start:', error)
      process.exit(1)
    })
}
