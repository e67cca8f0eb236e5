/**
 * A v1 refusal (F4): the prompt and everything the agent answered to it are out of the agent's context, and each
 * says so; the turn before says nothing of the kind. Screenshots in the light and the dark theme:
 * test/e2e/screenshots/refusal-{light,dark}.png.
 */
import { afterEach, expect, it } from 'vitest'
import { launchApp, screenshot, type E2eApp } from './support/harness'
import { agentSays, sendPrompt, startSession, transcript, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'
const NOTE = "Excluded from the agent's context (refused)"

let app: E2eApp | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

for (const colorScheme of ['light', 'dark'] as const) {
  it(`marks the refused turn, prompt and answer, as excluded (${colorScheme} theme)`, async () => {
    app = await launchApp([{ id: 'scripted', name: AGENT, scenario: 'e2e-refusal' }], { colorScheme, viewport: { width: 1100, height: 760 } })
    const { page } = app
    await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
    await sendPrompt(page, 'hello')
    await visible(agentSays(page, AGENT).getByText('Hello! What should I look at?'))
    await waitIdle(page)
    await sendPrompt(page, 'refuse')
    await visible(agentSays(page, AGENT).getByText("I can't help with wiping other people's machines."))
    await waitIdle(page)
    // The prompt, the thought, both messages and the tool call of the refused turn; nothing of the turn before.
    await expect.poll(() => transcript(page).getByText(NOTE).count()).toBe(5)
    await expect.poll(() => agentSays(page, AGENT).filter({ hasText: 'Hello! What should I look at?' }).getByText(NOTE).count()).toBe(0)

    await page.evaluate(() => document.fonts.ready.then(() => undefined))
    await page.addStyleTag({ content: '* { caret-color: transparent !important; }' })
    await screenshot(page, `refusal-${colorScheme}`)
  })
}
