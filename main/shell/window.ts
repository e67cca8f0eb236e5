/**
 * The one Bosun window and the guards around it (Electron security checklist): isolated, sandboxed renderer
 * with no Node; the app only from `bosun://app`; no navigation, no new windows, no webviews, no downloads,
 * no permissions; a crashed renderer is reloaded and rehydrates from main.
 */
import { BrowserWindow, protocol, session as electronSession, type Session, type WebContents } from 'electron'
import { encodeBridgeManifest } from '../../common/bridge-manifest'
import type { Logger } from '../base/log'
import { bridgeManifest } from './ipc'
import { APP_ENTRY_URL, APP_SCHEME, handleAppProtocol, isAppUrl } from './protocol'

export interface MainWindowOptions {
  /** The built preload, `out/preload/index.cjs`. */
  preloadPath: string
  /** The built renderer, `out/renderer`. */
  rendererDir: string
  log: Logger
  /** Clock for the crash-loop guard (tests). */
  now?: () => number
}

/** The webPreferences every Bosun window gets; exported so tests can assert them. */
export function secureWebPreferences(preloadPath: string): Electron.WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    // The spellchecker would download Hunspell dictionaries from Google's CDN: Bosun makes no such requests.
    spellcheck: false,
    // The preload reads the contract's names from here instead of bundling zod (see preload/bridge-manifest.ts).
    additionalArguments: [encodeBridgeManifest(bridgeManifest())],
  }
}

const hardened = new WeakSet<Session>()

/** Denies every permission request and check (camera, notifications, openExternal, …); no spellchecker (no dictionary download). */
export function denyAllPermissions(session: Session, log: Logger): void {
  if (hardened.has(session)) return
  hardened.add(session)
  session.setSpellCheckerEnabled(false)
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    log.warn(`denied permission request: ${permission}`)
    callback(false)
  })
  session.setPermissionCheckHandler(() => false)
  session.setDevicePermissionHandler(() => false)
  session.on('will-download', (event) => event.preventDefault())
}

const guarded = new WeakSet<WebContents>()

/** Navigation and window creation are refused outright; links the person clicks go through the consent path in main. */
export function guardNavigation(contents: WebContents, log: Logger): void {
  if (guarded.has(contents)) return
  guarded.add(contents)
  contents.on('will-navigate', (event, url) => {
    event.preventDefault()
    log.warn(`blocked navigation to ${String(url).slice(0, 200)}`)
  })
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault()
  })
  // Subframes too (the app has none; an injected iframe must not navigate anywhere else).
  contents.on('will-frame-navigate', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    log.warn(`blocked window.open of ${url.slice(0, 200)}`)
    return { action: 'deny' }
  })
}

/** After this many renderer crashes within a minute, stop reloading (a crash loop would spin the CPU). */
const MAX_RELOADS_PER_MINUTE = 3

/** Creates the window, serves the renderer on `bosun://app`, installs every guard and loads the app. */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const { log } = options
  const now = options.now ?? Date.now
  // `protocol.handle` throws for a scheme handled twice (macOS re-creates the window after the last one closed).
  if (!protocol.isProtocolHandled(APP_SCHEME)) handleAppProtocol(options.rendererDir)
  denyAllPermissions(electronSession.defaultSession, log)

  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 640,
    minHeight: 420,
    show: false,
    title: 'Bosun',
    webPreferences: secureWebPreferences(options.preloadPath),
  })
  const contents = window.webContents
  guardNavigation(contents, log)
  window.once('ready-to-show', () => window.show())

  const crashes: number[] = []
  contents.on('render-process-gone', (_event, details) => {
    log.error(`renderer gone: ${details.reason} (exit ${details.exitCode})`)
    if (details.reason === 'clean-exit' || window.isDestroyed()) return
    const t = now()
    while (crashes.length > 0 && t - crashes[0]! > 60_000) crashes.shift()
    crashes.push(t)
    if (crashes.length > MAX_RELOADS_PER_MINUTE) return log.error('renderer keeps crashing; not reloading again')
    contents.reload()
  })

  void window.loadURL(APP_ENTRY_URL).catch((error: unknown) => log.error('could not load the app', error))
  return window
}

/** Brings the window to the front (second instance, notification click). */
export function focusWindow(window: BrowserWindow | undefined): void {
  if (!window || window.isDestroyed()) return
  if (window.isMinimized()) window.restore()
  if (!window.isVisible()) window.show()
  window.focus()
}

/**
 * The same guards for every webContents and session Electron ever creates, not only the main window's
 * (a devtools view, a future window, anything a dependency opens): navigation away from the app, new
 * windows, webviews and permission requests are refused everywhere. Call before the first window exists.
 */
export function installGlobalGuards(app: Pick<Electron.App, 'on'>, log: Logger): void {
  app.on('web-contents-created', (_event, contents) => {
    guardNavigation(contents, log)
    denyAllPermissions(contents.session, log)
  })
  app.on('session-created', (session) => denyAllPermissions(session, log))
}
