/**
 * The app's fields in Chromium with its styles: a placeholder is text a person reads to know what to type, so it has
 * WCAG AA contrast (4.5:1) on the backgrounds fields sit on, light and dark (Chromium's own grey was 3.9:1 on the dark
 * one); and in a high-contrast mode, which drops box shadows, the keyboard's place still has a ring (an outline).
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'

const entry = `
import { createRoot } from 'react-dom/client'
createRoot(document.getElementById('root')).render(
  <main>
    {['var(--bg)', 'var(--bg-subtle)', 'var(--bg-sidebar)'].map((background) => (
      <div key={background} className="on" style={{ background, padding: 8 }}>
        <input className="input" placeholder="Search sessions" />
        <textarea className="composer-input" placeholder="Message Claude" />
      </div>
    ))}
    <button type="button" className="button">Save</button>
  </main>,
)
`

const harness = browserHarness(entry)
const styles = readFileSync('renderer/styles/app.css', 'utf8')

/** Each field's placeholder contrast on its own background, or its row's where it has none (the message box). */
const placeholderContrasts = `(() => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number)
  const lum = (c) => { const [r, g, b] = rgb(c).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4 }); return 0.2126 * r + 0.7152 * g + 0.0722 * b }
  return Array.from(document.querySelectorAll('.on')).flatMap((row) => Array.from(row.children).map((field) => {
    const own = getComputedStyle(field).backgroundColor
    const a = lum(getComputedStyle(field, '::placeholder').color), b = lum(own.endsWith(', 0)') ? getComputedStyle(row).backgroundColor : own)
    return Math.round(((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)) * 100) / 100
  }))
})()`

describe('fields in Chromium', { timeout: 30_000 }, () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`gives placeholders AA contrast on every background a field sits on (${colorScheme})`, async () => {
      const page = await harness.open({ styles })
      try {
        await page.emulateMedia({ colorScheme })
        const ratios = (await page.evaluate(placeholderContrasts)) as number[]
        expect(ratios).toHaveLength(6)
        for (const ratio of ratios) expect(ratio).toBeGreaterThanOrEqual(4.5)
        expect(page.errors).toEqual([])
      } finally {
        await page.close()
      }
    })
  }

  it('rings the focused control with an outline in a high-contrast mode (its box shadow is dropped there)', async () => {
    const page = await harness.open({ styles })
    try {
      await page.emulateMedia({ forcedColors: 'active' })
      await page.keyboard.press('Tab')
      const ring = await page.evaluate(() => {
        const style = getComputedStyle(document.activeElement!)
        return { tag: document.activeElement!.tagName, outline: style.outlineStyle, width: style.outlineWidth }
      })
      expect(ring).toEqual({ tag: 'INPUT', outline: 'solid', width: '2px' })
    } finally {
      await page.close()
    }
  })
})
