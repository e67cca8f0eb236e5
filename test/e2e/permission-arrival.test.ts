/**
 * A permission request appearing in the transcript is a dialog that asks (`alertdialog`): it takes the keyboard focus
 * when the person is not using it elsewhere (they just sent a message: the message box is empty), so 1–4 and Escape
 * answer it and a screen reader reads it; it leaves the focus in a message box the person is typing in, and is
 * announced there instead. (It never took the focus: a keyboard user had to find it with Tab.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator } from 'playwright'
import { afterEach, expect, it } from 'vitest'
import { launchPerTest } from './support/harness'
import { agentSays, messageBox, sendPrompt, transcript, until, visible, waitIdle } from './support/session-ui'

const AGENT = 'Asking agent'
let scratch: string | undefined
afterEach(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true })
  scratch = undefined
})
const launch = launchPerTest()

/** "ask": a permission at once; "later": a line, then a permission once `go` exists. */
function scenario(): { file: string; go: string } {
  scratch = mkdtempSync(join(tmpdir(), 'bosun-arrival-'))
  const go = join(scratch, 'go')
  const permission = (id: string, title: string) => [
    { type: 'tool_call', id, title, kind: 'edit', status: 'pending' },
    {
      type: 'request_permission',
      params: {
        toolCall: { toolCallId: id },
        options: [
          { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
          { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
        ],
      },
    },
  ]
  const prompts = {
    ask: [...permission('c-ask', 'Edit src/app.ts'), { type: 'text', text: 'done ask' }],
    later: [{ type: 'text', text: 'Looking first.' }, { type: 'wait_for_file', path: go }, ...permission('c-later', 'Edit src/late.ts'), { type: 'text', text: 'done later' }],
  }
  const file = join(scratch, 'arrival.json')
  writeFileSync(file, JSON.stringify({ prompts }))
  return { file, go }
}

const focused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement)

it('a request that appears after the person sent a message takes the focus: 1 answers it, and the focus goes back to the message box', async () => {
  const { file } = scenario()
  const { page } = await launch.session({ id: 'asking', name: AGENT, scenario: file })
  await sendPrompt(page, 'ask')
  const prompt = await visible(transcript(page).getByRole('alertdialog', { name: 'Edit src/app.ts', exact: true }))
  await until(prompt, (el) => el === document.activeElement)
  // Ringed, as every focused control is.
  expect(await prompt.evaluate((el) => getComputedStyle(el).boxShadow !== 'none' || getComputedStyle(el).outlineStyle !== 'none')).toBe(true)
  await page.keyboard.press('1')
  await visible(agentSays(page, AGENT).getByText('done ask'))
  await waitIdle(page)
  await expect.poll(() => focused(messageBox(page))).toBe(true)
})

it('a request that appears while the person types keeps their focus and text, and is announced', async () => {
  const { file, go } = scenario()
  const { page } = await launch.session({ id: 'asking', name: AGENT, scenario: file })
  await sendPrompt(page, 'later')
  await visible(agentSays(page, AGENT).getByText('Looking first.'))
  await messageBox(page).focus()
  await page.keyboard.type('next I')
  writeFileSync(go, '')
  const prompt = await visible(transcript(page).getByRole('alertdialog', { name: 'Edit src/late.ts', exact: true }))
  await page.keyboard.type(' want')
  expect(await focused(messageBox(page))).toBe(true)
  expect(await messageBox(page).inputValue()).toBe('next I want')
  expect(await focused(prompt)).toBe(false)
  expect(await page.locator('[aria-live="polite"][data-announcer]').textContent()).toBe(`${AGENT} asks for your approval: Edit src/late.ts`)
})

it('a question that appears takes the focus the same way: the card itself (Enter there would accept), then Tab reaches its first control', async () => {
  const { page } = await launch.session({ id: 'elicit', name: 'Elicitation agent', scenario: 'e2e-elicitation' })
  await sendPrompt(page, 'url-docs')
  const card = await visible(transcript(page).getByRole('region', { name: 'Read the setup guide' }))
  await until(card, (el) => el === document.activeElement)
  expect(await card.evaluate((el) => getComputedStyle(el).boxShadow)).not.toBe('none')
  await page.keyboard.press('Tab')
  expect(await focused(card.getByRole('button', { name: 'Open in browser' }))).toBe(true)
})
