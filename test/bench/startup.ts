/**
 * Start-up of the built browser host (`out/web/web.mjs`, plain Node): from spawning it to the `Bosun web host: <url>`
 * line, then its RSS 1.5 s later (the history thread up, nothing else to do). Each run starts it twice on a new home:
 * the first start, then a later one (the home as the first left it: its history file, Node's compiled code). The
 * median of BENCH_STARTUP_RUNS (default 7) runs. Needs `npm run build`.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import type { BenchSection } from './section'
import { fixed, median } from './spawn-worker'

const HOST = resolve(process.env.BENCH_WEB_HOST ?? 'out/web/web.mjs')
const URL_LINE = 'Bosun web host: '

async function startOnce(home: string): Promise<{ readyMs: number; rssMiB: number }> {
  const started = performance.now()
  const child = spawn(process.execPath, [HOST], { env: { ...process.env, BOSUN_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] })
  try {
    let err = ''
    child.stderr.setEncoding('utf8').on('data', (text: string) => (err = (err + text).slice(-2000)))
    await new Promise<void>((ready, fail) => {
      let out = ''
      child.stdout.setEncoding('utf8').on('data', (text: string) => {
        out += text
        if (out.includes(URL_LINE)) ready()
      })
      child.once('exit', (code) => fail(new Error(`the host exited ${code} before it was ready: ${err.trim()}`)))
    })
    const readyMs = performance.now() - started
    await delay(1_500)
    const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? NaN)
    return { readyMs, rssMiB: rssKiB / 1024 }
  } finally {
    const exited = new Promise((done) => child.once('close', done))
    child.kill('SIGTERM')
    await exited
  }
}

/** The first start on a new home, then a later one on the same home. */
async function startTwice(): Promise<{ first: { readyMs: number; rssMiB: number }; later: { readyMs: number; rssMiB: number } }> {
  const home = mkdtempSync(join(tmpdir(), 'bosun-bench-start-'))
  try {
    return { first: await startOnce(home), later: await startOnce(home) }
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
}

export const startupSection: BenchSection = {
  name: 'start-up of the built web host: spawn → ready, then RSS',
  async run() {
    const runs: Awaited<ReturnType<typeof startTwice>>[] = []
    for (let i = 0; i < Number(process.env.BENCH_STARTUP_RUNS ?? 7); i++) runs.push(await startTwice())
    for (const which of ['first', 'later'] as const) {
      const ready = runs.map((r) => r[which].readyMs)
      const label = which === 'first' ? 'first start (new home)' : 'later start (same home)'
      console.log(`  ${label.padEnd(24)} ready ${fixed(median(ready)).padStart(5)} ms median of ${runs.length} (min ${fixed(Math.min(...ready))}, max ${fixed(Math.max(...ready))}); RSS 1.5 s later ${fixed(median(runs.map((r) => r[which].rssMiB)), 1).padStart(5)} MiB`)
    }
  },
}
