/**
 * What a person notices in the first hour, one more round (UX pass 11), in the browser host, light and dark, 900 and
 * 1400 px: the app's own notices sat over the Agents and Settings pages' controls and over the approvals inbox the
 * person opened. Screenshots: test/e2e/screenshots/ux11-*.png.
 */
import { expect, it } from 'vitest'
import type { Locator, Page } from 'playwright'
import { launchPerTest, screenshot, type E2eApp } from './support/harness'
import { agentGroup, visible } from './support/session-ui'

const launch = launchPerTest()
const AGENT = 'Scripted agent'

/** Screenshots of the window as it is, at both widths and in both themes (back to 1400 px, light). */
async function shootAll(page: Page, name: string, check?: () => Promise<void>): Promise<void> {
  for (const width of [900, 1400]) {
    await page.setViewportSize({ width, height: 820 })
    await check?.()
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      await screenshot(page, `ux11-${name}-${colorScheme}-${width}`)
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1400, height: 820 })
}

/** A notice of the app's own (as main sends when the history cannot be saved), shown before the test goes on. */
async function appNotice(app: E2eApp): Promise<Locator> {
  // The page hears main's events once it is connected: it has loaded what main has (its agents listed) by then.
  await visible(agentGroup(app.page, AGENT))
  app.emit('appNotice', {
    severity: 'warning',
    title: 'History not saved',
    description: 'The disk is full: the last 3 messages of this session are not in the history yet. Free some space; Bosun tries again.',
  })
  return visible(app.page.getByText('History not saved', { exact: true }))
}

/**
 * The controls of `within` that show in the window and are not the element at their own middle (something else sits
 * over them), by their text or name.
 */
async function coveredControls(within: Locator): Promise<string[]> {
  return within.evaluate((root) =>
    Array.from(root.querySelectorAll('button, a[href], input, select, textarea, [role="tab"]'))
      .filter((el) => {
        const box = el.getBoundingClientRect()
        if (box.width === 0 || box.height === 0 || box.bottom <= 0 || box.top >= innerHeight || box.right <= 0 || box.left >= innerWidth) return false
        const at = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
        return !at || (at !== el && !el.contains(at))
      })
      .map((el) => el.getAttribute('aria-label') ?? (el.textContent ?? '').trim()),
  )
}

it('a notice of the app’s own never covers a page that fills the window (Agents, Settings): it shows under the page’s header', async () => {
  const app = await launch([{ id: 'a', name: AGENT, scenario: 'e2e-permissions' }], { viewport: { width: 900, height: 820 } })
  const { page } = app
  const notice = await appNotice(app)
  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const agents = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await visible(agents.getByRole('heading', { name: AGENT, level: 2 }))
  const check = (dialog: Locator) => async () => {
    const close = dialog.getByRole('button', { name: 'Close', exact: true })
    const box = (await close.boundingBox())!
    expect(await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.textContent?.trim(), [box.x + box.width / 2, box.y + box.height / 2])).toBe('Close')
    expect(await coveredControls(dialog)).toEqual([])
    // The notice is the page's, still shown and still dismissable.
    expect(await dialog.getByRole('region', { name: 'Notices' }).getByText('History not saved', { exact: true }).isVisible()).toBe(true)
  }
  await check(agents)()
  await shootAll(page, 'notice-agents', check(agents))
  await agents.getByRole('button', { name: 'Close', exact: true }).click()
  await page.getByRole('button', { name: 'Settings', exact: true }).click()
  const settings = await visible(page.getByRole('dialog', { name: 'Settings' }))
  await check(settings)()
  await shootAll(page, 'notice-settings', check(settings))
  await settings.getByRole('button', { name: 'Dismiss notice' }).click()
  expect(await notice.count()).toBe(0)
})

it('the approvals inbox the person opened is not covered by a notice in the window’s corner', async () => {
  const app = await launch([{ id: 'a', name: AGENT, scenario: 'e2e-permissions' }], { viewport: { width: 900, height: 820 } })
  const { page } = app
  await appNotice(app)
  await page.getByRole('button', { name: /Approvals/ }).click()
  const inbox = await visible(page.getByRole('dialog', { name: 'Approval inbox' }))
  const check = async () => {
    const hidden = await inbox.evaluate((popover) => {
      const box = popover.getBoundingClientRect()
      // Its corners and middle, just inside its border.
      const points = [
        [box.left + 4, box.top + 4],
        [box.right - 4, box.top + 4],
        [box.left + 4, box.bottom - 4],
        [box.right - 4, box.bottom - 4],
        [box.left + box.width / 2, box.top + box.height / 2],
      ]
      return points.filter(([x, y]) => !popover.contains(document.elementFromPoint(x!, y!)))
    })
    expect(hidden).toEqual([])
  }
  await check()
  await shootAll(page, 'notice-inbox', check)
})
