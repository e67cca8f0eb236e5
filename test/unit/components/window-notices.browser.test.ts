/**
 * The window's own notices (the app's, in its top right corner) in Chromium with the app's styles, light and dark:
 * three long ones in a short 900 px window stay inside the window and scroll; they ran off its bottom edge, the last
 * one's text and Dismiss button out of reach. Screenshots land in test/e2e/screenshots/window-notices-<scheme>.png.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'
import { screenshotDir } from '../../e2e/support/harness'

const entry = `
import { createRoot } from 'react-dom/client'
import { Toasts } from './renderer/components/common/Toasts'

const long = 'The proxy at corp-proxy.example.internal:3128 refused the CONNECT request; check the proxy settings or your VPN connection and try again. '.repeat(3)
const notices = [1, 2, 3, 4].map((n) => ({ id: 'n' + n, severity: 'error', title: 'Could not save the session (' + n + ')', description: long }))
createRoot(document.getElementById('root')).render(<Toasts notices={notices} onDismiss={() => {}} />)
`

const harness = browserHarness(entry)
const styles = readFileSync('renderer/styles/app.css', 'utf8')

describe('the window’s notices in Chromium', { timeout: 30_000 }, () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`stay inside a short window and scroll to the last one (${colorScheme})`, async () => {
      const page = await harness.open({ viewport: { width: 900, height: 560 }, styles })
      try {
        await page.emulateMedia({ colorScheme })
        const region = page.getByLabel('Notices', { exact: true })
        await region.waitFor()
        const box = (await region.boundingBox())!
        expect(box.y + box.height).toBeLessThanOrEqual(560)
        const last = page.getByRole('alert').last()
        await last.getByRole('button', { name: 'Dismiss notice' }).scrollIntoViewIfNeeded()
        const card = (await last.boundingBox())!
        expect(card.y + card.height).toBeLessThanOrEqual(560)
        await page.screenshot({ path: join(screenshotDir, `window-notices-${colorScheme}.png`) })
        expect(page.errors).toEqual([])
      } finally {
        await page.close()
      }
    })
  }
})
