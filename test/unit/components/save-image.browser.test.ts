/**
 * Save image in the Electron app's mode, in Chromium: the placeholder's button asks main (`saveImage`) through the
 * wired seam, naming the image by its session and the SHA-256 of its data (never handing bytes or a path), and its
 * line says where the image went, nothing when the person cancelled, or why it was not saved. Nothing is downloaded
 * (Electron blocks downloads). The browser host's download is in large-image.browser.test.ts.
 * Screenshot: test/e2e/screenshots/save-image-electron.png.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'
import { screenshotDir } from '../../e2e/support/harness'

const entry = `
import { createRoot } from 'react-dom/client'
import { ContentBlockView } from './renderer/components/transcript/ContentBlockView'
import { defaultSeams, SessionSeamsProvider } from './renderer/components/common/seams'
import { createWiredSeams } from './renderer/screens/wiring'

const be32 = (n) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]
const ascii = (t) => [...t].map((c) => c.charCodeAt(0))
const huge = btoa(String.fromCharCode(0x89, ...ascii('PNG\\r\\n\\x1a\\n'), ...be32(13), ...ascii('IHDR'), ...be32(20000), ...be32(20000), 8, 6, 0, 0, 0, 0, 0, 0, 0))
window.huge = huge
// Main's side, faked: each call is recorded and answered with what the test puts in window.answer.
window.asked = []
const api = new Proxy({}, { get: (_, name) => name === 'saveImage' ? async (arg) => (window.asked.push(arg), window.answer) : undefined })
const wired = createWiredSeams(api)
// As App.tsx (host 'electron') and the session screen bind it: no download; main saves this session's image.
const seams = { ...defaultSeams, ...wired, onSaveImage: (image) => wired.onSaveSessionImage('agent/s1', image) }
createRoot(document.getElementById('root')).render(
  <SessionSeamsProvider value={seams}>
    <div style={{ padding: 16 }}>
      <ContentBlockView markdown={false} block={{ type: 'image', mimeType: 'image/png', data: huge }} />
    </div>
  </SessionSeamsProvider>,
)
`

const harness = browserHarness(entry)
const styles = readFileSync('renderer/styles/app.css', 'utf8')

describe('Save image in the Electron app', { timeout: 30_000 }, () => {
  it('asks main by session and hash, and says where the image went, nothing on cancel, or why not', async () => {
    const page = await harness.open({ viewport: { width: 720, height: 160 }, styles })
    const downloads: unknown[] = []
    page.on('download', (d) => downloads.push(d))
    try {
      const button = page.getByRole('button', { name: 'Save image' })
      const status = page.getByRole('status')
      await page.evaluate(() => Object.assign(window, { answer: { ok: true, value: { savedTo: '/home/me/Pictures/image-20000x20000.png' } } }))
      await button.click()
      await expect.poll(() => status.textContent()).toBe('Saved to /home/me/Pictures/image-20000x20000.png')
      const huge = await page.evaluate(() => (window as unknown as { huge: string }).huge)
      const asked = await page.evaluate(() => (window as unknown as { asked: unknown[] }).asked)
      expect(asked).toEqual([{ sessionId: 'agent/s1', sha256: createHash('sha256').update(huge).digest('hex') }])
      await page.screenshot({ path: join(screenshotDir, 'save-image-electron.png') })

      // Cancelled in the dialog: the line says nothing.
      await page.evaluate(() => Object.assign(window, { answer: { ok: true, value: { savedTo: null } } }))
      await button.click()
      await expect.poll(() => status.count()).toBe(0)

      // Refused by main (the session no longer holds it): the line says why.
      await page.evaluate(() => Object.assign(window, { answer: { ok: false, error: { kind: 'not-found', message: 'The session holds no such image.' } } }))
      await button.click()
      await expect.poll(() => status.textContent()).toBe('Not saved: The session holds no such image.')
      expect(downloads).toEqual([])
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })
})
