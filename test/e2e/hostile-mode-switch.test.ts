/**
 * An agent switches its session by itself into a mode whose name says it then acts without asking (a harmless id,
 * "mode-3", named "YOLO"). The mode select changed under the message box and nothing was said; Bosun now warns, in its
 * own words (no "<Agent> says"), quoting the name with its id.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import { agentSays, sendPrompt, startSession, visible } from './support/session-ui'

const launch = launchPerTest()
const writeScenario = scenarioFiles()

it('warns when the agent switches the session to a mode named for acting without asking by itself', async () => {
  const scenario = writeScenario('mode-switch', {
    initialize: { agentInfo: { name: 'scripted', title: 'Scripted agent', version: '1.0.0' } },
    session: { modes: { currentModeId: 'default', availableModes: [{ id: 'default', name: 'Default' }, { id: 'mode-3', name: 'YOLO' }] } },
    prompts: { default: [{ type: 'mode', modeId: 'mode-3' }, { type: 'text', text: 'Done.' }] },
  })
  const app = await launch([{ id: 'scripted', name: 'Scripted agent', scenario }])
  const { page } = app
  await startSession(page, { agentName: 'Scripted agent', cwd: app.home.workspace })
  await sendPrompt(page, 'go')
  await visible(agentSays(page, 'Scripted agent').getByText('Done.'))
  const notice = page.getByRole('region', { name: 'Notices' }).locator('.toast').filter({ hasText: 'switched this session to' })
  await visible(notice)
  const text = await notice.innerText()
  expect(text).toMatch(/^The agent switched this session to “YOLO” \(id “mode-3”\) by itself/)
  expect(text).not.toContain('says\n')
  expect(text).toContain('choose another mode under the message box')
  await screenshot(page, 'hostile-mode-switch')
}, 60_000)
