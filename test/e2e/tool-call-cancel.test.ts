/**
 * v2 `tool_call/cancel` (E15) in Chromium against the browser host, with the scripted v2 agent: Cancel appears on a
 * running tool call's card only while the call advertises `capabilities.cancel` (not on its neighbour, not once the
 * agent withdrew it); pressed, it says "Cancelling…" and the card ends Cancelled when the agent's final status comes,
 * while the turn goes on and ends normally. The agent's -32602 is a quiet line on the card, not an error, and the turn
 * keeps running. A call left running in the background is cancelled from the background-work indicator too
 * (screenshots tool-call-cancel-*).
 */
import type { Page } from 'playwright'
import { expect, it } from 'vitest'
import { axeViolations } from './support/axe'
import { launchPerTest, screenshot } from './support/harness'
import { agentSays, gone, sendPrompt, startSession, stopButton, transcript, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'

const launch = launchPerTest()

/** A new session with the scripted v2 agent, `prompt` sent. */
async function sessionWith(prompt: string): Promise<Page> {
  const app = await launch([{ id: 'scripted', name: AGENT, scenario: 'v2-tool-call-cancel', v2: true }], { viewport: { width: 1100, height: 760 } })
  await startSession(app.page, { agentName: AGENT, cwd: app.home.workspace })
  await sendPrompt(app.page, prompt)
  return app.page
}

it('Cancel on a tool call that offers it: cancelling, then cancelled; the turn goes on; no Cancel without the capability', async () => {
  const page = await sessionWith('build')
  const build = transcript(page).getByRole('article', { name: /Build the project/ })
  const read = transcript(page).getByRole('article', { name: /Read package\.json/ })
  const cancel = await visible(build.getByRole('button', { name: 'Cancel Build the project' }))
  await visible(read.getByText('In progress'))
  expect(await read.getByRole('button', { name: /^Cancel/ }).count()).toBe(0)
  await screenshot(page, 'tool-call-cancel-offered')
  expect(await axeViolations(page, '.tool-card')).toEqual([])

  await cancel.click()
  await visible(build.getByText('Cancelled'))
  await gone(build.getByRole('button', { name: /Cancel/ }))
  // Only that call: the turn went on, its other call finished, and it ended as the agent said.
  await visible(agentSays(page, AGENT).getByText('The build was stopped; nothing else changed.'))
  await waitIdle(page)
  await visible(read.getByText('Completed'))
  expect(await transcript(page).getByText('Stopped', { exact: true }).count()).toBe(0)
  await build.scrollIntoViewIfNeeded()
  await screenshot(page, 'tool-call-cancel-cancelled')

  // The agent withdrew it (capabilities: null): no Cancel, though the call still runs.
  await sendPrompt(page, 'withdraw')
  await visible(agentSays(page, AGENT).getByText('Linting can no longer be stopped.'))
  await waitIdle(page)
  const lint = transcript(page).getByRole('article', { name: /Lint the sources/ })
  await visible(lint)
  expect(await lint.getByRole('button', { name: /^Cancel/ }).count()).toBe(0)
})

it("the agent's refusal (-32602) is a quiet note on the card, and the turn keeps running", async () => {
  const page = await sessionWith('refuse')
  const deploy = transcript(page).getByRole('article', { name: /Deploy the preview/ })
  await deploy.getByRole('button', { name: 'Cancel Deploy the preview' }).click()
  await visible(deploy.getByText('The agent could not cancel this: it had already finished, or could no longer be stopped.'))
  await visible(deploy.getByText('In progress'))
  // Not a turn error: no alert, and the turn still runs (Stop is still offered).
  expect(await page.getByRole('alert').count()).toBe(0)
  await visible(stopButton(page))
  await screenshot(page, 'tool-call-cancel-refused')
  await stopButton(page).click()
  await waitIdle(page)
})

it('a tool call left running in the background is cancelled from the background-work indicator', async () => {
  const page = await sessionWith('index')
  await visible(agentSays(page, AGENT).getByText('Indexing goes on in the background.'))
  await waitIdle(page)
  const indicator = await visible(page.getByRole('region', { name: 'Background work' }))
  await visible(indicator.getByRole('status').getByText('1 task still running in the background'))
  await screenshot(page, 'tool-call-cancel-background')
  await indicator.getByRole('button', { name: 'Cancel Index the repository' }).click()
  await gone(page.getByRole('region', { name: 'Background work' }))
  await visible(transcript(page).getByRole('article', { name: /Index the repository/ }).getByText('Cancelled'))
})

it("Cancel on a subagent's tool call, shown in its parent's transcript: pressed, the card ends Cancelled", async () => {
  const page = await sessionWith('subagent')
  await waitIdle(page)
  const docs = transcript(page).getByRole('article', { name: /Build the docs/ })
  await visible(docs.getByText('Subagent: Build in the background'))
  const cancel = await visible(docs.getByRole('button', { name: 'Cancel Build the docs' }))
  await screenshot(page, 'subagent-tool-call-cancel-offered')
  await cancel.click()
  await visible(docs.getByText('Cancelled'))
  await gone(docs.getByRole('button', { name: /Cancel/ }))
  await screenshot(page, 'subagent-tool-call-cancelled')
})
