/**
 * A hostile agent names 10,000 files in one tool call (Bosun keeps 10,000 entries of a list) and asks permission for
 * it. The card drew a row with Open and Copy path for each, 50,000 nodes, a wall the person scrolled past for the rest
 * of the session, and the approval listed every one. Now both show the first 50 and a "Show all" that draws the rest.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import { sendPrompt, startSession, transcript, visible, waitIdle } from './support/session-ui'

const launch = launchPerTest()
const writeScenario = scenarioFiles()
const COUNT = 10_000

it('shows the first locations of a tool call that names 10,000 files, and all of them when asked', async () => {
  const locations = Array.from({ length: COUNT }, (_, i) => ({ path: `/project/src/file-${i}.ts`, line: i + 1 }))
  const scenario = writeScenario('hostile-many-locations', {
    prompts: {
      default: [
        { type: 'tool_call', id: 'read', title: 'Read every file', kind: 'read', status: 'in_progress', locations },
        {
          type: 'request_permission',
          params: {
            toolCall: { toolCallId: 'read' },
            options: [
              { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
              { optionId: 'no', name: 'Reject', kind: 'reject_once' },
            ],
          },
        },
        { type: 'tool_call_update', id: 'read', status: 'completed' },
        { type: 'text', text: 'Read them all.' },
      ],
    },
  })
  const app = await launch([{ id: 'scripted', name: 'Scripted agent', scenario }])
  const { page } = app
  await startSession(page, { agentName: 'Scripted agent', cwd: app.home.workspace })
  await sendPrompt(page, 'go')
  const card = transcript(page).locator('.tool-card').filter({ hasText: 'Read every file' })
  const prompt = await visible(transcript(page).getByRole('alertdialog', { name: 'Read every file' }))
  const rows = card.getByRole('list', { name: 'Locations' }).getByRole('listitem')
  await visible(card.getByRole('button', { name: `Show all ${COUNT.toLocaleString('en')} locations` }))
  expect(await rows.count()).toBe(50)
  await screenshot(page, 'many-locations-permission')
  await prompt.getByRole('button', { name: /^Allow/ }).click()
  await waitIdle(page)
  await visible(transcript(page).getByText('Read them all.'))
  expect(await rows.count()).toBe(50)
  await card.getByRole('button', { name: `Show all ${COUNT.toLocaleString('en')} locations` }).click()
  await visible(rows.last().getByText(`/project/src/file-${COUNT - 1}.ts:${COUNT}`))
  expect(await rows.count()).toBe(COUNT)
  await rows.nth(60).scrollIntoViewIfNeeded()
  await screenshot(page, 'many-locations-card')
}, 120_000)
