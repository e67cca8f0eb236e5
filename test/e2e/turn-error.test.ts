/**
 * A turn that ended with an error after partial output (claude-agent-acp's 429) is told by the alert under the
 * transcript while it is the last turn, and keeps a quiet mark after its partial answer once the next turn started,
 * so that answer does not read as a complete one. Screenshots: test/e2e/screenshots/turn-error-{light,dark}.png.
 */
import { expect, it } from 'vitest'
import { expectAxeCleanInBothThemes } from './support/axe'
import { launchPerTest, screenshot } from './support/harness'
import { agentSays, messageBox, sendPrompt, transcript, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'

const launch = launchPerTest()

for (const colorScheme of ['light', 'dark'] as const) {
  it(`keeps a mark where a turn ended with an error (${colorScheme} theme)`, async () => {
    const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-turn-error' }, { colorScheme, viewport: { width: 1100, height: 760 } })
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

it('says what to do after a turn that ended with an error: send the message again, edit it, or read the agent’s log', async () => {
  const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-turn-error' }, { viewport: { width: 900, height: 760 } })
  await sendPrompt(page, 'explain')
  const alert = page.getByRole('alert').filter({ hasText: 'The turn ended with an error' })
  await visible(alert.getByText('You can send the message again, or read the agent’s log for what went wrong.'))
  await waitIdle(page)
  await screenshot(page, 'turn-error-next-steps')
  // Its buttons are named and its words readable (contrast on the alert's tint) in both themes.
  await expectAxeCleanInBothThemes(page, 'the alert of a turn that ended with an error', '.turn-error')

  // Edit message: the message goes back in the message box, which takes the keyboard.
  await alert.getByRole('button', { name: 'Edit message' }).click()
  await expect.poll(() => messageBox(page).inputValue()).toBe('explain')
  await messageBox(page).fill('')

  // Send again: the same message is sent (the scripted agent fails it the same way: two of them in the transcript now).
  await alert.getByRole('button', { name: 'Send again' }).click()
  await expect.poll(() => transcript(page).getByRole('note', { name: 'How the turn ended' }).count()).toBe(1)
  await waitIdle(page)

  // Agent’s log: the Agents page, on this agent's Logs tab; Close gives the session back.
  await page.getByRole('alert').filter({ hasText: 'The turn ended with an error' }).getByRole('button', { name: 'Agent’s log' }).click()
  await visible(page.getByRole('tab', { name: 'Logs', selected: true }))
  await page.keyboard.press('Escape')
  await visible(messageBox(page))
})
