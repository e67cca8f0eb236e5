import { beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', async () => (await import('../../electron/fake-electron')).electronModule)

import type { MenuCommand } from '../../../common/contract/app'
import { appMenuTemplate, installAppMenu } from '../../../main/shell/menu'
import { createLogger, createMemoryLogger } from '../../../main/base/log'
import { calls, eventChannel, type CallHandlers } from '../../../common/contract'
import type { BosunServices } from '../../../main/app/services'
import { runElectronApp } from '../../../main/shell/app'
import { FakeBrowserWindow, fake } from '../../electron/fake-electron'

type Item = { label?: string; role?: string; type?: string; accelerator?: string; registerAccelerator?: boolean; submenu?: Item[]; click?: (item: unknown, window: unknown) => void }

let window: FakeBrowserWindow
let sent: MenuCommand[]
const log = createLogger('menu-test')
const options = (platform: NodeJS.Platform = 'linux') => ({ getWindow: () => window as never, send: (command: MenuCommand) => void sent.push(command), log, platform })

beforeEach(() => {
  fake.reset()
  window = new FakeBrowserWindow({})
  sent = []
})

const menu = (template: Item[], label: string): Item[] => template.find((m) => m.label === label)?.submenu ?? []
const item = (items: Item[], label: string): Item => {
  const found = items.find((i) => i.label === label)
  if (!found) throw new Error(`no item ${label}`)
  return found
}

describe('application menu', () => {
  it('has File, Edit, View and Help with the usual items and roles', () => {
    const template = appMenuTemplate(options()) as Item[]
    expect(template.map((m) => m.label)).toEqual(['&File', '&Edit', '&View', '&Help'])
    expect(menu(template, '&File').map((i) => i.label ?? i.role ?? i.type)).toEqual(['New Session', 'separator', 'Settings…', 'separator', 'quit'])
    expect(menu(template, '&Edit').map((i) => i.role ?? i.type)).toEqual(['undo', 'redo', 'separator', 'cut', 'copy', 'paste', 'selectAll'])
    expect(menu(template, '&View').map((i) => i.label ?? i.role ?? i.type)).toEqual(['Toggle Inspector', 'separator', 'resetZoom', 'zoomIn', 'zoomOut', 'separator', 'togglefullscreen'])
    expect(menu(template, '&Help').map((i) => i.label)).toEqual(['About Bosun'])
  })

  it('on macOS, About, Settings and Quit are in the app menu', () => {
    const template = appMenuTemplate(options('darwin')) as Item[]
    expect(template.map((m) => m.label)).toEqual(['Bosun', '&File', '&Edit', '&View', '&Help'])
    expect(menu(template, 'Bosun').map((i) => i.label ?? i.role).filter(Boolean)).toEqual(['About Bosun', 'Settings…', 'services', 'hide', 'hideOthers', 'unhide', 'quit'])
    expect(menu(template, '&File').map((i) => i.label ?? i.role ?? i.type)).toEqual(['New Session', 'separator', 'close'])
  })

  it('sends New session, Settings and Toggle inspector to the Bosun window only', () => {
    const template = appMenuTemplate(options()) as Item[]
    item(menu(template, '&File'), 'New Session').click!({}, window)
    item(menu(template, '&File'), 'Settings…').click!({}, window)
    item(menu(template, '&View'), 'Toggle Inspector').click!({}, undefined)
    expect(sent).toEqual(['newSession', 'openSettings', 'toggleInspector'])

    // Chosen for another window, or with ours gone: nothing is sent.
    item(menu(template, '&File'), 'New Session').click!({}, new FakeBrowserWindow({}))
    window.destroy()
    item(menu(template, '&File'), 'Settings…').click!({}, undefined)
    expect(sent).toEqual(['newSession', 'openSettings', 'toggleInspector'])
  })

  it('shows the page’s own shortcuts without registering them (the page handles the key once)', () => {
    const template = appMenuTemplate(options()) as Item[]
    expect(item(menu(template, '&File'), 'New Session')).toMatchObject({ accelerator: 'CmdOrCtrl+N', registerAccelerator: false })
    expect(item(menu(template, '&File'), 'Settings…')).toMatchObject({ accelerator: 'CmdOrCtrl+,', registerAccelerator: false })
  })

  it('About shows the name and version in a native box over the window', async () => {
    const template = appMenuTemplate(options()) as Item[]
    item(menu(template, '&Help'), 'About Bosun').click!({}, window)
    expect(fake.dialogs).toHaveLength(1)
    expect(fake.dialogs[0]!.window).toBe(window)
    expect(fake.dialogs[0]!.options.message).toBe('Bosun 0.1.0-test')
  })

  it('is set as the application menu, and taken away on dispose', () => {
    const installed = installAppMenu(options())
    expect((fake.applicationMenu?.template as Item[]).map((m) => m.label)).toEqual(['&File', '&Edit', '&View', '&Help'])
    installed.dispose()
    expect(fake.applicationMenu).toBeNull()
  })
})

describe('the Electron app’s menu', () => {
  it('reaches the window’s page as the contract’s menuCommand event', async () => {
    const handlers = Object.fromEntries(Object.keys(calls).map((name) => [name, async () => ({ ok: true, value: null })])) as unknown as CallHandlers
    const services: BosunServices = { handlers, dispose: async () => undefined }
    await runElectronApp({ createServices: async () => services, env: { BOSUN_HOME: '/tmp/bosun-menu-home' }, log: createMemoryLogger() })
    const shown = fake.windows.at(-1)!
    const template = fake.applicationMenu!.template as Item[]
    item(menu(template, '&File'), 'New Session').click!({}, shown)
    expect(shown.webContents.sent).toContainEqual({ channel: eventChannel('menuCommand'), args: [{ command: 'newSession' }] })
  })
})
