/**
 * A 900 × 800 window with what real agents send (UX pass 5): claude-agent-acp's usage meter and cost in the header, a
 * request waiting, its mode and model under the composer, a five-step plan. The header and the footer once wrapped to
 * two rows each and the plan took about 170 px: the transcript had about 400 px of the 800.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { Locator, Page } from 'playwright'
import { launchPerTest, screenshot } from './support/harness'
import { sendPrompt, startSession, transcript, visible } from './support/session-ui'

const launch = launchPerTest()

const box = async (locator: Locator) => (await locator.boundingBox())!

/** Whether the elements are on one row: their vertical middles within a few pixels of each other. */
async function oneRow(locators: Locator[]): Promise<boolean> {
  const middles = await Promise.all(locators.map(async (l) => (await box(l)).y + (await box(l)).height / 2))
  return Math.max(...middles) - Math.min(...middles) <= 4
}

/** Starts a session, sends the turn that reports usage, shows a plan and a Read, and waits on an approval. */
async function waitingTurn(page: Page, agentName: string, cwd: string): Promise<void> {
  await startSession(page, { agentName, cwd })
  await sendPrompt(page, 'work')
  await visible(transcript(page).getByRole('alertdialog'))
  await visible(page.getByRole('button', { name: 'Waiting for you, 1' }))
  await visible(page.getByRole('meter', { name: 'Context window' }))
  await visible(page.getByRole('region', { name: 'Plan' }))
}

for (const colorScheme of ['light', 'dark'] as const) {
  it(`keeps the header and the footer one row at 900 px with a meter, a cost and a request waiting, the plan folded to one line (${colorScheme})`, async () => {
    const agent = 'Claude Code'
    const app = await launch([{ id: 'c', name: agent, scenario: 'e2e-claude-like' }], { colorScheme, viewport: { width: 900, height: 800 } })
    const { page } = app
    const cwd = join(app.home.workspace, 'billing')
    mkdirSync(cwd)
    await waitingTurn(page, agent, cwd)
    const header = page.locator('header.session-header')

    // The header: one row (the title, the status, the meter and the cost, Waiting for you with its count, the buttons).
    expect((await box(header)).height).toBeLessThanOrEqual(64)
    const approvals = page.getByRole('button', { name: 'Waiting for you, 1' })
    expect(await oneRow([page.locator('.session-heading'), page.getByRole('status', { name: /^Turn:/ }), page.locator('.usage-meter'), approvals])).toBe(true)
    expect(await approvals.getAttribute('title')).toBe('Waiting for you')
    await visible(header.getByLabel('Cost so far: $1.23'))
    // The title has the room the gaps gave up (it had about 190 px).
    expect((await box(page.locator('.session-title'))).width).toBeGreaterThanOrEqual(205)

    // The footer: the switch, the mode and the model on one row.
    const footer = page.locator('.session-footer')
    const controls = [footer.getByRole('switch', { name: /Auto-approve/ }), footer.getByRole('combobox', { name: 'Mode', exact: true }), footer.getByRole('combobox', { name: 'Model', exact: true })]
    expect(await oneRow(controls)).toBe(true)
    expect((await box(footer)).height).toBeLessThanOrEqual(36)

    // The plan, folded in a window this short: one line, saying how far it is and the step under way.
    const plan = page.getByRole('region', { name: 'Plan' })
    const toggle = plan.getByRole('button', { name: /^Plan/ })
    expect(await toggle.getAttribute('aria-expanded')).toBe('false')
    await visible(toggle.getByText('1/5 done'))
    await visible(toggle.getByText('Find where invoices are rounded'))
    expect((await box(plan)).height).toBeLessThanOrEqual(40)
    // The transcript keeps most of the window.
    expect((await box(transcript(page))).height).toBeGreaterThanOrEqual(560)
    await screenshot(page, `window-900-waiting-${colorScheme}`)

    // Opened, the steps are there; folded again, one line.
    await toggle.click()
    expect(await plan.getByRole('listitem').count()).toBe(5)
    await screenshot(page, `window-900-plan-open-${colorScheme}`)
    await toggle.click()
    expect(await plan.getByRole('listitem').count()).toBe(0)

    await page.setViewportSize({ width: 1280, height: 800 })
    await visible(header.getByText('Waiting for you', { exact: true }))
    await screenshot(page, `window-1280-waiting-${colorScheme}`)
  })
}
