/**
 * Accessibility of the real screens, checked by axe-core (WCAG 2 A/AA rules: names and roles of every
 * control, labels, ARIA use, contrast…) in both themes, with the scripted agent behind them: the session
 * screen mid-work (reply, thought, diff card, plan, composer, header selectors), a pending permission on
 * its tool card, an elicitation form, the inbox, Settings and the Agents page. Then a keyboard walk:
 * every element Tab reaches has an accessible name and a visible focus indicator.
 */
import type { Page } from 'playwright'
import { expect, it } from 'vitest'
import { axeViolations as violations } from './support/axe'
import { launchPerTest } from './support/harness'
import { agentSays, gone, sendPrompt, startSession, transcript, visible, waitIdle } from './support/session-ui'

async function bothThemes(page: Page, what: string, selector?: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    expect(await violations(page, selector), `${what} (${colorScheme})`).toEqual([])
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

/**
 * Tab from the page's start until focus comes back round: what each stop is (tag, id, name), and each stop without an
 * accessible name or a visible focus ring. A stop that keeps the focus on one element (a date field's parts) counts once.
 */
async function tabWalk(page: Page, stops = 60): Promise<{ reached: string[]; problems: string[] }> {
  await page.locator('body').focus()
  const reached: string[] = []
  const problems: string[] = []
  for (let i = 0; i < stops; i++) {
    await page.keyboard.press('Tab')
    const info = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null
      if (!el || el === document.body) return null
      const ringOf = (node: Element) => {
        const style = getComputedStyle(node)
        return (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none'
      }
      // The element's own ring, or its box's (a text area inside a bordered composer rings the composer via :focus-within).
      const box = el.parentElement
      const ring = ringOf(el) || (box !== null && box.matches(':focus-within') && ringOf(box))
      const label =
        el.getAttribute('aria-label') ??
        (el.getAttribute('aria-labelledby') ? document.getElementById(el.getAttribute('aria-labelledby')!)?.textContent : null) ??
        ((el as HTMLInputElement).labels?.[0]?.textContent || null) ??
        el.getAttribute('title') ??
        el.textContent
      // A date field's picker button (in its shadow tree) draws its own ring: the field's counts for its parts.
      const part = el instanceof HTMLInputElement && el.type === 'date'
      return { key: `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}:${(label ?? '').trim().slice(0, 40)}`, named: (label ?? '').trim().length > 0, ring: ring || part }
    })
    if (!info) continue
    if (reached.at(-1) === info.key) continue
    if (reached.includes(info.key)) break
    reached.push(info.key)
    if (!info.named) problems.push(`no name: ${info.key}`)
    if (!info.ring) problems.push(`no focus ring: ${info.key}`)
  }
  return { reached, problems }
}

const launch = launchPerTest()

it('the session screen, a pending permission on its card, the inbox, Settings and Agents pass axe in both themes', async () => {
  const app = await launch([
    { id: 'scripted', name: 'Scripted agent', scenario: 'e2e-session' },
    { id: 'perms', name: 'Scripted v1', scenario: 'e2e-permissions' },
  ])
  const { page } = app
  await startSession(page, { agentName: 'Scripted agent', cwd: app.home.workspace })
  await sendPrompt(page, 'fix')
  await visible(agentSays(page, 'Scripted agent').getByText('Done: answer is 42 now.'))
  await waitIdle(page)
  await bothThemes(page, 'session screen')

  await startSession(page, { agentName: 'Scripted v1', cwd: app.home.workspace })
  await sendPrompt(page, 'v1-diff')
  await visible(transcript(page).getByRole('alertdialog', { name: 'Edit src/app.ts', exact: true }))
  await bothThemes(page, 'pending permission')

  await page.getByRole('button', { name: /^Waiting for you/ }).click()
  await visible(page.getByText('Waiting for you'))
  await bothThemes(page, 'approval inbox')
  await page.keyboard.press('Escape')

  await page.getByRole('button', { name: 'Settings', exact: true }).click()
  await visible(page.getByRole('dialog', { name: 'Settings' }))
  await bothThemes(page, 'settings')
  await page.keyboard.press('Escape')

  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const agents = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await bothThemes(page, 'agents page')
  await agents.getByRole('button', { name: /Add agent/ }).click()
  const presets = await visible(agents.getByRole('list', { name: 'Presets' }))
  await bothThemes(page, 'agent presets')
  await presets.getByRole('button', { name: /^Custom agent/ }).click()
  await visible(agents.getByRole('textbox', { name: /^Name/ }))
  await bothThemes(page, 'agent editor')
})

it('an elicitation form passes axe in both themes', async () => {
  const app = await launch([{ id: 'elicit', name: 'Elicitation agent', scenario: 'e2e-elicitation' }])
  const { page } = app
  await startSession(page, { agentName: 'Elicitation agent', cwd: app.home.workspace })
  await sendPrompt(page, 'every-field')
  await visible(transcript(page).getByRole('region', { name: 'Project setup', exact: true }))
  await bothThemes(page, 'elicitation form')
})

it('every element Tab reaches on the session screen has an accessible name and a visible focus ring', async () => {
  const app = await launch([{ id: 'scripted', name: 'Scripted agent', scenario: 'e2e-session' }])
  const { page } = app
  await startSession(page, { agentName: 'Scripted agent', cwd: app.home.workspace })
  await sendPrompt(page, 'fix')
  await visible(agentSays(page, 'Scripted agent').getByText('Done: answer is 42 now.'))
  await waitIdle(page)

  const { reached, problems } = await tabWalk(page)
  // The walk got through the sidebar, the header, the transcript and the composer.
  expect(reached.length).toBeGreaterThan(8)
  expect(reached.some((k) => k.startsWith('textarea'))).toBe(true)
  expect(problems).toEqual([])
})

it('a permission and a form waiting at once: the turn says it needs you, each says who asks, axe passes, and Tab reaches every answer with a name and a ring', async () => {
  const AGENT = 'Waiting agent'
  const app = await launch.session({ id: 'waiting', name: AGENT, scenario: 'e2e-waiting' })
  const { page } = app
  await sendPrompt(page, 'both')
  const prompt = await visible(transcript(page).getByRole('alertdialog', { name: 'Edit src/app.ts', exact: true }))
  const form = await visible(transcript(page).getByRole('region', { name: 'Project setup', exact: true }))
  // The agent waits on the person, not the other way round: a polite status says so (it said "Working…").
  await visible(page.getByRole('status', { name: 'Turn: Needs you' }))
  const description = (locator: typeof prompt) => locator.evaluate((el) => (el.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent).join(' '))
  expect(await description(prompt)).toBe(`${AGENT} asks for your approval`)
  expect(await description(form)).toBe(`${AGENT} asks A few details before I scaffold the project.`)
  await bothThemes(page, 'permission and form waiting')
  // The sidebar's headings are their words alone (they took in their buttons: "Ready Waiting agent New session with …").
  const nav = page.getByRole('navigation', { name: 'Agents and sessions' })
  const folder = app.home.workspace.split('/').pop()!
  // The session's row counts what waits (a permission and a question), not "2 pending approvals".
  await visible(nav.getByRole('region', { name: AGENT, exact: true }).getByRole('button', { name: /^both .* 2 waiting for you$/ }))
  for (const [name, level] of [[AGENT, 2], ['History', 2], [folder, 3]] as const) {
    expect(await nav.getByRole('heading', { level }).filter({ hasText: name }).evaluate((el) => el.textContent), name).toBe(name)
    await visible(nav.getByRole('heading', { name, exact: true, level }))
  }

  const { reached, problems } = await tabWalk(page, 90)
  expect(problems).toEqual([])
  for (const stop of ['button:Allow once', 'button:Dismiss', 'input:Contact email', 'input:Go', 'button:Accept', 'button:Cancel']) {
    expect(reached.some((k) => k.replace(/#[^:]*/, '').replace(/[✓✕⊘]\s*/g, '').startsWith(stop)), stop).toBe(true)
  }

  // Answered: the turn is the agent's again.
  await prompt.getByRole('button', { name: 'Allow once' }).click()
  await form.getByRole('button', { name: 'Cancel' }).click()
  await visible(page.getByRole('status', { name: 'Turn: Working…' }))
})

it('Tab through a long form keeps the focused field clear of the transcript’s bottom edge (it stopped flush against the composer)', async () => {
  const app = await launch([{ id: 'waiting', name: 'Waiting agent', scenario: 'e2e-waiting' }])
  const { page } = app
  await startSession(page, { agentName: 'Waiting agent', cwd: app.home.workspace })
  await sendPrompt(page, 'both')
  await visible(transcript(page).getByRole('region', { name: 'Project setup', exact: true }))
  await transcript(page).evaluate((el) => el.scrollTo({ top: 0 }))
  await transcript(page).getByRole('button', { name: 'Allow once' }).focus()
  const tight: string[] = []
  for (let i = 0; i < 22; i++) {
    await page.keyboard.press('Tab')
    const stop = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement
      const log = document.querySelector('[role="log"]')!.getBoundingClientRect()
      const box = el.getBoundingClientRect()
      return { name: el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent ?? '', below: log.bottom - box.bottom, above: box.top - log.top }
    })
    // The last control sits above the end of the transcript's padding: less room is all there is.
    if (stop.below < 24 || stop.above < 8) tight.push(`${stop.name}: ${Math.round(stop.above)} px above, ${Math.round(stop.below)} px below`)
  }
  expect(tight).toEqual([])
})

it('the approval inbox opened from the keyboard closes when Tab leaves it (it stayed open over the transcript)', async () => {
  const app = await launch([{ id: 'waiting', name: 'Waiting agent', scenario: 'e2e-waiting' }])
  const { page } = app
  await startSession(page, { agentName: 'Waiting agent', cwd: app.home.workspace })
  await sendPrompt(page, 'both')
  await visible(transcript(page).getByRole('region', { name: 'Project setup', exact: true }))
  await page.getByRole('button', { name: 'Waiting for you, 2' }).focus()
  await page.keyboard.press('Enter')
  const inbox = await visible(page.getByRole('dialog', { name: 'Waiting for you' }))
  await page.keyboard.press('Tab')
  await page.keyboard.press('Tab')
  expect(await inbox.getByRole('button', { name: /^Question / }).evaluate((el) => el === document.activeElement)).toBe(true)
  await page.keyboard.press('Tab')
  await gone(inbox)
  expect(await page.getByRole('button', { name: 'Agents', exact: true }).evaluate((el) => el === document.activeElement)).toBe(true)
})

it('answering from the keyboard moves on: the permission to the waiting form, the form to the message box (it dropped focus on the body)', async () => {
  const app = await launch([{ id: 'waiting', name: 'Waiting agent', scenario: 'e2e-waiting' }])
  const { page } = app
  await startSession(page, { agentName: 'Waiting agent', cwd: app.home.workspace })
  await sendPrompt(page, 'both')
  const form = await visible(transcript(page).getByRole('region', { name: 'Project setup', exact: true }))
  const focused = (locator: typeof form) => locator.evaluate((el) => el === document.activeElement)
  await transcript(page).getByRole('button', { name: 'Allow once' }).focus()
  await page.keyboard.press('Enter')
  // The form itself, not its first field (Enter there would accept it), ringed.
  await expect.poll(() => focused(form)).toBe(true)
  expect(await form.evaluate((el) => getComputedStyle(el).boxShadow)).not.toBe('none')
  await page.keyboard.press('Tab')
  expect(await focused(form.getByRole('textbox', { name: /^Contact email/ }))).toBe(true)
  await form.getByRole('button', { name: 'Decline' }).focus()
  await page.keyboard.press('Enter')
  await expect.poll(() => focused(page.getByRole('textbox', { name: 'Message', exact: true }))).toBe(true)
})
