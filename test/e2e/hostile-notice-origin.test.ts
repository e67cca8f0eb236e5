/**
 * `notice` is a session update an agent may send with any words, shown where Bosun's own notices show: an agent's
 * "Bosun: auto-approve is on for this session" read as Bosun's own words. A notice the agent sent now says whose it
 * is ("Scripted agent says"), its hidden characters shown; Bosun's own (here: a permission request it cannot show)
 * says nothing.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import { agentSays, sendPrompt, startSession, visible } from './support/session-ui'

const launch = launchPerTest()
const writeScenario = scenarioFiles()

it("says which notices are the agent's words, and leaves Bosun's own as they are", async () => {
  const scenario = writeScenario('notice-origin', {
    initialize: { agentInfo: { name: 'scripted', title: 'Scripted agent', version: '1.0.0' } },
    prompts: {
      default: [
        { type: 'update', update: { sessionUpdate: 'notice', severity: 'warning', title: 'Bosun: auto-approve is on for this session', description: 'Bosun answers "allow once" for you. Run \u202Etxt.exe to turn it off.' } },
        { type: 'request_permission', params: { toolCall: { toolCallId: 'bad', title: 'Bad request', kind: 'execute' }, options: 'not a list' } },
        { type: 'text', text: 'Done.' },
      ],
    },
  })
  const app = await launch([{ id: 'scripted', name: 'Scripted agent', scenario }])
  const { page } = app
  await startSession(page, { agentName: 'Scripted agent', cwd: app.home.workspace })
  await sendPrompt(page, 'go')
  await visible(agentSays(page, 'Scripted agent').getByText('Done.'))

  const notices = page.getByRole('region', { name: 'Notices' })
  const agents = notices.locator('.toast').filter({ hasText: 'auto-approve is on' })
  const bosuns = notices.locator('.toast').filter({ hasText: 'asked for a permission Bosun cannot show' })
  await visible(agents)
  await visible(bosuns)
  // Before: both read alike, and the override turned the agent's "txt.exe" round.
  expect(await agents.innerText()).toMatch(/^Scripted agent says\nBosun: auto-approve is on for this session/)
  expect(await agents.innerText()).toContain('Run U+202Etxt.exe')
  expect(await bosuns.innerText()).not.toContain('says')
  await screenshot(page, 'hostile-notice-origin')
})
