/**
 * An agent that prints garbage on stderr before it crashes: a window title, colours, clear screen, NUL, and its last
 * words with a right-to-left override. The session's banner quoted those words with the override working, so
 * "gnorw" read "wrong", and it showed the escapes as "[1m". Now the banner and its excerpt show no escapes, and the
 * override shows as a marker (screenshot hostile-stderr-garbage).
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
}, 90_000)
