/**
 * A cut name in the sidebar ends at its box's edge, right before its badge or the time after it, in Chromium with the
 * app's styles: CSS's own ellipsis stopped before the first letter that did not fit whole, which left up to a letter's
 * width of blank ("WWWWWW…   [2]"), and a name cut in its middle had it before its end. A name that fits shows no
 * ellipsis. Read from the pixels of a screenshot.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { browserHarness, type HarnessPage } from '../../support/browser-bundle'

const entry = `
import { createRoot } from 'react-dom/client'

const row = (title, badge, middle = false) => (
  <li>
    <button type="button" className="session-item">
      <span className="session-item-title">{title}</span>
      {middle ? (
        <span className="session-item-meta muted"><span className="cut-line"><span className="middle-cut"><span className="middle-cut-head">{title}</span><span className="middle-cut-tail">-v2-final</span></span></span></span>
      ) : (
        <span className="session-item-meta muted"><span className="cut-line"><bdi className="cut-words-first">{title}</bdi><span className="cut-words"> · 12:35</span></span></span>
      )}
      {badge ? <span className="count-badge">2</span> : null}
    </button>
  </li>
)
createRoot(document.getElementById('root')).render(
  <nav className="sidebar" style={{ width: 263 }}>
    <ul className="session-list">
      {row('WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW', true)}
      {row('Short', true)}
      {row('WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW', false)}
      {row('WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW', false, true)}
    </ul>
  </nav>,
)
`

const harness = browserHarness(entry)
const styles = ['renderer/styles/app.css', 'renderer/components/common/middle-cut.css'].map((file) => readFileSync(file, 'utf8')).join('\n')

/** The right edge of the rightmost ink (a pixel unlike the box's background) inside each element's box, in CSS px. */
async function inkRight(page: HarnessPage, selector: string): Promise<{ boxRight: number; ink: number }[]> {
  const shot = (await page.screenshot()).toString('base64')
  return page.evaluate(
    async ([png, selector]) => {
      const image = new Image()
      image.src = `data:image/png;base64,${png}`
      await image.decode()
      const canvas = document.createElement('canvas')
      canvas.width = image.width
      canvas.height = image.height
      const g = canvas.getContext('2d')!
      g.drawImage(image, 0, 0)
      return Array.from(document.querySelectorAll(selector)).map((el) => {
        const box = el.getBoundingClientRect()
        const top = Math.ceil(box.top)
        const height = Math.floor(box.height)
        const data = g.getImageData(Math.floor(box.left), top, Math.floor(box.width), height).data
        const at = (x: number, y: number) => (y * Math.floor(box.width) + x) * 4
        // The background: the box's top-left pixel (no letter reaches it).
        const bg = [data[0]!, data[1]!, data[2]!]
        let ink = 0
        for (let x = 0; x < Math.floor(box.width); x++) {
          for (let y = 0; y < height; y++) {
            const i = at(x, y)
            if (Math.abs(data[i]! - bg[0]!) + Math.abs(data[i + 1]! - bg[1]!) + Math.abs(data[i + 2]! - bg[2]!) > 120) {
              ink = x + 1
              break
            }
          }
        }
        return { boxRight: Math.floor(box.width), ink }
      })
    },
    [shot, selector] as const,
  )
}

describe('a cut name in the sidebar', { timeout: 30_000 }, () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`ends at its box's edge, before its badge and its time (${colorScheme})`, async () => {
      const page = await harness.open({ viewport: { width: 400, height: 300 }, styles })
      try {
        await page.emulateMedia({ colorScheme })
        await page.locator('.count-badge').first().waitFor()
        // Across a letter's width of sidebar widths, so the cut lands anywhere in a letter: CSS's own ellipsis left up to 12 px.
        let widest = 0
        for (let width = 250; width <= 264; width++) {
          await page.locator('nav').evaluate((nav, w) => void ((nav as HTMLElement).style.width = `${w}px`), width)
          const [cut, short, cutNoBadge, cutLast] = await inkRight(page, '.session-item-title')
          const [meta] = await inkRight(page, '.cut-words-first')
          const [head] = await inkRight(page, '.middle-cut-head')
          widest = Math.max(widest, cut!.boxRight - cut!.ink, cutLast!.boxRight - cutLast!.ink, cutNoBadge!.boxRight - cutNoBadge!.ink, meta!.boxRight - meta!.ink, head!.boxRight - head!.ink)
          // A name that fits is not covered: its ink ends where its letters do, far from the box's end.
          expect(short!.boxRight - short!.ink).toBeGreaterThan(50)
        }
        // The ellipsis' last dot ends within 2 px of the box's end, before the badge's gap or the words after it.
        expect(widest).toBeLessThanOrEqual(2)
        expect(page.errors).toEqual([])
      } finally {
        await page.close()
      }
    })
  }
})
