/**
 * Hostile or odd agent output in a real browser: Markdown with raw HTML and `javascript:` links renders
 * as text and never runs or navigates; an update kind Bosun does not know shows as a generic entry; garbage
 * lines and a flood of chunks leave the UI responsive.
 */
import type { Page } from 'playwright'
import { expect, it } from 'vitest'
import { launchPerTest, screenshot, type E2eApp } from './support/harness'
import { agentSays, gone, messageBox, sendPrompt, startSession, stopButton, transcript, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'

const launch = launchPerTest()

/** Lets the page render what a click scheduled (two animation frames: an event, not a delay). */
const nextFrames = (page: Page) => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))

async function open(): Promise<E2eApp> {
  const app = await launch([{ id: 'scripted', name: AGENT, scenario: 'e2e-safety' }], {
    beforeLoad: async (page) => {
      // Anything that tries to leave the app or open a window is recorded (and would fail the test).
      await page.context().route(/^(?!http:\/\/127\.0\.0\.1)/, (route) => route.abort())
    },
  })
  await startSession(app.page, { agentName: AGENT, cwd: app.home.workspace })
  return app
}

it('renders raw HTML as text and keeps javascript: links inert', async () => {
  const { page } = await open()
  const url = page.url()
  const popups: string[] = []
  page.on('popup', (popup) => popups.push(popup.url()))
  const requests: string[] = []
  page.on('request', (request) => {
    if (!request.url().startsWith(new URL(url).origin)) requests.push(request.url())
  })

  await sendPrompt(page, 'markdown')
  const reply = await visible(agentSays(page, AGENT))
  await visible(reply.getByRole('heading', { name: 'Report' }))
  await visible(reply.locator('pre code', { hasText: 'const answer: number = 42' }))
  await waitIdle(page)

  // The raw HTML is shown as text; none of it became elements.
  await visible(reply.getByText(/<script>window\.__bosunPwned = 'script'<\/script>/))
  await visible(reply.getByText(/<img src="x" onerror=/))
  await visible(reply.getByText(/<iframe src=/))
  const markup = await reply.evaluate((el) => ({
    script: el.querySelectorAll('script').length,
    img: el.querySelectorAll('img').length,
    iframe: el.querySelectorAll('iframe').length,
    anchors: el.querySelectorAll('a').length,
    handlers: Array.from(el.querySelectorAll('*')).filter((node) => Array.from(node.attributes).some((a) => a.name.startsWith('on'))).length,
    javascriptUrls: Array.from(el.querySelectorAll('[href], [src], [data-url]')).filter((node) =>
      ['href', 'src', 'data-url'].some((name) => /^\s*javascript:/i.test(node.getAttribute(name) ?? '')),
    ).length,
  }))
  expect(markup).toEqual({ script: 0, img: 0, iframe: 0, anchors: 0, handlers: 0, javascriptUrls: 0 })

  // A task list shows checkboxes that say done or not, and cannot be clicked.
  const done = await visible(reply.getByRole('checkbox', { name: 'Done', exact: true }))
  expect(await done.isChecked()).toBe(true)
  expect(await done.isDisabled()).toBe(true)
  expect(await reply.getByRole('checkbox', { name: 'Not done' }).isChecked()).toBe(false)
  await visible(reply.getByText('Read app.py'))
  await reply.getByText('Read app.py').scrollIntoViewIfNeeded()
  await screenshot(page, 'markdown-task-list')

  // The javascript: link is not a link: its Markdown source shows as text, and clicking that text (the
  // start of its paragraph, away from the web link) runs nothing and goes nowhere.
  expect(await reply.getByRole('link', { name: /javascript/ }).count()).toBe(0)
  const jsText = await visible(reply.getByText(/\[javascript link\]\(javascript:window\.__bosunPwned='link'\)/))
  await jsText.click({ position: { x: 30, y: 8 } })
  await nextFrames(page)
  expect(await page.getByRole('dialog').count()).toBe(0)

  // Still the same page, nothing ran, no window, no request left the app; the session still answers.
  await sendPrompt(page, 'unknown')
  await visible(agentSays(page, AGENT).getByText('Sent an unknown update.'))
  expect(page.url()).toBe(url)
  expect(await page.evaluate(() => (window as unknown as { __bosunPwned?: unknown }).__bosunPwned)).toBeUndefined()

  // The web link is offered (role link, no href) but never followed in-app: a click goes to the consent
  // dialog, and the page stays where it is.
  const webLink = reply.getByRole('link', { name: 'web link' })
  expect(await webLink.getAttribute('data-url')).toBe('https://example.com/docs')
  expect(await webLink.getAttribute('href')).toBeNull()
  await webLink.click()
  const consent = await visible(page.getByRole('dialog'))
  await visible(consent.getByText(/example\.com\/docs/))
  await page.keyboard.press('Escape')
  await gone(consent)
  expect(page.url()).toBe(url)
  expect(popups).toEqual([])
  expect(requests).toEqual([])
})

it('shows an unknown update kind as a generic entry and keeps working', async () => {
  const { page } = await open()
  const log = transcript(page)
  await sendPrompt(page, 'unknown')
  const entry = await visible(log.getByText(/Update “_acme_sparkles” \(not understood by this version of Bosun\)/))
  await visible(agentSays(page, AGENT).getByText('Sent an unknown update.'))
  await waitIdle(page)
  // Its raw payload is behind a disclosure.
  await entry.click()
  await visible(log.getByText(/"level": 11/))

  // The session keeps working.
  await sendPrompt(page, 'hello again')
  await visible(agentSays(page, AGENT).getByText('echo: hello again'))
  await waitIdle(page)
  expect(await page.getByRole('alert').count()).toBe(0)
})

it('stays responsive while an agent sends garbage lines and floods chunks', async () => {
  const { page } = await open()
  const log = transcript(page)
  await sendPrompt(page, 'flood')
  // All 5,000 chunks arrive in order, in one message; the turn is still running (the agent sleeps after).
  await visible(agentSays(page, AGENT).getByText(/Flood done\.$/))
  const text = await agentSays(page, AGENT).last().innerText()
  expect(text.match(/flood/g)?.length).toBe(5000)
  await visible(page.getByRole('status', { name: 'Turn: Working…' }))

  // Mid-turn, right after the flood, the page answers input: typing, scrolling the transcript, Stop.
  const box = messageBox(page)
  await box.focus()
  await page.keyboard.type('still typing')
  expect(await box.inputValue()).toBe('still typing')
  await log.evaluate((el) => el.scrollTo({ top: 0 }))
  await visible(page.getByRole('button', { name: 'Jump to latest' }).or(log.getByLabel('Your message')))
  await stopButton(page).click()
  await waitIdle(page)
  await visible(log.getByRole('note', { name: 'How the turn ended' }))
  expect(await box.inputValue()).toBe('still typing')

  // Garbage lines were reported (main's log), not shown as messages, and broke nothing: the next turn works.
  expect(await log.getByText('this is not JSON at all').count()).toBe(0)
  expect(await log.getByText(/garbage/).count()).toBe(0)
  await box.fill('')
  await sendPrompt(page, 'unknown')
  await visible(agentSays(page, AGENT).getByText('Sent an unknown update.'))
  await waitIdle(page)
  expect(await page.getByRole('alert').count()).toBe(0)
})
