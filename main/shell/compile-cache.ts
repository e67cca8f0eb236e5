/** Node's compile cache for the desktop app (`base/compile-cache.ts`), in its home: `BOSUN_HOME`, else Electron's userData. */
import { app } from 'electron'
import { resolve } from 'node:path'
import { cacheCompiledCode } from '../base/compile-cache'

/**
 * Turns the cache on before the rest of the app loads. Not for an AppImage: it runs from a new mount point at every
 * launch, and code cached under those paths would never be found again (the folder would only grow).
 */
export function cacheCompiledCodeForApp(env: NodeJS.ProcessEnv = process.env): void {
  if (env.APPIMAGE) return
  let home: string
  let version: string
  try {
    home = env.BOSUN_HOME ? resolve(env.BOSUN_HOME) : app.getPath('userData')
    version = app.getVersion()
  } catch {
    // A cache is not worth a start that fails: without it, everything is compiled as before.
    return
  }
  cacheCompiledCode(home, version)
}
