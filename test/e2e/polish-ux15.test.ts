/**
 * UX pass 15, in the browser host at 900 × 700 and 1440 × 900, light and dark, by keyboard. Screenshots:
 * test/e2e/screenshots/ux15-*.png.
 */
import { join } from 'node:path'
import { mkdirSync } from 'node:fs'
import { expect, it } from 'vitest'
import type { Locator, Page } from 'playwright'
import { launchPerTest } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import { shootSizes as shootAllSizes } from './support/shoot-all'
import { cutAcross, focusShown } from './support/screen-checks'
import { gone, sendPrompt, startSession, submitNewSession, transcript, until, visible, waitIdle } from './support/session-ui'
import { settingsWithHttpMcpServer } from './support/settings-ui'

const launch = launchPerTest()
const scenarioFile = scenarioFiles()

/** {@link shootAllSizes} named `ux15-<name>-<scheme>-<width>`. */
const shootSizes = (page: Page, name: string, check?: () => Promise<void>) => shootAllSizes(page, `ux15-${name}`, check)

const focused = (locator: Locator) => until(locator, (el) => el === document.activeElement)

it('walk by keyboard: Add agent, a preset’s form, Edit, and an MCP server’s Edit each take the keyboard as they open, ringed and in view', async () => {
  const { page } = await launch([{ id: 'scripted', name: 'Scripted agent', scenario: 'e2e-session' }], { viewport: { width: 900, height: 700 } })
  await page.getByRole('button', { name: 'Agents', exact: true }).focus()
  await page.keyboard.press('Enter')
  const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await visible(dialog.getByRole('heading', { name: 'Scripted agent', level: 2 }))
  await dialog.getByRole('button', { name: 'Add agent' }).focus()
  await page.keyboard.press('Enter')
  const claude = dialog.getByRole('list', { name: 'Presets' }).getByRole('button', { name: /^Claude/ })
  await focused(claude)
  await shootSizes(page, 'add-agent-flow', async () => {
    expect(await focusShown(page)).toBe('shown')
    expect(await cutAcross(page)).toEqual([])
  })
  await page.keyboard.press('Enter')
  const form = await visible(dialog.getByRole('form', { name: 'Add agent' }))
  await focused(form.getByRole('textbox', { name: 'Name', exact: true }))
  await shootSizes(page, 'add-agent-form', async () => {
    expect(await focusShown(page)).toBe('shown')
    expect(await cutAcross(page)).toEqual([])
  })
  await page.keyboard.press('Escape')
  await focused(claude)
  await page.keyboard.press('Escape')
  const edit = dialog.getByRole('button', { name: 'Edit', exact: true })
  await edit.focus()
  await page.keyboard.press('Enter')
  const editForm = await visible(dialog.getByRole('form', { name: 'Edit Scripted agent' }))
  await focused(editForm.getByRole('textbox', { name: 'Name', exact: true }))
  await shootSizes(page, 'edit-agent-form', async () => expect(await focusShown(page)).toBe('shown'))
  await page.keyboard.press('Escape')
  await focused(edit)
  await page.keyboard.press('Escape')
  await gone(dialog)

  const { settings, edit: mcpEdit } = await settingsWithHttpMcpServer(page)
  await mcpEdit.focus()
  await page.keyboard.press('Enter')
  const mcpForm = await visible(settings.getByRole('form', { name: 'Edit docs' }))
  await focused(mcpForm.getByLabel('Name', { exact: true }))
  await shootSizes(page, 'mcp-edit-form', async () => {
    expect(await focusShown(page)).toBe('shown')
    expect(await cutAcross(page)).toEqual([])
  })
})

/** A 900 × 700 window after one turn, with the Agents page open on the inspector. */
async function inspectorAfterATurn(): Promise<{ page: Page; dialog: Locator }> {
  const { page } = await launch.session({ id: 'scripted', name: 'Scripted agent', scenario: 'e2e-session' }, { viewport: { width: 900, height: 700 } })
  await sendPrompt(page, 'fix')
  await waitIdle(page)
  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await dialog.getByRole('tab', { name: 'Inspector' }).click()
  return { page, dialog }
}

it('the inspector at 700 px high: until a message is picked its pane is one line, and the table has the room', async () => {
  const { page, dialog } = await inspectorAfterATurn()
  const detail = dialog.getByRole('region', { name: 'Selected message' })
  await visible(detail.getByText('Pick a message to see it whole: click its row, or use ↑ and ↓ in the table.'))
  await shootSizes(page, 'inspector-unpicked', async () => {
    // Under the table (a 900 px window), one line; beside it (1440 px), a column of its own whatever its height.
    if (page.viewportSize()!.width === 900) expect((await detail.boundingBox())!.height).toBeLessThan(80)
    expect(await cutAcross(page)).toEqual([])
  })
  // By keyboard: Tab into the table, ↓ picks the next message.
  const grid = dialog.getByRole('grid', { name: 'Protocol messages' })
  await grid.getByRole('row').nth(1).focus()
  await page.keyboard.press('ArrowDown')
  await visible(detail.locator('pre'))
  await shootSizes(page, 'inspector-picked', async () => expect(await focusShown(page)).toBe('shown'))
})

// OpenCode with no key for its provider: a JSON-RPC error whose words are after "Internal error: " and in `data`.
const OPENCODE_ERROR = {
  code: -32603,
  message: 'Internal error: Provider openai could not start',
  data: { message: 'OPENAI_API_KEY is not set for provider openai', providerID: 'openai', name: 'ProviderAuthError' },
}

it('an agent’s JSON-RPC error reads in its words, its data under Details: a message not sent, Check connection, the new-session form', async () => {
  const refusing = scenarioFile('opencode-no-key', {
    prompts: {
      default: [{ type: 'prompt_error', ...OPENCODE_ERROR }],
      // The scenario's type has no `data` for a turn's error; the agent sends it as given.
      fail: [{ type: 'stop', stopReason: 'error', error: OPENCODE_ERROR as { code: number; message: string } }],
    },
  })
  const app = await launch(
    [
      { id: 'oc', name: 'OpenCode', scenario: refusing, v2: true },
      { id: 'init', name: 'OpenCode (no key)', scenario: 'initialize-internal-error' },
    ],
    { viewport: { width: 900, height: 700 } },
  )
  const { page } = app
  const cwd = join(app.home.workspace, 'billing')
  mkdirSync(cwd)
  await startSession(page, { agentName: 'OpenCode', cwd })
  await sendPrompt(page, 'work')
  const note = await visible(transcript(page).getByRole('note', { name: 'Not sent' }))
  await visible(note.getByText('Provider openai could not start'))
  await visible(note.getByText('OPENAI_API_KEY is not set for provider openai'))
  expect(await note.innerText()).not.toContain('Internal error')
  await note.getByText('Details', { exact: true }).click()
  await visible(note.getByText(/"providerID": "openai"/))
  await shootSizes(page, 'error-not-sent', async () => expect(await cutAcross(page)).toEqual([]))

  // A v2 turn that ends with the error (its idle state_update): the alert under the transcript.
  await sendPrompt(page, 'fail')
  const alert0 = await visible(transcript(page).getByRole('alert'))
  await visible(alert0.getByText(/Provider openai could not start/))
  expect(await alert0.innerText()).not.toContain('Internal error')
  await alert0.getByText('Details', { exact: true }).click()
  await visible(alert0.getByText(/"providerID": "openai"/))
  await shootSizes(page, 'error-turn', async () => expect(await cutAcross(page)).toEqual([]))

  const form = await submitNewSession(page, { agentName: 'OpenCode (no key)', cwd })
  const alert = await visible(form.getByRole('alert'))
  await expect.poll(() => alert.innerText()).toBe('Provider openai could not start: OPENAI_API_KEY is not set for provider openai')
  await form.getByText('Details', { exact: true }).click()
  await shootSizes(page, 'error-new-session', async () => expect(await cutAcross(page)).toEqual([]))
  await page.keyboard.press('Escape')
  await gone(form)

  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await dialog.getByRole('navigation', { name: 'Agents' }).getByRole('button', { name: /^OpenCode \(no key\)/ }).click()
  await dialog.getByRole('tab', { name: 'Check connection' }).click()
  await dialog.getByRole('button', { name: 'Check connection' }).click()
  const failed = await visible(dialog.getByRole('region', { name: 'Check failed' }))
  await visible(failed.getByText('Provider openai could not start', { exact: true }))
  await visible(failed.getByText('OPENAI_API_KEY is not set for provider openai', { exact: true }))
  await failed.getByText('Details', { exact: true }).click()
  await shootSizes(page, 'error-check', async () => expect(await cutAcross(page)).toEqual([]))
})

it('Settings and Agents opened from the keyboard scroll with ↓, PageDown, Space, End and Home from their title (they did nothing there)', async () => {
  const { page } = await launch([{ id: 'cards', name: 'Cards agent', scenario: 'e2e-cards' }], { viewport: { width: 900, height: 700 } })
  await visible(page.getByRole('button', { name: 'Settings', exact: true }))
  await page.keyboard.press('Control+Comma')
  const settings = await visible(page.getByRole('dialog', { name: 'Settings' }))
  await focused(settings.getByRole('heading', { name: 'Settings', level: 1 }))
  const body = page.locator('.settings-screen-body')
  const top = () => body.evaluate((el) => Math.round(el.scrollTop))
  const shortcuts = settings.getByRole('heading', { name: 'Keyboard shortcuts' })
  const inView = () => shortcuts.evaluate((el) => el.getBoundingClientRect().bottom <= innerHeight)
  expect(await inView()).toBe(false)
  await page.keyboard.press('ArrowDown')
  await expect.poll(top).toBeGreaterThan(0)
  await page.keyboard.press('Home')
  await expect.poll(top).toBe(0)
  await page.keyboard.press('PageDown')
  await expect.poll(top).toBeGreaterThan(200)
  await page.keyboard.press('End')
  // The keyboard shortcuts, which no control led to, are in view.
  await expect.poll(inView).toBe(true)
  await shootSizes(page, 'settings-end')
  await page.keyboard.press('Escape')
  await gone(settings)

  await page.setViewportSize({ width: 900, height: 500 })
  await page.getByRole('button', { name: 'Agents', exact: true }).focus()
  await page.keyboard.press('Enter')
  const agents = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await visible(agents.getByRole('heading', { name: 'Cards agent', level: 2 }))
  await focused(agents.getByRole('heading', { name: 'Agents', level: 1 }))
  // The agent's Overview, which scrolls in its tab.
  const pane = agents.getByRole('tabpanel')
  expect(await pane.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true)
  await page.keyboard.press(' ')
  await expect.poll(() => pane.evaluate((el) => el.scrollTop)).toBeGreaterThan(0)
})

it('the inspector at 900 × 700: a message picked at the foot of the table stays in view as its pane opens under the table', async () => {
  const { page, dialog } = await inspectorAfterATurn()
  const grid = dialog.getByRole('grid', { name: 'Protocol messages' })
  const last = grid.getByRole('row').last()
  await visible(last)
  await last.focus()
  await page.keyboard.press('Enter')
  await visible(dialog.getByRole('region', { name: 'Selected message' }).locator('pre'))
  // Within the table's scrolled box, whole (the pane took the table's lower half, and the row with it).
  const shown = () =>
    last.evaluate((row) => {
      const box = row.closest('.inspector-table-wrap')!.getBoundingClientRect()
      const r = row.getBoundingClientRect()
      return r.top >= box.top - 1 && r.bottom <= box.bottom + 1
    })
  await expect.poll(shown).toBe(true)
  await shootSizes(page, 'inspector-picked-last', async () => {
    await expect.poll(shown).toBe(true)
    expect(await focusShown(page)).toBe('shown')
  })
})
