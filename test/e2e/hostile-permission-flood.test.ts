/**
 * A permission flood end to end: the hostile agent asks 1,000 permissions at once. The session shows at most
 * MAX_PENDING_PER_SESSION of them with one note for the rest, the approval inbox lists them and stays usable, and Stop
 * answers every one (the agent reports the count it got back).
 */
import { expect, it } from 'vitest'
import { MAX_PENDING_PER_SESSION } from '../../main/permissions/broker'
import { hostileAgentCommand } from '../agents/command'
import { screenshot, useApp } from './support/harness'
import { sendPrompt, startSession, transcript, visible, waitIdle } from './support/session-ui'

const AGENT = 'Flooding agent'
const COUNT = 1_000
const { app, page } = useApp([{ id: 'flood', name: AGENT, scenario: 'basic', command: hostileAgentCommand('permission-flood', { count: COUNT }) }])

it('shows a bounded set of 1,000 permissions with one note, the inbox lists them, and Stop answers all 1,000', async () => {
  await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
  await sendPrompt(page, 'go')
  await visible(page.getByRole('button', { name: `Waiting for you, ${MAX_PENDING_PER_SESSION}` }))
  await visible(page.getByText(/too many permissions/).first())
  await screenshot(page, 'permission-flood-session')
  await page.getByRole('button', { name: /^Waiting for you, \d+$/ }).click()
  const inbox = await visible(page.getByRole('dialog', { name: 'Waiting for you' }))
  const items = inbox.getByRole('navigation', { name: 'Waiting for you' }).getByRole('listitem')
  expect(await items.count()).toBe(MAX_PENDING_PER_SESSION)
  await screenshot(page, 'permission-flood-inbox')
  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: 'Stop', exact: true }).click()
  await visible(transcript(page).getByText(`answered ${COUNT}`))
  await waitIdle(page)
  await visible(page.getByRole('button', { name: 'Waiting for you, 0' }))
  await screenshot(page, 'permission-flood-after-stop')
}, 90_000)
