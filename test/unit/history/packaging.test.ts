/**
 * The history's worker thread in the packaged app: a worker cannot start a script inside app.asar, so the
 * build emits it (and the chunks it imports) as ES modules that electron-builder keeps outside the archive,
 * and the store starts that unpacked copy. When it cannot start at all, history runs on main's thread and
 * says so.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import viteConfig from '../../../electron.vite.config'
import { openHistoryStore, WORKER_BUNDLE, workerEntry, WorkerHistoryStore } from '../../../main/history/worker-history-store'

const require = createRequire(import.meta.url)
// Both come with electron-builder (js-yaml reads its config, minimatch matches asarUnpack): only tests use them.
const yaml = require('js-yaml') as { load(text: string): unknown }
const { minimatch } = require('minimatch') as { minimatch(path: string, pattern: string, options?: { dot?: boolean }): boolean }
const builder = yaml.load(readFileSync(join(__dirname, '../../../electron-builder.yml'), 'utf8')) as { asarUnpack: string[]; files: string[] }

type Output = { entryFileNames: (chunk: { name: string }) => string; chunkFileNames: string }
const mainBuild = (viteConfig as { main: { build: { outDir: string; rollupOptions: { output: Output } } } }).main.build
const unpacked = (path: string) => builder.asarUnpack.some((pattern) => minimatch(path, pattern, { dot: true }))

const homes: string[] = []
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true })
})

describe('the history worker in the packaged app', () => {
  it('starts the copy in app.asar.unpacked when the main bundle runs from app.asar', () => {
    const index = 'file:///opt/Bosun/resources/app.asar/out/main/index.js'
    const seen: string[] = []
    const entry = workerEntry(index, (path) => (seen.push(path), true))
    expect(entry.url.href).toBe(`file:///opt/Bosun/resources/app.asar.unpacked/out/main/${WORKER_BUNDLE}`)
    expect(seen).toEqual([`/opt/Bosun/resources/app.asar.unpacked/out/main/${WORKER_BUNDLE}`])
    expect(entry.preload).toEqual([])
    // A build packed without it: the path inside the archive (Electron may still manage), never a made-up one.
    expect(workerEntry(index, () => false).url.href).toBe(`file:///opt/Bosun/resources/app.asar/out/main/${WORKER_BUNDLE}`)
    // Not packaged (electron-vite preview, out/ on disk): beside index.js.
    expect(workerEntry('file:///home/me/bosun/out/main/index.js', () => true).url.href).toBe(`file:///home/me/bosun/out/main/${WORKER_BUNDLE}`)
  })

  it('builds the worker and its chunks as .mjs, and electron-builder unpacks exactly those (and better-sqlite3)', () => {
    const { entryFileNames, chunkFileNames } = mainBuild.rollupOptions.output
    expect(mainBuild.outDir).toBe('out/main')
    const name = (pattern: string, chunk: string, hash = '') => pattern.replace('[name]', chunk).replace('[hash]', hash)
    const worker = `out/main/${name(entryFileNames({ name: 'history-worker' }), 'history-worker')}`
    expect(worker).toBe(`out/main/${WORKER_BUNDLE}`)
    const chunk = `out/main/${name(chunkFileNames, 'sqlite-history-store', 'CBaNlMC3')}`
    expect(chunk).toMatch(/\.mjs$/)
    expect(unpacked(worker)).toBe(true)
    expect(unpacked(chunk)).toBe(true)
    expect(unpacked('node_modules/better-sqlite3/build/Release/better_sqlite3.node')).toBe(true)
    expect(unpacked('node_modules/better-sqlite3/lib/database.js')).toBe(true)
    // The rest of main stays in the archive (integrity-checked).
    expect(name(entryFileNames({ name: 'index' }), 'index')).toBe('index.js')
    expect(unpacked('out/main/index.js')).toBe(false)
    expect(unpacked('out/renderer/index.html')).toBe(false)
    expect(builder.files).toContain('out/**')
  })

  it('passes the worker only the loader it needs under tsx, never the process’s own flags (a worker refuses --expose-gc)', () => {
    const entry = workerEntry(pathToFileURL(join(__dirname, '../../../main/history/worker-history-store.ts')).href)
    expect(entry.url.pathname).toMatch(/main\/history\/history-worker\.ts$/)
    expect(entry.preload).toEqual([expect.stringMatching(/^file:.*tsx/)])
  })

  it('falls back to main’s thread when the worker cannot start, and says so', () => {
    const home = mkdtempSync(join(tmpdir(), 'bosun-history-packaging-'))
    homes.push(home)
    const missing = { url: pathToFileURL(join(home, 'app.asar', 'out', 'main', WORKER_BUNDLE)), preload: [] }
    const { store, problem } = openHistoryStore(home, { entry: missing })
    try {
      expect(store).not.toBeInstanceOf(WorkerHistoryStore)
      expect(store.file).toBe(join(home, 'history.sqlite'))
      expect(problem).toMatch(/History is written on Bosun's main thread: its own thread could not start \(.*history-worker\.mjs is missing\)/)
      void store.write([{ session: { sessionId: 'a/s1', agentId: 'a', acpSessionId: 's1', cwd: '/w', title: 'Kept', createdAt: 1, updatedAt: 2, protocolVersion: 1, capabilities: null, turnState: 'idle', state: '{}' }, entries: [] }])
      expect(store.list().map((s) => s.title)).toEqual(['Kept'])
    } finally {
      store.dispose()
    }
  })
})
