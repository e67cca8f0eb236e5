/**
 * Long names in a 900 px window (UX pass 5): a long agent name wrapped the sidebar's link to its own sessions to four
 * lines and dropped out of the message box's placeholder ("Message"); a Read of a long path put the card's verb on a
 * line of its own.
 */
import { expect, it } from 'vitest'
import type { Locator } from 'playwright'
import { launchPerTest, screenshot } from './support/harness'
import { listingScenario, scenarioFiles } from './support/scenario-file'
import { messageBox, sendPrompt, transcript, visible } from './support/session-ui'

const launch = launchPerTest()
const scenarioFile = scenarioFiles()
const READ_PATH = '/home/alexandra/projects/customer-portal-frontend-application-migration-v2/packages/billing/src/invoices/rounding/bankers-rounding.test.ts'

const box = async (locator: Locator) => (await locator.boundingBox())!

for (const colorScheme of ['light', 'dark'] as const) {
  it(`keeps a long agent name and a long path to one line at 900 px: the sidebar's link, the placeholder, a Read's title (${colorScheme})`, async () => {
    const agent = 'Claude Code Enterprise Edition for the Platform Infrastructure Team (staging build)'
    const { page } = await launch.session(
      { id: 'c', name: agent, scenario: scenarioFile('listing-claude-like', listingScenario('e2e-claude-like')) },
      { colorScheme, viewport: { width: 900, height: 800 } },
    )
    await sendPrompt(page, 'work')
    await visible(transcript(page).getByRole('alertdialog'))

    // (Soft: each of the three is reported on its own.) The link to the agent's own sessions: one line, the name last and
    // cut, the whole in its tooltip.
    const link = page.getByRole('button', { name: `More from ${agent}` })
    const lineHeight = await link.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || 18)
    expect.soft((await box(link)).height).toBeLessThanOrEqual(lineHeight + 10)
    expect.soft(await link.getAttribute('title')).toBe(`${agent}’s own sessions in this folder, those started outside Bosun too`)
    await visible(link.getByText('More from'))

    // The message box still says whose it is: the name cut with an ellipsis, on the box's line.
    const placeholder = await messageBox(page).evaluate((el: HTMLTextAreaElement) => {
      const context = document.createElement('canvas').getContext('2d')!
      context.font = getComputedStyle(el).font
      return { text: el.placeholder, fits: context.measureText(el.placeholder).width <= el.clientWidth }
    })
    expect.soft(placeholder.fits).toBe(true)
    expect.soft(placeholder.text).toMatch(/^Message Claude Code Enterprise .*…$/)

    // The Read card's title: one line, "Read" and the path cut in its middle (its file's name in view), whole in the tooltip.
    const title = transcript(page).getByRole('article', { name: `Read ${READ_PATH}` }).locator('.tool-title')
    expect.soft(await title.getAttribute('title')).toBe(`Read ${READ_PATH}`)
    const shape = await title.evaluate((el) => {
      const tail = el.querySelector('.middle-cut-tail')
      return {
        oneLine: el.getBoundingClientRect().height <= parseFloat(getComputedStyle(el).fontSize) * 2,
        fileNameShown: tail !== null && tail.scrollWidth <= tail.clientWidth && tail.textContent!.endsWith('bankers-rounding.test.ts'),
      }
    })
    expect.soft(shape).toEqual({ oneLine: true, fileNameShown: true })
    await screenshot(page, `window-900-long-name-${colorScheme}`)
    await page.setViewportSize({ width: 1280, height: 800 })
    await screenshot(page, `window-1280-long-name-${colorScheme}`)
  })
}
