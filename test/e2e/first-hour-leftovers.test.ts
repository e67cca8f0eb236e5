/**
 * Small things a person notices in the first hour (UX pass 9), in the browser host, light and dark, 900 and 1400 px:
 * the empty window said "Bosun" twice; the history's link to an agent's own sessions cut the agent's name mid-sentence
 * ("Scripted age…’s own sessions here…"); a permission request showed its keys while the message box had the focus,
 * where they type; the preset cards showed no action until hovered. Screenshots: test/e2e/screenshots/leftovers-*.png.
 */
import { expect, it } from 'vitest'
import type { Page } from 'playwright'
import { launchPerTest, screenshot } from './support/harness'
import { listingScenario, scenarioFiles } from './support/scenario-file'
import { messageBox, sendPrompt, startSession, transcript, visible } from './support/session-ui'

const launch = launchPerTest()
const scenarioFile = scenarioFiles()

/** Screenshots of the window as it is, at both widths and in both themes (back to 1400 px, light). */
async function shootAll(page: Page, name: string): Promise<void> {
  for (const width of [900, 1400]) {
    await page.setViewportSize({ width, height: 820 })
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      await screenshot(page, `leftovers-${name}-${colorScheme}-${width}`)
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

it('the empty window names the app once (the sidebar); its heading says that no session is open', async () => {
  const { page } = await launch([{ id: 'a', name: 'Scripted agent', scenario: 'e2e-permissions' }], { viewport: { width: 1400, height: 820 } })
  const empty = page.getByRole('main', { name: 'No session' })
  await visible(empty.getByRole('heading', { level: 1, name: 'No session is open' }))
  await visible(page.getByRole('navigation', { name: 'Agents and sessions' }).getByText('Bosun', { exact: true }))
  expect(await empty.getByText('Bosun', { exact: true }).count()).toBe(0)
  await shootAll(page, 'empty')
  // Waiting for you with nothing waiting: its words sit in line with its title (they were flush with the panel's edge).
  await page.getByRole('button', { name: /^Waiting for you/ }).click()
  const panel = await visible(page.getByRole('navigation', { name: 'Waiting for you' }))
  const left = (text: string) => panel.getByText(text).evaluate((el) => Math.round(el.getBoundingClientRect().left))
  expect(await left('Nothing is waiting for an answer.')).toBe(await left('Waiting for you'))
  await screenshot(page, 'leftovers-approvals-empty-light-1400')
})

it('a permission request shows its keys only while it has the focus (in the message box they would type there)', async () => {
  const { page } = await launch.session({ id: 'a', name: 'Scripted agent', scenario: 'e2e-permissions' }, { viewport: { width: 1400, height: 820 } })
  await sendPrompt(page, 'v1-diff')
  const prompt = await visible(transcript(page).getByRole('alertdialog', { name: 'Edit src/app.ts' }))
  // Sent from an empty message box, the request takes the focus as it appears: its keys answer, and show.
  await expect.poll(() => prompt.evaluate((el) => el === document.activeElement)).toBe(true)
  const keys = prompt.locator('kbd')
  expect(await keys.count()).toBe(5)
  for (const key of await keys.all()) expect(await key.isVisible()).toBe(true)
  await shootAll(page, 'permission-focused')
  // Back in the message box, "1" would type a 1 there, so no key is offered.
  await messageBox(page).focus()
  for (const key of await keys.all()) expect(await key.isVisible()).toBe(false)
  await visible(prompt.getByRole('button', { name: 'Dismiss' }))
  await shootAll(page, 'permission-composer-focused')
  // Reached again (clicked, or with Tab): its keys answer.
  await prompt.focus()
  await page.keyboard.press('1')
  await visible(transcript(page).getByText('Allowed by you (Allow once)'))
  await messageBox(page).focus()
})

it('the history’s link to the agent’s own sessions ends with the name, so the words before it stay whole at 900 and 1400 px', async () => {
  const agent = 'Scripted agent for the Platform Infrastructure Team'
  const { page } = await launch.session(
    { id: 'a', name: agent, scenario: scenarioFile('listing-permissions', listingScenario('e2e-permissions')) },
    { viewport: { width: 900, height: 820 } },
  )
  await sendPrompt(page, 'v1-raw')
  await visible(transcript(page).getByRole('alertdialog'))
  const link = await visible(page.getByRole('region', { name: 'History', exact: true }).getByRole('button', { name: `More from ${agent}` }))
  for (const width of [900, 1400]) {
    await page.setViewportSize({ width, height: 820 })
    const shape = await link.evaluate((el) => {
      const words = el.querySelector('.cut-words')!
      const name = el.querySelector('.cut-words-first')!
      return {
        words: words.textContent,
        wordsWhole: words.scrollWidth <= words.clientWidth + 1,
        // The name follows the words on their line, cut (if at all) at its end.
        nameAfterWords: name.getBoundingClientRect().left >= words.getBoundingClientRect().right - 1,
        oneLine: el.getBoundingClientRect().height < parseFloat(getComputedStyle(el).fontSize) * 2.5,
      }
    })
    expect(shape).toEqual({ words: 'More from ', wordsWhole: true, nameAfterWords: true, oneLine: true })
  }
  await shootAll(page, 'history-link')
})

it('an agent whose run said it cannot list its sessions is not offered “More from” while it runs', async () => {
  const agent = 'Scripted agent'
  const { page } = await launch.session({ id: 'a', name: agent, scenario: 'e2e-permissions' }, { viewport: { width: 1400, height: 820 } })
  await sendPrompt(page, 'v1-raw')
  await visible(transcript(page).getByRole('alertdialog'))
  const history = page.getByRole('region', { name: 'History', exact: true })
  // The history lists the session once something was said in it; the agent's status (its capabilities) came before.
  await visible(history.getByRole('button', { name: /^v1-raw/ }))
  expect(await history.getByRole('button', { name: `More from ${agent}` }).count()).toBe(0)
})

it('the preset cards show their action without a hover, and Tab goes from card to card', async () => {
  const { page } = await launch([], { viewport: { width: 1400, height: 820 } })
  await (await visible(page.getByRole('main', { name: 'No session' }).getByRole('button', { name: 'Set up an agent' }))).click()
  const presets = await visible(page.getByRole('list', { name: 'Presets' }))
  const cards = presets.getByRole('button')
  const count = await cards.count()
  expect(count).toBeGreaterThan(2)
  // Every card says what it does, whether or not the pointer is over it.
  await page.mouse.move(0, 0)
  for (let i = 0; i < count; i++) {
    const action = i === count - 1 ? 'Start from scratch' : 'Use this preset'
    await visible(cards.nth(i).getByText(action, { exact: true }))
  }
  await cards.first().focus()
  await page.keyboard.press('Tab')
  expect(await cards.nth(1).evaluate((el) => el === document.activeElement)).toBe(true)
  await shootAll(page, 'presets')
})

it('New session, from a session in view, starts from that session’s agent (it picked the first agent)', async () => {
  const app = await launch([
    { id: 'a', name: 'First agent', scenario: 'e2e-permissions' },
    { id: 'b', name: 'Second agent', scenario: 'e2e-permissions' },
  ])
  const { page } = app
  await startSession(page, { agentName: 'Second agent', cwd: app.home.workspace })
  const nav = page.getByRole('navigation', { name: 'Agents and sessions' })
  await nav.getByRole('button', { name: 'New session', exact: true }).click()
  const form = await visible(page.getByRole('form', { name: 'New session' }))
  const agent = form.getByRole('combobox', { name: 'Agent', exact: true })
  expect(await agent.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.textContent)).toBe('Second agent')
  await screenshot(page, 'leftovers-new-session-same-agent-light')
  await page.keyboard.press('Escape')
  // The shortcut opens it the same way.
  await messageBox(page).focus()
  await page.keyboard.press('Control+Shift+O')
  await visible(form)
  expect(await agent.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.textContent)).toBe('Second agent')
})
