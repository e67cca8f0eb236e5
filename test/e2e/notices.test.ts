/**
 * An agent's notices (`notice` updates): shown above the transcript, covering neither the session header's
 * controls nor the person's messages; information dismisses itself, warnings and errors stay until dismissed; at most three are on screen,
 * the rest counted with "Dismiss all". The page's clock is Playwright's, so the 8 s of an information notice
 * pass at once.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { agentGroup, gone, messageBox, sendPrompt, startSession, visible, waitIdle } from './support/session-ui'

const launch = launchPerTest()

it('keeps warnings and errors until dismissed, lets information go, and shows at most three', async () => {
  const app = await launch([{ id: 'scripted', name: 'Scripted agent', scenario: 'e2e-notices' }], { beforeLoad: (page) => page.clock.install() })
  const { page } = app
  await startSession(page, { agentName: 'Scripted agent', cwd: app.home.workspace })
  await sendPrompt(page, 'go')
  await waitIdle(page)
  const notices = page.getByRole('main', { name: /^Session / }).getByLabel('Notices', { exact: true })
  await visible(notices.getByText('Indexed 120 files'))
  const titles = () => notices.locator('.toast strong').allTextContents()
  expect(await titles()).toEqual(['Falling back to HTTPS: name does not resolve', 'The service answered slowly (3)', 'Indexed 120 files'])
  await visible(notices.getByText('2 earlier notices'))

  // Below the header, above the transcript: neither the header nor the person's message is covered.
  const header = (await page.locator('header.session-header').boundingBox())!
  const box = (await notices.boundingBox())!
  expect(box.y).toBeGreaterThanOrEqual(header.y + header.height)
  const mine = (await page.getByRole('main', { name: /^Session / }).getByLabel('Your message').first().boundingBox())!
  expect(mine.y).toBeGreaterThanOrEqual(box.y + box.height)
  await screenshot(page, 'notices-light')

  await page.clock.fastForward(9_000)
  await gone(notices.getByText('Indexed 120 files'))
  expect(await titles()).toEqual(['The service answered slowly (2)', 'Falling back to HTTPS: name does not resolve', 'The service answered slowly (3)'])
  await visible(notices.getByText('1 earlier notice', { exact: true }))

  await notices.getByRole('button', { name: 'Dismiss all' }).click()
  await gone(notices)
  // Dismissed in main, not only on this screen: opening another session and coming back does not show them again.
  await startSession(page, { agentName: 'Scripted agent', cwd: app.home.workspace })
  await gone(page.getByRole('main', { name: 'Session go' }))
  await agentGroup(page, 'Scripted agent').getByRole('button', { name: /^go/ }).click()
  await visible(page.getByRole('main', { name: 'Session go' }))
  await visible(messageBox(page))
  expect(await page.getByRole('main', { name: 'Session go' }).locator('.toast').count()).toBe(0)
})

/** The scripted agent on `scenario`, one turn of `go` to its end; the session's notices. */
async function noticesAfterTurn(scenario: string) {
  const app = await launch([{ id: 'scripted', name: 'Scripted agent', scenario }])
  const { page } = app
  await startSession(page, { agentName: 'Scripted agent', cwd: app.home.workspace })
  await sendPrompt(page, 'go')
  await waitIdle(page)
  return { page, notices: page.getByRole('main', { name: /^Session / }).getByLabel('Notices', { exact: true }) }
}

it('a huge warning (20,000-character title, 24,000-character description) stays a bounded box that can be dismissed', async () => {
  const { page, notices } = await noticesAfterTurn('e2e-notice-huge')
  const toast = await visible(notices.locator('.toast'))
  // Cut in the reducer: 1,000 characters and "…".
  expect((await toast.locator('strong').textContent())!.length).toBe(1001)
  const viewport = page.viewportSize()!
  const box = (await toast.boundingBox())!
  expect(box.height).toBeLessThan(viewport.height / 2)
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width)
  await screenshot(page, 'notice-huge-light')
  await toast.getByRole('button', { name: 'Dismiss notice' }).click()
  await gone(notices)
})

it('a permission request Bosun cannot show (an option without an id) becomes a warning that says why, and the turn goes on', async () => {
  const { page, notices } = await noticesAfterTurn('e2e-permission-refused')
  const toast = await visible(notices.locator('.toast'))
  expect(await toast.locator('strong').textContent()).toBe('Scripted agent asked for a permission Bosun cannot show')
  await visible(toast.getByText(/^The request was malformed: options\[0\]\.optionId must be a non-empty string\. Bosun answered the agent with an error; it may ask again\./))
  // The agent got the refusal (its reply says so) and finished its turn; no permission dialog is left open.
  await visible(page.getByText(/permission outcome: .*-32602/))
  expect(await page.getByRole('dialog').count()).toBe(0)
  await screenshot(page, 'notice-permission-refused-light')
})
