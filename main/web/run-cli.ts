/**
 * The browser host as a plain Node process (started by `cli.ts`): prints `Bosun web host: <url>` (tests read that
 * line) and disposes everything on SIGINT/SIGTERM.
 */
import { createBosunServices } from '../app/create-services'
import { createLogger } from '../base/log'
import { adoptSystemCertificatesBeforeFirstRequest } from '../base/system-certificates'
import { logUnhandledRejections } from '../base/unhandled'
import type { WorkerHistoryStore } from '../history/worker-history-store'
import { appVersion, defaultHome, portFromEnv, rendererDirFromEnv, URL_LINE_PREFIX } from './host-env'
import { startWebHost, type WebHost } from './server'

/** `started`: what cli.ts made before it loaded this (the history's thread, the version it read). */
export async function runWebHostCli(env: NodeJS.ProcessEnv = process.env, started: { historyThread?: WorkerHistoryStore | undefined; version?: string } = {}): Promise<WebHost> {
  const { historyThread } = started
  const log = createLogger('web')
  logUnhandledRejections((message, reason) => log.error(message, reason))
  // Main's own downloads trust the OS's certificate store too (a company proxy's CA), from the first request on.
  adoptSystemCertificatesBeforeFirstRequest((message) => log.warn(message))
  const host = await startWebHost({
    port: portFromEnv(env),
    home: defaultHome(env),
    rendererDir: rendererDirFromEnv(env),
    createServices: createBosunServices,
    appVersion: started.version ?? appVersion(),
    log,
    ...(historyThread ? { historyThread } : {}),
  })
  console.log(`${URL_LINE_PREFIX}${host.url}`)

  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    log.info(`${signal}: shutting down`)
    host.dispose().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error('shutdown failed', error)
        process.exit(1)
      },
    )
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  return host
}
