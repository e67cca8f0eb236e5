/**
 * The Settings and Agents pages cover the window (modal dialogs): Tab and Shift+Tab stay on the page, never on
 * the sidebar and session screen hidden behind it (UX pass: Tab past the last field of Settings walked into the
 * hidden sidebar). Escape closes the page and gives focus back to the button that opened it.
 */
import { expect, it } from 'vitest'
import { launchPerTest } from './support/harness'
import { gone, visible } from './support/session-ui'

const launch = launchPerTest()

it.each(['Settings', 'Agents'])('keeps Tab on the %s page and gives focus back to its button on Escape', async (name) => {
  const app = await launch([{ id: 'scripted', name: 'Scripted agent', scenario: 'e2e-session' }])
  const { page } = app
  const opener = page.getByRole('button', { name, exact: true })
  await opener.click()
  const dialog = await visible(page.getByRole('dialog', { name }))
  for (const key of ['Tab', 'Shift+Tab']) {
    await dialog.getByRole('heading', { name, exact: true }).focus()
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press(key)
      const escaped = await page.evaluate(() => {
        const active = document.activeElement
        if (!active || active === document.body) return null
        return active.closest('[role="dialog"][aria-modal="true"]') ? null : `${active.tagName} ${active.getAttribute('aria-label') ?? active.textContent}`
      })
      expect(escaped, `${key} #${i + 1}`).toBeNull()
    }
  }
  await page.keyboard.press('Escape')
  await gone(dialog)
  expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true)
})

it('moves focus into the agent form that Edit opens, so Escape cancels it and then closes the page', async () => {
  const app = await launch([{ id: 'scripted', name: 'Scripted agent', scenario: 'e2e-session' }])
  const { page } = app
  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await dialog.getByRole('navigation', { name: 'Agents' }).getByRole('button', { name: /^Scripted agent/ }).click()
  await (await visible(dialog.getByRole('button', { name: 'Edit', exact: true }))).click()
  const title = await visible(dialog.getByRole('heading', { name: 'Edit Scripted agent' }))
  // The Edit button went away with the overview: focus is in the form, not dropped on the page's body.
  expect(await page.evaluate(() => document.activeElement !== document.body && !!document.activeElement?.closest('form'))).toBe(true)
  await page.keyboard.press('Escape')
  await gone(title)
  await visible(dialog)
  await page.keyboard.press('Escape')
  await gone(dialog)
})
