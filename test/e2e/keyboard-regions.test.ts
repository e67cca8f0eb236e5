/**
 * F6 and Shift+F6 move the keyboard between the window's regions: the sidebar at the open session, the transcript and
 * the message box, round and back; a modal page (Settings) keeps its own keys. From the message box the sidebar took
 * about 15 Shift+Tabs. Screenshot: keyboard-regions-sidebar-light.
 */
import type { Page } from 'playwright'
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { messageBox, sendPrompt, visible, waitIdle } from './support/session-ui'

const launch = launchPerTest()

/** Where the focus is: the element's role or tag and its name. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    if (!el || el === document.body) return 'BODY'
    return `${el.getAttribute('role') ?? el.tagName.toLowerCase()} ${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}`
  })

it('F6 goes round the sidebar, the transcript and the message box, Shift+F6 back; Settings keeps its own keys', async () => {
  const { page } = await launch.session({ id: 'a', name: 'Scripted agent', scenario: 'e2e-session' }, { viewport: { width: 1280, height: 800 } })
  await sendPrompt(page, 'fix')
  await waitIdle(page)
  await messageBox(page).focus()
  expect(await focused(page)).toBe('textarea Message')

  await page.keyboard.press('F6')
  // The open session's row in the sidebar.
  await expect.poll(() => focused(page)).toMatch(/^button fix/)
  expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-current'))).toBe('page')
  await screenshot(page, 'keyboard-regions-sidebar-light')
  await page.keyboard.press('F6')
  await expect.poll(() => focused(page)).toBe('log Transcript')
  await page.keyboard.press('F6')
  await expect.poll(() => focused(page)).toBe('textarea Message')
  await page.keyboard.press('Shift+F6')
  await expect.poll(() => focused(page)).toBe('log Transcript')
  await page.keyboard.press('Shift+F6')
  await expect.poll(() => focused(page)).toMatch(/^button fix/)

  // A modal page: F6 moves nothing out of it.
  await page.keyboard.press('Control+Comma')
  const settings = await visible(page.getByRole('dialog', { name: 'Settings' }))
  await page.keyboard.press('F6')
  expect(await settings.evaluate((el) => el.contains(document.activeElement))).toBe(true)
})
