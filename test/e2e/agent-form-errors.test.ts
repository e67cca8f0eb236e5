/**
 * A new agent saved with its fields empty, from the keyboard, in a 900 × 600 window: the focus goes to the first field
 * it marks, shown in the middle of the page with its label (scrolled just into view, it sat flush under the page's
 * header, its label hidden).
 */
import { expect, it } from 'vitest'
import { launchPerTest } from './support/harness'
import { until, visible } from './support/session-ui'

const launch = launchPerTest()

it('a Save that fails shows the first field it marks with its label, below the header, and focuses it', async () => {
  const app = await launch([], { viewport: { width: 900, height: 600 } })
  const { page } = app
  await (await visible(page.getByRole('main', { name: 'No session' }).getByRole('button', { name: 'Set up an agent' }))).click()
  const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await dialog.getByRole('list', { name: 'Presets' }).getByRole('button', { name: /^Custom agent/ }).click()
  await dialog.getByRole('button', { name: 'Save', exact: true }).focus()
  await page.keyboard.press('Enter')
  const name = dialog.getByLabel('Name', { exact: true })
  await until(name, (el) => el === document.activeElement && el.getAttribute('aria-invalid') === 'true')
  const header = (await dialog.locator('.agents-screen-header').boundingBox())!
  const label = (await dialog.locator('label', { hasText: /^Name$/ }).boundingBox())!
  expect(label.y).toBeGreaterThanOrEqual(header.y + header.height)
})
