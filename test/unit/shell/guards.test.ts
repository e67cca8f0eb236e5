/**
 * Issue 10 §3 through the fake electron: one instance, and the guards on every webContents and session
 * Electron creates (not only the main window's), and no spellchecker (it would download dictionaries).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', async () => (await import('../../electron/fake-electron')).electronModule)

import type { CallHandlers } from '../../../common/contract'
import type { BosunServices } from '../../../main/app/services'
import { createMemoryLogger } from '../../../main/base/log'
import { runElectronApp } from '../../../main/shell/app'
import { fake, fakeEvent, FakeSession, FakeWebContents } from '../../electron/fake-electron'

const services = async (): Promise<BosunServices> => ({
  handlers: new Proxy({}, { get: () => async () => ({ ok: true, value: undefined }) }) as CallHandlers,
  dispose: async () => undefined,
})

beforeEach(() => fake.reset())

/** Every way out of the app, tried on `contents`: each must be refused. */
function expectLockedDown(contents: FakeWebContents, session: FakeSession) {
  for (const url of ['https://evil.example/', 'file:///etc/passwd', 'bosun://app/index.html']) {
    const navigation = fakeEvent()
    contents.emit('will-navigate', navigation, url)
    expect(navigation.defaultPrevented, url).toBe(true)
  }
  const frame = fakeEvent({ url: 'https://evil.example/frame', isMainFrame: false })
  contents.emit('will-frame-navigate', frame)
  expect(frame.defaultPrevented).toBe(true)
  const redirect = fakeEvent()
  contents.emit('will-redirect', redirect, 'https://evil.example/')
  expect(redirect.defaultPrevented).toBe(true)
  const webview = fakeEvent()
  contents.emit('will-attach-webview', webview, {}, {})
  expect(webview.defaultPrevented).toBe(true)
  expect(contents.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' })

  for (const permission of ['media', 'notifications', 'openExternal', 'clipboard-read', 'fileSystem']) {
    const callback = vi.fn()
    session.permissionRequestHandler?.(contents, permission, callback, {})
    expect(callback).toHaveBeenCalledWith(false)
  }
  expect(session.permissionCheckHandler?.(contents, 'media', 'bosun://app', {})).toBe(false)
  expect(session.devicePermissionHandler?.({})).toBe(false)
  expect(session.spellCheckerEnabled).toBe(false)
}

describe('a locked-down Electron', () => {
  it('guards every webContents Electron creates, with its own session, not only the main window', async () => {
    await runElectronApp({ createServices: services, env: {}, log: createMemoryLogger() })
    expect(fake.app.listenerCount('web-contents-created')).toBe(1)
    const other = new FakeWebContents()
    other.session = new FakeSession()
    fake.app.emit('web-contents-created', fakeEvent(), other)
    expectLockedDown(other, other.session)
    // Created twice (Electron does not, but a guard must not stack listeners if it did).
    fake.app.emit('web-contents-created', fakeEvent(), other)
    expect(other.listenerCount('will-navigate')).toBe(1)
  })

  it('guards every session Electron creates', async () => {
    await runElectronApp({ createServices: services, env: {}, log: createMemoryLogger() })
    const session = new FakeSession()
    fake.app.emit('session-created', session)
    expect(session.permissionRequestHandler).not.toBeNull()
    const callback = vi.fn()
    session.permissionRequestHandler?.(null, 'geolocation', callback, {})
    expect(callback).toHaveBeenCalledWith(false)
    expect(session.spellCheckerEnabled).toBe(false)
    const download = fakeEvent()
    session.emit('will-download', download)
    expect(download.defaultPrevented).toBe(true)
  })

  it('the main window: locked down, and no spellchecker in its preferences or its session', async () => {
    await runElectronApp({ createServices: services, env: {}, log: createMemoryLogger() })
    const window = fake.windows[0]!
    expect((window.options.webPreferences as Record<string, unknown>).spellcheck).toBe(false)
    // Electron emits web-contents-created for the window's own contents too: still one set of guards.
    fake.app.emit('web-contents-created', fakeEvent(), window.webContents)
    expect(window.webContents.listenerCount('will-navigate')).toBe(1)
    expectLockedDown(window.webContents, fake.defaultSession)
  })

  it('one instance: a second launch quits before building anything, and focuses the first window', async () => {
    fake.singleInstanceLock = false
    const createServices = vi.fn(services)
    expect(await runElectronApp({ createServices, env: {}, log: createMemoryLogger() })).toBeUndefined()
    expect(createServices).not.toHaveBeenCalled()
    expect(fake.windows).toEqual([])
    expect(fake.app.listenerCount('web-contents-created')).toBe(0)
    expect(fake.app.quitCalls).toBe(1)

    fake.reset()
    await runElectronApp({ createServices: services, env: {}, log: createMemoryLogger() })
    const window = fake.windows[0]!
    window.visible = false
    window.focused = false
    fake.app.emit('second-instance', fakeEvent(), ['bosun'], '/')
    expect(window.visible).toBe(true)
    expect(window.focusCalls).toBe(1)
  })
})
