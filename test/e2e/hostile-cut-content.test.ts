/**
 * A hostile agent's tool call with 12,000 content items: Bosun keeps 10,000 of a list, and what stood for the rest
 * showed as "Unknown content (invalid)" with the marker inside. The card now says how many items were not kept.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import { sendPrompt, startSession, transcript, visible } from './support/session-ui'

const launch = launchPerTest()
const writeScenario = scenarioFiles()

it('says how many content items of a tool call were not kept', async () => {
  const content = Array.from({ length: 12_000 }, (_, i) => ({ type: 'content', content: { type: 'text', text: `item ${i}` } }))
  const scenario = writeScenario('hostile-cut-content', {
    prompts: {
      default: [
        { type: 'update', update: { sessionUpdate: 'tool_call', toolCallId: 'many', title: 'Many results', kind: 'search', status: 'completed', content } },
        { type: 'text', text: 'Searched.' },
      ],
    },
  })
  const app = await launch([{ id: 'scripted', name: 'Scripted agent', scenario }])
  const { page } = app
  await startSession(page, { agentName: 'Scripted agent', cwd: app.home.workspace })
  await sendPrompt(page, 'go')
  await visible(transcript(page).getByText('Searched.'))
  const card = transcript(page).locator('.tool-card').filter({ hasText: 'Many results' })
  await visible(card.getByText('2,000 more items of this tool call’s content were not kept: Bosun keeps 10,000.'))
  expect(await card.getByText(/Unknown content/).count()).toBe(0)
  await screenshot(page, 'cut-content')
})
