import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', async () => (await import('../../electron/fake-electron')).electronModule)

import { callChannel, calls, type CallHandlers } from '../../../common/contract'
import type { BosunServices, HostIntegration } from '../../../main/app/services'
import type { WorkerHistoryStore } from '../../../main/history/worker-history-store'
import { Deferred } from '../../../main/base/deferred'
import { createMemoryLogger } from '../../../main/base/log'
import { createExternalOpener } from '../../../main/elicitation/open-external'
import { runElectronApp } from '../../../main/shell/app'
import { fake, fakeEvent, invokeEvent } from '../../electron/fake-electron'

function stubServices(dispose: () => Promise<void> = async () => undefined) {
  const integration: { value?: HostIntegration } = {}
  // Every call of the contract, as the composition root's object has them (own keys: the shell adds its own to a copy).
  const handlers = Object.fromEntries(Object.keys(calls).map((name) => [name, async () => ({ ok: true, value: 'handled' })])) as unknown as CallHandlers
  const disposeSpy = vi.fn(dispose)
  const createServices = vi.fn(async (i: HostIntegration): Promise<BosunServices> => {
    integration.value = i
    return { handlers, dispose: disposeSpy }
  })
  return { integration, createServices, dispose: disposeSpy }
}

beforeEach(() => fake.reset())
afterEach(() => vi.useRealTimers())

describe('runElectronApp', () => {
  it('builds the services for the electron host, opens the window and answers IPC from it', async () => {
    const stub = stubServices()
    const app = await runElectronApp({ createServices: stub.createServices, env: { BOSUN_HOME: '/tmp/bosun-home' }, log: createMemoryLogger() })
    expect(app?.home).toBe('/tmp/bosun-home')
    expect(stub.integration.value).toMatchObject({ home: '/tmp/bosun-home', host: 'electron', appVersion: '0.1.0-test' })
    expect(fake.windows).toHaveLength(1)
    const window = fake.windows[0]!
    expect(window.options.webPreferences).toMatchObject({ preload: '/fake/app/out/preload/index.cjs' })
    expect(await fake.invoke(callChannel('appInfo'), invokeEvent(window.webContents), undefined)).toEqual({ ok: true, value: 'handled' })
    stub.integration.value!.events.emit('focusRequest', { requestId: 'r1' })
    expect(window.webContents.sent).toHaveLength(1)
  })

  it('when the services cannot start (another Bosun on this home), says why in a native error box before failing', async () => {
    const createServices = vi.fn(async (): Promise<BosunServices> => {
      throw new Error('Another Bosun is using /tmp/bosun-home: the browser host (npm run start:web), pid 42.')
    })
    await expect(runElectronApp({ createServices, env: { BOSUN_HOME: '/tmp/bosun-home' }, log: createMemoryLogger() })).rejects.toThrow('Another Bosun')
    expect(fake.errorBoxes).toEqual([{ title: 'Bosun could not start', content: 'Another Bosun is using /tmp/bosun-home: the browser host (npm run start:web), pid 42.' }])
    expect(fake.windows).toHaveLength(0)
  })

  it('starts the history thread for the home before Electron is ready, and hands it to the services', async () => {
    const stub = stubServices()
    const thread = { home: '/tmp/bosun-home' } as unknown as WorkerHistoryStore
    const order: string[] = []
    const startHistoryThread = vi.fn((home: string) => {
      order.push(`thread ${home}`)
      return thread
    })
    const ready = fake.app.whenReady.bind(fake.app)
    vi.spyOn(fake.app, 'whenReady').mockImplementation(() => {
      order.push('whenReady')
      return ready()
    })
    await runElectronApp({ createServices: stub.createServices, startHistoryThread, env: { BOSUN_HOME: '/tmp/bosun-home' }, log: createMemoryLogger() })
    expect(order).toEqual(['thread /tmp/bosun-home', 'whenReady'])
    expect(stub.integration.value?.historyThread).toBe(thread)
  })

  it("uses Electron's userData without BOSUN_HOME", async () => {
    const stub = stubServices()
    await runElectronApp({ createServices: stub.createServices, env: {}, log: createMemoryLogger() })
    expect(stub.integration.value?.home).toBe('/fake/userData')
  })

  it('quits at once when another instance holds the lock, and a second instance focuses the first', async () => {
    fake.singleInstanceLock = false
    const stub = stubServices()
    const startHistoryThread = vi.fn(() => undefined)
    expect(await runElectronApp({ createServices: stub.createServices, startHistoryThread, env: {}, log: createMemoryLogger() })).toBeUndefined()
    expect(stub.createServices).not.toHaveBeenCalled()
    expect(startHistoryThread).not.toHaveBeenCalled()
    expect(fake.app.quitCalls).toBe(1)

    fake.reset()
    await runElectronApp({ createServices: stubServices().createServices, env: {}, log: createMemoryLogger() })
    const window = fake.windows[0]!
    window.minimized = true
    fake.app.emit('second-instance', fakeEvent(), [], '/')
    expect(window.minimized).toBe(false)
    expect(window.focusCalls).toBe(1)
  })

  it('holds the first quit until the services are disposed, then quits', async () => {
    const disposed = new Deferred<void>()
    const stub = stubServices(() => disposed.promise)
    await runElectronApp({ createServices: stub.createServices, env: {}, log: createMemoryLogger() })
    fake.app.quit()
    expect(stub.dispose).toHaveBeenCalledTimes(1)
    expect(fake.app.quitted).toBe(false)
    fake.app.quit()
    expect(stub.dispose).toHaveBeenCalledTimes(1)
    disposed.resolve()
    await vi.waitFor(() => expect(fake.app.quitted).toBe(true))
    expect(fake.ipcHandlers.size).toBe(0)
  })

  it('quits anyway when disposing overruns the deadline', async () => {
    vi.useFakeTimers()
    const log = createMemoryLogger()
    const stub = stubServices(() => new Promise<void>(() => undefined))
    await runElectronApp({ createServices: stub.createServices, env: {}, log, quitDeadlineMs: 1000 })
    fake.app.quit()
    await vi.advanceTimersByTimeAsync(999)
    expect(fake.app.quitted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(fake.app.quitted).toBe(true)
    expect(log.lines.some((l) => l.includes('did not dispose within 1000 ms'))).toBe(true)
  })
})

describe('shell.openExternal is reachable only through the chokepoint', () => {
  it('the integration hands it on; a URL the chokepoint refuses never reaches it', async () => {
    const stub = stubServices()
    await runElectronApp({ createServices: stub.createServices, env: {}, log: createMemoryLogger() })
    const opener = createExternalOpener(stub.integration.value!.openExternal)
    expect(fake.openedExternally).toEqual([])

    // Not offered, offered but different, and offered yet unsafe: refused, never opened.
    expect((await opener.openAfterConsent({ elicitationRequestId: 'e1', url: 'https://example.com/' })).ok).toBe(false)
    opener.offer('e1', 'https://example.com/login')
    expect((await opener.openAfterConsent({ elicitationRequestId: 'e1', url: 'https://evil.example/' })).ok).toBe(false)
    opener.offer('e2', 'javascript:alert(1)')
    expect((await opener.openAfterConsent({ elicitationRequestId: 'e2', url: 'javascript:alert(1)' })).ok).toBe(false)
    expect(fake.openedExternally).toEqual([])

    expect((await opener.openAfterConsent({ elicitationRequestId: 'e1', url: 'https://example.com/login' })).ok).toBe(true)
    expect(fake.openedExternally).toEqual(['https://example.com/login'])
  })

  it('no other code calls openExternal or reaches electron.shell, in any spelling', () => {
    const repo = join(__dirname, '../../..')
    const files: { path: string; text: string }[] = []
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const path = join(dir, entry)
        if (statSync(path).isDirectory()) walk(path)
        else if (/\.(c|m)?tsx?$/.test(entry)) files.push({ path: relative(repo, path), text: readFileSync(path, 'utf8') })
      }
    }
    for (const dir of ['main', 'preload', 'renderer']) walk(join(repo, dir))
    expect(files.length).toBeGreaterThan(50)
    const offenders = (pattern: RegExp) => files.filter((f) => pattern.test(f.text)).map((f) => f.path)

    // A call, optional call or computed access: `x.openExternal(…)`, `openExternal?.(…)`, `x['openExternal']`.
    const calls = /\bopenExternal\s*(\?\.)?\s*\(|\[\s*['"`]openExternal['"`]\s*\]/
    // `shell` itself: a named import, the whole module (namespace, default or require), or `electron.shell`.
    const shellAccess = new RegExp(
      [
        /import\s*\{[^}]*\bshell\b[^}]*\}\s*from\s*['"]electron['"]/.source,
        /import\s+(\*\s+as\s+)?\w+\s*(,\s*\{[^}]*\})?\s*from\s*['"]electron['"]/.source,
        /require\(\s*['"]electron['"]\s*\)/.source,
        /import\(\s*['"]electron['"]\s*\)/.source,
        /\belectron\s*\.\s*shell\b/.source,
      ].join('|'),
    )
    // main/shell/app.ts puts it into HostIntegration.openExternal, which the composition root gives to createExternalOpener.
    expect(offenders(calls)).toEqual(['main/shell/app.ts'])
    expect(offenders(shellAccess)).toEqual(['main/shell/app.ts'])
    // The patterns catch what they are meant to (a scan that matches nothing proves nothing).
    for (const sample of ["shell.openExternal(u)", "s?.openExternal?.(u)", "shell['openExternal'](u)"]) expect(calls.test(sample)).toBe(true)
    for (const sample of ["import * as electron from 'electron'", "import electron from 'electron'", "const e = require('electron')", "electron.shell", "import { app, shell } from 'electron'"]) {
      expect(shellAccess.test(sample)).toBe(true)
    }
    expect(calls.test('openExternal?: (url: string) => Promise<void>')).toBe(false)
    expect(shellAccess.test("import { app, type BrowserWindow } from 'electron'")).toBe(false)
  })
})
