/**
 * The Electron host, wired: one instance, services built for this host, the window, IPC, notifications and
 * quit. `main/index.ts` only calls {@link registerAppScheme} and {@link runElectronApp}.
 */
import { app, dialog, shell, type BrowserWindow } from 'electron'
import { join, resolve } from 'node:path'
import type { BosunServices, CreateBosunServices } from '../app/services'
import type { WorkerHistoryStore } from '../history/worker-history-store'
import { handlersForView } from '../web/view-flow'
import { DisposableStore } from '../base/lifecycle'
import { createLogger, type Logger } from '../base/log'
import { createDialogConfirmation } from './confirmation'
import { createWindowEventSink, registerIpcHandlers } from './ipc'
import { createNotifier, isWindowFocused } from './notifications'
import { installAppMenu } from './menu'
import { installQuitHandler } from './quit'
import { createSaveFile } from './save-file'
import { createMainWindow, focusWindow, installGlobalGuards } from './window'

export { registerAppScheme } from './protocol'

export interface ElectronAppOptions {
  createServices: CreateBosunServices
  /**
   * Starts the history's thread for the home (`startHistoryThread`) while Electron gets ready, so the thread's own
   * start-up is not added to the app's; the services take it.
   */
  startHistoryThread?: (home: string) => WorkerHistoryStore | undefined
  env?: NodeJS.ProcessEnv
  log?: Logger
  quitDeadlineMs?: number
}

export interface ElectronApp {
  readonly services: BosunServices
  readonly home: string
  window(): BrowserWindow | undefined
}

/**
 * The services, or a native error box saying why they could not start (another Bosun on this home, a home that cannot
 * be used) before the failure ends the app: launched from a desktop, there is no console to read the reason in.
 */
async function startServices(options: ElectronAppOptions, integration: Parameters<CreateBosunServices>[0]): Promise<BosunServices> {
  try {
    return await options.createServices(integration)
  } catch (error) {
    dialog.showErrorBox('Bosun could not start', error instanceof Error ? error.message : String(error))
    throw error
  }
}

/** Resolves once the window is up; `undefined` when another instance already runs (this one quits). */
export async function runElectronApp(options: ElectronAppOptions): Promise<ElectronApp | undefined> {
  const log = options.log ?? createLogger('shell')
  const env = options.env ?? process.env
  // BOSUN_HOME moves Chromium's profile too: the single-instance lock lives there, so isolated runs (tests) don't collide.
  if (env.BOSUN_HOME) app.setPath('userData', resolve(env.BOSUN_HOME))
  if (!app.requestSingleInstanceLock()) {
    log.info('another Bosun is running; handing over to it')
    app.quit()
    return undefined
  }

  let window: BrowserWindow | undefined
  const getWindow = () => window
  app.on('second-instance', () => focusWindow(window))
  // Every webContents and session, not only the main window's: no navigation, windows, webviews or permissions.
  installGlobalGuards(app, log)

  const historyThread = options.startHistoryThread?.(app.getPath('userData'))
  await app.whenReady()
  const appRoot = app.getAppPath()
  const home = app.getPath('userData')
  const store = new DisposableStore()
  // The sink comes before the services it is given: the page's flow reads a session's state from them once they exist.
  const late: { services?: BosunServices } = {}
  const events = createWindowEventSink(getWindow, log, (sessionId) => late.services?.sessionState?.(sessionId))
  const notifier = store.add(createNotifier(getWindow))

  const services = await startServices(options, {
    home,
    host: 'electron',
    appVersion: app.getVersion(),
    events,
    ...(historyThread ? { historyThread } : {}),
    // Handed on, unused here: the composition root passes it to `createExternalOpener`, the only chokepoint.
    openExternal: (url) => shell.openExternal(url),
    // Only `main/locations/` calls it, for a file a tool call named, after its own checks.
    openPath: (path) => shell.openPath(path),
    notifier,
    isWindowFocused: () => isWindowFocused(window),
    saveFile: createSaveFile(getWindow),
    // Decisions that widen what can run or open are confirmed in a native dialog the renderer cannot reach.
    confirmation: createDialogConfirmation(getWindow, log.child('confirm')),
  })
  late.services = services
  // The window's page says what it applied (ipc.ts checked it is our window's page): more may go to it.
  store.add(registerIpcHandlers({ getWindow, handlers: handlersForView(services.handlers, events.flow), log }))
  // The menu's app actions reach the page as the contract's event, as main's other news does.
  store.add(installAppMenu({ getWindow, send: (command) => events.emit('menuCommand', { command }), log: log.child('menu') }))

  const openWindow = () => {
    window = createMainWindow({
      preloadPath: join(appRoot, 'out', 'preload', 'index.cjs'),
      rendererDir: join(appRoot, 'out', 'renderer'),
      log,
    })
    window.on('closed', () => {
      window = undefined
    })
  }
  openWindow()

  // macOS keeps the app alive without windows; the dock icon brings one back.
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
  app.on('activate', () => {
    if (!window) openWindow()
  })

  installQuitHandler({
    log,
    ...(options.quitDeadlineMs !== undefined ? { deadlineMs: options.quitDeadlineMs } : {}),
    dispose: async () => {
      try {
        await services.dispose()
      } finally {
        store.dispose()
      }
    },
  })

  return { services, home, window: getWindow }
}
