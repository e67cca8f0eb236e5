/**
 * `npm run start:web` runs the built browser host (`out/web/web.mjs`, vite.web.config.ts) in plain Node: no tsx.
 * It prints its URL, serves the renderer only with the token, keeps its history on its bundled thread
 * (`out/web/history-worker.mjs`), and on SIGTERM exits 0. Needs the build (`npm test` builds first).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, expect, it } from 'vitest'
import { URL_LINE_PREFIX } from '../../main/web/cli'

let child: ChildProcess | undefined
let home: string | undefined
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  child = undefined
  if (home) rmSync(home, { recursive: true, force: true })
  home = undefined
})

it('the built browser host starts in plain Node, serves the page with its token, writes its history on its thread, and stops on SIGTERM', async () => {
  const entry = resolve('out/web/web.mjs')
  expect(existsSync(entry), 'out/web/web.mjs is built by `npm run build`').toBe(true)
  home = mkdtempSync(join(tmpdir(), 'bosun-web-bundle-'))
  const started = spawn(process.execPath, [entry], { env: { ...process.env, BOSUN_HOME: home, BOSUN_PORT: '0', NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'] })
  child = started
  let stderr = ''
  started.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const url = await new Promise<string>((done, fail) => {
    const lines = createInterface({ input: started.stdout })
    lines.on('line', (line) => {
      if (!line.startsWith(URL_LINE_PREFIX)) return
      lines.close()
      done(line.slice(URL_LINE_PREFIX.length))
    })
    started.once('exit', (code) => fail(new Error(`the built host exited (${code}) before its URL line:\n${stderr}`)))
  })

  const page = await fetch(url)
  expect(page.status).toBe(200)
  expect(await page.text()).toContain(readFileSync(resolve('out/renderer/index.html'), 'utf8').match(/<title>[^<]*<\/title>/)![0])
  const withoutToken = await fetch(new URL('/', url).href)
  expect(withoutToken.status).not.toBe(200)

  // The history opened on its own thread from the bundle: no fallback to main's thread, and its file exists.
  expect(stderr).not.toMatch(/written on Bosun's main thread|History is off|ERR_/)
  expect(existsSync(join(home, 'history.sqlite'))).toBe(true)

  const exit = new Promise<number | null>((done) => started.once('exit', (code) => done(code)))
  started.kill('SIGTERM')
  expect(await exit).toBe(0)
})
