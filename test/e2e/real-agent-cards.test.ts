/**
 * Tool cards as real agents send them (captured in /tmp/agents11 from claude-agent-acp 0.101.0 and OpenCode 1.18.33),
 * replayed by the scripted agent, in Chromium against the browser host: Claude's edit of three places in a 3,000-line
 * file numbers each hunk from its own location; OpenCode's completed edit keeps, under its excerpt, the diff the person
 * approved; a command OpenCode reports completed after Stop reads "Stopped", its note to its model a quiet line.
 * Screenshots real-cards-*.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { agentSays, sendPrompt, startSession, transcript, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'
const launch = launchPerTest()

it('replays real agents\' edit and command cards: hunks at their own lines, the approved diff kept, a stopped command', async () => {
  const app = await launch([{ id: 'scripted', name: AGENT, scenario: 'e2e-real-agent-cards' }], { viewport: { width: 1280, height: 900 } })
  const { page } = app
  await startSession(page, { agentName: AGENT, cwd: app.home.workspace })

  await sendPrompt(page, 'claude-replace-all')
  await visible(agentSays(page, AGENT).getByText('Renamed in three places.'))
  await waitIdle(page)
  const claude = transcript(page).getByRole('article', { name: /Edit big\.ts/ })
  expect(await claude.getByText(/^@@ -\d+/).allInnerTexts()).toEqual(['@@ -7,7 +7,7 @@', '@@ -1007,7 +1007,7 @@', '@@ -2007,7 +2007,7 @@'])
  await claude.getByText('@@ -1007,7 +1007,7 @@').scrollIntoViewIfNeeded()
  await screenshot(page, 'real-cards-claude-replace-all')

  await sendPrompt(page, 'opencode-replace-all')
  await (await visible(page.getByRole('button', { name: 'Allow once', exact: true }))).click()
  await visible(agentSays(page, AGENT).getByText('Renamed with OpenCode.'))
  await waitIdle(page)
  const opencode = transcript(page).getByRole('article', { name: /small\.ts/ })
  await visible(opencode.getByText('The change as shown when the agent asked for approval:'))
  expect(await opencode.getByText(/^@@ -\d+/).allInnerTexts()).toEqual(['@@ -2,7 +2,7 @@', '@@ -12,7 +12,7 @@', '@@ -22,7 +22,7 @@'])
  await opencode.getByText('The change as shown when the agent asked for approval:').scrollIntoViewIfNeeded()
  await screenshot(page, 'real-cards-opencode-approved-diff')

  await sendPrompt(page, 'opencode-stopped')
  await visible(agentSays(page, AGENT).getByText('Stopped counting.'))
  await waitIdle(page)
  const command = transcript(page).getByRole('article', { name: /seq 1 60/ })
  await visible(command.getByText('Stopped', { exact: true }))
  await visible(command.getByText('User aborted the command', { exact: true }))
  expect(await command.getByText('Completed', { exact: true }).count()).toBe(0)
  expect(await command.innerText()).not.toContain('shell_metadata')
  await command.scrollIntoViewIfNeeded()
  await screenshot(page, 'real-cards-opencode-stopped')
})
