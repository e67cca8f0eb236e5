/**
 * The built Electron main (`out/main/index.js`, an ES module: package.json says `"type": "module"`) links and
 * runs its first lines under Node's own ES module rules, the ones Electron's main process follows. No Electron
 * binary can be downloaded here, so the smoke test that starts the app is skipped; this one catches what would stop
 * the app before its window: an import Node cannot resolve (`vscode-jsonrpc/node` has no `exports`, only
 * `node.js` exists), a named import a CommonJS package does not provide, a chunk missing from the build.
 *
 * `electron` is replaced, through a resolve hook, by a stub that says another Bosun holds the single-instance
 * lock: the app then hands over and quits, which the stub reports. A second run puts the fake electron module of the
 * unit tests in its place (through tsx) and waits for the window: services, IPC handlers, the `bosun:` scheme and the
 * bundled history thread all come up from the bundle. Needs the build (`npm test` builds first).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, expect, it } from 'vitest'
import { COMPILE_CACHE_FOLDER } from '../../main/base/compile-cache'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** Every name the bundle imports from `electron`; each a do-nothing stand-in. */
const ELECTRON_STUB = `
const noop = () => {}
class Stub { constructor() {} on() { return this } once() { return this } }
export const app = {
  setPath: noop,
  on: noop,
  requestSingleInstanceLock: () => false,
  getPath: () => process.env.BOSUN_HOME,
  getVersion: () => '0.0.0-stub',
  quit: () => { process.stdout.write('electron-stub: quit\\n') },
  whenReady: () => new Promise(noop),
}
export const protocol = { registerSchemesAsPrivileged: noop, handle: noop }
export const dialog = {}
export const ipcMain = { handle: noop, on: noop }
export const session = {}
export const shell = {}
export const nativeImage = {}
export class BrowserWindow extends Stub {}
export class Notification extends Stub {}
export const Menu = { buildFromTemplate: () => ({}), setApplicationMenu: noop }
export default { app, protocol, dialog, ipcMain, session, shell, nativeImage, BrowserWindow, Notification, Menu }
`

/**
 * Runs `entry` in a Node of its own where `electron` resolves to `standIn` (module text written to a file of a
 * fresh folder, which is also BOSUN_HOME's parent); `flags` come before the hook (tsx, to load a TypeScript fake).
 */
function runWithElectron(entry: string, standIn: string, flags: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-main-bundle-'))
  dirs.push(dir)
  writeFileSync(join(dir, 'electron.mjs'), standIn)
  // Every specifier imported (ES modules) is noted in `imported.txt`, for the test of what main loads at start.
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs'
const standIn = ${JSON.stringify(pathToFileURL(join(dir, 'electron.mjs')).href)}
const noted = ${JSON.stringify(join(dir, 'imported.txt'))}
export async function resolve(specifier, context, next) {
  appendFileSync(noted, specifier + '\\n')
  return specifier === 'electron' ? { url: standIn, shortCircuit: true } : next(specifier, context)
}`,
  )
  writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module'\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)})\n`)
  const run = spawnSync(process.execPath, [...flags, '--import', pathToFileURL(join(dir, 'register.mjs')).href, entry], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, BOSUN_HOME: join(dir, 'home'), BOSUN_LOG_LEVEL: 'warn', NODE_OPTIONS: '' },
  })
  const imported = existsSync(join(dir, 'imported.txt')) ? readFileSync(join(dir, 'imported.txt'), 'utf8').split('\n').filter(Boolean) : []
  return { ...run, imported, home: join(dir, 'home') }
}

it('the built Electron main links and starts under Node’s ES module rules (electron stubbed)', () => {
  const run = runWithElectron(resolve('out/main/index.js'), ELECTRON_STUB)
  expect(run.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|does not provide an export|SyntaxError|failed to start/)
  expect(run.stdout).toContain('electron-stub: quit')
  expect(run.status).toBe(0)
})

interface SeenAtWindow {
  url: string
  handlers: number
  schemes: string[]
  /** Files in require's cache (CommonJS packages main loaded). */
  required: string[]
  /** Node's own modules loaded (`process.moduleLoadList`). */
  builtins: string[]
}

/**
 * Runs `entry` (the built main, or a file that imports it) with the fake electron module of the unit tests (TypeScript,
 * so tsx loads it) in electron's place. Once main has made its window and registered its handlers, the stand-in
 * reports what it saw and what had been loaded, and the process ends.
 */
function startWithFakeElectron(entry = resolve('out/main/index.js')) {
  const fakeModule = pathToFileURL(resolve('test/electron/fake-electron.ts')).href
  const standIn = `import { createRequire } from 'node:module'
import { fake, electronModule } from ${JSON.stringify(fakeModule)}
fake.appPath = ${JSON.stringify(resolve('.'))}
export const { app, BrowserWindow, Notification, nativeImage, session, dialog, shell, protocol, ipcMain, Menu } = electronModule
export default electronModule
const timer = setInterval(() => {
  const window = fake.windows[0]
  if (!window || !window.loadedUrl || fake.ipcHandlers.size === 0) return
  clearInterval(timer)
  const required = Object.keys(createRequire(import.meta.url).cache)
  const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length))
  process.stdout.write('electron-fake: ' + JSON.stringify({ url: window.loadedUrl, handlers: fake.ipcHandlers.size, schemes: [...fake.protocolHandlers.keys()], required, builtins }) + '\\n')
  process.exit(0)
}, 20)
`
  const run = runWithElectron(entry, standIn, ['--import', 'tsx'])
  const line = run.stdout.split('\n').find((l) => l.startsWith('electron-fake: '))
  expect(line, run.stderr).toBeDefined()
  return { run, seen: JSON.parse(line!.slice('electron-fake: '.length)) as SeenAtWindow }
}

it('the built Electron main starts whole with the fake electron module: services, the bundled history thread, the window', () => {
  const { run, seen } = startWithFakeElectron()
  expect(run.stderr).not.toMatch(/failed to start|History is off|written on Bosun's main thread|ERR_|TypeError|ReferenceError|SyntaxError/)
  expect(seen.url).toMatch(/^bosun:\/\/app\//)
  expect(seen.schemes).toContain('bosun')
  expect(seen.handlers).toBeGreaterThan(20)
  expect(run.status).toBe(0)
  // index.js turned Node's compile cache on in the home before it imported the app: its compiled code is kept there.
  const cache = join(run.home, COMPILE_CACHE_FOLDER)
  expect(readdirSync(cache, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length).toBeGreaterThan(0)
})

/** What main loads only with the feature that needs it: terminals, archives of registry installs, form checks, downloads. */
const LOADED_LATER = { packages: ['@lydell/node-pty', 'tar', 'yauzl', 'ajv', 'ajv-formats'], builtins: ['http', 'https', '_http_client', '_http_server'] }

/** Which of {@link LOADED_LATER} were loaded by the time the window showed. */
function loadedEarly(seen: SeenAtWindow, imported: string[]): string[] {
  const inNodeModules = (name: string) => (file: string) => file.includes(`/node_modules/${name}/`)
  return [
    ...LOADED_LATER.packages.filter((name) => imported.includes(name) || seen.required.some(inNodeModules(name))),
    ...LOADED_LATER.builtins.filter((name) => seen.builtins.includes(name)),
  ]
}

it('the built Electron main shows its window without loading terminals, archive, form-check or http code', () => {
  const { run, seen } = startWithFakeElectron()
  expect(run.status).toBe(0)
  // The harness sees what is loaded: vscode-jsonrpc (every agent's connection) is.
  expect(seen.required.some((file) => file.includes('/node_modules/vscode-jsonrpc/'))).toBe(true)
  expect(loadedEarly(seen, run.imported)).toEqual([])
})

it('the check of what main loads at start fails when a heavy module is imported up front (the test can fail)', () => {
  const eager = join(resolve('out/main'), `.eager-import-${process.pid}.mjs`)
  writeFileSync(eager, `import 'node:http'\nimport '@lydell/node-pty'\nimport 'tar'\nawait import('./index.js')\n`)
  try {
    const { run, seen } = startWithFakeElectron(eager)
    expect(run.status).toBe(0)
    expect(loadedEarly(seen, run.imported)).toEqual(expect.arrayContaining(['@lydell/node-pty', 'tar', 'http']))
  } finally {
    rmSync(eager, { force: true })
  }
})

it('the stub harness fails a bundle that imports what Node cannot resolve (the test can fail)', () => {
  const bad = join(resolve('out/main'), `.bad-import-${process.pid}.mjs`)
  writeFileSync(bad, `import { createMessageConnection } from 'vscode-jsonrpc/node'\nconsole.log(typeof createMessageConnection)\n`)
  try {
    const run = runWithElectron(bad, ELECTRON_STUB)
    expect(run.status).not.toBe(0)
    expect(run.stderr).toMatch(/ERR_MODULE_NOT_FOUND/)
  } finally {
    rmSync(bad, { force: true })
  }
})
