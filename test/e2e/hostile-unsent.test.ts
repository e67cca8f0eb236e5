/**
 * Messages that do not go, end to end: a paste longer than one message may carry is refused by main with its size
 * and the way on, and stays in the message box; a message waiting for the agent to start again can be withdrawn
 * (Don't send), and is back in the message box before what was typed meanwhile, never sent.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { Scenario } from '../agents/scenario'
import { launchPerTest, screenshot } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import { gone, messageBox, restartFromAgentsPage, sendButton, sendPrompt, transcript, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'
const launch = launchPerTest()
const scenarioFile = scenarioFiles()

it('a paste of 1.5 million characters is refused with its size and what to do, and stays in the message box', async () => {
  const { page } = await launch.session({ id: 'a', name: AGENT, scenario: 'e2e-session' }, { viewport: { width: 1280, height: 800 } })
  const long = `${'log line '.repeat(166_667)}end`
  await messageBox(page).fill(long)
  await sendButton(page).click()
  const notices = page.getByRole('region', { name: 'Notices' })
  await visible(notices.getByText('Sending the message failed'))
  await visible(notices.getByText("This message has 1.4 MiB of text; one message may have up to 1.0 MiB. Put a long text in a file in the session's folder and mention it with @."))
  expect(await messageBox(page).inputValue()).toBe(long)
  expect(await transcript(page).getByLabel(/^Your message/).count()).toBe(0)
  await screenshot(page, 'hostile-unsent-too-long-light')
})

it('a message waiting for the agent to start again is withdrawn by Don’t send: back in the message box, never sent', async () => {
  const fixture = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'scenarios', 'e2e-session.json'), 'utf8')) as Scenario
  // Every start waits in `initialize` while `go` is missing (it is beside a scenario file, removed with it).
  const go = `${scenarioFile('held-go', {})}.go`
  writeFileSync(go, '')
  const scenario = scenarioFile('held-starts', { ...fixture, initialize: { ...fixture.initialize, capabilities: { ...fixture.initialize?.capabilities, loadSession: true }, untilFile: go } })
  const { page } = await launch.session({ id: 'a', name: AGENT, scenario }, { viewport: { width: 1280, height: 800 } })
  await sendPrompt(page, 'fix')
  await waitIdle(page)
  rmSync(go)
  const watch = await restartFromAgentsPage(page, AGENT)

  await sendPrompt(page, 'again')
  const waiting = await visible(page.getByRole('status', { name: 'Message waiting to be sent' }))
  await messageBox(page).fill('meanwhile')
  await screenshot(page, 'hostile-unsent-waiting-light')
  await page.getByRole('button', { name: 'Don’t send', exact: true }).click()
  // Withdrawn while the agent is still starting: the message is the box's again, before what was typed meanwhile.
  await gone(waiting)
  await expect.poll(() => messageBox(page).inputValue()).toBe('again\n\nmeanwhile')
  expect(await page.getByRole('region', { name: 'Notices' }).getByText('Sending the message failed').count()).toBe(0)
  await screenshot(page, 'hostile-unsent-withdrawn-light')
  writeFileSync(go, '')
  await watch.waitForStatuses(['Starting', 'Ready'])
  expect(await transcript(page).getByLabel('Your message').allInnerTexts()).toEqual(['fix'])
  await messageBox(page).fill('after')
  await messageBox(page).press('Enter')
  await waitIdle(page)
  await expect.poll(() => transcript(page).getByLabel('Your message').allInnerTexts()).toEqual(['fix', 'after'])
})
