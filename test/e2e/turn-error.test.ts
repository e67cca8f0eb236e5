/**
 * A turn that ended with an error after partial output (claude-agent-acp's 429) is told by the alert under the
 * transcript while it is the last turn, and keeps a quiet mark after its partial answer once the next turn started,
 * so that answer does not read as a complete one. Screenshots: test/e2e/screenshots/turn-error-{light,dark}.png.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { agentSays, messageBox, sendPrompt, startSession, transcript, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'

const launch = launchPerTest()

for (const colorScheme of ['light', 'dark'] as const) {
  it(`keeps a mark where a turn ended with an error (${colorScheme} theme)`, async () => {
    const app = await launch([{ id: 'scripted', name: AGENT, scenario: 'e2e-turn-error' }], { colorScheme, viewport: { width: 1100, height: 760 } })
    const { page } = app
    await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
    await sendPrompt(page, 'explain')
    // Worded as the mark below will be: the code, then the message (it read "…: API Error: 429 … (code 429)").
    await visible(page.getByRole('alert').filter({ hasText: 'The turn ended with an error (code 429): API Error: 429 rate_limit_error' }))
    await waitIdle(page)
    // The message was sent and answered: the composer does not offer it again.
    await expect.poll(() => messageBox(page).inputValue()).toBe('')
    // Told once: the alert, not the mark as well.
    await expect.poll(() => transcript(page).getByRole('note', { name: 'How the turn ended' }).count()).toBe(0)
    await page.evaluate(() => document.fonts.ready.then(() => undefined))
    await page.addStyleTag({ content: '* { caret-color: transparent !important; }' })
    await screenshot(page, `turn-error-alert-${colorScheme}`)

    await sendPrompt(page, 'again')
    await visible(agentSays(page, AGENT).getByText('Picking up where I stopped'))
    await waitIdle(page)
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'The turn ended with an error' }).count()).toBe(0)
    const mark = transcript(page).getByRole('note', { name: 'How the turn ended' })
    const summary = mark.getByText('The turn ended with an error (code 429): API Error: 429 rate_limit_error')
    await visible(summary)
    await screenshot(page, `turn-error-${colorScheme}`)
    await summary.click()
    await visible(mark.getByText(/exceed the rate limit/))
    await screenshot(page, `turn-error-open-${colorScheme}`)
  })
}
