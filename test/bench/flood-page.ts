/**
 * What the two browser-host benches share (`browser-worker.ts`, `history-open-worker.ts`): a home whose one
 * agent is the child-process flood agent, the web host on it, Debian's Chromium with a probe installed before
 * the app loads, and everything closed and removed afterwards, whatever happened.
 *
 * The host is the built one (`out/web/web.mjs`, what `npm run start:web` runs) in a process of its own, as a
 * person runs it: not the TypeScript sources under tsx, and not sharing its thread with Playwright's client.
 * BENCH_PROFILE=<dir>: the host writes a CPU profile of its main thread there when it stops (`--cpu-prof`).
 * BENCH_HOST_BUNDLE=<file>: another build's `web.mjs` (an earlier commit's, built in a worktree), for A/B runs
 * through the same harness.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { once } from 'node:events'
import { chromium, type Page } from 'playwright'
import { URL_LINE_PREFIX } from '../../main/web/host-env'
import { chromiumArgs, chromiumPath, repoRoot } from '../e2e/support/harness'
import { lineStartingWith } from '../support/process-output'
import { floodAgentCommand } from './flood-agent-command'

const hostBundle = process.env.BENCH_HOST_BUNDLE ?? join(repoRoot, 'out', 'web', 'web.mjs')

/** The host's process, read from /proc (Linux): its CPU time (every thread, ms) and its resident memory (MiB). */
export interface HostProcess {
  pid: number
  /** CPU time (ms, every thread) of the processes the host started and that still run: the agents. */
  childrenCpuMs(): number
  /** The address the host printed (with its key): another window of the app opens it. */
  url: string
  cpuMs(): number
  rssMiB(): { rss: number; max: number }
}

function hostProcess(pid: number, url: string): HostProcess {
  const ticksPerMs = 100 / 1000 // USER_HZ is 100 on Linux
  const cpuOf = (process: number) => {
    // Fields after the command's closing parenthesis: state is the 1st, utime the 12th, stime the 13th.
    const fields = readFileSync(`/proc/${process}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) / ticksPerMs
  }
  const children = (process: number): number[] =>
    readdirSync(`/proc/${process}/task`).flatMap((task) => readFileSync(`/proc/${process}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number))
  const descendants = (process: number): number[] => children(process).flatMap((child) => [child, ...descendants(child)])
  return {
    pid,
    url,
    cpuMs: () => cpuOf(pid),
    childrenCpuMs() {
      let ms = 0
      for (const child of descendants(pid)) {
        try {
          ms += cpuOf(child)
        } catch {
          // Ended between the listing and the read.
        }
      }
      return ms
    },
    rssMiB() {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8')
      const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN)
      return { rss: kib('VmRSS') / 1024, max: kib('VmHWM') / 1024 }
    },
  }
}

export interface FloodPageOptions {
  /** Updates the flood agent sends on a `flood` prompt. */
  count: number
  agentName: string
  /** Runs in the page before the app (serialized with `toString`: it must not close over anything). */
  probe: () => void
  /** Fills the home before the host starts on it (a stored history, say). */
  prepare?: (home: string) => void
}

export async function withFloodPage<T>(options: FloodPageOptions, use: (page: Page, home: string, host: HostProcess) => Promise<T>): Promise<T> {
  if (!existsSync(hostBundle)) throw new Error(`the browser host is not built (${hostBundle}): run \`npm run build\``)
  const cleanups: (() => Promise<unknown> | void)[] = []
  try {
    const home = mkdtempSync(join(tmpdir(), 'bosun-bench-'))
    cleanups.push(() => rmSync(home, { recursive: true, force: true }))
    const { command, args } = floodAgentCommand(options.count)
    writeFileSync(join(home, 'agents.json'), JSON.stringify({ version: 1, agents: [{ id: 'flood', name: options.agentName, command, args, env: {}, secretEnv: [], defaultCwd: home }] }))
    options.prepare?.(home)
    const profileDir = process.env.BENCH_PROFILE
    const child = spawn(process.execPath, [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), hostBundle], {
      env: { ...process.env, BOSUN_HOME: home, BOSUN_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    cleanups.push(async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = once(child, 'exit')
      child.kill('SIGTERM')
      await exited
    })
    const url = await lineStartingWith(child, URL_LINE_PREFIX)
    child.stdout.resume()
    const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true })
    cleanups.push(() => browser.close().catch(() => {}))
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    page.on('pageerror', (error) => process.stderr.write(`[page error] ${error.message}\n`))
    // tsx compiles with keepNames: functions sent to the page call its `__name` helper, which the page lacks.
    await page.addInitScript({ content: `globalThis.__name = (fn) => fn;\n(${options.probe.toString()})()` })
    await page.goto(url)
    return await use(page, home, hostProcess(child.pid!, url))
  } finally {
    // Browser, then host, then home.
    for (const cleanup of cleanups.reverse()) await cleanup()
  }
}
