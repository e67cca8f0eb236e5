/**
 * `npm run start:web`: the browser host as a plain Node process (`run-cli.ts`).
 *
 * This entry is small on purpose: it starts the history's thread first, and only then loads the rest of Bosun, so the
 * thread loads its code (SQLite's module among it) on the other core meanwhile instead of after. The thread opens
 * nothing until the services hold the home's lock.
 */
import { pathToFileURL } from 'node:url'
import { resolve } from 'node:path'
import { startHistoryThread } from '../history/worker-history-store'
import { defaultHome } from './host-env'

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const historyThread = startHistoryThread(defaultHome())
  import('./run-cli')
    .then(({ runWebHostCli }) => runWebHostCli(process.env, historyThread))
    .catch((error: unknown) => {
      console.error('Bosun web host failed to start:', error)
      process.exit(1)
    })
}
