/**
 * A command stopped, and one refused, as claude-agent-acp 0.101 reports them (its messages replayed, ids shortened): at
 * Stop it reports the interrupted Bash call failed, with its note to the model as the terminal's output and an exit of
 * neither code nor signal; a command Claude Code blocks before it runs ("Blocked: sleep 25 …") comes as a failed call
 * whose terminal output is the `<tool_use_error>`. The note to the model ("The user doesn't want to proceed… STOP what
 * you are doing…") is not the command's output, nor words to the person: the card says "Stopped by you" and keeps the
 * note folded under "What the agent told its model". Screenshots: test/e2e/screenshots/stop-claude(-asking).png.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { agentSays, sendPrompt, stopButton, terminalText, transcript, UI_TIMEOUT, visible, waitIdle } from './support/session-ui'

const AGENT = 'Claude'

const launch = launchPerTest()

it('a command stopped with the turn reads Cancelled and "stopped", not a red failure; one Claude Code blocked reads "not run", without the tags', async () => {
  const { page } = await launch.session({ id: 'claude', name: AGENT, scenario: 'e2e-claude-stop' })

  await sendPrompt(page, 'stop')
  const stopped = transcript(page).getByRole('article', { name: /seq 1 30/ })
  await visible(stopped.getByRole('region', { name: 'Terminal toolu_slow' }))
  await (await visible(stopButton(page))).click()
  await waitIdle(page)
  await visible(page.getByRole('note', { name: 'How the turn ended' }).getByText(/^Stopped\./))
  const terminal = stopped.getByRole('region', { name: 'Terminal toolu_slow' })
  // Claude's Bash showed no output before the Stop; its note to the model is folded, not shown as the output.
  await visible(terminal.getByText('No output. Stopped by you.', { exact: true }))
  expect(await terminal.locator('.xterm-rows').count()).toBe(0)
  const note = terminal.getByRole('group').filter({ hasText: 'What the agent told its model' })
  await visible(note.getByText('What the agent told its model'))
  expect(await note.getByText(/STOP what you are doing/).isVisible()).toBe(false)
  await note.getByText('What the agent told its model').click()
  await visible(note.getByText(/stopped while running, not refused before it ran/))
  // The agent's later "failed" does not undo the Stop the person asked for.
  await visible(stopped.getByText('Cancelled', { exact: true }))
  expect(await stopped.getByText('Failed', { exact: true }).count()).toBe(0)
  await visible(terminal.getByRole('status').getByText('stopped', { exact: true }))
  expect(await terminal.getByText('exited', { exact: true }).count()).toBe(0)

  await sendPrompt(page, 'blocked')
  await visible(agentSays(page, AGENT).getByText('The command was blocked.'))
  await waitIdle(page)
  const blocked = transcript(page).getByRole('article', { name: /sleep 25/ })
  const refusal = blocked.getByRole('region', { name: 'Terminal toolu_blocked' })
  await visible(refusal.getByRole('status').getByText('not run', { exact: true }))
  await expect.poll(() => terminalText(refusal), { timeout: UI_TIMEOUT }).toContain('Blocked: sleep 25 followed by: echo slept.')
  expect(await terminalText(refusal)).not.toContain('tool_use_error')
  await stopped.scrollIntoViewIfNeeded()
  await screenshot(page, 'stop-claude')

  // Stopped while it asked: the call stays Cancelled, and what the agent says of it (fenced, one long line) wraps.
  await sendPrompt(page, 'stop-asking')
  const asking = transcript(page).getByRole('article', { name: /Write z9\.txt/ })
  await visible(asking.getByRole('button', { name: /^No/ }))
  await (await visible(stopButton(page))).click()
  await waitIdle(page)
  await visible(asking.getByText('Cancelled', { exact: true }))
  expect(await asking.locator('pre.md-code').count()).toBe(0)
  const told = asking.getByRole('group').filter({ hasText: 'What the agent told its model' })
  await told.getByText('What the agent told its model').click()
  const reason = await visible(told.getByText(/STOP what you are doing/))
  expect(await reason.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1)
  await asking.scrollIntoViewIfNeeded()
  await screenshot(page, 'stop-claude-asking')
})
