/**
 * What the browser host takes from its environment (`BOSUN_HOME`, `BOSUN_PORT`, `BOSUN_OUT_DIR`) and the line it
 * prints: small and with Node's modules only, so `cli.ts` can read them before the rest of Bosun has loaded.
 */
import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository (or the unpacked app): `main/web/` in the sources, `out/web/` in the bundle, two levels down. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/** Bosun's version, from its package.json (`0.0.0-dev` when it cannot be read). */
export function appVersion(): string {
  try {
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version?: unknown }
    return typeof version === 'string' ? version : '0.0.0-dev'
  } catch {
    return '0.0.0-dev'
  }
}

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
