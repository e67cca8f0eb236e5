/**
 * How the page opens tabs: every `window.open(url, target, features)` call is recorded in the page (and
 * still made), so a test can check the browser host passes `noopener`.
 */
import type { Page } from 'playwright'

/** Installs the recorder; call before the app loads (launchApp's `beforeLoad`). */
export async function recordOpenedTabs(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __opened: string[][]; open: typeof window.open }
    const original = window.open.bind(window)
    w.__opened = []
    w.open = (url?: string | URL, target?: string, features?: string) => {
      w.__opened.push([String(url), String(target), String(features)])
      return original(url, target, features)
    }
  })
}

/** The `[url, target, features]` of each `window.open` call so far. */
export function openedTabs(page: Page): Promise<string[][]> {
  return page.evaluate(() => (window as unknown as { __opened: string[][] }).__opened)
}
