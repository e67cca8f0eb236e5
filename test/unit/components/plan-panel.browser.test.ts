/**
 * The plan panel in Chromium: folded in a short window, opened when the window grows, and one media query for the
 * page however often the plan renders (a stream sends a plan with each step: a query per render cost a style lookup).
 */
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'

const entry = `
import { createRoot } from 'react-dom/client'
import { flushSync } from 'react-dom'
import { PlanPanel } from './renderer/components/transcript/PlanPanel'

let queries = 0
const matchMedia = window.matchMedia.bind(window)
window.matchMedia = (query) => { queries++; return matchMedia(query) }
window.__queries = () => queries
const root = createRoot(document.getElementById('root'))
window.__plan = (n) => flushSync(() => root.render(<PlanPanel plans={[{ planId: '', type: 'items', entries: [0, 1, 2].map((i) => ({ content: 'Step ' + i + ' of ' + n, priority: 'medium', status: i < n % 3 ? 'completed' : 'pending' })) }]} />))
window.__plan(0)
`

const harness = browserHarness(entry)

describe('the plan panel in a window', { timeout: 30_000 }, () => {
  it('folds in a short window, opens when it grows, and asks the window once however often it renders', async () => {
    const page = await harness.open({ viewport: { width: 900, height: 700 } })
    try {
      const toggle = page.getByRole('button', { name: /Plan/ })
      await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false')
      await page.evaluate(() => {
        for (let n = 1; n <= 30; n++) (window as unknown as { __plan: (n: number) => void }).__plan(n)
      })
      expect(await page.evaluate(() => (window as unknown as { __queries: () => number }).__queries())).toBe(1)
      await page.setViewportSize({ width: 900, height: 1000 })
      await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true')
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })
})
