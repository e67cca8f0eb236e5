/**
 * Rough responsiveness probe (not a test): streams a reply into the 10,000-entry session and scrolls through
 * it, reporting long tasks (>50 ms) seen by the page. `npx tsx renderer/dev/perf-probe.ts`
 */
import { resolve } from 'node:path'
import { createServer } from 'vite'
import { chromium } from 'playwright'

const server = await createServer({ configFile: resolve(import.meta.dirname, 'vite.config.ts') })
await server.listen()
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'] })
try {
  const page = await browser.newPage({ viewport: { width: 1360, height: 860 } })
  await page.goto('http://127.0.0.1:5199/?session=sess-claude-huge')
  await page.getByRole('log', { name: 'Transcript' }).waitFor()
  await page.evaluate(() => {
    const w = window as unknown as { longTasks: number[] }
    w.longTasks = []
    new PerformanceObserver((list) => list.getEntries().forEach((e) => w.longTasks.push(Math.round(e.duration)))).observe({ type: 'longtask', buffered: false })
  })
  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.fill('stream please')
  await composer.press('Enter')
  await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 30_000 })
  const streaming = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks.splice(0))
  const log = page.getByRole('log', { name: 'Transcript' })
  await log.hover()
  const t0 = Date.now()
  for (let i = 0; i < 60; i++) await page.mouse.wheel(0, -4000)
  const scrolling = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks.splice(0))
  const rows = await log.evaluate((el) => el.querySelectorAll('.transcript-row').length)
  console.log(JSON.stringify({ streamingLongTasksMs: streaming, scrollLongTasksMs: scrolling, scrollMs: Date.now() - t0, rowsInDom: rows }))
} finally {
  await browser.close()
  await server.close()
}
