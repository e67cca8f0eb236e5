/**
 * A form waiting for the person keeps its title in view while the agent goes on streaming below it (UX pass): the
 * transcript followed the stream, and a tall form's title went out of view as soon as it arrived, and again when the
 * focus was brought to it (from the inbox) while the stream went on.
 */
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import type { Page } from 'playwright'
import { launchPerTest, screenshot } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import { scenarioPath } from '../agents/command'
import type { Step } from '../agents/scenario'
import { agentSays, gone, inTranscriptView, sendPrompt, transcript, until, visible, waitIdle } from './support/session-ui'

const AGENT = 'Elicitation agent'
// Registered before the launch: the scenario is removed after the app that runs it is closed.
const writeScenario = scenarioFiles()
const launch = launchPerTest()

/** The tall "Project setup" form of the elicitation scenario, then `lines` lines streamed after it, 150 ms apart. */
function streamingFormScenario(lines: number): string {
  const elicitation = JSON.parse(readFileSync(scenarioPath('e2e-elicitation'), 'utf8')) as { prompts: Record<string, { params: Record<string, unknown> }[]> }
  const form = elicitation.prompts['every-field']![0]!.params
  const stream = Array.from({ length: lines }, (_, n): Step[] => [
    { type: 'sleep', ms: 150 },
    { type: 'text', text: `Line ${n + 1} of what the agent goes on saying after its question.\n\n` },
  ]).flat()
  return writeScenario('form-view', { prompts: { ask: [{ type: 'text', text: 'Before I start, one question.' }, { type: 'elicitation', params: form, noWait: true }, ...stream] } })
}

/** Whether the form's title is inside the transcript's visible part. */
const titleInView = (page: Page) => inTranscriptView(transcript(page).getByRole('heading', { name: 'Project setup' }), 2_000)

for (const colorScheme of ['light', 'dark'] as const) {
  it(`stops following at a form's title when the form arrives while the answer streams (${colorScheme})`, async () => {
    const { page } = await launch.session({ id: 'eli', name: AGENT, scenario: streamingFormScenario(30) }, { colorScheme, viewport: { width: 900, height: 700 } })
    await sendPrompt(page, 'ask')
    await visible(transcript(page).getByRole('heading', { name: 'Project setup' }))
    await waitIdle(page)
    // The whole answer streamed below the form; the view stayed at the form's title, and says there is more.
    expect(await agentSays(page, AGENT).getByText('Line 30 of what', { exact: false }).count()).toBe(1)
    await titleInView(page)
    await visible(page.getByRole('button', { name: 'Jump to latest' }))
    await screenshot(page, `form-held-900-${colorScheme}`)
    // Jump to latest goes past it, and stays there.
    await page.getByRole('button', { name: 'Jump to latest' }).click()
    await gone(page.getByRole('button', { name: 'Jump to latest' }))
  })
}

it('brings a tall form\'s title into view when the inbox gives it the focus, and keeps it there while the stream goes on', async () => {
  const { page } = await launch.session({ id: 'eli', name: AGENT, scenario: streamingFormScenario(40) }, { viewport: { width: 900, height: 700 } })
  await sendPrompt(page, 'ask')
  await visible(transcript(page).getByRole('heading', { name: 'Project setup' }))
  // The person went on to the end of the stream (the form's title scrolled out above).
  await (await visible(page.getByRole('button', { name: 'Jump to latest' }))).click()
  await visible(agentSays(page, AGENT).getByText(/Line 8 of what/))
  // From the inbox to the form, while the agent still streams.
  await (await visible(page.getByRole('button', { name: 'Waiting for you, 1' }))).click()
  const inbox = await visible(page.getByRole('dialog', { name: 'Waiting for you' }))
  await inbox.getByRole('listitem').getByRole('button', { name: /Project setup/ }).click()
  await gone(inbox)
  const email = transcript(page).getByRole('textbox', { name: /^Contact email/ })
  await until<HTMLElement>(email, (el) => el === document.activeElement)
  await titleInView(page)
  // Tab on, down the form, while the rest of the stream arrives: the field with the focus stays where the browser
  // brought it (holding the title in place pulled it back out of view).
  for (let i = 0; i < 11; i++) await page.keyboard.press('Tab')
  const focused = transcript(page).locator('.eli-card :focus')
  expect(await focused.count()).toBe(1)
  const name = await focused.evaluate((el) => (el as HTMLInputElement).labels?.[0]?.textContent ?? '')
  await waitIdle(page)
  await inTranscriptView(focused, 2_000)
  await screenshot(page, 'form-focused-900')
  expect(await focused.evaluate((el) => (el as HTMLInputElement).labels?.[0]?.textContent ?? '')).toBe(name)
})
