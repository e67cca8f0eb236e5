/**
 * An agent that writes without end, in the browser host: at the session's limit (1 MiB here; 256 MiB by
 * default) Bosun stops the turn itself, says why in the transcript and where the person types, offers a new
 * session in the same folder, and the app goes on. Screenshots: session-limit-{light,dark}.png.
 */
import { expect, it } from 'vitest'
import { hostileAgentCommand } from '../agents/command'
import { screenshot, useApp } from './support/harness'
import { messageBox, sendPrompt, startSession, visible } from './support/session-ui'

const AGENT = 'Endless agent'
const { app, page } = useApp([{ id: 'endless', name: AGENT, scenario: 'basic', command: hostileAgentCommand('endless', { count: 1_000 }) }], {
  limits: { maxSessionBytes: 1024 * 1024 },
})

it('stops a session whose agent writes without end, and offers a new one', async () => {
  await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
  await sendPrompt(page, 'go')
  // Nobody presses Stop: the turn ends because main cancelled it at the limit.
  const blocked = await visible(page.getByRole('region', { name: 'This session cannot continue' }), 30_000)
  await expect.poll(() => blocked.innerText()).toContain("reached Bosun's limit of 1.0 MiB of agent output")
  await visible(page.getByRole('status', { name: 'Turn: Idle' }), 30_000)
  // And a notice (a toast) says what happened.
  await visible(page.getByText('This session reached its limit of 1.0 MiB'))
  expect(await messageBox(page).count()).toBe(0)
  await screenshot(page, 'session-limit-light')
  await page.emulateMedia({ colorScheme: 'dark' })
  await screenshot(page, 'session-limit-dark')
  await page.emulateMedia({ colorScheme: 'light' })
  // The way on: a new session in the same folder, with a composer that works.
  await blocked.getByRole('button', { name: /^New session in / }).click()
  await visible(messageBox(page))
  expect(await page.getByRole('region', { name: 'This session cannot continue' }).count()).toBe(0)
}, 90_000)
