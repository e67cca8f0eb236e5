/**
 * A small stand-in for the `electron` module, enough for the shell and preload to run under vitest:
 *
 *   vi.mock('electron', async () => (await import('../../electron/fake-electron')).electronModule)
 *
 * Everything records what it was asked to do in {@link fake}; `fake.reset()` starts a test from scratch.
 */

type Listener = (...args: any[]) => unknown // eslint-disable-line @typescript-eslint/no-explicit-any

export class FakeEmitter {
  private readonly listeners = new Map<string, Listener[]>()
  on(name: string, listener: Listener): this {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener])
    return this
  }
  once(name: string, listener: Listener): this {
    const wrapped: Listener = (...args) => {
      this.off(name, wrapped)
      return listener(...args)
    }
    return this.on(name, wrapped)
  }
  off(name: string, listener: Listener): this {
    this.listeners.set(name, (this.listeners.get(name) ?? []).filter((l) => l !== listener))
    return this
  }
  removeListener(name: string, listener: Listener): this {
    return this.off(name, listener)
  }
  emit(name: string, ...args: unknown[]): boolean {
    const list = this.listeners.get(name) ?? []
    for (const listener of list) listener(...args)
    return list.length > 0
  }
  listenerCount(name: string): number {
    return (this.listeners.get(name) ?? []).length
  }
}

/** An Electron-style event whose default can be prevented. */
export function fakeEvent(extra: Record<string, unknown> = {}): { defaultPrevented: boolean; preventDefault(): void } & Record<string, unknown> {
  const event = {
    ...extra,
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true
    },
  }
  return event
}

export class FakeFrame {
  constructor(
    public url: string,
    public parent: FakeFrame | null = null,
  ) {}
}

export class FakeSession extends FakeEmitter {
  permissionRequestHandler: Listener | null = null
  permissionCheckHandler: Listener | null = null
  devicePermissionHandler: Listener | null = null
  setPermissionRequestHandler(handler: Listener | null) {
    this.permissionRequestHandler = handler
  }
  setPermissionCheckHandler(handler: Listener | null) {
    this.permissionCheckHandler = handler
  }
  setDevicePermissionHandler(handler: Listener | null) {
    this.devicePermissionHandler = handler
  }
  spellCheckerEnabled = true
  setSpellCheckerEnabled(enabled: boolean) {
    this.spellCheckerEnabled = enabled
  }
}

let nextContentsId = 1

export class FakeWebContents extends FakeEmitter {
  readonly id = nextContentsId++
  mainFrame = new FakeFrame('bosun://app/index.html')
  windowOpenHandler: Listener | null = null
  readonly sent: { channel: string; args: unknown[] }[] = []
  reloads = 0
  destroyed = false
  session = fake.defaultSession
  setWindowOpenHandler(handler: Listener) {
    this.windowOpenHandler = handler
  }
  send(channel: string, ...args: unknown[]) {
    if (this.destroyed) throw new Error('Object has been destroyed')
    this.sent.push({ channel, args })
  }
  isDestroyed() {
    return this.destroyed
  }
  reload() {
    this.reloads++
  }
}

export class FakeBrowserWindow extends FakeEmitter {
  readonly webContents = new FakeWebContents()
  loadedUrl: string | undefined
  destroyed = false
  focused = true
  minimized = false
  visible = true
  focusCalls = 0
  constructor(readonly options: Record<string, unknown>) {
    super()
    fake.windows.push(this)
  }
  loadURL(url: string) {
    this.loadedUrl = url
    return Promise.resolve()
  }
  isDestroyed() {
    return this.destroyed
  }
  isFocused() {
    return this.focused
  }
  isMinimized() {
    return this.minimized
  }
  isVisible() {
    return this.visible
  }
  restore() {
    this.minimized = false
  }
  show() {
    this.visible = true
  }
  focus() {
    this.focusCalls++
    this.focused = true
  }
  overlay: { image: unknown; description: string } | undefined
  setOverlayIcon(image: unknown, description: string) {
    this.overlay = { image, description }
  }
  destroy() {
    this.destroyed = true
    this.webContents.destroyed = true
    this.emit('closed')
  }
}

export class FakeNotification extends FakeEmitter {
  shown = false
  closed = false
  constructor(readonly options: { title: string; body: string }) {
    super()
    fake.notifications.push(this)
  }
  static isSupported() {
    return true
  }
  show() {
    this.shown = true
  }
  close() {
    this.closed = true
    this.emit('close')
  }
}

class FakeApp extends FakeEmitter {
  quitCalls = 0
  quitted = false
  badgeCount = 0
  isPackaged = false
  requestSingleInstanceLock() {
    return fake.singleInstanceLock
  }
  whenReady() {
    return Promise.resolve()
  }
  getAppPath() {
    return fake.appPath
  }
  getPath(name: string) {
    return `${fake.userData}${name === 'userData' ? '' : '/' + name}`
  }
  setPath(name: string, path: string) {
    if (name === 'userData') fake.userData = path
  }
  getVersion() {
    return '0.1.0-test'
  }
  setBadgeCount(count: number) {
    this.badgeCount = count
    return true
  }
  /** Like Electron: emits `before-quit`, and quits unless a listener prevented it. */
  quit() {
    this.quitCalls++
    const event = fakeEvent()
    this.emit('before-quit', event)
    if (!event.defaultPrevented) this.quitted = true
  }
  exit() {
    this.quitted = true
  }
}

type InvokeHandler = (event: unknown, ...args: unknown[]) => unknown

/** A native message box main showed: its parent window (if any) and its options (title, message, detail, buttons). */
export interface FakeDialog {
  window: FakeBrowserWindow | null
  options: {
    type?: string
    title?: string
    message: string
    detail?: string
    buttons?: string[]
    defaultId?: number
    cancelId?: number
  }
}

/** A menu built from a template: its items as given (clicks and all), for tests to read and click. */
export interface FakeMenu {
  template: Record<string, unknown>[]
}

export const fake = {
  /** The application menu main set (`Menu.setApplicationMenu`); null when none (or taken away). */
  applicationMenu: null as FakeMenu | null,
  singleInstanceLock: true,
  appPath: '/fake/app',
  userData: '/fake/userData',
  windows: [] as FakeBrowserWindow[],
  notifications: [] as FakeNotification[],
  openedExternally: [] as string[],
  /** Every `shell.openPath`, in order. */
  openedPaths: [] as string[],
  privilegedSchemes: [] as unknown[],
  protocolHandlers: new Map<string, (request: Request) => Response | Promise<Response>>(),
  ipcHandlers: new Map<string, InvokeHandler>(),
  exposed: new Map<string, unknown>(),
  rendererInvocations: [] as { channel: string; args: unknown[] }[],
  rendererListeners: new FakeEmitter(),
  defaultSession: new FakeSession(),
  app: new FakeApp(),
  /** Every `dialog.showMessageBox` main made, in order. */
  dialogs: [] as FakeDialog[],
  /** Every `dialog.showErrorBox` main made, in order. */
  errorBoxes: [] as { title: string; content: string }[],
  /**
   * How the person answers a message box (the index of the button). Defaults to the cancel button: a test
   * that expects a confirmation must grant it ({@link confirmDialogs}).
   */
  answerDialog: (dialog: FakeDialog): number => dialog.options.cancelId ?? 0,
  /** Every `dialog.showSaveDialog` main made, in order: its parent window and options. */
  saveDialogs: [] as { window: FakeBrowserWindow | null; options: { defaultPath?: string; filters?: unknown } }[],
  /** Where the person saves (the path chosen); null (the default): they cancel. */
  answerSaveDialog: (_options: { defaultPath?: string }): string | null => null,
  /** The person clicks the last (confirming) button of every dialog from now on. */
  confirmDialogs() {
    fake.answerDialog = (dialog) => (dialog.options.buttons?.length ?? 1) - 1
  },
  reset() {
    fake.applicationMenu = null
    fake.dialogs = []
    fake.errorBoxes = []
    fake.answerDialog = (dialog) => dialog.options.cancelId ?? 0
    fake.saveDialogs = []
    fake.answerSaveDialog = () => null
    fake.singleInstanceLock = true
    fake.userData = '/fake/userData'
    fake.windows = []
    fake.notifications = []
    fake.openedExternally = []
    fake.openedPaths = []
    fake.privilegedSchemes = []
    fake.protocolHandlers = new Map()
    fake.ipcHandlers = new Map()
    fake.exposed = new Map()
    fake.rendererInvocations = []
    fake.rendererListeners = new FakeEmitter()
    fake.defaultSession = new FakeSession()
    fake.app = new FakeApp()
    electronModule.app = fake.app
    electronModule.session.defaultSession = fake.defaultSession
  },
  /** What main's `ipcMain.handle` answers for an invocation with this event. */
  async invoke(channel: string, event: unknown, ...args: unknown[]): Promise<unknown> {
    const handler = fake.ipcHandlers.get(channel)
    if (!handler) throw new Error(`No handler registered for '${channel}'`)
    return handler(event, ...args)
  },
}

export const electronModule = {
  app: fake.app,
  BrowserWindow: FakeBrowserWindow,
  Notification: FakeNotification,
  Menu: {
    buildFromTemplate(template: Record<string, unknown>[]): FakeMenu {
      return { template }
    },
    setApplicationMenu(menu: FakeMenu | null) {
      fake.applicationMenu = menu
    },
  },
  nativeImage: {
    createFromBitmap(buffer: Buffer, size: { width: number; height: number }) {
      return { fakeImage: true, bytes: buffer.length, ...size }
    },
  },
  session: { defaultSession: fake.defaultSession },
  dialog: {
    showErrorBox(title: string, content: string) {
      fake.errorBoxes.push({ title, content })
    },
    showMessageBox(windowOrOptions: unknown, maybeOptions?: FakeDialog['options']) {
      const hasWindow = windowOrOptions instanceof FakeBrowserWindow
      const dialog: FakeDialog = {
        window: hasWindow ? windowOrOptions : null,
        options: (hasWindow ? maybeOptions : windowOrOptions) as FakeDialog['options'],
      }
      fake.dialogs.push(dialog)
      return Promise.resolve({ response: fake.answerDialog(dialog), checkboxChecked: false })
    },
    showSaveDialog(windowOrOptions: unknown, maybeOptions?: { defaultPath?: string; filters?: unknown }) {
      const hasWindow = windowOrOptions instanceof FakeBrowserWindow
      const options = (hasWindow ? maybeOptions : windowOrOptions) as { defaultPath?: string; filters?: unknown }
      fake.saveDialogs.push({ window: hasWindow ? windowOrOptions : null, options })
      const filePath = fake.answerSaveDialog(options)
      return Promise.resolve(filePath === null ? { canceled: true } : { canceled: false, filePath })
    },
  },
  shell: {
    openExternal(url: string) {
      fake.openedExternally.push(url)
      return Promise.resolve()
    },
    /** Like Electron: resolves to an error message, `''` when the file opened. */
    openPath(path: string) {
      fake.openedPaths.push(path)
      return Promise.resolve('')
    },
  },
  protocol: {
    registerSchemesAsPrivileged(schemes: unknown[]) {
      fake.privilegedSchemes.push(...schemes)
    },
    handle(scheme: string, handler: (request: Request) => Response | Promise<Response>) {
      if (fake.protocolHandlers.has(scheme)) throw new Error(`The scheme '${scheme}' is already handled`)
      fake.protocolHandlers.set(scheme, handler)
    },
    isProtocolHandled(scheme: string) {
      return fake.protocolHandlers.has(scheme)
    },
    unhandle(scheme: string) {
      fake.protocolHandlers.delete(scheme)
    },
  },
  ipcMain: {
    handle(channel: string, handler: InvokeHandler) {
      // Like Electron: a second handler for one channel is a bug.
      if (fake.ipcHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`)
      fake.ipcHandlers.set(channel, handler)
    },
    removeHandler(channel: string) {
      fake.ipcHandlers.delete(channel)
    },
  },
  contextBridge: {
    exposeInMainWorld(key: string, api: unknown) {
      fake.exposed.set(key, api)
    },
  },
  ipcRenderer: {
    invoke(channel: string, ...args: unknown[]) {
      fake.rendererInvocations.push({ channel, args })
      return Promise.resolve({ ok: true, value: { channel, args } })
    },
    on(channel: string, listener: Listener) {
      fake.rendererListeners.on(channel, listener)
    },
    removeListener(channel: string, listener: Listener) {
      fake.rendererListeners.off(channel, listener)
    },
  },
}

/** An IPC invoke event as main sees it: from `contents`, in `frame` (null for a destroyed frame). */
export function invokeEvent(contents: FakeWebContents, frame: FakeFrame | null = contents.mainFrame): { sender: FakeWebContents; senderFrame: FakeFrame | null } {
  return { sender: contents, senderFrame: frame }
}
