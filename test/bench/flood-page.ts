/**
 * What the two browser-host benches share (`browser-worker.ts`, `history-open-worker.ts`): a home whose one
 * agent is the child-process flood agent, the web host on it, Debian's Chromium with a probe installed before
 * the app loads, and everything closed and removed afterwards, whatever happened.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Page } from 'playwright'
import { createBosunServices } from '../../main/app/create-services'
import { startWebHost } from '../../main/web/server'
import { chromiumArgs, chromiumPath, rendererDir } from '../e2e/support/harness'
import { floodAgentCommand } from './flood-agent-command'

export interface FloodPageOptions {
  /** Updates the flood agent sends on a `flood` prompt. */
  count: number
  agentName: string
  /** Runs in the page before the app (serialized with `toString`: it must not close over anything). */
  probe: () => void
  /** Fills the home before the host starts on it (a stored history, say). */
  prepare?: (home: string) => void
}

export async function withFloodPage<T>(options: FloodPageOptions, use: (page: Page, home: string) => Promise<T>): Promise<T> {
  if (!existsSync(join(rendererDir, 'index.html'))) throw new Error(`the renderer is not built (${rendererDir}): run \`npx electron-vite build\``)
  const cleanups: (() => Promise<unknown> | void)[] = []
  try {
    const home = mkdtempSync(join(tmpdir(), 'bosun-bench-'))
    cleanups.push(() => rmSync(home, { recursive: true, force: true }))
    const { command, args } = floodAgentCommand(options.count)
    writeFileSync(join(home, 'agents.json'), JSON.stringify({ version: 1, agents: [{ id: 'flood', name: options.agentName, command, args, env: {}, secretEnv: [], defaultCwd: home }] }))
    options.prepare?.(home)
    const host = await startWebHost({ port: 0, home, rendererDir, createServices: createBosunServices, appVersion: '0.0.0-bench' })
    cleanups.push(() => host.dispose())
    const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true })
    cleanups.push(() => browser.close().catch(() => {}))
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    page.on('pageerror', (error) => process.stderr.write(`[page error] ${error.message}\n`))
    // tsx compiles with keepNames: functions sent to the page call its `__name` helper, which the page lacks.
    await page.addInitScript({ content: `globalThis.__name = (fn) => fn;\n(${options.probe.toString()})()` })
    await page.goto(host.url)
    return await use(page, home)
  } finally {
    // Browser, then host, then home.
    for (const cleanup of cleanups.reverse()) await cleanup()
  }
}
