/**
 * An agent that closes its input (stdin) after a turn and writes on: the next message is shown not sent, saying the
 * agent closed its input, with Edit and Resend; it read 'write EPIPE', or (its own writes coming after it) as a message
 * the agent answered with an error.
 */
import { expect, it } from 'vitest'
import { hostileAgentCommand } from '../agents/command'
import { screenshot, useApp } from './support/harness'
import { sendPrompt, startSession, transcript, visible, waitIdle } from './support/session-ui'

const AGENT = 'Deaf agent'
const { app, page } = useApp([{ id: 'deaf', name: AGENT, scenario: 'basic', command: hostileAgentCommand('close-stdin') }])

it('shows a message the agent could not be sent as not sent, with why', async () => {
  await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
  await sendPrompt(page, 'first')
  await visible(transcript(page).getByText(/still here 3/))
  await waitIdle(page)
  await sendPrompt(page, 'second')
  const note = await visible(transcript(page).getByRole('note', { name: 'Not sent' }))
  await visible(note.getByText(/The agent closed its input \(stdin\), so this message could not reach it \(write EPIPE\)\./))
  await visible(note.getByRole('button', { name: 'Resend' }))
  // Nobody refused it: the note says what happened, not 'The agent refused this message'.
  expect(await note.innerText()).toMatch(/^Not sent\. The agent closed its input/)
  expect(await transcript(page).getByLabel('Your message, not sent').innerText()).toContain('second')
  await screenshot(page, 'hostile-input-closed')
}, 60_000)
