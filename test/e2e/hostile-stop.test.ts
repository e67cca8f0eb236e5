/**
 * Issue 13, the Stop watchdog end to end: the hostile agent ignores `session/cancel`; a few seconds after
 * Stop the session offers "Stop the agent", which ends the turn.
 */
import { expect, it } from 'vitest'
import { hostileAgentCommand } from '../agents/command'
import { screenshot, useApp } from './support/harness'
import { sendPrompt, startSession, visible, waitIdle } from './support/session-ui'

const AGENT = 'Stubborn agent'
const { app, page } = useApp([{ id: 'stubborn', name: AGENT, scenario: 'basic', command: hostileAgentCommand('ignore-cancel') }])

it('offers to stop an agent that ignores Stop, and stopping it ends the turn', async () => {
  await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
  await sendPrompt(page, 'go')
  await visible(page.getByText('working forever'))
  await page.getByRole('button', { name: 'Stop', exact: true }).click()
  // The watchdog fires after 5 s (the default); the offer is an alert.
  const offer = await visible(page.getByRole('alert', { name: `${AGENT} has not stopped` }), 15_000)
  await screenshot(page, 'stop-overdue-light')
  await page.emulateMedia({ colorScheme: 'dark' })
  await screenshot(page, 'stop-overdue-dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await offer.getByRole('button', { name: 'Stop the agent' }).click()
  await waitIdle(page)
  expect(await page.getByRole('alert', { name: `${AGENT} has not stopped` }).count()).toBe(0)
  // The agent never ended the turn: the note says so, not that it ended the turn when asked to.
  await visible(page.getByText(`Stopped, but the agent did not end the turn when asked to. ${AGENT} was stopped.`))
  expect(await page.getByText('The agent ended the turn when asked to').count()).toBe(0)
}, 60_000)
