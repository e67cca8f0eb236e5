/**
 * Corners of the ACP checklist as the person sees them: a permission whose options share one id (G5).
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { sendPrompt, startSession, transcript, visible, waitIdle } from './support/session-ui'

const launch = launchPerTest()

it('a permission whose two options share one id shows both, says the agent hears the same, and answers with that id (G5)', async () => {
  const app = await launch([{ id: 'scripted', name: 'Scripted agent', scenario: 'e2e-permission-shared-id' }])
  const { page } = app
  await startSession(page, { agentName: 'Scripted agent', cwd: app.home.workspace })
  await sendPrompt(page, 'go')
  const prompt = await visible(transcript(page).getByRole('alertdialog', { name: 'Run the migration', exact: true }))
  await visible(prompt.getByText('The agent gave “Allow”, “Reject” one answer between them: whichever you choose, it hears the same.'))
  const options = prompt.getByRole('group', { name: 'Options' })
  await visible(options.getByRole('button', { name: /^Allow/ }))
  expect(await options.getByRole('button', { name: /^Reject/ }).count()).toBe(1)
  await screenshot(page, 'g5-shared-option-id')
  await options.getByRole('button', { name: /^Reject/ }).click()
  await waitIdle(page)
  await visible(transcript(page).getByText('permission outcome: {"outcome":"selected","optionId":"x"}'))
})
