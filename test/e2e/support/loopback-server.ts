/**
 * A loopback HTTP server that counts every request, so a test can prove that nothing reached a URL before
 * the person consented (and that exactly the expected request arrived after). Plus a copy of a scenario
 * with `__LOOPBACK__` replaced by the server's origin (the port is random).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { scenarioPath } from '../../agents/command'
import { lateBound } from './late-bound'

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  origin: string
  /** Every request so far, as `METHOD /path?query`, in arrival order. */
  readonly hits: readonly string[]
  /** Resolves with the first request (past or future) whose path starts with `pathPrefix`. */
  waitForHit(pathPrefix: string): Promise<string>
  close(): Promise<void>
}

export async function startLoopbackServer(): Promise<LoopbackServer> {
  const hits: string[] = []
  const waiters: { prefix: string; resolve: (hit: string) => void }[] = []
  const server: Server = createServer((req, res) => {
    const hit = `${req.method} ${req.url}`
    hits.push(hit)
    for (const w of [...waiters]) {
      if (req.url?.startsWith(w.prefix)) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve(hit)
      }
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', connection: 'close' })
    res.end('<!doctype html><title>loopback</title><p>ok</p>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    waitForHit(prefix) {
      const found = hits.find((h) => h.split(' ')[1]?.startsWith(prefix))
      if (found) return Promise.resolve(found)
      return new Promise((resolve) => waiters.push({ prefix, resolve }))
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Writes `test/fixtures/scenarios/<name>.json` with `__LOOPBACK__` replaced; returns its path and a cleanup. */
export function scenarioWithOrigin(name: string, origin: string): { path: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-scenario-'))
  const path = join(dir, `${name}.json`)
  writeFileSync(path, readFileSync(scenarioPath(name), 'utf8').replaceAll('__LOOPBACK__', origin))
  return { path, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

/**
 * A loopback server and the scenario `name` pointing at it, for the tests of a file: made before them, removed
 * after (the app that uses the scenario, launched by a later `useApp`, is closed first).
 */
export function useLoopbackScenario(name: string): { server: LoopbackServer; scenario: { readonly path: string } } {
  let made: { server: LoopbackServer; scenario: { path: string; cleanup: () => void } } | undefined
  beforeAll(async () => {
    const server = await startLoopbackServer()
    made = { server, scenario: scenarioWithOrigin(name, server.origin) }
  })
  afterAll(async () => {
    await made?.server.close()
    made?.scenario.cleanup()
    made = undefined
  })
  const current = () => {
    if (!made) throw new Error('The loopback server runs from the beforeAll of useLoopbackScenario to its afterAll')
    return made
  }
  return { server: lateBound(() => current().server), scenario: lateBound(() => current().scenario) }
}
