/**
 * Components in a real browser (Debian's Chromium through the playwright library): a TSX entry bundled
 * with esbuild (vite's own; CSS imports dropped) and mounted on a blank page's `#root`.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { build, stop as stopEsbuild } from 'esbuild'
import { chromium, type Browser, type Page } from 'playwright'
import { afterAll, beforeAll } from 'vitest'

const CHROMIUM = '/usr/bin/chromium'
const repoRoot = join(import.meta.dirname, '..', '..')

export type HarnessPage = Page & { errors: string[] }

export interface OpenOptions {
  viewport?: { width: number; height: number }
  /** Set as `location.hash` before the bundle runs. */
  hash?: string
  /** CSS added before the bundle (the bundle has none). */
  styles?: string
}

export interface BrowserHarness {
  /** A new page running the bundle; `errors` collects its uncaught errors. */
  open(options?: OpenOptions): Promise<HarnessPage>
}

/** Registers the hooks that bundle `entry` (imports resolve from the repo root) and start and stop the browser. */
export function browserHarness(entry: string): BrowserHarness {
  let browser: Browser | undefined
  let bundle = ''

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing; this test needs Debian's chromium package`)
    const result = await build({
      stdin: { contents: entry, loader: 'tsx', resolveDir: repoRoot },
      bundle: true,
      write: false,
      format: 'iife',
      jsx: 'automatic',
      loader: { '.css': 'empty' },
      define: { 'process.env.NODE_ENV': '"development"' },
      logLevel: 'silent',
    })
    bundle = result.outputFiles[0]!.text
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    })
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    // esbuild's service process (started by build) would otherwise run on until the worker ends.
    await stopEsbuild()
  })

  return {
    async open({ viewport, hash, styles } = {}) {
      if (!browser) throw new Error('browserHarness: the browser is not running (open a page inside a test)')
      const page = (await browser.newPage(viewport ? { viewport } : {})) as HarnessPage
      page.errors = []
      page.on('pageerror', (e) => page.errors.push(e.message))
      if (hash !== undefined) await page.goto(`about:blank#${hash}`)
      await page.setContent('<!doctype html><html><body><div id="root"></div></body></html>')
      if (styles !== undefined) await page.addStyleTag({ content: styles })
      await page.addScriptTag({ content: bundle })
      return page
    },
  }
}
