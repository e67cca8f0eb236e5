/**
 * A hostile agent's edit of a 30 MB file, with one real change near the top and one past what Bosun keeps (1 MiB of
 * each text). The cut texts end at different places inside a line: compared as they were, the card showed lines the
 * agent never changed as removed and added at the cut (and "+3 -2"). Now it compares the whole lines both sides kept,
 * shows the one real change in them, and says that changes after them are not shown.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import { sendPrompt, startSession, transcript, visible } from './support/session-ui'

const launch = launchPerTest()
const writeScenario = scenarioFiles()

it('shows only the real changes of a cut diff and says where the comparison stops', async () => {
  const old = Array.from({ length: 1_000_000 }, (_, i) => `line number ${i} of the file`).join('\n') + '\n'
  const scenario = writeScenario('hostile-cut-diff', {
    prompts: {
      default: [
        { type: 'tool_call', id: 'edit', title: 'Edit the big file', kind: 'edit', status: 'in_progress' },
        { type: 'tool_call_update', id: 'edit', status: 'completed', diff: { path: '/project/big.txt', oldText: old, newText: old.replace('line number 5 ', 'LINE 5 ') + 'the hidden change\n' } },
        { type: 'text', text: 'Edited.' },
      ],
    },
  })
  const app = await launch([{ id: 'scripted', name: 'Scripted agent', scenario }])
  const { page } = app
  await startSession(page, { agentName: 'Scripted agent', cwd: app.home.workspace })
  await sendPrompt(page, 'go')
  await visible(transcript(page).getByText('Edited.'))
  const diff = transcript(page).getByRole('figure', { name: 'Diff of /project/big.txt' })
  await visible(diff.getByText(/This file is larger than Bosun keeps from an agent: the diff compares its first [\d,]+ lines\. Changes after them are not shown\./))
  const changed = await diff.locator('.diff-add .diff-text, .diff-del .diff-text').evaluateAll((cells) => cells.map((c) => c.textContent))
  expect(changed).toEqual(['removed: line number 5 of the file', 'added: LINE 5 of the file'])
  await screenshot(page, 'cut-diff')
})
