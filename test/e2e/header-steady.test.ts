/**
 * The session header keeps its height when a turn starts and a request waits (UX pass): in a 900 px window the
 * Approvals button's count once pushed Approvals, Agents, Settings and Close to a second row, moving the whole
 * transcript down by a row just as the agent asked for approval. And the title keeps room to be read there: at
 * 900 px it had about 130 px ("Session in bosu…") until Agents and Settings became icon buttons below 1000 px.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { Page } from 'playwright'
import { launchPerTest, screenshot } from './support/harness'
import { sendPrompt, startSession, transcript, visible } from './support/session-ui'

const AGENT = 'Scripted v1'
const launch = launchPerTest()

it('keeps the header one row in a 900 px window while a permission request waits', async () => {
  const { page } = await launch.session({ id: 'v1', name: AGENT, scenario: 'e2e-permissions' }, { viewport: { width: 900, height: 700 } })
  const header = page.locator('header.session-header')
  const idle = (await header.boundingBox())!.height
  expect(idle).toBeLessThanOrEqual(64)

  await sendPrompt(page, 'v1-diff')
  await visible(transcript(page).getByRole('alertdialog'))
  await visible(page.getByRole('button', { name: 'Waiting for you, 1' }))
  expect((await header.boundingBox())!.height).toBe(idle)
  // The title is still there to read.
  expect((await page.locator('.session-title').boundingBox())!.width).toBeGreaterThan(100)
})

/** The title's drawn width (it was about 130 px in a 900 px window, the title cut at "Session in bosu…"). */
const titleWidth = async (page: Page) => (await page.locator('.session-title').boundingBox())!.width

for (const colorScheme of ['light', 'dark'] as const) {
  it(`gives the session's title room in a 900 px window: Agents and Settings become named icon buttons (${colorScheme})`, async () => {
    const { page } = await launch.session({ id: 'v1', name: AGENT, scenario: 'e2e-permissions' }, { colorScheme, viewport: { width: 1280, height: 700 } })
    const header = page.locator('header.session-header')
    const agents = page.getByRole('button', { name: 'Agents', exact: true })
    const settings = page.getByRole('button', { name: 'Settings', exact: true })
    // Wide: the buttons say their names.
    await visible(agents.getByText('Agents'))
    await screenshot(page, `header-1280-idle-${colorScheme}`)
    await page.setViewportSize({ width: 1000, height: 700 })
    await screenshot(page, `header-1000-idle-${colorScheme}`)
    await page.setViewportSize({ width: 900, height: 700 })
    await screenshot(page, `header-900-idle-${colorScheme}`)
    const height = (await header.boundingBox())!.height
    // Narrow: the title has room; Agents and Settings are icon buttons, their names (accessible name, tooltip) kept.
    expect(await titleWidth(page)).toBeGreaterThanOrEqual(240)
    for (const button of [agents, settings]) {
      expect((await button.boundingBox())!.width).toBeLessThanOrEqual(32)
      // The tooltip names the button, and Settings its shortcut too.
      expect(await button.getAttribute('title')).toMatch(/^(Agents|Settings \(Ctrl\+,\))$/)
    }
    // A request waiting: still one row of the same height, and the title still has its room.
    await sendPrompt(page, 'v1-diff')
    await visible(transcript(page).getByRole('alertdialog'))
    await visible(page.getByRole('button', { name: 'Waiting for you, 1' }))
    expect((await header.boundingBox())!.height).toBe(height)
    expect(await titleWidth(page)).toBeGreaterThanOrEqual(240)
    await screenshot(page, `header-900-waiting-${colorScheme}`)
    // The keyboard reaches the icon buttons, with the focus ring drawn.
    await settings.focus()
    await page.keyboard.press('Shift+Tab')
    await page.keyboard.press('Tab')
    expect(await settings.evaluate((el) => el.matches(':focus-visible') && getComputedStyle(el).boxShadow !== 'none')).toBe(true)
    await screenshot(page, `header-900-focus-${colorScheme}`)
    await page.setViewportSize({ width: 1000, height: 700 })
    await screenshot(page, `header-1000-waiting-${colorScheme}`)
    await page.setViewportSize({ width: 1280, height: 700 })
    await screenshot(page, `header-1280-waiting-${colorScheme}`)
  })
}

/**
 * Whether the last characters of `text` are drawn inside the element's box (not cut off by its ellipsis): a Range over
 * them, in whichever text node holds them, must end within the element.
 */
const endShown = (page: Page, selector: string, text: string) =>
  page.locator(selector).first().evaluate((el, end) => {
    const box = el.getBoundingClientRect()
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent!.lastIndexOf(end)
      if (at < 0) continue
      const range = document.createRange()
      range.setStart(node, at)
      range.setEnd(node, at + end.length)
      const drawn = range.getBoundingClientRect()
      return drawn.width > 0 && drawn.left >= box.left && drawn.right <= box.right + 0.5
    }
    return false
  }, text.slice(-6))

for (const colorScheme of ['light', 'dark'] as const) {
  it(`shows how a long folder's name ends in a 900 px window, cut in its middle, read whole and whole in the tooltip (${colorScheme})`, async () => {
    const app = await launch([{ id: 'v1', name: AGENT, scenario: 'e2e-permissions' }], { colorScheme, viewport: { width: 900, height: 700 } })
    const { page } = app
    const folder = 'customer-portal-frontend-application-migration-v2'
    const cwd = join(app.home.workspace, folder)
    mkdirSync(cwd)
    await startSession(page, { agentName: AGENT, cwd })
    const title = page.locator('.session-title')
    const subtitle = page.locator('.session-subtitle')
    await visible(title)
    for (const waiting of [false, true]) {
      if (waiting) {
        await sendPrompt(page, 'v1-diff')
        await visible(transcript(page).getByRole('alertdialog'))
        await visible(page.getByRole('button', { name: 'Waiting for you, 1' }))
      }
      // The subtitle (the folder, then the agent): the start of the folder's name and its end are there to read.
      expect(await endShown(page, '.session-subtitle', folder)).toBe(true)
      expect(await subtitle.getAttribute('title')).toBe(`${cwd} · ${AGENT}`)
      await visible(page.getByText(`${folder} · ${AGENT}`, { exact: true }))
      // The title, until the first message names the session: "Session in" and the folder's end, read whole.
      if (!waiting) {
        expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
        expect(await endShown(page, '.session-title', folder)).toBe(true)
        await visible(page.getByRole('heading', { name: `Session in ${folder}`, exact: true }))
        expect(await title.getAttribute('title')).toBe(`Session in ${folder}`)
        // The sidebar names it the same way, cut the same way.
        expect(await endShown(page, '.session-list .session-item-title', folder)).toBe(true)
        expect(await endShown(page, '.history-folder-name', folder)).toBe(true)
      }
      await screenshot(page, `header-900-long-folder-${waiting ? 'waiting' : 'idle'}-${colorScheme}`)
    }
  })
}

it('gives way with the agent\'s name first: a folder that fits is shown whole beside a long agent name', async () => {
  const agent = 'Claude Code Enterprise Edition for the Platform Infrastructure Team (staging build)'
  const app = await launch([{ id: 'v1', name: agent, scenario: 'e2e-permissions' }], { viewport: { width: 1280, height: 700 } })
  const { page } = app
  const folder = 'customer-portal-frontend-application-migration-v2'
  const cwd = join(app.home.workspace, folder)
  mkdirSync(cwd)
  await startSession(page, { agentName: agent, cwd })
  const cut = (selector: string) => page.locator(selector).first().evaluate((el) => el.scrollWidth > el.clientWidth)
  await visible(page.locator('.session-subtitle .middle-cut-head'))
  for (const width of [1100, 1280]) {
    await page.setViewportSize({ width, height: 700 })
    // The agent's name is cut; the folder is whole (a fraction of a pixel taken from it drew its ellipsis).
    expect(await cut('.session-subtitle .cut-words-first')).toBe(true)
    expect(await cut('.session-subtitle .middle-cut-head')).toBe(false)
  }
  await screenshot(page, 'header-1280-long-agent')
})
