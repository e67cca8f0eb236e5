/**
 * The Electron menu's app actions (main/shell/menu.ts) reach the page as the contract's `menuCommand` event; the browser
 * host has no menu, so the test sends the event down the web host's own event path, as main's menu would.
 */
import { expect, it } from 'vitest'
import { launchPerTest } from './support/harness'
import { gone, messageBox, startSession, until, visible } from './support/session-ui'

const AGENT = 'Scripted agent'
const launch = launchPerTest()

it('New Session, Settings and Toggle Inspector from the menu do what the page’s own keys and buttons do', async () => {
  // Two agents, the session's listed second: the inspector opens on the session's agent, not the first one.
  const app = await launch([
    { id: 'other', name: 'Other agent', scenario: 'e2e-session' },
    { id: 'scripted', name: AGENT, scenario: 'e2e-session' },
  ])
  const { page } = app
  await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
  await messageBox(page).focus()

  // File › New Session: the sidebar's form, its folder focused.
  const form = page.getByRole('form', { name: 'New session' })
  app.emit('menuCommand', { command: 'newSession' })
  await visible(form)
  await until(form.getByRole('textbox', { name: 'Working folder' }), (el) => el === document.activeElement)
  await page.keyboard.press('Escape')
  await gone(form)

  // Settings…: opens them; sent again while they are open, they stay.
  app.emit('menuCommand', { command: 'openSettings' })
  const settings = await visible(page.getByRole('dialog', { name: 'Settings' }))
  app.emit('menuCommand', { command: 'openSettings' })
  await expect.poll(() => settings.isVisible()).toBe(true)

  // Toggle Inspector: from Settings, the Agents page on the session's agent's Inspector tab; again, it closes.
  app.emit('menuCommand', { command: 'toggleInspector' })
  await gone(settings)
  const agents = await visible(page.getByRole('dialog', { name: 'Agents' }))
  const tabs = agents.getByRole('tablist', { name: `${AGENT} details` })
  expect(await tabs.getByRole('tab', { name: 'Inspector' }).getAttribute('aria-selected')).toBe('true')
  app.emit('menuCommand', { command: 'toggleInspector' })
  await gone(agents)
  await visible(messageBox(page))
})
