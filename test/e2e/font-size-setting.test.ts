/**
 * The person's default font size (Chromium's and Electron's "font size" setting, 16 px unless changed) sizes Bosun's
 * text: its sizes are in rem, so at 16 px it looks as it did in px, and at 20 px every text is a quarter larger, the
 * controls with it (their text is not cut). Screenshots: test/e2e/screenshots/font-size-20-{light,dark}.png.
 */
import { expect, it } from 'vitest'
import type { Page } from 'playwright'
import { launchPerTest, screenshot } from './support/harness'
import { messageBox, sendButton, sendPrompt, startSession, terminalText, transcript, UI_TIMEOUT, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'
const launch = launchPerTest()

/** Chromium's own default font size setting (what Settings → Appearance → Font size changes), set before the page loads. */
const defaultFontSize = (size: number) => async (page: Page) => {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Page.setFontSizes', { fontSizes: { standard: size, fixed: Math.round((size * 13) / 16) } })
}

const sizes = (page: Page) =>
  page.evaluate(() => {
    const px = (selector: string, property: 'fontSize' | 'height') => parseFloat(getComputedStyle(document.querySelector(selector)!)[property])
    return {
      body: px('body', 'fontSize'),
      title: px('.session-title', 'fontSize'),
      subtitle: px('.session-subtitle', 'fontSize'),
      sendHeight: px('.composer-action', 'height'),
      turnHeight: px('.turn-state', 'height'),
    }
  })

it('at the default 16 px, the text keeps its sizes (13.5 px, the title 15 px)', async () => {
  const app = await launch([{ id: 'scripted', name: AGENT, scenario: 'e2e-session' }])
  await startSession(app.page, { agentName: AGENT, cwd: app.home.workspace })
  expect(await sizes(app.page)).toEqual({ body: 13.5, title: 15, subtitle: 12, sendHeight: 30, turnHeight: 24 })
})

for (const colorScheme of ['light', 'dark'] as const) {
  it(`at a 20 px default font size, the text and the controls around it are a quarter larger (${colorScheme})`, async () => {
    const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-session' }, { colorScheme, viewport: { width: 900, height: 700 }, beforeLoad: defaultFontSize(20) })
    expect(await sizes(page)).toEqual({ body: 16.875, title: 18.75, subtitle: 15, sendHeight: 37.5, turnHeight: 30 })
    // Send's words fit in it: nothing of the button's text is cut.
    const send = await sendButton(page).evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight }))
    expect(send.scroll).toBeLessThanOrEqual(send.client)
    await messageBox(page).fill('A message at a larger default font size')
    await page.evaluate(() => document.fonts.ready.then(() => undefined))
    await screenshot(page, `font-size-20-${colorScheme}`)
  })
}

it('at a 20 px default font size, a terminal’s text is a quarter larger too (15 px, was 12 px whatever the setting)', async () => {
  const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-terminal' }, { viewport: { width: 1280, height: 860 }, beforeLoad: defaultFontSize(20) })
  await sendPrompt(page, 'run')
  await waitIdle(page)
  const terminal = transcript(page).getByRole('region', { name: /^Terminal term-/ })
  await expect.poll(() => terminalText(terminal), { timeout: UI_TIMEOUT }).toContain('PASS 60 tests')
  expect(await terminal.locator('.xterm-rows').evaluate((el) => getComputedStyle(el).fontSize)).toBe('15px')
})
