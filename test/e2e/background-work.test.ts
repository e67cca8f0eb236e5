/**
 * v2 background work in Chromium against the browser host, with the scripted v2 agent: a turn that ends while
 * two of the agent's terminals keep running shows the background-work indicator (which work, with its
 * command) and each terminal's content on its tool card; Cancel, on a card or in the indicator, sends
 * `terminal/cancel` and the terminal stops when its exit status arrives; with nothing left running the
 * indicator goes away (screenshots background-work-*).
 */
import { expect, it } from 'vitest'
import { axeViolations } from './support/axe'
import { launchPerTest, screenshot } from './support/harness'
import { agentSays, gone, sendPrompt, terminalText, transcript, UI_TIMEOUT, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'

const launch = launchPerTest()

for (const colorScheme of ['light', 'dark'] as const) {
  it(`a turn that ends with background work shows it; Cancel ends it (${colorScheme})`, async () => {
    const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-background', v2: true }, { colorScheme, viewport: { width: 1280, height: 860 } })
    await sendPrompt(page, 'start')
    await visible(agentSays(page, AGENT).getByText('Both keep running in the background'))
    await waitIdle(page)

    // The turn is over, the work is not: the indicator says which.
    const indicator = await visible(page.getByRole('region', { name: 'Background work' }))
    await visible(indicator.getByRole('status').getByText('2 tasks still running in the background'))
    await visible(indicator.getByText('npm run dev', { exact: true }))
    await visible(indicator.getByText('npm test -- --watch', { exact: true }))

    // Each terminal's own content on the card of the tool call that embeds it.
    const dev = transcript(page).getByRole('region', { name: 'Terminal dev' })
    const tests = transcript(page).getByRole('region', { name: 'Terminal tests' })
    await visible(dev.getByRole('status').getByText('running'))
    await expect.poll(() => terminalText(dev), { timeout: UI_TIMEOUT }).toContain('Local:   http://localhost:5173/')
    await expect.poll(() => terminalText(tests), { timeout: UI_TIMEOUT }).toContain('Watching for file changes')
    expect(await terminalText(dev)).not.toContain('[32m')
    await page.evaluate(() => document.fonts.ready.then(() => undefined))
    await tests.scrollIntoViewIfNeeded()
    await screenshot(page, `background-work-${colorScheme}`)
    expect(await axeViolations(page, '.background-work, .terminal')).toEqual([])

    // Show in the indicator scrolls the transcript to the card that shows the terminal (a short window: the
    // second card is below the view once the transcript is scrolled to its start).
    await page.setViewportSize({ width: 1280, height: 480 })
    const log = transcript(page)
    const cardInView = async () =>
      (await tests.count()) > 0 &&
      (await tests.evaluate((el) => {
        const view = el.closest('.transcript')!.getBoundingClientRect()
        const card = el.getBoundingClientRect()
        return card.bottom > view.top && card.top < view.bottom
      }))
    await log.hover()
    await page.mouse.wheel(0, -100_000)
    await expect.poll(cardInView, { timeout: UI_TIMEOUT }).toBe(false)
    await indicator.getByRole('button', { name: 'Show npm test -- --watch in the transcript' }).click()
    await expect.poll(cardInView, { timeout: UI_TIMEOUT }).toBe(true)
    await screenshot(page, `background-work-show-${colorScheme}`)
    await page.setViewportSize({ width: 1280, height: 860 })

    // Cancel on the card: "Cancelling…" until the agent's exit status; then it is shown as cancelled, not as an error.
    await dev.getByRole('button', { name: 'Cancel npm run dev' }).click()
    await visible(dev.getByRole('status').getByText('cancelled · signal SIGTERM'))
    await gone(dev.getByRole('button', { name: /Cancel/ }))
    await expect.poll(() => terminalText(dev), { timeout: UI_TIMEOUT }).toContain('^C')
    await visible(indicator.getByRole('status').getByText('1 task still running in the background'))
    await gone(indicator.getByText('npm run dev', { exact: true }))

    // Cancel in the indicator: the last running work ends, and the indicator with it.
    await indicator.getByRole('button', { name: 'Cancel npm test -- --watch' }).click()
    await visible(tests.getByRole('status').getByText('cancelled · exit 130 (SIGINT)'))
    await gone(page.getByRole('region', { name: 'Background work' }))
    // Cancelling a terminal changes neither its tool call nor the turn.
    await visible(transcript(page).getByRole('article', { name: /npm run dev/ }).getByText('Completed'))
    await visible(page.getByRole('status', { name: 'Turn: Idle' }))
    await tests.scrollIntoViewIfNeeded()
    await screenshot(page, `background-work-cancelled-${colorScheme}`)
  })
}
