/**
 * `npm run start:web`: the browser host as a plain Node process. Prints `Bosun web host: <url>` (tests read
 * that line) and disposes everything on SIGINT/SIGTERM.
 */
import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createBosunServices } from '../app/create-services'
import { createLogger } from '../base/log'
import { adoptSystemCertificatesBeforeFirstRequest } from '../base/system-certificates'
import { logUnhandledRejections } from '../base/unhandled'
import { startWebHost, type WebHost } from './server'

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/** Where Bosun keeps its files when no `BOSUN_HOME` is set: the same directory Electron's `userData` would be. */
export function defaultHome(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.BOSUN_HOME) return resolve(env.BOSUN_HOME)
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Bosun')
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Bosun')
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Bosun')
}

/** `BOSUN_PORT` as a port number; anything unusable means 0 (a free port). */
export function portFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const port = Number(env.BOSUN_PORT ?? 0)
  return Number.isInteger(port) && port >= 0 && port <= 65535 ? port : 0
}

/** The built renderer: `out/renderer`, or `renderer` in `BOSUN_OUT_DIR` (another `electron-vite build --outDir`, as the e2e harness). */
export function rendererDirFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.BOSUN_OUT_DIR ? resolve(env.BOSUN_OUT_DIR) : join(repoRoot, 'out'), 'renderer')
}

/** The line the CLI prints; e2e tests match it. */
export const URL_LINE_PREFIX = 'Bosun web host: '

export async function runWebHostCli(env: NodeJS.ProcessEnv = process.env): Promise<WebHost> {
  const log = createLogger('web')
  logUnhandledRejections((message, reason) => log.error(message, reason))
  // Main's own downloads trust the OS's certificate store too (a company proxy's CA), from the first request on.
  adoptSystemCertificatesBeforeFirstRequest((message) => log.warn(message))
  const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version?: string }).version
  const host = await startWebHost({
    port: portFromEnv(env),
    home: defaultHome(env),
    rendererDir: rendererDirFromEnv(env),
    createServices: createBosunServices,
    appVersion: version ?? '0.0.0-dev',
    log,
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

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  runWebHostCli().catch((error: unknown) => {
    console.error('Bosun web host failed to start:', error)
    process.exit(1)
  })
}
