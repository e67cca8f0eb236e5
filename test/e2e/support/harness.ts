/**
 * End-to-end harness: the real browser host (same services as the Electron app) serving the built
 * renderer, Debian's Chromium driven by Playwright, and the scripted test agent as a real child process.
 */
import { existsSync, mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { createBosunServices } from '../../../main/app/create-services'
import type { CreateBosunServices, HostileAgentLimits } from '../../../main/app/services'
import { startWebHost, type WebHost, type WebHostOptions } from '../../../main/web/server'
import type { EventSink } from '../../../common/contract'
import type { ConfirmationService } from '../../../main/trust/confirmation'
import type { SecretStore } from '../../../main/secrets/secret-store'
import { createTestHome, type TestAgent, type TestHome } from '../../support/bosun-home'
import { lateBound } from './late-bound'
import { startSession } from './session-ui'

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
/** The built renderer; `BOSUN_OUT_DIR` points at another build (`electron-vite build --outDir …`). */
export const rendererDir = join(process.env.BOSUN_OUT_DIR ? resolve(process.env.BOSUN_OUT_DIR) : join(repoRoot, 'out'), 'renderer')
export const screenshotDir = join(repoRoot, 'test', 'e2e', 'screenshots')

/** Debian's Chromium (never a downloaded one), or BOSUN_CHROMIUM. */
export const chromiumPath = process.env.BOSUN_CHROMIUM ?? '/usr/bin/chromium'

export const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']

/**
 * One Chromium for all the apps a test file launches: each app has a browser context of its own (its own storage,
 * permissions, downloads and pages, as a new browser would), and Chromium starts once a file instead of once an app
 * (about a second each on a busy 2-core machine). It is closed after the file's other `afterAll` hooks (registered
 * when the file imports this module, so before them); a Chromium that went away is started again.
 */
let fileChromium: Promise<Browser> | undefined
export async function fileBrowser(): Promise<Browser> {
  const launching = (fileChromium ??= chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true }))
  try {
    const browser = await launching
    if (browser.isConnected()) return browser
  } catch (error) {
    if (fileChromium === launching) fileChromium = undefined
    throw error
  }
  if (fileChromium === launching) fileChromium = undefined
  return fileBrowser()
}
// Outside vitest (the benchmarks import this module), whoever launches closes the browser themselves.
if (process.env.VITEST) {
  afterAll(async () => {
    const launching = fileChromium
    fileChromium = undefined
    await (await launching?.catch(() => undefined))?.close()
  })
}

export interface E2eApp {
  host: WebHost
  home: TestHome
  /** The file's Chromium ({@link fileBrowser}), shared with its other apps: close `context`, not this. */
  browser: Browser
  context: BrowserContext
  page: Page
  /** Sends a contract event to the page as main would (e.g. the Electron menu's `menuCommand`, which the browser host has no menu to send). */
  emit: EventSink['emit']
  close(): Promise<void>
}

export function assertBuilt(): void {
  if (!existsSync(join(rendererDir, 'index.html'))) {
    throw new Error(`The renderer is not built (${rendererDir}). Run \`npm run build\` first (npm test does).`)
  }
}

/** What {@link launchPerTest} returns: it launches; `session` launches and starts a session too. */
export interface PerTestLaunch {
  (...args: Parameters<typeof launchApp>): Promise<E2eApp>
  /** Launches with `agent` alone and starts a session of it in the test home's workspace. */
  session(agent: TestAgent, options?: LaunchOptions): Promise<E2eApp>
}

/**
 * {@link launchApp} for a file whose tests each launch one app: what it returns launches, and the app is closed
 * after each test. `const launch = launchPerTest()`, then `const app = await launch(agents, options)` in a test, or
 * `const { page } = await launch.session(agent, options)` for a test that begins in a new session.
 */
export function launchPerTest(): PerTestLaunch {
  let app: E2eApp | undefined
  afterEach(async () => {
    await app?.close()
    app = undefined
  })
  const launch = async (...args: Parameters<typeof launchApp>) => (app = await launchApp(...args))
  const session = async (agent: TestAgent, options?: LaunchOptions) => {
    const launched = await launch([agent], options)
    await startSession(launched.page, { agentName: agent.name, cwd: launched.home.workspace })
    return launched
  }
  return Object.assign(launch, { session })
}

export interface LaunchOptions {
  colorScheme?: 'light' | 'dark'
  viewport?: { width: number; height: number }
  beforeLoad?: (page: Page) => Promise<unknown>
  /** Main's confirmations (default: the browser host's owner, who confirms everything). */
  confirmation?: ConfirmationService
  /** Shortened bounds (`stallNoticeMs`, `stopWatchdogMs` …), as the integration tests pass them. */
  limits?: HostileAgentLimits
  /** Each page's flow control bounds (main/web/view-flow.ts), shrunk so a test's flood outruns the page. */
  flow?: WebHostOptions['flow']
  /** Where agents' secrets are kept (default: the system keychain); a store that is not available stands for a machine without one. */
  secretStore?: SecretStore
  /** Writes into the test home before Bosun starts (a damaged history file, …). */
  prepareHome?: (home: TestHome) => void
}

/** An app that the tests of a file or `describe` block share: `app` and `page` stand for it while it runs. */
export interface SharedApp {
  app: E2eApp
  page: Page
  /**
   * Launches the app before the first test of the enclosing file or block and closes it after the last (its
   * hooks). Agents or options that a `beforeAll` of the file prepares are given as functions, called at launch.
   */
  launchAround(agents: TestAgent[] | (() => TestAgent[]), options?: LaunchOptions | (() => LaunchOptions)): void
}

/**
 * For a file whose blocks each launch their own app (`launchAround` in each) and whose helpers use `app` and
 * `page` at the top level. Reading `app` or `page` when no app is launched throws.
 */
export function sharedApp(): SharedApp {
  let launched: E2eApp | undefined
  const current = (): E2eApp => {
    if (!launched) throw new Error('The app is not launched: it is, from the beforeAll of useApp or launchAround to the afterAll')
    return launched
  }
  return {
    app: lateBound(current),
    page: lateBound(() => current().page),
    launchAround(agents, options = {}) {
      beforeAll(async () => {
        launched = await launchApp(typeof agents === 'function' ? agents() : agents, typeof options === 'function' ? options() : options)
      })
      afterAll(async () => {
        await launched?.close()
        launched = undefined
      })
    },
  }
}

/**
 * {@link launchApp} for a file (or a `describe` block) whose tests share one app: it is launched before the first
 * test and closed after the last. `const { app, page } = useApp(agents, options)` at the top level; both stand for
 * the launched app and its page while the tests run. A `beforeAll` registered after this one runs with the app
 * launched; an `afterAll` registered before it runs after the app is closed.
 */
export function useApp(...args: Parameters<SharedApp['launchAround']>): SharedApp {
  const shared = sharedApp()
  shared.launchAround(...args)
  return shared
}

export async function launchApp(agents: TestAgent[], options: LaunchOptions = {}): Promise<E2eApp> {
  assertBuilt()
  const home = createTestHome(agents)
  options.prepareHome?.(home)
  const { confirmation, limits, secretStore } = options
  let events: EventSink | undefined
  const createServices: CreateBosunServices = (integration) => {
    events = integration.events
    return createBosunServices({ ...integration, ...(confirmation ? { confirmation } : {}), ...(limits ? { limits } : {}), ...(secretStore ? { secretStore } : {}) })
  }
  const host = await startWebHost({ port: 0, home: home.home, rendererDir, createServices, appVersion: '0.0.0-e2e', ...(options.flow ? { flow: options.flow } : {}) })
  const browser = await fileBrowser()
  const context = await browser.newContext({
    colorScheme: options.colorScheme ?? 'light',
    viewport: options.viewport ?? { width: 1280, height: 800 },
  })
  const page = await context.newPage()
  page.on('pageerror', (error) => console.error(`[page error] ${error.message}`))
  await options.beforeLoad?.(page)
  await page.goto(host.url)
  return {
    host,
    home,
    browser,
    context,
    page,
    emit: (name, payload) => events?.emit(name, payload),
    async close() {
      await context.close().catch(() => {})
      await host.dispose()
      home.cleanup()
    },
  }
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true })
  const path = join(screenshotDir, `${name}.png`)
  await page.screenshot({ path, fullPage: false })
  return path
}
