/**
 * A command stopped, and one refused, as claude-agent-acp 0.101 reports them (its messages replayed, ids shortened): at
 * Stop it reports the interrupted Bash call failed, with its note to the model as the terminal's output and an exit of
 * neither code nor signal; a command Claude Code blocks before it runs ("Blocked: sleep 25 …") comes as a failed call
 * whose terminal output is the `<tool_use_error>`. Screenshot: test/e2e/screenshots/stop-claude.png.
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
  await expect.poll(() => terminalText(terminal), { timeout: UI_TIMEOUT }).toContain('stopped while running')
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
  const reason = asking.locator('pre.md-code')
  await visible(reason.getByText('STOP what you are doing', { exact: false }))
  expect(await reason.evaluate((pre) => pre.scrollWidth - pre.clientWidth)).toBeLessThanOrEqual(1)
})
