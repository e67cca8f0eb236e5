import type { Page } from 'playwright'
import { screenshot } from './harness'

/**
 * Screenshots of the window as it is, 900 and 1400 px wide (820 high), light and dark, named `<name>-<scheme>-<width>`;
 * `check` runs at each width first. Leaves the page light, 1400 px wide.
 */
export async function shootAll(page: Page, name: string, check?: () => Promise<void>): Promise<void> {
  for (const width of [900, 1400]) {
    await page.setViewportSize({ width, height: 820 })
    await check?.()
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      await screenshot(page, `${name}-${colorScheme}-${width}`)
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1400, height: 820 })
}

/**
 * Screenshots at 900 × 700 and 1440 × 900 (the two sizes the screens are checked at), light and dark, named
 * `<name>-<scheme>-<width>`; `check` runs at each size first. Leaves the page light, at 1440 × 900.
 */
export async function shootSizes(page: Page, name: string, check?: () => Promise<void>): Promise<void> {
  for (const viewport of [{ width: 900, height: 700 }, { width: 1440, height: 900 }]) {
    await page.setViewportSize(viewport)
    await check?.()
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      await screenshot(page, `${name}-${colorScheme}-${viewport.width}`)
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
}
