/**
 * Bosun at 200% zoom of a 1280 × 800 window, which Chromium lays out as 640 × 400 CSS pixels: the sidebar gives the
 * session some of its room (it kept 264 px, 41% of the width), so the message box and the session's title stay
 * readable, and the empty message box is one line tall. Screenshot: test/e2e/screenshots/zoom-200.png.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { messageBox, visible } from './support/session-ui'

const AGENT = 'Scripted agent'
const launch = launchPerTest()

it('at 200% zoom (640 px wide) the sidebar takes 216 px and the session the rest; at 100% it keeps its 264 px', async () => {
  const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-session' }, { viewport: { width: 640, height: 400 } })
  const nav = page.getByRole('navigation', { name: 'Agents and sessions' })
  const width = async (locator: typeof nav) => Math.round((await locator.boundingBox())!.width)
  expect(await width(nav)).toBe(216)
  // The session column is the rest of the window, its message box inside it.
  const box = (await (await visible(messageBox(page))).boundingBox())!
  expect(box.x).toBeGreaterThanOrEqual(216)
  expect(box.x + box.width).toBeLessThanOrEqual(640)
  expect(await width(page.getByRole('heading', { level: 1 }))).toBeGreaterThanOrEqual(120)
  // The empty message box is one line tall under its one-line placeholder (the first, longer one had wrapped and left it two).
  const lines = await messageBox(page).evaluate((el) => {
    const style = getComputedStyle(el)
    return (el.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)) / parseFloat(style.lineHeight)
  })
  expect(Math.round(lines)).toBe(1)
  await page.evaluate(() => document.fonts.ready.then(() => undefined))
  await screenshot(page, 'zoom-200')

  await page.setViewportSize({ width: 1280, height: 800 })
  await expect.poll(() => width(nav)).toBe(264)
})
