/**
 * UX pass 6: a session with no messages says so in the middle of its transcript (its words sat under the header), and
 * a sidebar row's cut name runs to the row's edge when there is no badge beside it (an empty column kept a gap).
 * Screenshot: test/e2e/screenshots/session-empty-900.png.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { transcript, visible } from './support/session-ui'

const AGENT = 'Scripted agent'
const launch = launchPerTest()

it('puts a new session’s “No messages yet” in the middle of its transcript, and a cut name in the sidebar to the row’s edge', async () => {
  const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-session' }, { viewport: { width: 900, height: 700 } })
  const empty = await visible(transcript(page).getByText('No messages yet.'))
  const [log, words] = [(await transcript(page).boundingBox())!, (await empty.boundingBox())!]
  // The words' middle is in the transcript's middle third (they were at its top, under the header).
  expect(words.y + words.height / 2).toBeGreaterThan(log.y + log.height / 3)
  expect(words.y + words.height / 2).toBeLessThan(log.y + (2 * log.height) / 3)

  // The open session's row ("Session in bosun-workspace-…", cut in a 900 px window): no badge, no spinner, so its name
  // has the row's whole width.
  const row = page.getByRole('navigation', { name: 'Agents and sessions' }).locator('.session-item[aria-current="page"]:not(.history-item)')
  const room = await row.evaluate((el) => {
    const title = el.querySelector('.session-item-title')!.getBoundingClientRect()
    const box = el.getBoundingClientRect()
    return { titleRight: Math.round(title.right), contentRight: Math.round(box.right - parseFloat(getComputedStyle(el).paddingRight)), cut: el.querySelector('.middle-cut-head')!.scrollWidth > el.querySelector('.middle-cut-head')!.clientWidth }
  })
  expect(room).toEqual({ titleRight: room.contentRight, contentRight: room.contentRight, cut: true })
  await page.evaluate(() => document.fonts.ready.then(() => undefined))
  await screenshot(page, 'session-empty-900')
})

it('offers New session as a button in the empty window: it opens the sidebar’s form, and Escape gives the focus back to it', async () => {
  const app = await launch([{ id: 'scripted', name: AGENT, scenario: 'e2e-session' }], { viewport: { width: 900, height: 700 } })
  const { page } = app
  const main = page.getByRole('main', { name: 'No session' })
  await visible(main.getByText('Start one with “New session” in the sidebar, or here.'))
  const button = main.getByRole('button', { name: 'New session' })
  await button.focus()
  await page.keyboard.press('Enter')
  const form = await visible(page.getByRole('form', { name: 'New session' }))
  expect(await form.evaluate((el) => el.contains(document.activeElement))).toBe(true)
  await page.evaluate(() => document.fonts.ready.then(() => undefined))
  await screenshot(page, 'empty-window-new-session')
  await page.keyboard.press('Escape')
  await expect.poll(() => form.count()).toBe(0)
  expect(await button.evaluate((el) => el === document.activeElement)).toBe(true)
})
