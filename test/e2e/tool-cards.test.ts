/**
 * Tool cards as claude-agent-acp sends them: a Bash call waiting for approval, and Edit calls whose diff is the
 * replaced snippet. Screenshots: test/e2e/screenshots/cards-{bash,edit}-{light,dark}.png.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { agentSays, sendPrompt, startSession, transcript, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'

const launch = launchPerTest()

for (const colorScheme of ['light', 'dark'] as const) {
  it(`shows a Bash call waiting for approval, and snippet edits (${colorScheme} theme)`, async () => {
    const app = await launch([{ id: 'scripted', name: AGENT, scenario: 'e2e-cards' }], { colorScheme, viewport: { width: 1100, height: 760 } })
    const { page } = app
    await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
    await page.addStyleTag({ content: '* { caret-color: transparent !important; }' })
    await sendPrompt(page, 'bash')
    const prompt = await visible(transcript(page).getByRole('alertdialog', { name: 'ls -la' }))
    // The command is on screen twice (the card's title and its Command block), not a third time as the prompt's title.
    await expect.poll(() => transcript(page).getByText('ls -la', { exact: true }).evaluateAll((nodes) => nodes.filter((n) => !n.closest('.sr-only') && n.getBoundingClientRect().width > 1).length)).toBe(2)
    await page.evaluate(() => document.fonts.ready.then(() => undefined))
    await screenshot(page, `cards-bash-${colorScheme}`)
    await prompt.getByRole('button', { name: /^Allow/ }).first().click()
    await visible(agentSays(page, AGENT).getByText('done bash'))
    await waitIdle(page)

    await sendPrompt(page, 'edit')
    await visible(agentSays(page, AGENT).getByText('done edit'))
    await waitIdle(page)
    // The snippet placed by its location is numbered from there; the one nothing places is not numbered.
    await visible(transcript(page).getByText('@@ -128,2 +128,2 @@'))
    await visible(transcript(page).getByRole('figure', { name: 'Diff of /tmp/proj/src/lexer.ts' }).getByText('excerpt'))
    await screenshot(page, `cards-edit-${colorScheme}`)
  })
}
