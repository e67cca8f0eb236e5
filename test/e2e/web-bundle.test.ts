/**
 * `npm run start:web` runs the built browser host (`out/web/web.mjs`, vite.web.config.ts) in plain Node: no tsx.
 * It prints its URL, serves the renderer only with the token, keeps its history on its bundled thread
 * (`out/web/history-worker.mjs`), runs a session with a real agent process in Chromium, and on SIGTERM exits 0.
 * Needs the build (`npm test` builds first).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium, type Browser } from 'playwright'
import { afterEach, expect, it } from 'vitest'
import { COMPILE_CACHE_FOLDER } from '../../main/base/compile-cache'
import { URL_LINE_PREFIX } from '../../main/web/host-env'
import { createTestHome, type TestHome } from '../support/bosun-home'
import { lineStartingWith } from '../support/process-output'
import { chromiumArgs, chromiumPath } from './support/harness'
import { agentSays, sendPrompt, startSession, visible, waitIdle } from './support/session-ui'

let child: ChildProcess | undefined
let home: string | undefined
let testHome: TestHome | undefined
let browser: Browser | undefined
afterEach(async () => {
  await browser?.close().catch(() => {})
  browser = undefined
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  child = undefined
  if (home) rmSync(home, { recursive: true, force: true })
  home = undefined
  testHome?.cleanup()
  testHome = undefined
})

/** Starts the built host on `bosunHome` and resolves with its URL (and its stderr so far, as it grows). */
async function startBuiltHost(bosunHome: string): Promise<{ url: string; stderr: () => string; process: ChildProcess }> {
  const entry = resolve('out/web/web.mjs')
  expect(existsSync(entry), 'out/web/web.mjs is built by `npm run build`').toBe(true)
  const started = spawn(process.execPath, [entry], { env: { ...process.env, BOSUN_HOME: bosunHome, BOSUN_PORT: '0', NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'] })
  child = started
  let stderr = ''
  started.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const url = await lineStartingWith(started, URL_LINE_PREFIX)
  return { url, stderr: () => stderr, process: started }
}

it('the built browser host starts in plain Node, serves the page with its token, writes its history on its thread, and stops on SIGTERM', async () => {
  home = mkdtempSync(join(tmpdir(), 'bosun-web-bundle-'))
  const { url, stderr, process: started } = await startBuiltHost(home)

  const page = await fetch(url)
  expect(page.status).toBe(200)
  expect(await page.text()).toContain(readFileSync(resolve('out/renderer/index.html'), 'utf8').match(/<title>[^<]*<\/title>/)![0])
  const withoutToken = await fetch(new URL('/', url).href)
  expect(withoutToken.status).not.toBe(200)

  // The history opened on its own thread from the bundle: no fallback to main's thread, and its file exists.
  expect(stderr()).not.toMatch(/written on Bosun's main thread|History is off|ERR_/)
  expect(existsSync(join(home, 'history.sqlite'))).toBe(true)

  const exit = new Promise<number | null>((done) => started.once('exit', (code) => done(code)))
  started.kill('SIGTERM')
  expect(await exit).toBe(0)

  // Node's compiled code was kept in the home for the next start (written as the host exits), private to its owner.
  const cache = join(home, COMPILE_CACHE_FOLDER)
  expect(statSync(cache).mode & 0o077).toBe(0)
  const kept = readdirSync(cache, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
  expect(kept.length).toBeGreaterThan(0)
})

it('the built browser host runs a session with a real agent process in Chromium', async () => {
  testHome = createTestHome([{ id: 'scripted', name: 'Scripted agent', scenario: 'e2e-session' }])
  const { url, stderr } = await startBuiltHost(testHome.home)
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true })
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  await page.goto(url)
  await startSession(page, { agentName: 'Scripted agent', cwd: testHome.workspace })
  await sendPrompt(page, 'fix')
  await visible(agentSays(page, 'Scripted agent').getByText('is 42 now.'))
  await waitIdle(page)
  expect(stderr()).not.toMatch(/ERR_|TypeError|ReferenceError/)
})
