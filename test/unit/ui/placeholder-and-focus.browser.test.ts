/**
 * The app's fields in Chromium with its styles: a placeholder is text a person reads to know what to type, so it has
 * WCAG AA contrast (4.5:1) on the backgrounds fields sit on, light and dark (Chromium's own grey was 3.9:1 on the dark
 * one), as have the inspector's kind badges on its selected row (a tint on a tint); and in a high-contrast mode,
 * which drops box shadows, the keyboard's place still has a ring (an outline).
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
    <table><tbody>
      <tr className="inspector-row" aria-selected="true">
        <td><span className="badge badge-progress">request</span></td>
        <td><span className="badge badge-ok">response</span></td>
        <td><span className="badge badge-muted">notification</span></td>
      </tr>
    </tbody></table>
  </main>,
)
`

const harness = browserHarness(entry)
const styles = ['renderer/styles/app.css', 'renderer/components/inspector/inspector.css'].map((file) => readFileSync(file, 'utf8')).join('\n')

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

/** Each badge's text contrast on what is drawn under it: its own background over its row's over the page's (tints add up). */
const badgeContrasts = `(() => {
  const parts = (c) => { const m = c.match(/[\\d.]+/g).map(Number); return { r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1 } }
  const over = (top, under) => ({ r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a), b: top.b * top.a + under.b * (1 - top.a), a: 1 })
  const lum = (c) => { const [r, g, b] = [c.r, c.g, c.b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4 }); return 0.2126 * r + 0.7152 * g + 0.0722 * b }
  return Array.from(document.querySelectorAll('.inspector-row .badge')).map((badge) => {
    const layers = []
    for (let el = badge; el; el = el.parentElement) layers.push(parts(getComputedStyle(el).backgroundColor))
    const page = parts(getComputedStyle(document.body).backgroundColor)
    const under = layers.reverse().reduce((acc, layer) => over(layer, acc), page)
    const a = lum(over(parts(getComputedStyle(badge).color), under)), b = lum(under)
    return badge.textContent + ' ' + Math.round(((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)) * 100) / 100
  })
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
        // The inspector's kind badges on its selected row (a tint on a tint).
        const badges = (await page.evaluate(badgeContrasts)) as string[]
        expect(badges).toHaveLength(3)
        for (const badge of badges) expect(Number(badge.split(' ')[1]), badge).toBeGreaterThanOrEqual(4.5)
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
