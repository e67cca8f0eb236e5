/**
 * Images in messages, in Chromium: one whose header says it is past the pixel bound (a 20000 × 20000 PNG, a few
 * kilobytes of base64) is never decoded, a placeholder says its size instead; images Chromium itself encoded (PNG, JPEG,
 * WebP) have their size read right and are shown. Screenshots: test/e2e/screenshots/large-image-<scheme>.png.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'
import { screenshotDir } from '../../e2e/support/harness'

const entry = `
import { createRoot } from 'react-dom/client'
import { ContentBlockView } from './renderer/components/transcript/ContentBlockView'
import { imageSizeOfBase64 } from './common/image-size'

const be32 = (n) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]
const ascii = (t) => [...t].map((c) => c.charCodeAt(0))
// A PNG's signature and header only: nothing to decode, yet it says 20000 × 20000.
const huge = btoa(String.fromCharCode(0x89, ...ascii('PNG\\r\\n\\x1a\\n'), ...be32(13), ...ascii('IHDR'), ...be32(20000), ...be32(20000), 8, 6, 0, 0, 0, 0, 0, 0, 0))
const canvas = document.createElement('canvas')
canvas.width = 120
canvas.height = 80
const g = canvas.getContext('2d')
g.fillStyle = '#3a7'
g.fillRect(0, 0, 120, 80)
const encoded = ['image/png', 'image/jpeg', 'image/webp'].map((mimeType) => ({ mimeType, data: canvas.toDataURL(mimeType).split(',')[1] }))
window.huge = huge
window.readSizes = encoded.map(({ mimeType, data }) => ({ mimeType, size: imageSizeOfBase64(data) }))
createRoot(document.getElementById('root')).render(
  <div style={{ padding: 16 }}>
    <ContentBlockView markdown={false} block={{ type: 'image', mimeType: 'image/png', data: huge }} />
    <ContentBlockView markdown={false} block={{ type: 'image', mimeType: 'image/png', data: btoa('not an image, only text') }} />
    {encoded.map((image) => <ContentBlockView key={image.mimeType} markdown={false} block={{ type: 'image', ...image }} />)}
  </div>,
)
`

const harness = browserHarness(entry)
const styles = readFileSync('renderer/styles/app.css', 'utf8')

describe('images in messages, in Chromium', { timeout: 30_000 }, () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`a 20000 × 20000 PNG is a placeholder, small images are shown (${colorScheme})`, async () => {
      const page = await harness.open({ viewport: { width: 900, height: 500 }, styles })
      try {
        await page.emulateMedia({ colorScheme })
        await page.getByRole('img', { name: 'Image 20000 × 20000, too large to show' }).waitFor()
        await page.getByRole('img', { name: 'Image not shown: its size could not be read' }).waitFor()
        // Only the three small ones became <img> elements (decoded); each loaded at its size.
        await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete))
        const images = await page.evaluate(() => Array.from(document.images).map((img) => [img.naturalWidth, img.naturalHeight]))
        expect(images).toEqual([[120, 80], [120, 80], [120, 80]])
        const sizes = await page.evaluate(() => (window as unknown as { readSizes: unknown }).readSizes)
        expect(sizes).toEqual([
          { mimeType: 'image/png', size: { format: 'png', width: 120, height: 80 } },
          { mimeType: 'image/jpeg', size: { format: 'jpeg', width: 120, height: 80 } },
          { mimeType: 'image/webp', size: { format: 'webp', width: 120, height: 80 } },
        ])
        await page.screenshot({ path: join(screenshotDir, `large-image-${colorScheme}.png`) })
        expect(page.errors).toEqual([])
      } finally {
        await page.close()
      }
    })
  }

  it('an image not shown can be saved: the download is the agent’s bytes, named by its size', async () => {
    const page = await harness.open({ viewport: { width: 900, height: 500 }, styles })
    try {
      const placeholder = page.locator('.content-image-placeholder').filter({ has: page.getByRole('img', { name: 'Image 20000 × 20000, too large to show' }) })
      const [download] = await Promise.all([page.waitForEvent('download'), placeholder.getByRole('button', { name: 'Save image' }).click()])
      expect(download.suggestedFilename()).toBe('image-20000x20000.png')
      const saved = readFileSync((await download.path())!)
      const sent = await page.evaluate(() => (window as unknown as { huge: string }).huge)
      expect(saved.toString('base64')).toBe(sent)
      // The one whose size could not be read is offered too, with no size in its name.
      const unread = page.locator('.content-image-placeholder').filter({ has: page.getByRole('img', { name: 'Image not shown: its size could not be read' }) })
      const [second] = await Promise.all([page.waitForEvent('download'), unread.getByRole('button', { name: 'Save image' }).click()])
      expect(second.suggestedFilename()).toBe('image.png')
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })
})
