/**
 * Ctrl+, opens Settings from anywhere (as in VS Code, Zed and GitHub Desktop), and closes them again; the focus goes
 * back where it was. The Settings button says its shortcut to assistive technology (aria-keyshortcuts).
 */
import { expect, it } from 'vitest'
import { launchPerTest } from './support/harness'
import { gone, messageBox, startSession, visible } from './support/session-ui'

const AGENT = 'Scripted agent'
const launch = launchPerTest()

it('Ctrl+, opens Settings from the message box and closes them, the focus back in the message box', async () => {
  const app = await launch([{ id: 'scripted', name: AGENT, scenario: 'e2e-session' }])
  const { page } = app
  await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
  await messageBox(page).focus()
  await page.keyboard.press('Control+Comma')
  const settings = await visible(page.getByRole('dialog', { name: 'Settings' }))
  await page.keyboard.press('Control+Comma')
  await gone(settings)
  expect(await messageBox(page).evaluate((el) => el === document.activeElement)).toBe(true)
  expect(await page.getByRole('button', { name: 'Settings', exact: true }).getAttribute('aria-keyshortcuts')).toBe('Control+Comma Meta+Comma')
  // A comma typed in the message box stays a comma.
  await page.keyboard.type('a,b')
  expect(await messageBox(page).inputValue()).toBe('a,b')
})
