/**
 * Every main screen of the browser host, checked by axe-core with all its rules (WCAG A/AA and its best practices:
 * landmarks, unique ids, scrollable regions…) in both themes; the test fails on what axe rates serious or critical.
 * The empty app, adding an agent, a session with messages, a diff, a plan and a terminal, a pending permission, a form,
 * a link's consent, the history and a history row's actions, Settings, and every tab of the Agents page (the inspector
 * with the session's messages, one selected).
 */
import { expect, it } from 'vitest'
import { expectNoSeriousAxeInBothThemes as axeClean } from './support/axe'
import { launchPerTest } from './support/harness'
import { agentSays, gone, openPlan, sendPrompt, startSession, transcript, visible, waitIdle } from './support/session-ui'

const launch = launchPerTest()

it('the empty app, adding an agent, Settings and the Agents page’s tabs have no serious axe violations', async () => {
  const app = await launch([])
  const { page } = app
  await visible(page.getByRole('navigation', { name: 'Agents and sessions' }))
  await axeClean(page, 'empty app')

  await page.getByRole('button', { name: 'Settings', exact: true }).click()
  await visible(page.getByRole('dialog', { name: 'Settings' }))
  await axeClean(page, 'settings')
  await page.keyboard.press('Escape')
  await gone(page.getByRole('dialog', { name: 'Settings' }))

  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const agents = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await axeClean(page, 'agents page, no agents')
  const add = agents.getByRole('button', { name: /^Add agent/ })
  if (await add.isVisible()) await add.click()
  await visible(agents.getByRole('list', { name: 'Presets' }))
  await axeClean(page, 'add an agent')
  await agents.getByRole('list', { name: 'Presets' }).getByRole('button', { name: /^Custom agent/ }).click()
  await visible(agents.getByRole('textbox', { name: /^Name/ }))
  await axeClean(page, 'agent editor')
})

it('a session with messages, a diff, a plan and a terminal, the history, and the inspector have no serious axe violations', async () => {
  const app = await launch([
    { id: 'scripted', name: 'Scripted agent', scenario: 'e2e-session' },
    { id: 'term', name: 'Terminal agent', scenario: 'e2e-terminal' },
  ])
  const { page } = app
  await startSession(page, { agentName: 'Scripted agent', cwd: app.home.workspace })
  await sendPrompt(page, 'fix')
  await visible(agentSays(page, 'Scripted agent').getByText('Done: answer is 42 now.'))
  await waitIdle(page)
  await openPlan(page)
  await axeClean(page, 'session with a diff and a plan')

  await startSession(page, { agentName: 'Terminal agent', cwd: app.home.workspace })
  await sendPrompt(page, 'run')
  await visible(agentSays(page, 'Terminal agent').getByText('All tests pass.'))
  const terminal = transcript(page).getByRole('region', { name: /^Terminal term-/ })
  await visible(terminal.getByRole('status').getByText('exit 0'))
  await axeClean(page, 'terminal card')

  const history = page.getByRole('navigation', { name: 'Agents and sessions' }).getByRole('region', { name: 'History' })
  await history.getByRole('button', { name: 'Actions for fix' }).click()
  await visible(history.getByRole('group', { name: 'Actions for fix' }))
  await axeClean(page, 'history row actions')
  await page.keyboard.press('Escape')

  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const agents = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await agents.getByRole('button', { name: /^Scripted agent/ }).click()
  await axeClean(page, 'agent overview')
  for (const tab of ['Check connection', 'Sign in', 'Logs', 'Inspector']) {
    await agents.getByRole('tab', { name: tab }).click()
    await visible(agents.getByRole('tab', { name: tab, selected: true }))
    await axeClean(page, `the agent's ${tab} tab`)
  }
  const grid = await visible(agents.getByRole('grid', { name: 'Protocol messages' }))
  await grid.getByRole('row').nth(2).click()
  await axeClean(page, 'inspector, a message selected')
})

it('a pending permission, a form and a link’s consent have no serious axe violations', async () => {
  const app = await launch([
    { id: 'perms', name: 'Scripted v1', scenario: 'e2e-permissions' },
    { id: 'elicit', name: 'Elicitation agent', scenario: 'e2e-elicitation' },
  ])
  const { page } = app
  await startSession(page, { agentName: 'Scripted v1', cwd: app.home.workspace })
  await sendPrompt(page, 'v1-diff')
  await visible(transcript(page).getByRole('alertdialog', { name: 'Edit src/app.ts', exact: true }))
  await axeClean(page, 'pending permission')
  // A request's title is a level under the session's (h1): it was an h3, with no h2 between (axe's heading-order).
  expect(await transcript(page).getByRole('heading', { name: 'Edit src/app.ts', level: 2 }).count()).toBe(1)
  await page.getByRole('button', { name: /^Waiting for you/ }).click()
  await visible(page.getByRole('dialog', { name: 'Waiting for you' }))
  await axeClean(page, 'the inbox')
  await page.keyboard.press('Escape')

  await startSession(page, { agentName: 'Elicitation agent', cwd: app.home.workspace })
  await sendPrompt(page, 'every-field')
  const form = await visible(transcript(page).getByRole('region', { name: 'Project setup', exact: true }))
  await axeClean(page, 'form')
  await visible(form.getByRole('heading', { name: 'Project setup', level: 2 }))
  await form.getByRole('button', { name: 'Decline' }).click()
  await waitIdle(page)
  await sendPrompt(page, 'url-docs')
  const link = await visible(transcript(page).getByRole('region', { name: 'Read the setup guide' }))
  await axeClean(page, 'link consent')
  await visible(link.getByRole('heading', { name: 'Read the setup guide', level: 2 }))
})
