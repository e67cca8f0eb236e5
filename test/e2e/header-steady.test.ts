/**
 * The session header keeps its height when a turn starts and a request waits (UX pass): in a 900 px window the
 * Approvals button's count once pushed Approvals, Agents, Settings and Close to a second row, moving the whole
 * transcript down by a row just as the agent asked for approval.
 */
import { afterEach, expect, it } from 'vitest'
import { launchApp, type E2eApp } from './support/harness'
import { sendPrompt, startSession, transcript, visible } from './support/session-ui'

const AGENT = 'Scripted v1'
let app: E2eApp | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

it('keeps the header one row in a 900 px window while a permission request waits', async () => {
  app = await launchApp([{ id: 'v1', name: AGENT, scenario: 'e2e-permissions' }], { viewport: { width: 900, height: 700 } })
  const { page } = app
  await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
  const header = page.locator('header.session-header')
  const idle = (await header.boundingBox())!.height
  expect(idle).toBeLessThanOrEqual(64)

  await sendPrompt(page, 'v1-diff')
  await visible(transcript(page).getByRole('alertdialog'))
  await visible(page.getByRole('button', { name: 'Approvals, 1 pending' }))
  expect((await header.boundingBox())!.height).toBe(idle)
  // The title is still there to read.
  expect((await page.locator('.session-title').boundingBox())!.width).toBeGreaterThan(100)
})
