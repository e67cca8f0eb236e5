/**
 * An agent that says its key is missing in words (codex-acp 2.6.0: "Missing environment variable: FAKE_API_KEY", as
 * -32603, not "authentication required") gets no Sign in…: the refused message names the way on, the agent on the
 * Agents page, where its keys are set, and a button opens it there. Screenshot: test/e2e/screenshots/key-missing.png.
 */
import { it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import { sendPrompt, startSession, transcript, visible } from './support/session-ui'

const launch = launchPerTest()
const writeScenario = scenarioFiles()

it('a message refused for a missing key offers the agent on the Agents page, and opens it there', async () => {
  const file = writeScenario('key-missing', { prompts: { default: [{ type: 'prompt_error', code: -32603, message: 'Missing environment variable: FAKE_API_KEY' }] } })
  const { page, home } = await launch([{ id: 'codex', name: 'Codex', scenario: file }])
  await startSession(page, { agentName: 'Codex', cwd: home.workspace })
  await sendPrompt(page, 'hello')
  await visible(transcript(page).getByText('The agent says FAKE_API_KEY is not set: add it to the agent on the Agents page', { exact: false }))
  await screenshot(page, 'key-missing')
  await transcript(page).getByRole('button', { name: 'Open Codex on the Agents page' }).click()
  const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await visible(dialog.getByRole('heading', { name: 'Codex' }))
})
