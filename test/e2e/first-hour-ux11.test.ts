/**
 * What a person notices in the first hour, one more round (UX pass 11), in the browser host, light and dark, 900 and
 * 1400 px: the app's own notices sat over the Agents and Settings pages' controls and over the approvals inbox the
 * person opened; Tab left a modal dialog (the sign-in dialog, the Agents and Settings pages, a question to confirm) for
 * the page behind it or nowhere, and the sign-in dialog, closed, left the focus on the page's body. Screenshots:
 * test/e2e/screenshots/ux11-*.png.
 */
import { expect, it } from 'vitest'
import type { Locator, Page } from 'playwright'
import { launchPerTest, screenshot, type E2eApp } from './support/harness'
import { shootAll as shootAllOf } from './support/shoot-all'
import { agentGroup, gone, sendPrompt, submitNewSession, visible, waitIdle } from './support/session-ui'

const launch = launchPerTest()
const AGENT = 'Scripted agent'

/** {@link shootAllOf} with this file's prefix. */
const shootAll = (page: Page, name: string, check?: () => Promise<void>) => shootAllOf(page, `ux11-${name}`, check)

/** A notice of the app's own (as main sends when the history cannot be saved), shown before the test goes on. */
async function appNotice(app: E2eApp): Promise<Locator> {
  // The page hears main's events once it is connected: it has loaded what main has (its agents listed) by then.
  await visible(agentGroup(app.page, AGENT))
  app.emit('appNotice', {
    severity: 'warning',
    title: 'History not saved',
    description: 'The disk is full: the last 3 messages of this session are not in the history yet. Free some space; Bosun tries again.',
  })
  return visible(app.page.getByText('History not saved', { exact: true }))
}

/**
 * The controls of `within` that show in the window and are not the element at their own middle (something else sits
 * over them), by their text or name.
 */
async function coveredControls(within: Locator): Promise<string[]> {
  return within.evaluate((root) =>
    Array.from(root.querySelectorAll('button, a[href], input, select, textarea, [role="tab"]'))
      .filter((el) => {
        const box = el.getBoundingClientRect()
        if (box.width === 0 || box.height === 0 || box.bottom <= 0 || box.top >= innerHeight || box.right <= 0 || box.left >= innerWidth) return false
        const at = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
        return !at || (at !== el && !el.contains(at))
      })
      .map((el) => el.getAttribute('aria-label') ?? (el.textContent ?? '').trim()),
  )
}

it('a notice of the app’s own never covers a page that fills the window (Agents, Settings): it shows under the page’s header', async () => {
  const app = await launch([{ id: 'a', name: AGENT, scenario: 'e2e-permissions' }], { viewport: { width: 900, height: 820 } })
  const { page } = app
  const notice = await appNotice(app)
  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const agents = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await visible(agents.getByRole('heading', { name: AGENT, level: 2 }))
  const check = (dialog: Locator) => async () => {
    const close = dialog.getByRole('button', { name: 'Close', exact: true })
    const box = (await close.boundingBox())!
    expect(await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.textContent?.trim(), [box.x + box.width / 2, box.y + box.height / 2])).toBe('Close')
    expect(await coveredControls(dialog)).toEqual([])
    // The notice is the page's, still shown and still dismissable.
    expect(await dialog.getByRole('region', { name: 'Notices' }).getByText('History not saved', { exact: true }).isVisible()).toBe(true)
  }
  await check(agents)()
  await shootAll(page, 'notice-agents', check(agents))
  await agents.getByRole('button', { name: 'Close', exact: true }).click()
  await page.getByRole('button', { name: 'Settings', exact: true }).click()
  const settings = await visible(page.getByRole('dialog', { name: 'Settings' }))
  await check(settings)()
  await shootAll(page, 'notice-settings', check(settings))
  await settings.getByRole('button', { name: 'Dismiss notice' }).click()
  expect(await notice.count()).toBe(0)
})

it('the approvals inbox the person opened is not covered by a notice in the window’s corner', async () => {
  const app = await launch([{ id: 'a', name: AGENT, scenario: 'e2e-permissions' }], { viewport: { width: 900, height: 820 } })
  const { page } = app
  await appNotice(app)
  await page.getByRole('button', { name: /^Waiting for you/ }).click()
  const inbox = await visible(page.getByRole('dialog', { name: 'Waiting for you' }))
  const check = async () => {
    const hidden = await inbox.evaluate((popover) => {
      const box = popover.getBoundingClientRect()
      // Its corners and middle, just inside its border.
      const points = [
        [box.left + 4, box.top + 4],
        [box.right - 4, box.top + 4],
        [box.left + 4, box.bottom - 4],
        [box.right - 4, box.bottom - 4],
        [box.left + box.width / 2, box.top + box.height / 2],
      ]
      return points.filter(([x, y]) => !popover.contains(document.elementFromPoint(x!, y!)))
    })
    expect(hidden).toEqual([])
  }
  await check()
  await shootAll(page, 'notice-inbox', check)
})

/** Where the focus is: the accessible name or text of the focused element, and whether it is inside `within`. */
async function focusIn(within: Locator): Promise<{ name: string; inside: boolean }> {
  return within.evaluate((root) => {
    const active = document.activeElement
    return { name: (active?.getAttribute('aria-label') ?? active?.textContent ?? '').trim().slice(0, 60), inside: active !== null && root.contains(active) }
  })
}

/** Presses `key` `times` times and returns where the focus went after each press. */
async function pressAll(page: Page, within: Locator, key: string, times: number): Promise<{ name: string; inside: boolean }[]> {
  const seen = []
  for (let i = 0; i < times; i++) {
    await page.keyboard.press(key)
    seen.push(await focusIn(within))
  }
  return seen
}

it('the sign-in dialog takes the focus, keeps Tab inside, closes on Escape and gives the focus back to Start session', async () => {
  const app = await launch([{ id: 'auth', name: 'Needs sign-in', scenario: 'auth-v1' }], { viewport: { width: 1400, height: 820 } })
  const { page } = app
  const form = await submitNewSession(page, { cwd: app.home.workspace })
  const dialog = await visible(page.getByRole('dialog', { name: 'Sign in to Needs sign-in' }))
  await visible(dialog.getByRole('list', { name: 'Sign-in methods' }))
  expect(await focusIn(dialog)).toEqual({ name: 'Sign in to Needs sign-in', inside: true })
  // From the title, Shift+Tab goes to the last control (Cancel), and Tab from there to the first, round and round.
  await page.keyboard.press('Shift+Tab')
  expect(await focusIn(dialog)).toEqual({ name: 'Cancel', inside: true })
  await page.keyboard.press('Tab')
  expect(await focusIn(dialog)).toEqual({ name: 'Sign in', inside: true })
  const round = await pressAll(page, dialog, 'Tab', 8)
  expect(round.filter((f) => !f.inside)).toEqual([])
  expect(round.map((f) => f.name).slice(0, 4)).toEqual(['Open terminal', 'Try again', 'Cancel', 'Sign in'])
  expect((await pressAll(page, dialog, 'Shift+Tab', 8)).filter((f) => !f.inside)).toEqual([])
  await screenshot(page, 'ux11-sign-in-keyboard-light-1400')
  await page.keyboard.press('Escape')
  await gone(dialog)
  expect(await focusIn(form)).toEqual({ name: 'Start session', inside: true })
  // The form says what happened and what to do (it said "Not signed in: Authentication required").
  expect(await form.getByRole('alert').innerText()).toBe('Not signed in, so the session did not start (the agent said: Authentication required). Start session to sign in again.')
})

it('the Agents and Settings pages keep Tab on the page, and Escape gives the focus back to the button that opened them', async () => {
  const app = await launch([{ id: 'a', name: AGENT, scenario: 'e2e-permissions' }], { viewport: { width: 900, height: 820 } })
  const { page } = app
  for (const name of ['Agents', 'Settings']) {
    const opener = page.getByRole('button', { name, exact: true })
    await opener.click()
    const dialog = await visible(page.getByRole('dialog', { name }))
    expect((await focusIn(dialog)).inside).toBe(true)
    const stops = await dialog.evaluate((root) => root.querySelectorAll('button:not([disabled]), input:not([disabled]), select, textarea, a[href], [tabindex="0"]').length)
    expect((await pressAll(page, dialog, 'Tab', stops + 2)).filter((f) => !f.inside)).toEqual([])
    expect((await pressAll(page, dialog, 'Shift+Tab', stops + 2)).filter((f) => !f.inside)).toEqual([])
    await page.keyboard.press('Escape')
    await gone(dialog)
    expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true)
  }
})

it('a question to confirm (delete a past session) keeps Tab between its answers, and Escape leaves it for the row’s actions', async () => {
  const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-session' })
  await sendPrompt(page, 'fix')
  await waitIdle(page)
  const history = page.getByRole('navigation', { name: 'Agents and sessions' }).getByRole('region', { name: 'History' })
  const more = await visible(history.getByRole('button', { name: 'Actions for fix' }))
  await more.click()
  await history.getByRole('button', { name: 'Delete…' }).click()
  const question = await visible(history.getByRole('alertdialog', { name: 'Delete fix?' }))
  expect(await focusIn(question)).toEqual({ name: 'Cancel', inside: true })
  expect((await pressAll(page, question, 'Tab', 3)).map((f) => f.name)).toEqual(['Delete', 'Cancel', 'Delete'])
  expect((await pressAll(page, question, 'Shift+Tab', 3)).map((f) => f.name)).toEqual(['Cancel', 'Delete', 'Cancel'])
  await page.keyboard.press('Escape')
  await gone(question)
  expect(await more.evaluate((el) => el === document.activeElement)).toBe(true)
})

it('an agent’s tab list has no scrollbar of its own, and the Settings page scrolls at the window’s edge (its scrollbar sat mid-window)', async () => {
  const app = await launch([{ id: 'a', name: AGENT, scenario: 'e2e-permissions' }], { viewport: { width: 1400, height: 820 } })
  const { page } = app
  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const agents = await visible(page.getByRole('dialog', { name: 'Agents' }))
  const tabs = await visible(agents.getByRole('tablist', { name: `${AGENT} details` }))
  const tabsFit = async () => {
    expect(await tabs.evaluate((el) => ({ scrollsDown: el.scrollHeight > el.clientHeight, scrollsSideways: el.scrollWidth > el.clientWidth }))).toEqual({
      scrollsDown: false,
      scrollsSideways: false,
    })
  }
  await tabsFit()
  await shootAll(page, 'agent-tabs', tabsFit)
  await agents.getByRole('button', { name: 'Close', exact: true }).click()
  await page.getByRole('button', { name: 'Settings', exact: true }).click()
  const settings = await visible(page.getByRole('dialog', { name: 'Settings' }))
  await visible(settings.getByRole('heading', { name: 'Remembered decisions' }))
  const scrollsAtEdge = async () => {
    const shape = await settings.evaluate((root) => {
      const scroller = Array.from(root.querySelectorAll<HTMLElement>('*')).find((el) => el.scrollHeight > el.clientHeight && getComputedStyle(el).overflowY === 'auto')
      return { scrolls: scroller !== undefined, right: Math.round(scroller?.getBoundingClientRect().right ?? 0), window: innerWidth }
    })
    expect(shape).toEqual({ scrolls: true, right: shape.window, window: shape.window })
  }
  await scrollsAtEdge()
  await shootAll(page, 'settings', scrollsAtEdge)
})

it('a notice in the window’s corner casts its whole shadow (its box cut it into a grey rectangle), and the pointer goes through the room kept for it', async () => {
  const app = await launch.session({ id: 'a', name: AGENT, scenario: 'e2e-permissions' }, { viewport: { width: 900, height: 820 } })
  const { page } = app
  await appNotice(app)
  const card = page.locator('.toasts .toast')
  const fits = async () => {
    const shape = await card.evaluate((toast) => {
      const box = toast.getBoundingClientRect()
      const clip = toast.parentElement!.getBoundingClientRect()
      // "rgba(…) 0px 8px 24px 0px": the shadow reaches blur + spread beyond the card, moved down by its offset.
      const [x = 0, y = 0, blur = 0, spread = 0] = (getComputedStyle(toast).boxShadow.match(/-?[\d.]+px/g) ?? []).map(parseFloat)
      const reach = blur + spread
      const shadow = { left: box.left + x - reach, right: box.right + x + reach, bottom: box.bottom + y + reach }
      const under = document.elementFromPoint(box.left - 12, box.bottom + 12)
      return {
        shadowLeftShown: shadow.left >= clip.left - 0.5,
        shadowBottomShown: shadow.bottom <= clip.bottom + 0.5,
        pointerGoesThrough: under !== null && !toast.parentElement!.contains(under),
      }
    })
    expect(shape).toEqual({ shadowLeftShown: true, shadowBottomShown: true, pointerGoesThrough: true })
  }
  await fits()
  await shootAll(page, 'notice-corner', fits)
})

it('a long agent name and command cut on the Agents page show whole in their tooltips (the list and the agent’s header had none)', async () => {
  const name = 'Scripted permissions agent with a rather long display name for testing'
  const app = await launch([{ id: 'a', name, scenario: 'e2e-permissions' }], { viewport: { width: 900, height: 820 } })
  const { page } = app
  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const agents = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await visible(agents.getByRole('heading', { name, level: 2 }))
  const cutWithoutTooltip = () =>
    agents.evaluate((root) =>
      Array.from(root.querySelectorAll<HTMLElement>('*'))
        .filter((el) => getComputedStyle(el).textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1 && el.getClientRects().length > 0)
        .filter((el) => el.closest('[title]') === null)
        .map((el) => el.textContent),
    )
  expect(await cutWithoutTooltip()).toEqual([])
  expect(await agents.getByRole('button', { name: new RegExp(`^${name}`) }).locator('[title]').first().getAttribute('title')).toBe(name)
  await shootAll(page, 'agents-long-name', async () => expect(await cutWithoutTooltip()).toEqual([]))
})

it('a question an agent asks while starting is not covered by a notice in the window’s corner', async () => {
  const app = await launch([{ id: 'setup', name: AGENT, scenario: 'elicit-session-new', v2: true }], { viewport: { width: 900, height: 820 } })
  const { page } = app
  await appNotice(app)
  await submitNewSession(page, { cwd: app.home.workspace })
  const questions = await visible(page.getByRole('region', { name: 'Questions from agents' }))
  await visible(questions.getByText('Which workspace should the new session use?'))
  const shown = async () => {
    expect(await coveredControls(questions)).toEqual([])
    const hidden = await questions.evaluate((panel) => {
      const box = panel.getBoundingClientRect()
      return [
        [box.right - 6, box.top + 6],
        [box.right - 6, box.top + box.height / 2],
      ].filter(([x, y]) => !panel.contains(document.elementFromPoint(x!, y!)))
    })
    expect(hidden).toEqual([])
  }
  await shown()
  await shootAll(page, 'notice-question', shown)
})
