/**
 * Starts the built app in a real Electron and checks the shell end to end: the window loads from
 * bosun://app, the renderer has `window.bosun` and no Node, and a call round-trips through IPC.
 * Runs only where the Electron binary is installed (CI images); elsewhere it is skipped and says why.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { _electron as electron } from 'playwright'

const repoRoot = resolve(__dirname, '../..')

function findElectron(): { path: string } | { reason: string } {
  let path: unknown
  try {
    path = createRequire(import.meta.url)('electron')
  } catch (error) {
    return { reason: `the electron package has no binary (${error instanceof Error ? error.message : String(error)})` }
  }
  if (typeof path !== 'string' || !existsSync(path)) return { reason: `the Electron binary ${String(path)} does not exist` }
  if (!existsSync(join(repoRoot, 'out', 'main', 'index.js'))) return { reason: 'the app is not built (run `npm run build`)' }
  return { path }
}

const found = findElectron()
const skip = 'reason' in found
if (skip) console.warn(`[e2e] electron smoke test skipped: ${found.reason}`)

describe.skipIf(skip)('Electron shell smoke test', () => {
  it('opens the window from bosun://app with a sandboxed renderer and answers a call over IPC', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bosun-e2e-'))
    const app = await electron.launch({
      executablePath: (found as { path: string }).path,
      // Chromium refuses to start its sandbox as root (CI containers); the renderer is still contextIsolated and Node-free.
      args: [repoRoot, ...(process.platform === 'linux' && process.getuid?.() === 0 ? ['--no-sandbox', '--disable-gpu'] : [])],
      cwd: repoRoot,
      env: { ...process.env, BOSUN_HOME: home, ELECTRON_ENABLE_LOGGING: '1' } as Record<string, string>,
    })
    try {
      const page = await app.firstWindow()
      await page.waitForLoadState('domcontentloaded')
      expect(page.url()).toBe('bosun://app/index.html')

      const shape = await page.evaluate(() => {
        const w = window as unknown as Record<string, unknown>
        return { hasBosun: typeof w['bosun'] === 'object', hasRequire: typeof w['require'], hasProcess: typeof w['process'] }
      })
      expect(shape).toEqual({ hasBosun: true, hasRequire: 'undefined', hasProcess: 'undefined' })

      const info = await page.evaluate(() => (window as unknown as { bosun: { appInfo(arg: undefined): Promise<unknown> } }).bosun.appInfo(undefined))
      expect(info).toMatchObject({ ok: true, value: { host: 'electron' } })

      // window.open and navigation are refused: the page stays where it is and no second window appears.
      await page.evaluate(() => {
        window.open('https://example.com/')
      })
      expect(app.windows()).toHaveLength(1)
    } finally {
      await app.close()
      rmSync(home, { recursive: true, force: true })
    }
  })
})
