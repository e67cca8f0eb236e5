/**
 * A permission the agent asks in the session it is making, before it answers `session/new` (checklist G7): it waits
 * for the session and is asked there, on its card, and the agent gets the person's answer. It was refused -32002.
 */
import { it } from 'vitest'
import { hostileAgentCommand } from '../agents/command'
import { screenshot, useApp } from './support/harness'
import { gone, startSession, transcript, visible } from './support/session-ui'

const AGENT = 'Eager agent'
const { app, page } = useApp([{ id: 'eager', name: AGENT, scenario: 'basic', command: hostileAgentCommand('early-requests') }])

it('asks a question the agent sent before its session existed in that session, and the agent gets the answer', async () => {
  await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
  const card = await visible(transcript(page).getByRole('article', { name: /Early question/ }))
  const question = await visible(card.getByRole('alertdialog', { name: 'Early question' }))
  await visible(question.getByText(`${AGENT} asks`))
  await screenshot(page, 'early-question')
  await question.getByRole('button', { name: 'Reject', exact: true }).click()
  await visible(transcript(page).getByText('early answer {"outcome":{"outcome":"selected","optionId":"reject"}}'))
  await gone(card.getByRole('alertdialog'))
  await visible(card.getByText('Rejected by you (Reject)'))
}, 60_000)
