/**
 * The first hour with the keyboard alone (no mouse, no locator clicks): add an agent from a preset, start a session,
 * send a message, answer a permission and a form, switch sessions, open and close Settings and the inspector, close a
 * session and open it again from the history. After every key the focus is on a control (never dropped on the page's
 * body) and shows a ring, and the app's own shortcuts are in the tooltips of the buttons they stand for.
 * Screenshots: test/e2e/screenshots/keyboard-*.png.
 */
import type { Page } from 'playwright'
import { expect, it } from 'vitest'
import { launchPerTest } from './support/harness'
import { shootAll } from './support/shoot-all'
import { agentSays, messageBox, transcript, UI_TIMEOUT, visible, waitIdle } from './support/session-ui'

const launch = launchPerTest()

/** What has the focus: a short description, `BODY` when it was dropped, and whether a ring shows it. */
async function focusNow(page: Page): Promise<{ what: string; ring: boolean }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    if (!el || el === document.body) return { what: 'BODY', ring: false }
    const ringOf = (node: Element) => {
      const style = getComputedStyle(node)
      return (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none'
    }
    // A page's or a dialog's heading takes the focus to start the page's reading order: ringed only when the keyboard
    // opened it (e2e polish-ux13 checks Agents' and Settings'), so it is not asked for here.
    const heading = /^H[1-6]$/.test(el.tagName) && el.tabIndex === -1
    // A date field's parts and picker (its shadow tree) draw their own ring.
    const date = el instanceof HTMLInputElement && el.type === 'date'
    const box = el.parentElement
    const ring = heading || date || ringOf(el) || (box !== null && box.matches(':focus-within') && ringOf(box))
    const name = el.getAttribute('aria-label') ?? ((el as HTMLInputElement).labels?.[0]?.textContent || null) ?? el.textContent ?? ''
    return { what: `${el.tagName.toLowerCase()} ${name.trim().slice(0, 40)}`, ring }
  })
}

/**
 * Presses `key` (`times` times) and checks where the focus went: not left on the body, ringed. Returns the last stop.
 */
async function press(page: Page, key: string, times = 1): Promise<string> {
  let stop = ''
  for (let i = 0; i < times; i++) {
    await page.keyboard.press(key)
    // A view that changes with the key renders, then hands the focus on (it may be on the body for a moment): two
    // frames, then the first place the focus rests on that is not the body, read once.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
    let now = await focusNow(page)
    await expect.poll(async () => (now = await focusNow(page)).what, { message: `the focus after ${key}`, timeout: UI_TIMEOUT }).not.toBe('BODY')
    expect(now.ring, `no focus ring on ${now.what}`).toBe(true)
    stop = now.what
  }
  return stop
}

/** Tabs (or Shift+Tabs, or arrows in a tab list or the agents list) until the focused element's description starts with `target`. */
async function tabTo(page: Page, target: string, key: 'Tab' | 'Shift+Tab' | 'ArrowRight' | 'ArrowDown' = 'Tab', most = 40): Promise<void> {
  for (let i = 0; i < most; i++) if ((await press(page, key)).startsWith(target)) return
  throw new Error(`${key} never reached ${target}`)
}

/** Tabs to the element described as `target` and presses Enter there. */
async function activate(page: Page, target: string, key: 'Tab' | 'Shift+Tab' | 'ArrowRight' | 'ArrowDown' = 'Tab'): Promise<void> {
  await tabTo(page, target, key)
  await press(page, 'Enter')
}

/** Waits until the focus is on an element whose description starts with `target`. */
async function focusedOn(page: Page, target: string): Promise<void> {
  // A session that starts (an agent's child process) takes seconds on a busy machine: as long as the UI's other waits.
  await expect.poll(async () => (await focusNow(page)).what.startsWith(target) || (await focusNow(page)).what, { timeout: UI_TIMEOUT }).toBe(true)
}

it('adds an agent, works in two sessions, answers a permission and a form, and reopens a session from the history with the keyboard alone', async () => {
  const app = await launch(
    [
      { id: 'scripted', name: 'Scripted agent', scenario: 'e2e-session' },
      { id: 'waiting', name: 'Waiting agent', scenario: 'e2e-waiting' },
    ],
    { viewport: { width: 1400, height: 820 } },
  )
  const { page } = app
  await visible(page.getByRole('navigation', { name: 'Agents and sessions' }))

  // The shortcuts are in the tooltips of what they do (and listed in Settings).
  expect(await page.getByRole('button', { name: 'New session', exact: true }).first().getAttribute('title')).toMatch(/\(Ctrl\+Shift\+O\)$/)
  expect(await page.getByRole('button', { name: 'Settings', exact: true }).getAttribute('title')).toBe('Settings (Ctrl+,)')

  // Agents, Add agent, the Claude preset (the flow opens on it), Save: the saved agent's Edit has the focus; Escape gives it back to Agents.
  await activate(page, 'button Agents')
  await focusedOn(page, 'h1 Agents')
  await activate(page, 'button +Add agent')
  // The add flow takes the keyboard on its first preset, and the preset's form on its first field.
  await focusedOn(page, 'button Claude')
  await press(page, 'Enter')
  await focusedOn(page, 'input Name')
  await activate(page, 'button Save')
  await focusedOn(page, 'button Edit')
  await press(page, 'Escape')
  await focusedOn(page, 'button Agents')

  // A new session (Ctrl+Shift+O): the folder, Enter, and the message box is ready.
  await press(page, 'Control+Shift+O')
  await focusedOn(page, 'input Working folder')
  await page.keyboard.type(app.home.workspace)
  await press(page, 'Enter')
  await focusedOn(page, 'textarea Message')
  await page.keyboard.type('fix')
  await press(page, 'Enter')
  await visible(agentSays(page, 'Scripted agent').getByText('Done: answer is 42 now.'))
  await waitIdle(page)

  // A second session, with the other agent (Shift+Tab to the Agent list, an arrow picks it), started with its button.
  await press(page, 'Control+Shift+O')
  await focusedOn(page, 'input Working folder')
  await page.keyboard.type(app.home.workspace)
  await tabTo(page, 'select Agent', 'Shift+Tab')
  await page.keyboard.press('ArrowDown')
  await activate(page, 'button Start session')
  await focusedOn(page, 'textarea Message')
  // The folder the form opened with (the last one) was selected: typed over, not typed after ("/tmp/x/tmp/x").
  const rows = page.getByRole('navigation', { name: 'Agents and sessions' }).locator('.session-list .session-item:not(.history-item)')
  expect(await rows.evaluateAll((els) => els.map((el) => el.getAttribute('title')))).toEqual([app.home.workspace, app.home.workspace])
  await page.keyboard.type('both')
  await press(page, 'Enter')
  // The permission takes the focus as it appears (the message box was empty); 1 allows; the form waiting has it next.
  await focusedOn(page, 'section Waiting agent asks for your approval')
  await shootAll(page, 'keyboard-permission')
  await press(page, '1')
  await focusedOn(page, 'section Waiting agent asksProject setup')
  // Accept with its required fields empty: the first of them has the focus; filled, Accept sends it.
  await activate(page, 'button Accept')
  await focusedOn(page, 'input Project code')
  await page.keyboard.type('ABC-12')
  await tabTo(page, 'input postgres')
  await press(page, 'Space')
  // Clear choice goes with the choice: the focus goes to the choices (it fell to the body).
  await activate(page, 'button Clear choice')
  await focusedOn(page, 'input Refactor in place')
  await tabTo(page, 'input TypeScript')
  await press(page, 'Space')
  await activate(page, 'button Accept')
  await focusedOn(page, 'textarea Message')
  await visible(page.getByRole('status', { name: 'Turn: Working…' }))

  // Settings (Ctrl+,) and back; the inspector (the Agents page's tab) and back.
  await press(page, 'Control+Comma')
  await focusedOn(page, 'h1 Settings')
  await press(page, 'Escape')
  await focusedOn(page, 'textarea Message')
  await activate(page, 'button Agents', 'Shift+Tab')
  // The agents list is one Tab stop (the agent shown); the arrows go from agent to agent.
  await tabTo(page, 'button Scripted agent')
  await activate(page, 'button Waiting agent', 'ArrowDown')
  await tabTo(page, 'button Overview')
  await activate(page, 'button Inspector', 'ArrowRight')
  await visible(page.getByRole('grid', { name: 'Protocol messages' }))
  await press(page, 'Escape')
  await focusedOn(page, 'button Agents')

  // Switch to the first session from the sidebar.
  await activate(page, 'button fix', 'Shift+Tab')
  await visible(page.getByRole('main', { name: 'Session fix' }))

  // Close it from its header (Close, then Confirm): the other session shows, its message box has the focus; close
  // that one too and the empty window's New session has it (it fell to the body).
  await activate(page, 'button Close session')
  await press(page, 'Enter')
  await visible(page.getByRole('main', { name: 'Session both' }))
  await focusedOn(page, 'textarea Message')
  await activate(page, 'button Close session', 'Shift+Tab')
  await press(page, 'Enter')
  await focusedOn(page, 'button New session')
  await shootAll(page, 'keyboard-closed')

  // And open it again from the history.
  await activate(page, 'button fix', 'Shift+Tab')
  await visible(page.getByRole('main', { name: 'Session fix' }))
  await visible(transcript(page).getByText('Done: answer is 42 now.'))
  expect(await messageBox(page).isVisible()).toBe(true)
})
