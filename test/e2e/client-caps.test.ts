/**
 * What agents can ask of Bosun, in Chromium against the browser host: a command the agent runs through
 * `terminal/*` shows live on its tool card in a terminal emulator, with its exit status (light and dark
 * screenshots: test/e2e/screenshots/terminal-card-{light,dark}.png).
 */
import { afterEach, expect, it } from 'vitest'
import { launchApp, screenshot, type E2eApp } from './support/harness'
import { agentSays, sendPrompt, startSession, transcript, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'

let app: E2eApp | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

for (const colorScheme of ['light', 'dark'] as const) {
  it(`shows a live terminal on the tool card (${colorScheme})`, async () => {
    app = await launchApp([{ id: 'scripted', name: AGENT, scenario: 'e2e-terminal' }], { colorScheme, viewport: { width: 1280, height: 860 } })
    const { page } = app
    await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
    await sendPrompt(page, 'run')
    await visible(agentSays(page, AGENT).getByText('All tests pass.'))
    await waitIdle(page)
    const terminal = transcript(page).getByRole('region', { name: /^Terminal term-/ })
    await visible(terminal.getByRole('status').getByText('exit 0'))
    await expect.poll(() => terminal.locator('.xterm-rows').innerText(), { timeout: 10_000 }).toContain('PASS 60 tests')
    // The escape sequence was rendered as colour, not shown as text.
    expect(await terminal.locator('.xterm-rows').innerText()).not.toContain('[32m')
    expect(await terminal.locator('.xterm-rows').innerText()).toContain('line 60 of the test run')
    await page.evaluate(() => document.fonts.ready.then(() => undefined))
    await terminal.scrollIntoViewIfNeeded()
    await screenshot(page, `terminal-card-${colorScheme}`)
  })
}
