import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', async () => (await import('../../electron/fake-electron')).electronModule)

import { createMemoryLogger } from '../../../main/base/log'
import { APP_ENTRY_URL, SHELL_CSP, createAppProtocolHandler, registerAppScheme } from '../../../main/shell/protocol'
import { createMainWindow, focusWindow } from '../../../main/shell/window'
import { fake, fakeEvent, type FakeBrowserWindow } from '../../electron/fake-electron'

const root = mkdtempSync(join(tmpdir(), 'bosun-shell-'))
const rendererDir = join(root, 'renderer')
mkdirSync(join(rendererDir, 'assets'), { recursive: true })
writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Bosun</title>')
writeFileSync(join(rendererDir, 'assets', 'index.js'), 'console.log(1)')
writeFileSync(join(root, 'secret.txt'), 'do not serve')
afterAll(() => rmSync(root, { recursive: true, force: true }))

function open(now?: () => number): FakeBrowserWindow {
  createMainWindow({ preloadPath: '/app/out/preload/index.cjs', rendererDir, log: createMemoryLogger(), ...(now ? { now } : {}) })
  return fake.windows.at(-1)!
}

beforeEach(() => fake.reset())

describe('main window', () => {
  it('uses an isolated, sandboxed renderer without Node and with the built preload', () => {
    const prefs = open().options.webPreferences as Record<string, unknown>
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      preload: '/app/out/preload/index.cjs',
    })
    expect(prefs).not.toHaveProperty('enableRemoteModule')
  })

  it('loads the app from bosun://app, never a remote or file URL', () => {
    expect(open().loadedUrl).toBe('bosun://app/index.html')
    expect(APP_ENTRY_URL).toMatch(/^bosun:\/\/app\//)
  })

  it('refuses navigation, new windows and webviews', () => {
    const contents = open().webContents
    const nav = fakeEvent()
    contents.emit('will-navigate', nav, 'https://evil.example/')
    expect(nav.defaultPrevented).toBe(true)
    const sameApp = fakeEvent()
    contents.emit('will-navigate', sameApp, 'bosun://app/index.html')
    expect(sameApp.defaultPrevented).toBe(true)
    const webview = fakeEvent()
    contents.emit('will-attach-webview', webview)
    expect(webview.defaultPrevented).toBe(true)
    expect(contents.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' })
    expect(contents.windowOpenHandler?.({ url: 'bosun://app/index.html' })).toEqual({ action: 'deny' })
  })

  it('denies every permission request and check by default', () => {
    open()
    const session = fake.defaultSession
    for (const permission of ['media', 'notifications', 'openExternal', 'geolocation', 'clipboard-read', 'unknown']) {
      const callback = vi.fn()
      session.permissionRequestHandler?.({}, permission, callback, {})
      expect(callback).toHaveBeenCalledWith(false)
    }
    expect(session.permissionCheckHandler?.(null, 'media', 'bosun://app', {})).toBe(false)
    expect(session.devicePermissionHandler?.({})).toBe(false)
    const download = fakeEvent()
    session.emit('will-download', download)
    expect(download.defaultPrevented).toBe(true)
  })

  it('reloads a crashed renderer, but not in a crash loop and not after a clean exit', () => {
    let t = 0
    const window = open(() => t)
    const contents = window.webContents
    contents.emit('render-process-gone', fakeEvent(), { reason: 'clean-exit', exitCode: 0 })
    expect(contents.reloads).toBe(0)
    for (let i = 0; i < 5; i++) contents.emit('render-process-gone', fakeEvent(), { reason: 'crashed', exitCode: 1 })
    expect(contents.reloads).toBe(3)
    t = 120_000
    contents.emit('render-process-gone', fakeEvent(), { reason: 'oom', exitCode: 1 })
    expect(contents.reloads).toBe(4)
  })

  it('handles the app scheme once even when the window is re-created', () => {
    open()
    expect(() => open()).not.toThrow()
    expect(fake.protocolHandlers.has('bosun')).toBe(true)
  })

  it('focusWindow restores and focuses', () => {
    const window = open()
    window.minimized = true
    window.visible = false
    focusWindow(window as never)
    expect(window.minimized).toBe(false)
    expect(window.visible).toBe(true)
    expect(window.focusCalls).toBe(1)
  })
})

describe('bosun:// protocol', () => {
  it('is registered as a standard, secure scheme before ready', () => {
    registerAppScheme()
    expect(fake.privilegedSchemes).toEqual([{ scheme: 'bosun', privileges: expect.objectContaining({ standard: true, secure: true }) }])
  })

  const handler = createAppProtocolHandler(rendererDir)
  const get = (url: string) => handler(new Request(url))

  it('serves the renderer with the CSP header and the right content type', async () => {
    const page = await get('bosun://app/index.html')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('content-security-policy')).toBe(SHELL_CSP)
    expect(await page.text()).toContain('<title>Bosun</title>')
    const script = await get('bosun://app/assets/index.js')
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect((await get('bosun://app/')).status).toBe(200)
  })

  it('refuses traversal, other hosts, missing files and writes', async () => {
    for (const url of [
      'bosun://app/..%2fsecret.txt',
      'bosun://app/%2e%2e/secret.txt',
      'bosun://app/assets/..%2f..%2fsecret.txt',
      'bosun://app/..%5csecret.txt',
      'bosun://app/%00index.html',
      'bosun://app/%E0%A4%A',
    ]) {
      const response = await get(url)
      expect(response.status, url).toBeGreaterThanOrEqual(400)
      expect(await response.text(), url).not.toContain('do not serve')
    }
    expect((await get('bosun://app/../secret.txt')).status).toBe(404)
    expect((await get('bosun://other/index.html')).status).toBe(404)
    expect((await get('bosun://app/missing.js')).status).toBe(404)
    expect((await handler(new Request('bosun://app/index.html', { method: 'POST', body: 'x' }))).status).toBe(405)
  })

  it('has a strict CSP: only our scripts, nothing inline or remote', () => {
    const directives = Object.fromEntries(SHELL_CSP.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]))
    expect(directives['default-src']).toEqual(["'self'"])
    expect(directives['script-src']).toEqual(["'self'"])
    expect(directives['connect-src']).toEqual(["'self'"])
    expect(directives['object-src']).toEqual(["'none'"])
    expect(directives['frame-ancestors']).toEqual(["'none'"])
    expect(SHELL_CSP).not.toMatch(/unsafe-eval|https?:|\*/)
  })
})
