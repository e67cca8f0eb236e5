/**
 * The built Electron main (`out/main/index.js`, an ES module: package.json says `"type": "module"`) links and
 * runs its first lines under Node's own ES module rules, the ones Electron's main process follows. No Electron
 * binary can be downloaded here, so the smoke test that starts the app is skipped; this one catches what would stop
 * the app before its window: an import Node cannot resolve (`vscode-jsonrpc/node` has no `exports`, only
 * `node.js` exists), a named import a CommonJS package does not provide, a chunk missing from the build.
 *
 * `electron` is replaced, through a resolve hook, by a stub that says another Bosun holds the single-instance
 * lock: the app then hands over and quits, which the stub reports. Needs the build (`npm test` builds first).
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, expect, it } from 'vitest'

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
export default { app, protocol, dialog, ipcMain, session, shell, nativeImage, BrowserWindow, Notification }
`

function runBundle(entry: string) {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-main-bundle-'))
  dirs.push(dir)
  writeFileSync(join(dir, 'electron-stub.mjs'), ELECTRON_STUB)
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `const stub = ${JSON.stringify(pathToFileURL(join(dir, 'electron-stub.mjs')).href)}
export async function resolve(specifier, context, next) {
  return specifier === 'electron' ? { url: stub, shortCircuit: true } : next(specifier, context)
}`,
  )
  writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module'\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)})\n`)
  return spawnSync(process.execPath, ['--import', pathToFileURL(join(dir, 'register.mjs')).href, entry], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, BOSUN_HOME: dir, NODE_OPTIONS: '' },
  })
}

it('the built Electron main links and starts under Node’s ES module rules (electron stubbed)', () => {
  const run = runBundle(resolve('out/main/index.js'))
  expect(run.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|does not provide an export|SyntaxError|failed to start/)
  expect(run.stdout).toContain('electron-stub: quit')
  expect(run.status).toBe(0)
})

it('the stub harness fails a bundle that imports what Node cannot resolve (the test can fail)', () => {
  const bad = join(resolve('out/main'), `.bad-import-${process.pid}.mjs`)
  writeFileSync(bad, `import { createMessageConnection } from 'vscode-jsonrpc/node'\nconsole.log(typeof createMessageConnection)\n`)
  try {
    const run = runBundle(bad)
    expect(run.status).not.toBe(0)
    expect(run.stderr).toMatch(/ERR_MODULE_NOT_FOUND/)
  } finally {
    rmSync(bad, { force: true })
  }
})
