/**
 * What an agent writes to make the person read something else: a right-to-left override in the path of a diff (a
 * `.sh` file shown as `.txt`) and in its lines (Trojan Source), in an approval's diff, and in a form's message. Each is
 * drawn with a visible marker where the override sits, and the card says that it hides characters.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import { sendPrompt, startSession, transcript, visible } from './support/session-ui'

const launch = launchPerTest()
const writeScenario = scenarioFiles()

const RLO = '\u202E'

function scenario(): string {
  return writeScenario('hostile-spoof', {
    initialize: { agentInfo: { name: 'scripted', title: 'Scripted agent', version: '1.0.0' } },
    prompts: {
      default: [
        { type: 'tool_call', id: 'notes', title: 'Edit notes', kind: 'edit', status: 'in_progress' },
        { type: 'tool_call_update', id: 'notes', status: 'completed', diff: { path: `/project/notes-${RLO}txt.sh`, oldText: 'ok\n', newText: `if (admin) {${RLO} } // later\n` } },
        {
          type: 'request_permission',
          params: {
            toolCall: { toolCallId: 'write', title: 'Write a file', kind: 'edit', status: 'pending', content: [{ type: 'diff', path: `/project/perm-${RLO}txt.sh`, oldText: null, newText: 'rm -rf ~\n' }] },
            options: [
              { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
              { optionId: 'no', name: 'Reject', kind: 'reject_once' },
            ],
          },
        },
        { type: 'elicitation', params: { mode: 'form', message: `Approve ${RLO}exe.txt?`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean', title: 'OK' } } } } },
        { type: 'text', text: 'Done.' },
      ],
    },
  })
}

it('shows a right-to-left override in a diff path, a diff line, an approval and a form as a marker, and warns', async () => {
  const app = await launch([{ id: 'scripted', name: 'Scripted agent', scenario: scenario() }])
  const { page } = app
  await startSession(page, { agentName: 'Scripted agent', cwd: app.home.workspace })
  await sendPrompt(page, 'go')

  await visible(transcript(page).getByRole('alertdialog', { name: 'Write a file', exact: true }))
  const notes = transcript(page).locator('.tool-card').filter({ hasText: 'Edit notes' })
  // Before: the path read "/project/notes-hs.txt" and nothing said so.
  await visible(notes.getByRole('figure', { name: 'Diff of /project/notes-⟨U+202E⟩txt.sh' }))
  await visible(notes.getByText(/Contains hidden or direction-changing characters/))
  const write = transcript(page).locator('.tool-card').filter({ hasText: 'Write a file' })
  await visible(write.getByRole('figure', { name: 'Diff of /project/perm-⟨U+202E⟩txt.sh' }))
  await visible(write.getByText(/Contains hidden or direction-changing characters/))
  for (const card of [notes, write]) expect(await card.innerText()).not.toContain(RLO)
  await screenshot(page, 'hostile-spoof-approval-light')
  await write.getByRole('button', { name: /^Allow/ }).click()

  const form = await visible(transcript(page).locator('.eli-card'))
  expect(await form.innerText()).toContain('Approve U+202Eexe.txt?')
  expect(await form.innerText()).not.toContain(RLO)
  await screenshot(page, 'hostile-spoof-form-light')
})
