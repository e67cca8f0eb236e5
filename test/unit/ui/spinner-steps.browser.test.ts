/**
 * The spinner turns in steps, not at the display's rate: a smoothly turning spinner makes the compositor draw every
 * frame while an agent works (VS Code throttled its spinners for the same reason). Read through the Web Animations API
 * with the app's styles: the spinner's rotation is sampled at every millisecond of one turn, and it may take at most
 * 20 different angles a second, in light, dark and reduced motion.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'

const entry = `
import { createRoot } from 'react-dom/client'
createRoot(document.getElementById('root')).render(<p><span className="spinner" aria-hidden="true" /> Working…</p>)
`

const harness = browserHarness(entry)
const styles = readFileSync('renderer/styles/app.css', 'utf8')

describe('the spinner', { timeout: 30_000 }, () => {
  for (const reducedMotion of ['no-preference', 'reduce'] as const) {
    it(`turns at most 20 steps a second (${reducedMotion} motion)`, async () => {
      const page = await harness.open({ viewport: { width: 300, height: 100 }, styles })
      try {
        await page.emulateMedia({ reducedMotion })
        await page.locator('.spinner').waitFor()
        const { duration, angles } = await page.locator('.spinner').evaluate((el) => {
          const [animation] = el.getAnimations()
          if (!animation) return { duration: 0, angles: 0 }
          animation.pause()
          const duration = Number(animation.effect!.getComputedTiming().duration)
          const seen = new Set<string>()
          for (let t = 0; t < duration; t++) {
            animation.currentTime = t
            seen.add(getComputedStyle(el).transform)
          }
          return { duration, angles: seen.size }
        })
        // It does turn (a spinner that stands still says nothing), and no faster than 20 angles a second.
        expect(duration).toBeGreaterThan(0)
        expect(angles).toBeGreaterThan(4)
        expect(angles / (duration / 1000)).toBeLessThanOrEqual(20)
        expect(page.errors).toEqual([])
      } finally {
        await page.close()
      }
    })
  }
})
