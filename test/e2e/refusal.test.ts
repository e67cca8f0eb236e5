/**
 * A v1 refusal (F4): the prompt and everything the agent answered to it are out of the agent's context, and each
 * says so to a screen reader; on screen the prompt and the turn's note say it, and the rest has a dashed rule. The
 * turn before says nothing of the kind. Screenshots in the light and the dark theme:
 * test/e2e/screenshots/refusal-{light,dark}.png.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { agentSays, sendPrompt, transcript, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'
const NOTE = "Excluded from the agent's context (refused)"
const TURN_NOTE = "The agent declined to continue this turn. Your message and the reply are left out of the agent's context."

const launch = launchPerTest()

for (const colorScheme of ['light', 'dark'] as const) {
  it(`marks the refused turn, prompt and answer, as excluded (${colorScheme} theme)`, async () => {
    const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-refusal' }, { colorScheme, viewport: { width: 1100, height: 760 } })
    await sendPrompt(page, 'hello')
    await visible(agentSays(page, AGENT).getByText('Hello! What should I look at?'))
    await waitIdle(page)
    await sendPrompt(page, 'refuse')
    await visible(agentSays(page, AGENT).getByText("I can't help with wiping other people's machines."))
    await waitIdle(page)
    // The prompt, the thought, both messages and the tool call of the refused turn; nothing of the turn before.
    await expect.poll(() => transcript(page).getByText(NOTE).count()).toBe(5)
    await expect.poll(() => agentSays(page, AGENT).filter({ hasText: 'Hello! What should I look at?' }).getByText(NOTE).count()).toBe(0)
    // On screen it is said twice, not under every entry: on the prompt, and in the note that ends the turn.
    await visible(transcript(page).getByText(TURN_NOTE))
    await expect.poll(() => transcript(page).getByText(NOTE).evaluateAll((nodes) => nodes.filter((n) => n.getBoundingClientRect().width > 1).length)).toBe(1)

    await page.evaluate(() => document.fonts.ready.then(() => undefined))
    await page.addStyleTag({ content: '* { caret-color: transparent !important; }' })
    await screenshot(page, `refusal-${colorScheme}`)
  })
}
