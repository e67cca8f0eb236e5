/**
 * Ctrl+, opens Settings from anywhere (as in VS Code, Zed and GitHub Desktop), and closes them again; the focus goes
 * back where it was. The Settings button says its shortcut to assistive technology (aria-keyshortcuts).
 */
import { expect, it } from 'vitest'
import { launchPerTest } from './support/harness'
import { gone, messageBox, startSession, until, visible } from './support/session-ui'

const AGENT = 'Scripted agent'
const launch = launchPerTest()

it('Ctrl+, opens Settings from the message box and closes them, the focus back in the message box', async () => {
  const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-session' })
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

it('Ctrl+Shift+O opens the New session form from the message box and from Settings; the button says its shortcut', async () => {
  const app = await launch([{ id: 'scripted', name: AGENT, scenario: 'e2e-session' }])
  const { page } = app
  await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
  const form = page.getByRole('form', { name: 'New session' })
  const folder = form.getByRole('textbox', { name: 'Working folder' })

  await messageBox(page).focus()
  await page.keyboard.press('Control+Shift+O')
  await visible(form)
  await until(folder, (el) => el === document.activeElement)
  await page.keyboard.press('Escape')
  await gone(form)

  // From a page over the sessions: the page goes, the form opens.
  await page.keyboard.press('Control+Comma')
  const settings = await visible(page.getByRole('dialog', { name: 'Settings' }))
  await page.keyboard.press('Control+Shift+O')
  await gone(settings)
  await visible(form)

  // The browser keeps Ctrl+N (a new window); the button names the shortcut the page does get.
  const button = page.getByRole('navigation', { name: 'Agents and sessions' }).getByRole('button', { name: 'New session', exact: true })
  expect(await button.getAttribute('aria-keyshortcuts')).toBe('Control+Shift+O Meta+Shift+O')
  expect(await button.getAttribute('title')).toBe('New session (Ctrl+Shift+O)')
  expect(await page.getByRole('button', { name: 'Settings', exact: true }).getAttribute('title')).toBe('Settings (Ctrl+,)')
})
