/**
 * The history row's rename field and delete question from the keyboard (UX pass): Escape leaves them and focus goes
 * back to the row's actions button, not to the page's body (where the next Tab starts over from the top).
 */
import { expect, it } from 'vitest'
import { launchPerTest } from './support/harness'
import { gone, sendPrompt, startSession, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'
const launch = launchPerTest()

it('Escape leaves the rename field and the delete question, and archiving an open session keeps its row: back to the row’s actions button', async () => {
  const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-session' })
  await sendPrompt(page, 'fix')
  await waitIdle(page)
  const history = page.getByRole('navigation', { name: 'Agents and sessions' }).getByRole('region', { name: 'History' })
  const more = await visible(history.getByRole('button', { name: 'Actions for fix' }))
  const focused = () => more.evaluate((el) => el === document.activeElement)

  await more.click()
  await history.getByRole('button', { name: 'Rename', exact: true }).click()
  const field = await visible(history.getByRole('textbox', { name: 'Session title' }))
  await page.keyboard.press('Escape')
  await gone(field)
  expect(await focused()).toBe(true)

  await more.click()
  await history.getByRole('button', { name: 'Delete…' }).click()
  const question = await visible(history.getByRole('alertdialog', { name: 'Delete fix?' }))
  await page.keyboard.press('Escape')
  await gone(question)
  expect(await focused()).toBe(true)
  expect(await history.getByRole('button', { name: /^fix/ }).count()).toBe(1)

  // Escape folds the actions away, from inside them or on the button that opened them.
  await more.click()
  await history.getByRole('button', { name: 'Export JSON' }).focus()
  await page.keyboard.press('Escape')
  await gone(history.getByRole('group', { name: 'Actions for fix' }))
  expect(await focused()).toBe(true)
  await page.keyboard.press('Enter')
  await visible(history.getByRole('group', { name: 'Actions for fix' }))
  await page.keyboard.press('Escape')
  await gone(history.getByRole('group', { name: 'Actions for fix' }))
  expect(await more.getAttribute('aria-expanded')).toBe('false')

  // Archived while open, the row stays listed: the focus goes back to its actions button.
  await more.click()
  await history.getByRole('button', { name: 'Archive', exact: true }).click()
  await expect.poll(focused).toBe(true)
})

it('archiving or deleting a row from the keyboard puts focus on the next row, else the search field, not the body', async () => {
  const app = await launch([{ id: 'scripted', name: AGENT, scenario: 'e2e-session' }])
  const { page } = app
  // Two closed sessions, "again" the newer: the history lists "again" above "fix".
  for (const prompt of ['fix', 'again']) {
    await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
    await sendPrompt(page, prompt)
    await waitIdle(page)
    await page.getByRole('button', { name: 'Close session' }).click()
    await page.getByRole('button', { name: 'Confirm close session' }).click()
    await gone(page.getByRole('main', { name: `Session ${prompt}` }))
  }
  const history = page.getByRole('navigation', { name: 'Agents and sessions' }).getByRole('region', { name: 'History' })
  const row = (title: string) => history.getByRole('button', { name: new RegExp(`^${title} `) })
  await visible(row('fix'))
  const press = async (locator: ReturnType<typeof row>) => {
    await locator.focus()
    await page.keyboard.press('Enter')
  }
  const focused = (locator: ReturnType<typeof row>) => locator.evaluate((el) => el === document.activeElement)

  await press(history.getByRole('button', { name: 'Actions for again' }))
  await press(history.getByRole('button', { name: 'Archive', exact: true }))
  await gone(row('again'))
  await expect.poll(() => focused(row('fix'))).toBe(true)

  await press(history.getByRole('button', { name: 'Actions for fix' }))
  await press(history.getByRole('button', { name: 'Delete…' }))
  await press(history.getByRole('button', { name: 'Delete', exact: true }))
  await gone(row('fix'))
  await expect.poll(() => focused(page.getByRole('searchbox', { name: 'Search sessions' }))).toBe(true)
})
