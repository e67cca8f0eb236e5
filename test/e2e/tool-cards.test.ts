/**
 * Tool cards as claude-agent-acp sends them: a Bash call waiting for approval, and Edit calls whose diff is the
 * replaced snippet; codex-acp's v1 commands, whose terminal it shows through the `_meta` terminal extension; and as
 * OpenCode sends a file it read and its todo list (bare text, JSON). Screenshots:
 * test/e2e/screenshots/cards-{bash,edit}-{light,dark}.png.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { agentSays, sendPrompt, terminalText, transcript, UI_TIMEOUT, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'

const launch = launchPerTest()

for (const colorScheme of ['light', 'dark'] as const) {
  it(`shows a Bash call waiting for approval, and snippet edits (${colorScheme} theme)`, async () => {
    const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-cards' }, { colorScheme, viewport: { width: 1100, height: 760 } })
    await page.addStyleTag({ content: '* { caret-color: transparent !important; }' })
    await sendPrompt(page, 'bash')
    const prompt = await visible(transcript(page).getByRole('alertdialog', { name: 'ls -la' }))
    // The command is on screen once, as the card's title (claude-agent-acp's): not again in a Command block, nor as the prompt's title.
    await expect.poll(() => transcript(page).getByText('ls -la', { exact: true }).evaluateAll((nodes) => nodes.filter((n) => !n.closest('.sr-only') && n.getBoundingClientRect().width > 1).length)).toBe(1)
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

it("shows a v1 agent's own terminal (codex-acp's `_meta` terminal extension): its output and exit; a rejected one is not running", async () => {
  const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-cards' })
  await sendPrompt(page, 'codex-shell')
  await visible(agentSays(page, AGENT).getByText('done codex shell'))
  await waitIdle(page)
  const card = transcript(page).getByRole('article', { name: /npm test/ })
  const terminal = await visible(card.getByRole('region', { name: 'Terminal call_1' }))
  await expect.poll(() => terminalText(terminal), { timeout: UI_TIMEOUT }).toContain('Tests: 3 passed')
  expect(await terminalText(terminal)).toContain('PASS src/a.test.ts')
  await visible(terminal.getByRole('status').getByText('exit 0'))
  expect(await card.getByText('Bosun did not run this terminal').count()).toBe(0)

  await sendPrompt(page, 'codex-reject')
  await (await visible(transcript(page).getByRole('button', { name: /No, and tell Codex/ }))).click()
  await waitIdle(page)
  const rejected = transcript(page).getByRole('article', { name: /rm -rf build/ })
  await visible(rejected.getByText('Rejected by you', { exact: false }))
  await visible(rejected.getByText('No output', { exact: true }))
  expect(await rejected.getByText('running', { exact: true }).count()).toBe(0)
  await visible(page.getByRole('note', { name: 'How the turn ended' }).getByText('The agent cancelled the turn.'))

  // A failed call's fenced error (claude-agent-acp fences its error prose) wraps rather than scrolling sideways.
  await sendPrompt(page, 'failed-fence')
  await visible(agentSays(page, AGENT).getByText('done failed fence'))
  const reason = transcript(page).getByRole('article', { name: /npm run deploy/ }).locator('pre.md-code')
  await visible(reason.getByText('continue with other tasks', { exact: false }))
  expect(await reason.evaluate((pre) => pre.scrollWidth - pre.clientWidth)).toBeLessThanOrEqual(1)
})

it('shows a file read and a JSON output sent bare (OpenCode) as sent, not as Markdown', async () => {
  const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-cards' })
  await sendPrompt(page, 'read')
  await visible(agentSays(page, AGENT).getByText('done read'))
  await waitIdle(page)
  const read = transcript(page).locator('pre.tool-output').first()
  await expect.poll(() => read.textContent()).toBe('# Notes\n\n__init__.py\n* not a list item')
  await expect.poll(() => transcript(page).getByRole('heading', { name: 'Notes' }).count()).toBe(0)
  const todos = transcript(page).locator('pre.tool-output').nth(1)
  await expect.poll(() => todos.textContent()).toContain('  {\n    "content": "Inspect the folder",')
})
