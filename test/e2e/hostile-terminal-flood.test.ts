/**
 * A command that prints without pause (`yes`, run by the hostile agent for 4 s) end to end: its card follows it with the
 * newest output while it runs, shows the retained tail once it was killed, and the session goes on (its card was sent
 * every byte, and a long run stopped the session at its limit of agent output).
 */
import { expect, it } from 'vitest'
import { hostileAgentCommand } from '../agents/command'
import { launchPerTest, screenshot } from './support/harness'
import { messageBox, sendPrompt, terminalText, transcript, visible, waitIdle } from './support/session-ui'

const AGENT = 'Flooding agent'
const launch = launchPerTest()

it('a terminal printing without pause: its card shows the newest output, the session goes on', async () => {
  const { page } = await launch.session({
    id: 'flood',
    name: AGENT,
    scenario: 'basic',
    // Offered 1, as it answers: Bosun serves terminals to the version it offered.
    protocolVersion: 1,
    command: hostileAgentCommand('term-yes', { count: 4_000, extraArgs: ['--variant', 'default'] }),
  })
  await sendPrompt(page, 'go')
  const card = transcript(page).getByRole('article').filter({ hasText: 'Run yes' })
  const terminal = await visible(card.getByRole('region', { name: /^Terminal/ }))
  await expect.poll(() => terminalText(terminal)).toContain('yyyy')
  await screenshot(page, 'hostile-terminal-flood-running-light')
  await waitIdle(page)
  await visible(transcript(page).getByText('after yes'))
  expect(await terminalText(terminal)).toMatch(/y{20}/)
  expect(await page.getByText(/reached Bosun's limit/).count()).toBe(0)
  expect(await messageBox(page).isDisabled()).toBe(false)
  await screenshot(page, 'hostile-terminal-flood-ended-light')
}, 60_000)
