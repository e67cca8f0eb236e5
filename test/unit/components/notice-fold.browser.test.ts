/**
 * A session's long notice is folded by the lines it shows, not by its length: "Show all" came under any description
 * over 160 characters (one that fit on two lines at 1440 px had a button that showed nothing more), and never under a
 * short one of many lines (whose line breaks were joined into one). In Chromium with the app's styles, light and dark;
 * screenshots land in test/e2e/screenshots/notice-fold-<scheme>.png.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'
import { screenshotDir } from '../../e2e/support/harness'

const entry = `
import { createRoot } from 'react-dom/client'
import { Toasts } from './renderer/components/common/Toasts'

const notices = [
  // 180 characters: two lines in a wide window, more in a narrow one.
  { id: 'wide', severity: 'warning', title: 'Long but two lines', description: 'The gateway at 127.0.0.1:8811 does not support the new billing for auto mode. Nothing breaks: auto mode keeps working, and requests are billed as before.' },
  // 70 characters on six lines.
  { id: 'lines', severity: 'warning', title: 'Short lines', description: 'Checked:\\n- config\\n- network\\n- keys\\n- cache\\n- proxy' },
  { id: 'short', severity: 'error', title: 'One line', description: 'Could not reach the server.' },
]
createRoot(document.getElementById('root')).render(<Toasts notices={notices} onDismiss={() => {}} placement="session" />)
`

const harness = browserHarness(entry)
const styles = readFileSync('renderer/styles/app.css', 'utf8')

describe('a session’s notices fold by the lines they show', { timeout: 30_000 }, () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`"Show all" only where the two-line clamp hides some (${colorScheme})`, async () => {
      const page = await harness.open({ viewport: { width: 1440, height: 900 }, styles })
      try {
        await page.emulateMedia({ colorScheme })
        const toast = (title: string) => page.locator('.toast').filter({ hasText: title })
        const showAll = (title: string) => toast(title).getByRole('button', { name: 'Show all' })
        await toast('One line').waitFor()
        const lines = (title: string) =>
          toast(title)
            .locator('.toast-description')
            .evaluate((el) => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)))
        // Wide: the 180 characters fit on two lines, nothing to show; six short lines show two, the rest behind "Show all".
        await expect.poll(() => showAll('Short lines').count()).toBe(1)
        expect(await showAll('Long but two lines').count()).toBe(0)
        expect(await showAll('One line').count()).toBe(0)
        expect(await lines('Short lines')).toBe(2)
        await page.screenshot({ path: join(screenshotDir, `notice-fold-${colorScheme}-1440.png`) })
        await showAll('Short lines').click()
        await expect.poll(() => lines('Short lines')).toBe(6)
        await toast('Short lines').getByRole('button', { name: 'Show less' }).click()
        await expect.poll(() => lines('Short lines')).toBe(2)
        // Narrow: the long one takes more than two lines, and offers the rest.
        await page.setViewportSize({ width: 480, height: 700 })
        await expect.poll(() => showAll('Long but two lines').count()).toBe(1)
        expect(await lines('Long but two lines')).toBe(2)
        await page.screenshot({ path: join(screenshotDir, `notice-fold-${colorScheme}-480.png`) })
        expect(page.errors).toEqual([])
      } finally {
        await page.close()
      }
    })
  }
})
