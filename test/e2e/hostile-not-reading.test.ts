/**
 * An agent that stops reading its stdin but keeps it open. Its input fills with Bosun's answers, and nothing the
 * person sends reaches it, Stop included. Before, the session said nothing until the silence notice 30 s later, and
 * that notice offered Stop. Now, once main has seen the agent leave its full input unread for the input stall time,
 * the session says so at once under the message box and offers only a restart (screenshot hostile-not-reading).
 */
import { expect, it } from 'vitest'
import { hostileAgentCommand } from '../agents/command'
import { screenshot, useApp } from './support/harness'
import { sendPrompt, startSession, visible } from './support/session-ui'

const AGENT = 'Deaf agent'
const { app, page } = useApp([{ id: 'deaf', name: AGENT, scenario: 'basic', protocolVersion: 1, command: hostileAgentCommand('no-read', { count: 8 }) }], {
  limits: { inputStallMs: 500, stallNoticeMs: 120_000 },
  viewport: { width: 1100, height: 760 },
})

it('says the agent is not reading its input, at once, with Restart agent and no Stop that could not reach it', async () => {
  await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
  await sendPrompt(page, 'go')
  const notice = await visible(page.getByRole('region', { name: `${AGENT} is not reading` }))
  expect(await notice.innerText()).toContain(`${AGENT} is not reading its input`)
  await visible(notice.getByRole('button', { name: 'Restart agent' }))
  expect(await notice.getByRole('button', { name: 'Stop this turn' }).count()).toBe(0)
  // Not a second time as a toast.
  expect(await page.getByText('The agent is not reading its input').count()).toBe(0)
  await screenshot(page, 'hostile-not-reading')
}, 60_000)
