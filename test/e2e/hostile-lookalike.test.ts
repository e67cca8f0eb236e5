/**
 * What an agent writes to make one thing read as another, in look-alike letters and odd host names: an "allow" option
 * named "Rеject" with a Cyrillic е, and "always allow" named "Dény" with an accent, get the correction a plain
 * "Reject" gets; a link whose host starts with a label of 80 letters and "accounts.google.com" names evil.com as the
 * site, in bold, and warns that its start looks like another site (tldts refused the host, and the whole of it was the
 * site).
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import { sendPrompt, startSession, transcript, visible } from './support/session-ui'

const launch = launchPerTest()
const writeScenario = scenarioFiles()

const LONG = 'a'.repeat(80)

function scenario(): string {
  return writeScenario('hostile-lookalike', {
    initialize: { agentInfo: { name: 'scripted', title: 'Scripted agent', version: '1.0.0' } },
    prompts: {
      default: [
        {
          type: 'request_permission',
          params: {
            toolCall: { toolCallId: 'run', title: 'Run the tests', kind: 'execute', status: 'pending', rawInput: { command: 'npm test' } },
            options: [
              { optionId: 'yes', name: 'R\u0435ject', kind: 'allow_once' },
              { optionId: 'always', name: 'D\u00e9ny', kind: 'allow_always' },
              { optionId: 'no', name: 'Allow', kind: 'reject_once' },
            ],
          },
        },
        { type: 'elicitation', params: { mode: 'url', message: 'Sign in with Google', url: `https://${LONG}.accounts.google.com.evil.com/signin`, elicitationId: 'ext-long' } },
        { type: 'text', text: 'Done.' },
      ],
    },
  })
}

it('corrects an option named the opposite in look-alike letters, and names the site of a host with an 80-letter label', async () => {
  const app = await launch([{ id: 'scripted', name: 'Scripted agent', scenario: scenario() }])
  const { page } = app
  await startSession(page, { agentName: 'Scripted agent', cwd: app.home.workspace })
  await sendPrompt(page, 'go')

  const prompt = await visible(transcript(page).getByRole('alertdialog', { name: 'Run the tests', exact: true }))
  await visible(prompt.getByRole('button', { name: /^R\u0435ject.*this allows\)/ }))
  await visible(prompt.getByRole('button', { name: /^D\u00e9ny.*this allows, and remembers/ }))
  await visible(prompt.getByRole('button', { name: /^Allow.*this rejects\)/ }))
  await screenshot(page, 'hostile-lookalike-approval-light')
  await prompt.getByRole('button', { name: /^Allow/ }).click()

  const card = await visible(transcript(page).locator('.eli-card').filter({ hasText: 'Sign in with Google' }))
  await visible(card.locator('.eli-url-site-name').getByText('evil.com', { exact: true }))
  await visible(card.locator('.eli-url-domain').getByText('evil.com', { exact: true }))
  await visible(card.getByText(/starts with what looks like another site/))
  expect(await card.locator('.eli-url-subdomain').innerText()).toBe(`${LONG}.accounts.google.com.`)
  await screenshot(page, 'hostile-lookalike-link-light')
})
