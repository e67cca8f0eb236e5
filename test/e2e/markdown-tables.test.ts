/**
 * Markdown tables in an agent's answer (agents12, real agents): a table with one long unbreakable cell squeezed its
 * other columns until "26" showed as "2" over "6", "failing" as "faili" over "ng" (the message's `overflow-wrap:
 * anywhere` let every cell shrink to a letter). A table now keeps its cells' words whole and scrolls sideways inside
 * the message when it is wider. Claude's /context answer (captured from claude-agent-acp 0.101.0) is replayed too.
 * Screenshot: test/e2e/screenshots/markdown-tables.png.
 */
import { expect, it } from 'vitest'
import type { Locator } from 'playwright'
import { launchPerTest, screenshot } from './support/harness'
import { agentSays, sendPrompt, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'
const launch = launchPerTest()

/** The texts of the table's cells whose text takes more than one line (line tops more than half a line apart). */
const wrappedCells = (table: Locator) =>
  table.locator('td, th').evaluateAll((cells) =>
    cells
      .filter((cell) => {
        const tops: number[] = []
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT)
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const range = document.createRange()
          range.selectNodeContents(node)
          for (const rect of Array.from(range.getClientRects())) if (rect.width > 0) tops.push(rect.top)
        }
        const lineHeight = parseFloat(getComputedStyle(cell).fontSize)
        return tops.length > 0 && Math.max(...tops) - Math.min(...tops) > lineHeight / 2
      })
      .map((cell) => cell.textContent ?? ''),
  )

it('keeps each table cell’s words whole, and a table wider than the message scrolls inside it', async () => {
  const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-markdown-tables' }, { viewport: { width: 1100, height: 760 } })
  await sendPrompt(page, 'wide')
  const answer = agentSays(page, AGENT).filter({ hasText: 'Here is the status table:' })
  await visible(answer.getByText('End of the table.'))
  await waitIdle(page)
  const table = answer.locator('table')

  // No word is cut: a cell of one word (a number, a status, an owner) stays on one line; a name may wrap at its hyphen.
  const wrapped = await wrappedCells(table)
  expect(wrapped.filter((text) => !/[\s-]/.test(text.trim()))).toEqual([])
  // The table does not run out of the message: it scrolls sideways itself.
  const fit = await table.evaluate((el) => {
    const message = el.closest('.markdown')!.getBoundingClientRect()
    const box = el.getBoundingClientRect()
    return { inside: box.left >= message.left - 1 && box.right <= message.right + 1, scrolls: el.scrollWidth > el.clientWidth }
  })
  expect(fit).toEqual({ inside: true, scrolls: true })
  await table.locator('tr').nth(4).scrollIntoViewIfNeeded()
  await page.evaluate(() => document.fonts.ready.then(() => undefined))
  await screenshot(page, 'markdown-tables')

  // Claude's /context answer: its two tables are as narrow as their words, one line a row.
  await sendPrompt(page, 'context')
  const context = agentSays(page, AGENT).filter({ hasText: 'Context Usage' })
  await visible(context.getByText('Autocompact buffer'))
  await waitIdle(page)
  const tables = context.locator('table')
  expect(await tables.count()).toBe(2)
  for (const t of await tables.all()) {
    expect(await wrappedCells(t)).toEqual([])
    expect(await t.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
  }
})
