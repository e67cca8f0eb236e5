/**
 * The application menu: File (New session, Settings, Quit), Edit (the editing roles), View (Toggle inspector, zoom),
 * Help (About). Its app actions go to the window's page as the contract's `menuCommand` event, and only for the
 * Bosun window: a click made for any other window (or none) does nothing.
 *
 * The shortcuts the page handles itself (Ctrl/⌘+N, Ctrl/⌘+,) are shown here but not registered
 * (`registerAccelerator: false`): one key press is handled once, by the page, as in the browser host.
 */
import { app, dialog, Menu, type BaseWindow, type BrowserWindow, type MenuItemConstructorOptions } from 'electron'
import type { MenuCommand } from '../../common/contract/app'
import { toDisposable, type IDisposable } from '../base/lifecycle'
import type { Logger } from '../base/log'

export interface AppMenuOptions {
  /** The Bosun window (late-bound: it may be re-created). */
  getWindow: () => BrowserWindow | undefined
  /** Sends the command to the window's page (`menuCommand`). */
  send: (command: MenuCommand) => void
  log: Logger
  platform?: NodeJS.Platform
}

/** Our window, when the item was chosen for it (a menu used with no window focused, e.g. on macOS, names none). */
function ourWindow(getWindow: () => BrowserWindow | undefined, chosenFor: BaseWindow | undefined): BrowserWindow | undefined {
  const window = getWindow()
  if (!window || window.isDestroyed()) return undefined
  return chosenFor === undefined || chosenFor === window ? window : undefined
}

/** Shows Bosun's name and version (and what it runs on) in a native box. */
function showAbout(window: BrowserWindow | undefined): void {
  const options = {
    type: 'info' as const,
    title: 'About Bosun',
    message: `Bosun ${app.getVersion()}`,
    detail: `A desktop client for coding agents that speak the Agent Client Protocol.\n\nElectron ${process.versions.electron ?? '?'} · Chromium ${process.versions.chrome ?? '?'} · Node ${process.versions.node}`,
    buttons: ['OK'],
  }
  void (window ? dialog.showMessageBox(window, options) : dialog.showMessageBox(options))
}

/** The menu's template (exported for tests). */
export function appMenuTemplate(options: AppMenuOptions): MenuItemConstructorOptions[] {
  const { getWindow, send, log } = options
  const mac = (options.platform ?? process.platform) === 'darwin'
  const command = (name: MenuCommand): MenuItemConstructorOptions['click'] => (_item, chosenFor) => {
    const window = ourWindow(getWindow, chosenFor)
    if (!window) {
      log.warn(`menu command ${name} without the Bosun window`)
      return
    }
    send(name)
  }
  const about: MenuItemConstructorOptions = { label: 'About Bosun', click: (_item, chosenFor) => showAbout(ourWindow(getWindow, chosenFor)) }
  const settings: MenuItemConstructorOptions = { label: 'Settings…', accelerator: 'CmdOrCtrl+,', registerAccelerator: false, click: command('openSettings') }
  return [
    ...(mac
      ? [{ label: 'Bosun', submenu: [about, { type: 'separator' }, settings, { type: 'separator' }, { role: 'services' }, { type: 'separator' }, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, { type: 'separator' }, { role: 'quit' }] } satisfies MenuItemConstructorOptions]
      : []),
    {
      label: '&File',
      submenu: [
        { label: 'New Session', accelerator: 'CmdOrCtrl+N', registerAccelerator: false, click: command('newSession') },
        ...(mac ? [{ type: 'separator' } as const, { role: 'close' } as const] : [{ type: 'separator' } as const, settings, { type: 'separator' } as const, { role: 'quit' } as const]),
      ],
    },
    {
      label: '&Edit',
      submenu: [{ role: 'undo' }, { role: 'redo' }, { type: 'separator' }, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }],
    },
    {
      label: '&View',
      submenu: [
        { label: 'Toggle Inspector', click: command('toggleInspector') },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { label: '&Help', role: 'help', submenu: [about] },
  ]
}

/** Sets the application menu; disposing takes it away again. */
export function installAppMenu(options: AppMenuOptions): IDisposable {
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(options)))
  return toDisposable(() => Menu.setApplicationMenu(null))
}
