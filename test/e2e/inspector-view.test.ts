/**
 * The protocol inspector with two sessions whose long ids share their start (issue 11 §3): ids whole in the session
 * filter and, on one line cut in their middle (their ends differ), in the rows; "Jump to latest" below the table
 * (never over its cells), and a session filter that hides the other session's message from the detail pane too.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { gone, sendPrompt, startSession, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'
const PREFIX = 'long-session-id-0198f3c2-a7e6-7d4c-4b1a-'

let scratch: string | undefined
afterEach(async () => {
  if (scratch) rmSync(scratch, { recursive: true, force: true })
  scratch = undefined
})
const launch = launchPerTest()

function scenario(): string {
  const chunk = (i: number) => ({ type: 'update', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `part ${i} ` } } })
  scratch = mkdtempSync(join(tmpdir(), 'bosun-inspector-'))
  const file = join(scratch, 'inspector.json')
  writeFileSync(file, JSON.stringify({ session: { idPrefix: PREFIX }, prompts: { many: Array.from({ length: 40 }, (_, i) => chunk(i)) } }))
  return file
}

it('shows long session ids in full, keeps Jump to latest off the table, and follows the session filter in the detail pane', async () => {
  const app = await launch([{ id: 'scripted', name: AGENT, scenario: scenario() }], { viewport: { width: 1440, height: 900 } })
  const { page } = app
  for (let n = 0; n < 2; n++) {
    await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
    await sendPrompt(page, 'many')
    await waitIdle(page)
  }
  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await dialog.getByRole('tab', { name: 'Inspector', exact: true }).click()
  const grid = await visible(dialog.getByRole('grid', { name: 'Protocol messages' }))
  const first = `scripted/${PREFIX}1`.replace('scripted/', '')
  const second = `${PREFIX}2`
  // The agent's own ids, in full, in the cells and the filter's options.
  await visible(grid.getByRole('gridcell', { name: first, exact: true }))
  await visible(grid.getByRole('gridcell', { name: second, exact: true }))
  // Each on one line (a long id made every row of its session two to five lines tall), cut in its middle: its end,
  // where the two differ, shows; the whole id is the cell's tooltip.
  for (const id of [first, second]) {
    const cell = grid.getByRole('gridcell', { name: id, exact: true }).first()
    expect(await cell.getAttribute('title')).toBe(id)
    const shape = await cell.evaluate((el) => ({
      oneLine: el.querySelector('.cut-line')!.getBoundingClientRect().height < parseFloat(getComputedStyle(el).fontSize) * 2,
      end: el.querySelector('.middle-cut-tail')?.textContent ?? '',
    }))
    expect(shape.oneLine).toBe(true)
    expect(id.endsWith(shape.end) && shape.end.length >= 6).toBe(true)
  }
  const filter = dialog.getByRole('combobox', { name: 'Session' })
  expect(await filter.locator('option').allInnerTexts()).toEqual(expect.arrayContaining([first, second]))

  // Scrolled up: "Jump to latest" appears below the table, not over any of its cells.
  const wrap = dialog.locator('.inspector-table-wrap')
  await wrap.evaluate((el) => {
    el.scrollTop = el.scrollHeight / 3
    el.dispatchEvent(new Event('scroll'))
  })
  const jump = await visible(dialog.getByRole('button', { name: 'Jump to latest' }))
  const jumpBox = (await jump.boundingBox())!
  const tableBox = (await wrap.boundingBox())!
  expect(jumpBox.y).toBeGreaterThanOrEqual(tableBox.y + tableBox.height)
  await screenshot(page, 'inspector-jump-light')
  await page.emulateMedia({ colorScheme: 'dark' })
  await screenshot(page, 'inspector-jump-dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await jump.click()
  await gone(dialog.getByRole('button', { name: 'Jump to latest' }))

  // A message of the first session selected; filtering to the second session clears the detail pane.
  const row = grid.getByRole('row').filter({ has: page.getByRole('gridcell', { name: first, exact: true }) }).filter({ hasText: 'session/prompt' }).first()
  await row.click()
  const detail = dialog.getByRole('region', { name: 'Selected message' })
  expect(await visible(detail.getByLabel(/^Message \d+ as JSON$/)).then((json) => json.innerText())).toContain(first)
  await filter.selectOption({ label: second })
  await visible(detail.getByText('Pick a message to see it whole: click its row, or use ↑ and ↓ in the table.'))
  expect(await detail.getByLabel(/^Message \d+ as JSON$/).count()).toBe(0)
  await screenshot(page, 'inspector-filter-light')
  await page.emulateMedia({ colorScheme: 'dark' })
  await screenshot(page, 'inspector-filter-dark')
})

it('keeps its toolbar one row at 900 px wide: Clear beside Export, both beside the filter', async () => {
  const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-session' }, { viewport: { width: 900, height: 800 } })
  await sendPrompt(page, 'fix')
  await waitIdle(page)
  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await dialog.getByRole('tab', { name: 'Inspector', exact: true }).click()
  const toolbar = await visible(dialog.getByRole('toolbar', { name: 'Inspector tools' }))
  const top = async (name: string) => (await toolbar.getByRole(name === 'Filter by method' ? 'searchbox' : 'button', { name, exact: true }).boundingBox())!
  const rows = async () => {
    const [filter, exportButton, clear] = [await top('Filter by method'), await top('Export'), await top('Clear')]
    return { together: Math.abs(exportButton.y - clear.y) < 2, oneRow: Math.abs(filter.y + filter.height / 2 - (clear.y + clear.height / 2)) < 2 }
  }
  expect(await rows()).toEqual({ together: true, oneRow: true })
  await screenshot(page, 'inspector-toolbar-900-light')
  await page.emulateMedia({ colorScheme: 'dark' })
  await screenshot(page, 'inspector-toolbar-900-dark')
})
