/**
 * The composer from the keyboard, in a real browser: Enter sends, Shift+Enter adds a line, `/` opens the
 * agent's commands (from `available_commands_update`), arrows move, Enter picks, Escape closes.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import type { Step } from '../agents/scenario'
import { agentSays, gone, inTranscriptView, messageBox, transcript, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'

const launch = launchPerTest()
const scenarioFile = scenarioFiles()

it('sends with Enter, adds lines with Shift+Enter, and picks slash commands with the arrows', async () => {
  const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-session' })
  const box = messageBox(page)
  const log = transcript(page)

  // Shift+Enter makes a newline and sends nothing; Enter sends both lines as one message.
  await box.focus()
  await page.keyboard.type('first line')
  await page.keyboard.press('Shift+Enter')
  await page.keyboard.type('second line')
  expect(await box.inputValue()).toBe('first line\nsecond line')
  expect(await log.getByLabel('Your message').count()).toBe(0)
  await page.keyboard.press('Enter')
  const sent = await visible(log.getByLabel('Your message'))
  expect(await sent.innerText()).toContain('first line\nsecond line')
  expect(await box.inputValue()).toBe('')
  // The agent echoes prompts it has no script for.
  await visible(agentSays(page, AGENT).getByText(/echo: first line/))
  await waitIdle(page)

  // `/` opens the commands the agent offered; the first is active.
  await box.focus()
  await page.keyboard.type('/')
  const menu = await visible(page.getByRole('listbox', { name: 'Commands' }))
  const options = menu.getByRole('option')
  expect(await options.allInnerTexts()).toEqual([
    expect.stringContaining('/test'),
    expect.stringContaining('/build'),
    expect.stringContaining('/review'),
  ])
  await visible(menu.getByRole('option', { name: /\/test/, selected: true }))
  // A long input hint (claude-agent-acp's /code-review gives a whole usage line) leaves the description its room.
  const review = menu.getByRole('option', { name: /\/review/ })
  const width = async (selector: string) => (await review.locator(selector).boundingBox())!.width
  expect(await width('.command-hint')).toBeLessThanOrEqual((await review.boundingBox())!.width * 0.4 + 1)
  expect(await width('.command-description')).toBeGreaterThanOrEqual(await review.getByText('Review the open changes').evaluate((el) => Math.min(el.scrollWidth, 150)))

  // Arrows move the active option (and wrap); the textbox points at it for screen readers.
  await page.keyboard.press('ArrowDown')
  await visible(menu.getByRole('option', { name: /\/build/, selected: true }))
  await page.keyboard.press('ArrowUp')
  await page.keyboard.press('ArrowUp')
  await visible(menu.getByRole('option', { name: /\/review/, selected: true }))
  const active = await box.getAttribute('aria-activedescendant')
  expect(await menu.getByRole('option', { name: /\/review/ }).getAttribute('id')).toBe(active)
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await visible(menu.getByRole('option', { name: /\/build/, selected: true }))

  // Enter picks (it does not send): the draft becomes the command, ready for its input.
  await page.keyboard.press('Enter')
  await gone(menu)
  expect(await box.inputValue()).toBe('/build ')
  expect(await log.getByLabel('Your message').count()).toBe(1)

  // Typing filters; Escape closes the menu without changing the draft.
  await box.fill('')
  await page.keyboard.type('/rev')
  await visible(page.getByRole('listbox', { name: 'Commands' }).getByRole('option', { name: /\/review/, selected: true }))
  expect(await page.getByRole('listbox', { name: 'Commands' }).getByRole('option').count()).toBe(1)
  await page.keyboard.press('Escape')
  await gone(page.getByRole('listbox', { name: 'Commands' }))
  expect(await box.inputValue()).toBe('/rev')

  // Then Enter sends the command as a prompt.
  await page.keyboard.press('Enter')
  await visible(log.getByLabel('Your message').getByText('/rev'))
  await visible(agentSays(page, AGENT).getByText('echo: /rev'))
  await waitIdle(page)

  // A command typed whole that takes no input is sent by Enter, its menu still open (Codex's /status picked itself
  // into '/status ' and waited for a second Enter); one with an input (/test: 'which tests') is picked for it.
  await box.fill('')
  await page.keyboard.type('/build')
  await visible(page.getByRole('listbox', { name: 'Commands' }).getByRole('option', { name: /\/build/, selected: true }))
  await page.keyboard.press('Enter')
  await visible(log.getByLabel('Your message').getByText('/build', { exact: true }))
  await visible(agentSays(page, AGENT).getByText('echo: /build'))
  expect(await box.inputValue()).toBe('')
  await waitIdle(page)
  await page.keyboard.type('/test')
  await visible(page.getByRole('listbox', { name: 'Commands' }).getByRole('option', { name: /\/test/, selected: true }))
  await page.keyboard.press('Enter')
  expect(await box.inputValue()).toBe('/test ')
})

/** An answer longer than the transcript: 80 paragraphs. */
const LONG_ANSWER = Array.from({ length: 80 }, (_, n) => `Line ${n + 1} of a long answer.`).join('\n\n')

it('a message sent while scrolled up brings the view to it, and the view follows the answer again', async () => {
  const scenario = scenarioFile('follow', { prompts: { long: [{ type: 'text', text: LONG_ANSWER }] } })
  const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario })
  const log = transcript(page)
  await messageBox(page).fill('long')
  await page.keyboard.press('Enter')
  await visible(agentSays(page, AGENT).getByText('Line 80 of a long answer.'))
  await waitIdle(page)
  // Scrolled up by the person: the view stops following.
  const box = (await log.boundingBox())!
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await page.mouse.wheel(0, -3000)
  const jump = await visible(page.getByRole('button', { name: 'Jump to latest' }))
  // Below the transcript, not over it (it covered the last visible row's text), and above the composer.
  await screenshot(page, 'jump-to-latest')
  const [jumpBox, logBox, composerBox] = [(await jump.boundingBox())!, (await log.boundingBox())!, (await messageBox(page).boundingBox())!]
  expect(jumpBox.y).toBeGreaterThanOrEqual(logBox.y + logBox.height)
  expect(jumpBox.y + jumpBox.height).toBeLessThanOrEqual(composerBox.y)
  // Tab from the transcript reaches it, with the focus ring drawn (its own shadow hid the ring).
  await log.focus()
  await page.keyboard.press('Tab')
  expect(await jump.evaluate((el) => el === document.activeElement && el.matches(':focus-visible'))).toBe(true)
  expect(await jump.evaluate((el) => getComputedStyle(el).boxShadow)).toContain('0px 0px 0px 4px')
  await messageBox(page).fill('and now?')
  await page.keyboard.press('Enter')
  // The new message is in view, and so is the answer to it: following again.
  await inTranscriptView(log.getByLabel('Your message').getByText('and now?'))
  await inTranscriptView(agentSays(page, AGENT).getByText('echo: and now?'))
  await gone(jump)
})

it('PageUp and the arrow keys stop following while the answer streams: their smooth scroll, frames near the end, never starts it again', async () => {
  const trickle = (key: string): Step[] => [
    { type: 'text', text: LONG_ANSWER },
    ...Array.from({ length: 12 }, (_, n): Step[] => [{ type: 'sleep', ms: 250 }, { type: 'text', text: `\n\n${key} part ${n + 1}.` }]).flat(),
  ]
  const scenario = scenarioFile('follow', { prompts: { arrow: trickle('Arrow'), page: trickle('Page') } })
  const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario })
  const log = transcript(page)
  const jump = page.getByRole('button', { name: 'Jump to latest' })
  const scrollTop = () => log.evaluate((el) => el.scrollTop)
  /**
   * Armed before the key: where the view rests once the key's smooth scroll is over, at its `scrollend`. The test's
   * 4 px nudge below ends a scroll of its own first, so the one awaited is the first to leave the view further up.
   */
  const armSettled = () =>
    log.evaluate((el) => {
      const settled = new Promise<number>((resolve) => {
        window.addEventListener(
          'keydown',
          () => {
            const top = el.scrollTop
            const ended = () => {
              if (el.scrollTop >= top - 4) return
              el.removeEventListener('scrollend', ended)
              resolve(el.scrollTop)
            }
            el.addEventListener('scrollend', ended)
          },
          { once: true, capture: true },
        )
      })
      ;(window as unknown as { keyScrollSettled: Promise<number> }).keyScrollSettled = settled
    })
  const settled = () => page.evaluate(() => (window as unknown as { keyScrollSettled: Promise<number> }).keyScrollSettled)

  for (const [prompt, key] of [
    ['arrow', 'ArrowUp'],
    ['page', 'PageUp'],
  ] as const) {
    const name = prompt === 'arrow' ? 'Arrow' : 'Page'
    await messageBox(page).fill(prompt)
    await page.keyboard.press('Enter')
    await visible(agentSays(page, AGENT).getByText(`${name} part 1.`))
    // While the answer still streams: the key, then (for PageUp) what a smooth scroll's first frame reports, 4 px up
    // from where the key found the view, so still within reach of the end, after the key's own handling.
    await log.focus()
    await armSettled()
    if (key === 'PageUp') {
      await page.evaluate(() => {
        const el = document.querySelector<HTMLElement>('[role="log"]')!
        window.addEventListener(
          'keydown',
          () => {
            const top = el.scrollTop
            requestAnimationFrame(() => (el.scrollTop = top - 4))
          },
          { once: true },
        )
      })
    }
    await page.keyboard.press(key)
    await visible(jump)
    const left = await settled()
    // The rest of the answer arrives below; the view stays where the person left it.
    await visible(agentSays(page, AGENT).getByText(`${name} part 12.`))
    await waitIdle(page)
    await visible(jump)
    expect(Math.abs((await scrollTop()) - left)).toBeLessThanOrEqual(1)
    await screenshot(page, `follow-stopped-${prompt}`)
    // End follows again.
    await log.press('End')
    await gone(jump)
  }
})
