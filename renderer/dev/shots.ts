/**
 * What both preview screenshot scripts share: start a preview's vite server, open each shot in Debian's
 * Chromium in light then dark, run its action, write the PNG and list what the pages complained about.
 */
import { createServer } from 'vite'
import { chromium, type Page } from 'playwright'

export interface Shot {
  name: string
  /** What to do on the ready page before the picture. */
  act?: (page: Page) => Promise<void>
  width?: number
  height?: number
}

export interface ShotRun<S extends Shot> {
  /** The preview's vite config (its port is the one `url` names). */
  configFile: string
  shots: readonly S[]
  url: (shot: S) => string
  /** Resolves once the page is ready for the shot's action. */
  ready: (page: Page) => Promise<void>
  /** Where the picture goes, e.g. `/tmp/ui-<name>-<scheme>.png`. */
  file: (shot: S, scheme: 'light' | 'dark') => string
  /** A failed action is listed among the problems and the shot taken anyway (else it ends the run). */
  keepGoing?: boolean
}

/** Takes the shots named on the command line, or all of them. */
export async function takeScreenshots<S extends Shot>(run: ShotRun<S>): Promise<void> {
  const only = process.argv.slice(2)
  const server = await createServer({ configFile: run.configFile })
  await server.listen()
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  })
  const problems: string[] = []
  try {
    for (const scheme of ['light', 'dark'] as const) {
      for (const shot of run.shots.filter((s) => only.length === 0 || only.includes(s.name))) {
        const page = await browser.newPage({ colorScheme: scheme, viewport: { width: shot.width ?? 1360, height: shot.height ?? 860 } })
        page.on('console', (m) => m.type() === 'error' && !/frame-ancestors|404/.test(m.text()) && problems.push(`${shot.name}: ${m.text()}`))
        page.on('pageerror', (e) => problems.push(`${shot.name}: ${e.message}`))
        await page.goto(run.url(shot))
        await run.ready(page)
        try {
          await shot.act?.(page)
        } catch (e) {
          if (!run.keepGoing) throw e
          problems.push(`${shot.name}: ${(e as Error).message.split('\n')[0]}`)
        }
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
        const file = run.file(shot, scheme)
        await page.screenshot({ path: file })
        console.log(file)
        await page.close()
      }
    }
  } finally {
    await browser.close()
    await server.close()
  }
  if (problems.length) console.log('page problems:\n' + problems.join('\n'))
}
