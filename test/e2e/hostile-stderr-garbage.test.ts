/**
 * An agent that prints garbage on stderr before it crashes: a window title, colours, clear screen, NUL, and its last
 * words with a right-to-left override. The session's banner quoted those words with the override working, so
 * "gnorw" read "wrong", and it showed the escapes as "[1m". Now the banner and its excerpt show no escapes, and the
 * override shows as a marker (screenshot hostile-stderr-garbage), in the agent's log too (hostile-stderr-garbage-log).
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import { sendPrompt, startSession, visible, waitIdle, watchAgent } from './support/session-ui'

const AGENT = 'Garbage agent'
const launch = launchPerTest()
const scenarioFile = scenarioFiles()

it('the error banner of an agent that crashed printing garbage: no escapes, the override as a marker', async () => {
  const scenario = scenarioFile('stderr-garbage', {
    prompts: {
      default: [
        { type: 'text', text: 'About to crash' },
        { type: 'stderr', text: '\u001b]0;pwned\u0007\u001b[31mError:\u001b[0m \u202Edlrow olleh\u0000\r\n\u001b[2Jfatal: \u001b[1mlast\u001b[0m \u202Egnorw' },
        { type: 'crash', code: 3 },
      ],
    },
  })
  const app = await launch([{ id: 'garbage', name: AGENT, scenario }], { viewport: { width: 1100, height: 760 } })
  const { page } = app
  await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
  const agent = await watchAgent(page, AGENT)
  // The third crash within minutes is not restarted: its banner stays.
  for (let crash = 1; crash <= 3; crash++) {
    await agent.clear()
    await sendPrompt(page, 'crash')
    await waitIdle(page)
    if (crash < 3) await agent.waitForStatuses(['Restarting', 'Ready'])
  }
  const banner = await visible(page.getByRole('alert', { name: `${AGENT} failed` }))
  const text = await banner.innerText()
  for (const raw of ['\u202E', '\u001b', '[1m', '[31m', 'pwned']) expect(text).not.toContain(raw)
  expect(text).toMatch(/fatal: last (⟨U\+202E⟩|RLO)/)
  await screenshot(page, 'hostile-stderr-garbage')

  // The agent's log, from the turn's alert: the escapes gone there too, the override a marker.
  await page.getByRole('alert').filter({ hasText: 'The turn ended with an error' }).first().getByRole('button', { name: 'Agent’s log' }).click()
  await visible(page.getByRole('tab', { name: 'Logs', selected: true }))
  const log = await visible(page.getByRole('log', { name: 'Agent log' }))
  await visible(log.getByText('dlrow olleh', { exact: false }))
  const logText = await log.innerText()
  for (const raw of ['\u202E', '\u001b', '[1m', '[31m']) expect(logText).not.toContain(raw)
  await visible(log.locator('abbr[title="U+202E RIGHT-TO-LEFT OVERRIDE"]'))
  await screenshot(page, 'hostile-stderr-garbage-log')
}, 90_000)
