/**
 * The sidebar keeps the session shown in its view (UX pass): a new session joins the end of the open sessions, and
 * with many open the row of the session just started was below the sidebar's edge, nothing saying which was shown.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { startSession } from './support/session-ui'

const AGENT = 'Scripted agent'
const launch = launchPerTest()

it('scrolls the row of a session just started into the sidebar\'s view', async () => {
  const app = await launch([{ id: 'scripted', name: AGENT, scenario: 'e2e-session' }], { viewport: { width: 1280, height: 520 } })
  const { page } = app
  for (let n = 0; n < 9; n++) await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
  const current = page.locator('.sidebar .session-item[aria-current="page"]').first()
  await current.waitFor()
  const inView = () =>
    current.evaluate((el) => {
      const view = el.closest('.sidebar-scroll')!.getBoundingClientRect()
      const box = el.getBoundingClientRect()
      return box.top >= view.top - 1 && box.bottom <= view.bottom + 1
    })
  await expect.poll(inView).toBe(true)
  await screenshot(page, 'sidebar-current-in-view')
})
