/**
 * The Agents page's other panes pass axe (names, roles, contrast ≥ 4.5:1) in both themes: adding an agent (found on
 * this computer, presets, the registry, offline here), and an agent's Check connection, Sign in, Logs and Inspector tabs.
 * Screenshots: test/e2e/screenshots/agents-add.png, agents-tab-{check-connection,login,logs,inspector}.png.
 */
import { it } from 'vitest'
import { expectAxeCleanInBothThemes } from './support/axe'
import { launchPerTest, screenshot } from './support/harness'
import { visible } from './support/session-ui'

const AGENT = 'Scripted agent'
const launch = launchPerTest()

it('adding an agent and every tab of an agent pass axe in both themes', async () => {
  const app = await launch([{ id: 'scripted', name: AGENT, scenario: 'e2e-session' }])
  const { page } = app
  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const agents = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await agents.getByRole('button', { name: 'Add agent' }).click()
  await visible(agents.getByRole('heading', { name: 'Add an agent' }))
  await visible(agents.getByRole('button', { name: /^Refresh|^Loading/ }))
  await expectAxeCleanInBothThemes(page, 'adding an agent', '[role="dialog"]')
  await screenshot(page, 'agents-add')

  await agents.getByRole('button', { name: new RegExp(`^${AGENT}`) }).click()
  for (const tab of ['Check connection', 'Sign in', 'Logs', 'Inspector']) {
    await agents.getByRole('tab', { name: tab }).click()
    await visible(agents.getByRole('tab', { name: tab, selected: true }))
    await expectAxeCleanInBothThemes(page, `the agent's ${tab} tab`, '[role="dialog"]')
    await screenshot(page, `agents-tab-${tab.toLowerCase().replace(' ', '-')}`)
  }
})
