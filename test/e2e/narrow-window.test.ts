/**
 * The session view in a window 900 px wide (light and dark): the message box's placeholder fits its one line (Chromium
 * cuts a placeholder mid-word, with no ellipsis), and notices taller than their share of the column scroll with a
 * faded edge and take the keyboard, never a card cut off with nothing saying there is more.
 */
import { expect, it } from 'vitest'
import type { Locator } from 'playwright'
import { launchPerTest, screenshot } from './support/harness'
import { messageBox, sendPrompt, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'
const launch = launchPerTest()

/** The placeholder's drawn width and the box's line, in CSS pixels. */
const placeholderFit = (box: Locator) =>
  box.evaluate((el: HTMLTextAreaElement) => {
    const context = document.createElement('canvas').getContext('2d')!
    context.font = getComputedStyle(el).font
    return { placeholder: el.placeholder, fits: context.measureText(el.placeholder).width <= el.clientWidth }
  })

for (const colorScheme of ['light', 'dark'] as const) {
  it(`fits the message box's placeholder on its line, wide and narrow (${colorScheme})`, async () => {
    const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-session' }, { colorScheme })
    const box = await visible(messageBox(page))
    expect(await placeholderFit(box)).toEqual({ placeholder: `Message ${AGENT} (/ for commands, @ for files, Shift+Enter for a new line)`, fits: true })
    await page.setViewportSize({ width: 900, height: 800 })
    await expect.poll(() => placeholderFit(box)).toEqual({ placeholder: `Message ${AGENT} (/ for commands, @ for files)`, fits: true })
    await screenshot(page, `composer-900-${colorScheme}`)
    // The box narrows with no window resize (a layout change around it): the placeholder is measured again.
    const viewport = page.viewportSize()
    await box.evaluate((el) => (el.parentElement!.style.maxWidth = '360px'))
    await expect.poll(() => placeholderFit(box)).toEqual({ placeholder: `Message ${AGENT}`, fits: true })
    await box.evaluate((el) => (el.parentElement!.style.maxWidth = ''))
    await expect.poll(() => placeholderFit(box)).toEqual({ placeholder: `Message ${AGENT} (/ for commands, @ for files)`, fits: true })
    expect(page.viewportSize()).toEqual(viewport)
  })

  it(`scrolls notices that do not fit, with the edge faded while more is below (${colorScheme})`, async () => {
    const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-notices-long' }, { colorScheme, viewport: { width: 900, height: 800 } })
    await sendPrompt(page, 'go')
    await waitIdle(page)
    const notices = await visible(page.getByRole('region', { name: 'Notices' }))
    const mask = () => notices.evaluate((el) => getComputedStyle(el).maskImage)
    const last = notices.locator('.toast').last()
    // The last card does not fit: the edge fades, the box is a tab stop, and the keyboard scrolls it into view.
    expect(await notices.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true)
    expect(await mask()).not.toBe('none')
    await screenshot(page, `notices-900-${colorScheme}`)
    await notices.focus()
    await page.keyboard.press('End')
    await expect.poll(mask).toBe('none')
    const [box, card] = [(await notices.boundingBox())!, (await last.boundingBox())!]
    expect(card.y + card.height).toBeLessThanOrEqual(box.y + box.height)
  })
}
