/**
 * Plans as real agents send them (agents12, captured under /tmp/agents12): Claude's "Approve Plan" request came with the
 * call as it first was and wiped the plan off the card it asks about; OpenCode's todo list came only as its todowrite
 * tool call and the session had no plan; Codex's proposed plan (a v2 markdown plan) showed as JSON under "Plan 0/0 done".
 * Screenshots: test/e2e/screenshots/real-plans-{claude-exit-plan,opencode-todos,codex-proposed}.png.
 */
import { expect, it } from 'vitest'
import type { Page } from 'playwright'
import { launchPerTest, screenshot } from './support/harness'
import { sendPrompt, transcript, visible, waitIdle } from './support/session-ui'

const launch = launchPerTest()
const planPanel = (page: Page) => page.getByRole('region', { name: 'Plan' })

/** Opens the plan panel if the window folded it. */
async function openPlan(page: Page): Promise<void> {
  const toggle = planPanel(page).getByRole('button', { name: /^Plan/ })
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click()
}

it('shows the plan Claude asks to approve on the card that asks (claude-agent-acp 0.101.0, ExitPlanMode)', async () => {
  const { page } = await launch.session({ id: 'claude', name: 'Claude Code', scenario: 'e2e-real-plans' }, { viewport: { width: 1100, height: 860 } })
  await sendPrompt(page, 'exit-plan')
  const card = transcript(page).getByRole('article').filter({ hasText: 'Approve Plan' })
  await visible(page.getByRole('button', { name: /No, keep planning/ }))
  await visible(card.getByRole('heading', { name: 'Rename OLDNAME' }))
  await visible(card.getByRole('cell', { name: 'Edit', exact: true }))
  await page.evaluate(() => document.fonts.ready.then(() => undefined))
  await screenshot(page, 'real-plans-claude-exit-plan')
  await page.getByRole('button', { name: /No, keep planning/ }).click()
  await waitIdle(page)
  // Answered, the card still shows what was asked.
  await visible(card.getByRole('heading', { name: 'Rename OLDNAME' }))
})

it("makes OpenCode's todo list the session's plan (opencode-ai 1.18.33, todowrite)", async () => {
  const { page } = await launch.session({ id: 'opencode', name: 'OpenCode', scenario: 'e2e-real-plans' }, { viewport: { width: 1100, height: 860 } })
  await sendPrompt(page, 'todos')
  await visible(transcript(page).getByText('Done: the list is written.'))
  await waitIdle(page)
  await visible(planPanel(page).getByText('2/3 done'))
  await openPlan(page)
  await expect.poll(() => planPanel(page).getByRole('listitem').allInnerTexts()).toEqual([
    expect.stringContaining('Read the file'),
    expect.stringContaining('Edit the file'),
    expect.stringContaining('Run the tests'),
  ])
  await page.evaluate(() => document.fonts.ready.then(() => undefined))
  await screenshot(page, 'real-plans-opencode-todos')
})

it("draws Codex's proposed plan, a v2 markdown plan, as Markdown (codex-acp 2.6.0, Plan mode)", async () => {
  const { page } = await launch.session({ id: 'codex', name: 'Codex', scenario: 'e2e-real-plans', v2: true }, { viewport: { width: 1100, height: 860 } })
  await sendPrompt(page, 'propose')
  await visible(transcript(page).getByText('Shall I go ahead?'))
  await waitIdle(page)
  await openPlan(page)
  await visible(planPanel(page).getByRole('heading', { name: 'Rename OLDNAME' }))
  await visible(planPanel(page).getByText('Run the tests.'))
  expect(await planPanel(page).innerText()).not.toMatch(/done|"markdown"/)
  await page.evaluate(() => document.fonts.ready.then(() => undefined))
  await screenshot(page, 'real-plans-codex-proposed')
})
