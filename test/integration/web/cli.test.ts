/**
 * `npm run start:web` without the build step: `node --import tsx main/web/cli.ts` as its own process, with a
 * test BOSUN_HOME. It prints the URL line, serves the page only with the token, and on SIGTERM disposes
 * everything (the agents it started and their process groups) and exits 0.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { URL_LINE_PREFIX } from '../../../main/web/host-env'
import { createSocketClient, type SocketClient, type SocketLike } from '../../../renderer/bridge/socket-client'
import { WS_PATH } from '../../../common/wire'
import { createTestHome, type TestHome } from '../../support/bosun-home'
import { expectAllGone, fixtureAgent, isGone } from '../agents/helpers'
import { must } from '../../support/must'
import { lineStartingWith } from '../../support/process-output'

// The CLI runs from source through tsx, which compiles main/ at start: over 30 s on a loaded 2-core machine.
vi.setConfig({ testTimeout: 90_000 })

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
const PAGE = '<!doctype html><title>Bosun (cli test)</title>'

let child: ChildProcess | undefined
let client: SocketClient | undefined
let testHome: TestHome | undefined
let outDir: string | undefined
/** Agent processes and their groups' members: killed if a failing test left them behind. */
let started: number[] = []

afterEach(() => {
  for (const pid of started) if (!isGone(pid)) process.kill(pid, 'SIGKILL')
  started = []
  client?.dispose()
  client = undefined
  // Only when the test failed before the CLI exited.
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  child = undefined
  testHome?.cleanup()
  testHome = undefined
  if (outDir) rmSync(outDir, { recursive: true, force: true })
  outDir = undefined
})

function exited(process: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (process.exitCode !== null || process.signalCode !== null) return Promise.resolve({ code: process.exitCode, signal: process.signalCode })
  return new Promise((resolvePromise) => process.once('exit', (code, signal) => resolvePromise({ code, signal })))
}

/** The live members (zombies excluded) of the process group `pgid`. */
function processGroup(pgid: number): number[] {
  const members: number[] = []
  for (const name of readdirSync('/proc')) {
    const pid = Number(name)
    if (!Number.isInteger(pid)) continue
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (fields[0] !== 'Z' && Number(fields[2]) === pgid) members.push(pid)
    } catch {
      // It ended while we looked.
    }
  }
  return members
}

describe('npm run start:web (main/web/cli.ts)', () => {
  it('prints the URL, serves the page only with its token, and on SIGTERM stops its agents and exits 0', async () => {
    testHome = createTestHome([{ id: 'scripted', name: 'Scripted', scenario: 'basic' }])
    // A second agent that leaves a grandchild in its process group: when the CLI's own exit closes the agents'
    // stdin they quit by themselves, but only disposing the services (SIGTERM to each group) ends the grandchild.
    const agentsFile = join(testHome.home, 'agents.json')
    const config = JSON.parse(readFileSync(agentsFile, 'utf8')) as { agents: unknown[] }
    config.agents.push({ id: 'fixture', name: 'Fixture', command: process.execPath, args: [fixtureAgent, '--grandchild'], env: {}, secretEnv: [], defaultCwd: testHome.workspace })
    writeFileSync(agentsFile, JSON.stringify(config, null, 2))
    // A renderer build of our own, so the test does not depend on `npm run build` (BOSUN_OUT_DIR, as the e2e harness).
    outDir = mkdtempSync(join(tmpdir(), 'bosun-cli-out-'))
    mkdirSync(join(outDir, 'renderer'))
    writeFileSync(join(outDir, 'renderer', 'index.html'), PAGE)

    child = spawn(process.execPath, ['--import', 'tsx', 'main/web/cli.ts'], {
      cwd: repoRoot,
      env: { ...process.env, BOSUN_HOME: testHome.home, BOSUN_OUT_DIR: outDir, BOSUN_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const url = new URL(await lineStartingWith(child, URL_LINE_PREFIX))
    expect(url.hostname).toBe('127.0.0.1')
    expect(url.pathname).toBe('/')
    const token = url.searchParams.get('token') ?? ''
    expect(token.length).toBeGreaterThanOrEqual(32)

    // The page needs the token.
    const without = await fetch(`${url.origin}/`)
    expect(without.status).toBe(401)
    await without.arrayBuffer()
    const wrong = await fetch(`${url.origin}/?token=${encodeURIComponent(token.slice(1))}`)
    expect(wrong.status).toBe(401)
    await wrong.arrayBuffer()
    const page = await fetch(url)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(await page.text()).toBe(PAGE)

    // Start an agent through the socket, as the page would.
    client = createSocketClient({
      url: `ws://${url.host}${WS_PATH}?token=${encodeURIComponent(token)}`,
      connect: (socketUrl) => new WebSocket(socketUrl, { origin: url.origin }) as unknown as SocketLike,
    })
    const { sessionId } = must(await client.api.newSession({ agentId: 'scripted', cwd: testHome.workspace }))
    expect(must(await client.api.prompt({ sessionId, prompt: [{ type: 'text', text: 'diff' }] })).stopReason).toBe('end_turn')
    must(await client.api.restartAgent({ agentId: 'fixture' }))
    const agents = must(await client.api.getSnapshot(undefined)).agents
    expect(agents.map((view) => [view.agentId, view.status])).toEqual([
      ['scripted', 'ready'],
      ['fixture', 'ready'],
    ])
    const agentPids = agents.map((view) => view.pid!)
    // Each agent leads its own group; the fixture's holds its grandchild too (spawned before it answered initialize).
    const members = agentPids.map(processGroup)
    expect(members[0]).toEqual([agentPids[0]])
    expect(members[1]).toHaveLength(2)
    expect(members[1]).toContain(agentPids[1])
    const everyone = members.flat()
    started = everyone
    expect(everyone.filter(isGone)).toEqual([])

    const exit = exited(child)
    child.kill('SIGTERM')
    expect(await exit).toEqual({ code: 0, signal: null })
    await expectAllGone(everyone)
    expect(agentPids.flatMap(processGroup)).toEqual([])
  })
})
