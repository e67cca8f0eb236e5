/**
 * What a person met on the screens after the twelfth pass (UX pass 13), in the browser host at 900 and 1400 px, light
 * and dark: the Agents and Settings headings took the focus unringed; Tab from "Add agent" went through every agent; a
 * long agent form's Save and Cancel were past the window's edge and its variables' names cut at twenty letters; a
 * permission's hidden keys left empty room at each button's end; a history row cut a long agent name to a few letters;
 * Claude's four-line warning stayed over the transcript's top; a history file Bosun could not use was said for the whole
 * run over the sidebar. Screenshots: test/e2e/screenshots/ux13-*.png.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { Locator, Page } from 'playwright'
import { createMemorySecretStore } from '../unit/secrets/memory-secret-store'
import { launchPerTest, screenshot } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import { shootAll } from './support/shoot-all'
import { gone, sendPrompt, transcript, until, visible, waitIdle } from './support/session-ui'

const launch = launchPerTest()
const scenarioFile = scenarioFiles()

/** Whether the element has the focus, matches :focus-visible and draws a ring (a box shadow or an outline). */
const ringed = (locator: Locator) =>
  locator.evaluate((el) => {
    const style = getComputedStyle(el)
    const ring = style.boxShadow !== 'none' || (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0)
    return el === document.activeElement && el.matches(':focus-visible') && ring
  })

/** The element that has the focus, described for a failing expectation. */
const focused = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim().slice(0, 60) ?? '')

it('Agents and Settings opened from the keyboard ring their heading; from "Add agent" Tab reaches the page past one agent', async () => {
  const agents = ['First agent', 'Second agent', 'Third agent', 'Fourth agent'].map((name, i) => ({ id: `a${i}`, name, scenario: 'e2e-permissions' }))
  const { page } = await launch(agents, { viewport: { width: 1400, height: 820 } })
  await page.getByRole('button', { name: 'Agents', exact: true }).focus()
  await page.keyboard.press('Enter')
  const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
  const heading = dialog.getByRole('heading', { level: 1, name: 'Agents' })
  await expect.poll(() => ringed(heading)).toBe(true)
  await shootAll(page, 'ux13-agents-heading')

  // One Tab stop for the list (the agent shown), then the page beside it.
  await dialog.getByRole('button', { name: 'Add agent' }).focus()
  await page.keyboard.press('Tab')
  await expect.poll(() => focused(page)).toMatch(/^First agent/)
  await page.keyboard.press('Tab')
  expect(await dialog.getByRole('region', { name: 'Agent details' }).evaluate((pane) => pane.contains(document.activeElement))).toBe(true)
  // The agents a step apart with the arrows; Enter shows the one reached, and Tab comes back to it.
  await page.keyboard.press('Shift+Tab')
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await expect.poll(() => focused(page)).toMatch(/^Third agent/)
  // Shift+Tab from an agent the arrows reached leaves the list (it went to the agent shown), and Tab comes back to the shown one.
  await page.keyboard.press('Shift+Tab')
  await expect.poll(() => focused(page)).toMatch(/Add agent$/)
  await page.keyboard.press('Tab')
  await expect.poll(() => focused(page)).toMatch(/^First agent/)
  await page.keyboard.press('End')
  await expect.poll(() => focused(page)).toMatch(/^Fourth agent/)
  await page.keyboard.press('Enter')
  await visible(dialog.getByRole('heading', { level: 2, name: 'Fourth agent' }))
  await page.keyboard.press('Shift+Tab')
  await expect.poll(() => focused(page)).toMatch(/Add agent$/)
  await page.keyboard.press('Tab')
  await expect.poll(() => focused(page)).toMatch(/^Fourth agent/)

  await dialog.getByRole('button', { name: 'Close', exact: true }).click()
  await page.getByRole('button', { name: 'Settings', exact: true }).focus()
  await page.keyboard.press('Enter')
  const settings = await visible(page.getByRole('dialog', { name: 'Settings' }))
  await expect.poll(() => ringed(settings.getByRole('heading', { level: 1, name: 'Settings' }))).toBe(true)
  await shootAll(page, 'ux13-settings-heading')
})

it('a long agent form keeps Save and Cancel in view, its variables’ names whole, and stores a secret in the keychain', async () => {
  const env = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`ACME_SERVICE_ENDPOINT_${i}`, `https://acme.example/region-${i}/v2`]))
  const extraArgs = Array.from({ length: 12 }, (_, i) => `--workspace-option-${i}=/home/someone/projects/long/path/${i}`)
  const { page } = await launch([{ id: 'long', name: 'Agent with a long definition', scenario: 'e2e-permissions', env, extraArgs, secretEnv: ['ACME_API_KEY'] }], {
    viewport: { width: 900, height: 820 },
  })
  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await dialog.getByRole('button', { name: 'Edit', exact: true }).click()
  const form = await visible(dialog.getByRole('form', { name: 'Edit Agent with a long definition' }))
  const save = form.getByRole('button', { name: 'Save', exact: true })
  const inView = (locator: Locator) =>
    locator.evaluate((el) => {
      const box = el.getBoundingClientRect()
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
      return box.bottom <= window.innerHeight && box.top >= 0 && (hit === el || el.contains(hit))
    })
  for (const width of [900, 1400]) {
    await page.setViewportSize({ width, height: 820 })
    // At the form's top, and scrolled to its middle, Save is there to press (it was past the window's edge).
    await form.getByRole('textbox', { name: 'Name', exact: true }).scrollIntoViewIfNeeded()
    expect(await inView(save)).toBe(true)
    expect(await inView(form.getByRole('button', { name: 'Cancel', exact: true }))).toBe(true)
    const name = form.getByRole('textbox', { name: 'Variable 8 name' })
    await name.scrollIntoViewIfNeeded()
    expect(await inView(save)).toBe(true)
    // A variable's name is whole in its field (the secrets' three buttons took a column of their own in every row).
    expect(await name.evaluate((el: HTMLInputElement) => el.scrollWidth <= el.clientWidth)).toBe(true)
  }
  await page.setViewportSize({ width: 900, height: 820 })
  await form.getByRole('textbox', { name: 'Variable 4 name' }).scrollIntoViewIfNeeded()
  await shootAll(page, 'ux13-agent-form-long')

  // A message sits under its field.
  const command = form.getByRole('textbox', { name: 'Command', exact: true })
  await command.fill('')
  const message = await visible(form.getByText('Enter the program to run'))
  const [field, under] = [(await command.boundingBox())!, (await message.boundingBox())!]
  expect(under.y - (field.y + field.height)).toBeLessThan(12)
  expect(await save.isDisabled()).toBe(true)
  await command.fill(process.execPath)

  // A secret typed here is stored (in the keychain) and shows as set. Its field stays put as its buttons change.
  const secretName = form.getByRole('textbox', { name: 'Secret 1 name' })
  const across = async () => {
    const box = (await secretName.boundingBox())!
    return { x: box.x, width: box.width }
  }
  const before = await across()
  await form.getByRole('button', { name: 'Set ACME_API_KEY' }).click()
  expect(await across()).toEqual(before)
  await form.getByLabel('Value for ACME_API_KEY').fill('sk-acme-0000-ux13')
  await until<HTMLButtonElement>(save, (el) => !el.disabled)
  await save.click()
  await visible(dialog.getByRole('heading', { level: 2, name: 'Agent with a long definition' }))
  await dialog.getByRole('button', { name: 'Edit', exact: true }).click()
  await visible(dialog.getByLabel('ACME_API_KEY is set'))
})

it('a permission’s keys take no room of their own: hidden, nothing is left at the buttons’ end; shown, nothing moves', async () => {
  const { page } = await launch.session({ id: 'a', name: 'Scripted agent', scenario: 'e2e-permissions' }, { viewport: { width: 1400, height: 820 } })
  await sendPrompt(page, 'v1-diff')
  const prompt = await visible(transcript(page).getByRole('alertdialog', { name: 'Edit src/app.ts' }))
  await expect.poll(() => prompt.evaluate((el) => el === document.activeElement)).toBe(true)
  const boxes = () => prompt.locator('.perm-option').evaluateAll((buttons) => buttons.map((b) => Math.round(b.getBoundingClientRect().width)))
  const shown = await boxes()
  await shootAll(page, 'ux13-permission-keys')
  await page.getByRole('textbox', { name: 'Message' }).focus()
  for (const key of await prompt.locator('kbd').all()) expect(await key.isVisible()).toBe(false)
  expect(await boxes()).toEqual(shown)
  // The room after a button's words is its padding, not a hidden key's.
  const after = await prompt.locator('.perm-option').evaluateAll((buttons) =>
    buttons.map((b) => b.getBoundingClientRect().right - b.querySelector('.perm-option-name')!.getBoundingClientRect().right),
  )
  for (const room of after) expect(room).toBeLessThan(14)
  await shootAll(page, 'ux13-permission-unfocused')
})

it('a history row at the sidebar’s width keeps a long agent name on its line and the time on the next, without a leading "·"', async () => {
  const agent = 'Waiting-room review agent'
  const { page } = await launch.session({ id: 'a', name: agent, scenario: 'e2e-permissions' }, { viewport: { width: 900, height: 820 } })
  await sendPrompt(page, 'v1-raw')
  await visible(transcript(page).getByRole('alertdialog'))
  const row = await visible(page.getByRole('region', { name: 'History', exact: true }).locator('.history-item').first())
  for (const width of [900, 1400]) {
    await page.setViewportSize({ width, height: 820 })
    const shape = await row.evaluate((el) => {
      const meta = el.querySelector('.session-item-meta')!.getBoundingClientRect()
      const name = el.querySelector<HTMLElement>('.cut-words-first')!
      const sep = el.querySelector('.cut-sep')!.getBoundingClientRect()
      const tail = el.querySelector('.cut-words')!.getBoundingClientRect()
      return { nameWhole: name.scrollWidth <= name.clientWidth, sepShown: sep.left >= meta.left, tailInside: tail.right <= meta.right + 1 }
    })
    expect(shape).toEqual({ nameWhole: true, sepShown: false, tailInside: true })
  }
  await shootAll(page, 'ux13-history-long-agent')
})

it('Claude’s long warning is folded to two lines over the transcript, whole behind "Show all"', async () => {
  const warning =
    "We're changing auto mode to no longer charge for classifier requests in Claude Code. However, this session isn't eligible because your requests go through 127.0.0.1:8811, which isn't compatible with this update. Nothing breaks: auto mode keeps working, and its classifier requests are billed as before. To fix it and access the new version of auto mode, ask your gateway to implement: https://code.claude.com/docs/en/auto-mode-classifier-billing"
  const scenario = scenarioFile('claude-warning', {
    prompts: {
      default: [
        { type: 'update', update: { sessionUpdate: 'notice', severity: 'warning', title: 'Claude reported a warning', description: warning } },
        { type: 'text', text: 'Done.' },
      ],
    },
  })
  const { page } = await launch.session({ id: 'claude', name: 'Claude', scenario }, { viewport: { width: 900, height: 820 } })
  await sendPrompt(page, 'go')
  await waitIdle(page)
  const toast = await visible(page.getByRole('main', { name: /^Session / }).getByLabel('Notices', { exact: true }).locator('.toast'))
  const description = toast.locator('.toast-description')
  const lines = () => description.evaluate((el) => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)))
  expect(await lines()).toBe(2)
  await shootAll(page, 'ux13-warning-folded')
  await toast.getByRole('button', { name: 'Show all' }).click()
  expect(await lines()).toBeGreaterThan(2)
  await visible(toast.getByRole('button', { name: 'Show less', expanded: true }))
  await screenshot(page, 'ux13-warning-open-light-1400')
})

it('a history file Bosun could not use is said once in the sidebar, in words, and can be dismissed', async () => {
  const { page } = await launch([{ id: 'a', name: 'Scripted agent', scenario: 'e2e-permissions' }], {
    viewport: { width: 900, height: 820 },
    prepareHome: (home) => writeFileSync(join(home.home, 'history.sqlite'), 'not a database, written over by another program\n'.repeat(200)),
  })
  const nav = page.getByRole('navigation', { name: 'Agents and sessions' })
  const problem = await visible(nav.getByRole('alert').filter({ hasText: 'The history file could not be used' }))
  expect(await problem.textContent()).toMatch(/a new history was started\./)
  // Its long path wraps inside the sidebar.
  expect(await problem.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
  await shootAll(page, 'ux13-history-problem')
  await problem.getByRole('button', { name: 'Dismiss' }).click()
  await gone(problem)
  await visible(nav.getByText(/No past sessions yet/))
})

it('a page’s problem looks the same on Agents and in the agent form (one banner): the agents file, the keychain', async () => {
  const { page, home } = await launch([{ id: 'good', name: 'Good agent', scenario: 'e2e-permissions' }], {
    viewport: { width: 900, height: 820 },
    secretStore: createMemorySecretStore({ available: false }),
  })
  // An entry another program broke, written while Bosun runs (it reloads the file it watches).
  const file = join(home.home, 'agents.json')
  const agents = (JSON.parse(readFileSync(file, 'utf8')) as { agents: unknown[] }).agents
  writeFileSync(file, JSON.stringify({ version: 1, agents: [...agents, { id: 'broken', name: '' }] }))
  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
  const fileProblem = await visible(dialog.getByRole('alert').filter({ hasText: 'Some agents could not be loaded.' }))
  await dialog.getByRole('button', { name: 'Edit', exact: true }).click()
  const keychain = await visible(dialog.getByRole('alert').filter({ hasText: 'The system keychain is not available.' }))
  const look = (banner: Locator) =>
    banner.evaluate((el) => {
      const style = getComputedStyle(el)
      return [style.borderLeftWidth, style.borderLeftColor, style.borderTopWidth, style.padding, style.borderRadius, style.display].join(' ')
    })
  expect(await look(keychain)).toBe(await look(fileProblem))
  await shootAll(page, 'ux13-page-banners')
})
