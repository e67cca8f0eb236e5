/**
 * What a person notices in the first hour, one more round (UX pass 10), in the browser host, light and dark, 900 and
 * 1400 px: the protocol inspector scrolled sideways at 900 px; the window showed two blue New session buttons; a
 * preset's key on a machine without a keychain offered a field that took nothing and a Cancel that led to a dead Set;
 * added folders showed the same start of two paths ("/home/ada/src/custome"). Screenshots:
 * test/e2e/screenshots/ux10-*.png.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { Locator, Page } from 'playwright'
import type { Scenario } from '../agents/scenario'
import { createMemorySecretStore } from '../unit/secrets/memory-secret-store'
import { launchPerTest, screenshot } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import { shootAll as shootAllOf } from './support/shoot-all'
import { gone, messageBox, sendPrompt, startSession, submitNewSession, transcript, until, visible, restartFromAgentsPage, waitIdle, watchAgent } from './support/session-ui'

const launch = launchPerTest()
const scenarioFile = scenarioFiles()
const AGENT = 'Scripted agent'

/** {@link shootAllOf} with this file's prefix. */
const shootAll = (page: Page, name: string, check?: () => Promise<void>) => shootAllOf(page, `ux10-${name}`, check)

/** The fixture scenario `name`, its sessions numbered after a long prefix (as real agents' UUIDs are long). */
function withLongSessionIds(name: string): Scenario {
  const scenario = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'scenarios', `${name}.json`), 'utf8')) as Scenario
  return { ...scenario, session: { ...scenario.session, idPrefix: '0198f3c2-a7e6-7d4c-4b1a-long-session-' } }
}

it('the protocol inspector fits a 900 px window: no sideways scroll, every column in view, the method whole in its tooltip', async () => {
  const { page } = await launch.session(
    { id: 'a', name: AGENT, scenario: scenarioFile('long-ids', withLongSessionIds('e2e-permissions')) },
    { viewport: { width: 900, height: 820 } },
  )
  await sendPrompt(page, 'v1-diff')
  await (await visible(transcript(page).getByRole('alertdialog'))).getByRole('button', { name: /Allow once/ }).click()
  await waitIdle(page)
  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await dialog.getByRole('tab', { name: 'Inspector', exact: true }).click()
  const grid = await visible(dialog.getByRole('grid', { name: 'Protocol messages' }))
  const permissionRow = grid.getByRole('row').filter({ hasText: 'session/request_permission' }).first()
  await permissionRow.click()
  const fits = async () => {
    const shape = await grid.evaluate((table) => {
      const wrap = table.parentElement!
      const right = wrap.getBoundingClientRect().right
      return {
        tableScrolls: wrap.scrollWidth > wrap.clientWidth,
        pageScrolls: document.documentElement.scrollWidth > document.documentElement.clientWidth,
        headersOut: Array.from(table.querySelectorAll('th'))
          .filter((th) => th.getBoundingClientRect().right > right + 0.5)
          .map((th) => th.textContent),
      }
    })
    expect(shape).toEqual({ tableScrolls: false, pageScrolls: false, headersOut: [] })
    expect(await permissionRow.getByRole('gridcell', { name: 'session/request_permission' }).getAttribute('title')).toBe('session/request_permission')
    // The toolbar stays one row: the session filter, as wide as its longest option, pushed Export and Clear down.
    const middle = async (control: Locator) => {
      const box = (await control.boundingBox())!
      return Math.round(box.y + box.height / 2)
    }
    expect(await middle(dialog.getByRole('button', { name: 'Export', exact: true }))).toBe(await middle(dialog.getByRole('searchbox', { name: 'Filter by method' })))
  }
  await fits()
  await shootAll(page, 'inspector', fits)
})

it('one blue button a view: the sidebar’s New session is secondary beside the empty window’s own and a session’s Send', async () => {
  const app = await launch([{ id: 'a', name: AGENT, scenario: 'e2e-permissions' }], { viewport: { width: 1400, height: 820 } })
  const { page } = app
  const primaries = () => page.locator('.button-primary:visible').allInnerTexts()
  await visible(page.getByRole('main', { name: 'No session' }).getByRole('button', { name: 'New session' }))
  expect(await primaries()).toEqual(['New session'])
  const nav = page.getByRole('navigation', { name: 'Agents and sessions' })
  expect(await nav.getByRole('button', { name: 'New session', exact: true }).evaluate((el) => el.classList.contains('button-secondary'))).toBe(true)
  await shootAll(page, 'empty')
  // With the New session form open, its Start session is the blue one (the empty window's New session goes to the form).
  await nav.getByRole('button', { name: 'New session', exact: true }).click()
  await visible(page.getByRole('form', { name: 'New session' }))
  await expect.poll(primaries).toEqual(['Start session'])
  await shootAll(page, 'empty-form-open')
  await page.keyboard.press('Escape')
  await gone(page.getByRole('form', { name: 'New session' }))
  await expect.poll(primaries).toEqual(['New session'])
  await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
  expect(await primaries()).toEqual(['Send'])
  await shootAll(page, 'session')
})

it('without a keychain, a preset’s key says the agent starts without it and offers only Remove (its Cancel led to a Set that did nothing)', async () => {
  const { page } = await launch([], { viewport: { width: 1400, height: 820 }, secretStore: createMemorySecretStore({ available: false }) })
  await (await visible(page.getByRole('main', { name: 'No session' }).getByRole('button', { name: 'Set up an agent' }))).click()
  await page.getByRole('list', { name: 'Presets' }).getByRole('button', { name: /^Claude/ }).click()
  const form = await visible(page.getByRole('form', { name: 'Add agent' }))
  await visible(form.getByRole('alert').getByText('sign in to the agent its own way instead', { exact: false }))
  const row = form.getByRole('group', { name: 'Secrets (stored in the system keychain)' })
  await visible(row.getByLabel('ANTHROPIC_API_KEY is not set; the agent starts without it', { exact: true }))
  await visible(row.getByText('the agent starts without it', { exact: true }))
  expect(await row.locator('input[type="password"]').count()).toBe(0)
  expect(await row.getByRole('button').allInnerTexts()).toEqual(['Remove', 'Add secret'])
  await shootAll(page, 'no-keychain')
  // It saves as it is: the agent is listed, its key left unset.
  await form.getByRole('button', { name: 'Save', exact: true }).click()
  await visible(page.getByRole('dialog', { name: 'Agents' }).getByRole('heading', { name: 'Claude', exact: true, level: 2 }))
})

it('added folders show the folder’s name whole and the path’s end (two paths showed the same start), the path in the tooltip', async () => {
  const { page } = await launch([{ id: 'a', name: AGENT, scenario: 'e2e-permissions' }], { viewport: { width: 900, height: 820 } })
  const nav = page.getByRole('navigation', { name: 'Agents and sessions' })
  await (await visible(nav.getByRole('button', { name: 'New session', exact: true }))).click()
  const form = await visible(page.getByRole('form', { name: 'New session' }))
  const paths = ['/home/ada/src/customer-portal/packages/frontend-application-service-v2', '/home/ada/src/customer-portal/packages/frontend-application-service-v3']
  for (const [i, path] of paths.entries()) {
    await form.getByRole('button', { name: 'Add folder' }).click()
    await form.getByRole('textbox', { name: `Added folder ${i + 1}` }).fill(path)
  }
  await form.getByRole('textbox', { name: 'Working folder' }).focus()
  const check = async () => {
    for (const [i, path] of paths.entries()) {
      const field = form.getByRole('textbox', { name: `Added folder ${i + 1}` })
      expect(await field.getAttribute('title')).toBe(path)
      const shown = await field.evaluate((input) => {
        const view = input.parentElement!.querySelector('.added-folder-view')!
        const name = view.querySelector('.added-folder-name') as HTMLElement
        const parent = view.querySelector('.added-folder-parent') as HTMLElement
        // The parent's last letter is inside its box: its end shows (its start is what gives way).
        const text = parent.querySelector('bdi')!.firstChild!
        const range = document.createRange()
        range.setStart(text, text.textContent!.length - 1)
        range.setEnd(text, text.textContent!.length)
        const last = range.getBoundingClientRect()
        const box = parent.getBoundingClientRect()
        return {
          name: name.textContent,
          nameWhole: name.scrollWidth <= name.clientWidth + 1 && name.getBoundingClientRect().right <= view.getBoundingClientRect().right + 0.5,
          parent: parent.textContent,
          endShown: last.right <= box.right + 0.5 && last.left >= box.left - 0.5,
        }
      })
      expect(shown).toEqual({ name: path.split('/').pop(), nameWhole: true, parent: '/home/ada/src/customer-portal/packages/', endShown: true })
    }
  }
  await check()
  await shootAll(page, 'added-folders', check)
  // A click on a folder is a click in its field (over the folder's name, unseen): the path shows to be edited.
  const second = form.getByRole('textbox', { name: 'Added folder 2' })
  const name = (await form.getByText('frontend-application-service-v3', { exact: true }).boundingBox())!
  await page.mouse.click(name.x + name.width / 2, name.y + name.height / 2)
  expect(await second.evaluate((el) => el === document.activeElement)).toBe(true)
  expect(await form.locator('.added-folder-view').count()).toBe(1)
  expect(await second.evaluate((el) => getComputedStyle(el).opacity)).toBe('1')
  await screenshot(page, 'ux10-added-folders-editing-light-900')
})

/**
 * The e2e-session agent, reloading its sessions (`loadSession`), whose every start after the first waits in
 * `initialize` until `release` is called; 'crash' makes it exit mid-turn.
 */
function heldRestarts(): { scenario: string; hold: () => void; release: () => void } {
  const fixture = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'scenarios', 'e2e-session.json'), 'utf8')) as Scenario
  const go = `${scenarioFile('held-go', {})}.go`
  writeFileSync(go, '')
  const scenario = scenarioFile('held-restarts', {
    ...fixture,
    initialize: { ...fixture.initialize, capabilities: { ...fixture.initialize?.capabilities, loadSession: true }, untilFile: go },
    prompts: { ...fixture.prompts, crash: [{ type: 'crash', code: 1 }] },
  })
  return { scenario, hold: () => rmSync(go), release: () => writeFileSync(go, '') }
}

/** Sends `text` while the agent is starting again, and checks it is neither lost nor sent twice: shown as waiting, then the transcript's. */
async function sendWhileStarting(page: Page, release: () => void, sent: string[], shot: string, whileWaiting?: () => Promise<void>): Promise<void> {
  await sendPrompt(page, 'again')
  const waiting = await visible(page.getByRole('status', { name: 'Message waiting to be sent' }))
  expect(await waiting.innerText()).toBe(`Starting ${AGENT}; this goes as soon as it is ready: again`)
  expect(await messageBox(page).inputValue()).toBe('')
  await whileWaiting?.()
  await screenshot(page, `ux10-${shot}-light-1400`)
  release()
  await gone(waiting)
  await waitIdle(page)
  await expect.poll(() => transcript(page).getByLabel('Your message').allInnerTexts(), { timeout: 30_000 }).toEqual([...sent, 'again'])
}

it('a message sent while the agent restarts (Restart on its page) waits, is shown as waiting, and goes once it has started', async () => {
  const held = heldRestarts()
  const { page } = await launch.session({ id: 'a', name: AGENT, scenario: held.scenario }, { viewport: { width: 1400, height: 820 } })
  await sendPrompt(page, 'fix')
  await waitIdle(page)
  held.hold()
  await restartFromAgentsPage(page, AGENT)
  await sendWhileStarting(page, held.release, ['fix'], 'waiting-after-restart')
  await screenshot(page, 'ux10-sent-after-restart-light-1400')
})

it('a message sent while the agent starts again after a crash waits, and goes once it has started', async () => {
  const held = heldRestarts()
  const { page } = await launch.session({ id: 'a', name: AGENT, scenario: held.scenario }, { viewport: { width: 1400, height: 820 } })
  const watch = await watchAgent(page, AGENT)
  held.hold()
  await sendPrompt(page, 'crash')
  await watch.waitForStatuses(['Starting'])
  // The crashed turn's Send again waits while a message is on its way: pressed, it only got "A turn is already running".
  const sendAgain = transcript(page).getByRole('button', { name: 'Send again', exact: true })
  await until<HTMLButtonElement>(sendAgain, (el) => !el.disabled)
  await sendWhileStarting(page, held.release, ['crash'], 'waiting-after-crash', async () => {
    await until<HTMLButtonElement>(sendAgain, (el) => el.disabled)
    expect(await sendAgain.getAttribute('title')).toBe('A message is on its way: send again once it has gone')
  })
  // Once a later message went, the error offers nothing more.
  expect(await sendAgain.count()).toBe(0)
})

it('a form declined after a failed Accept no longer says “Required.” under its fields; its date field’s hint matches the field', async () => {
  const { page } = await launch.session({ id: 'a', name: 'Form agent', scenario: 'e2e-elicitation' }, { viewport: { width: 1400, height: 820 } })
  await sendPrompt(page, 'every-field')
  const card = await visible(transcript(page).getByRole('form', { name: 'Answer to Form agent' }))
  // The date field is the browser's, in the system's order: its hint gives no example in another order (2026-01-31).
  const date = card.getByLabel('Start date')
  expect(await date.getAttribute('type')).toBe('date')
  expect(await date.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent)).toBe(
    'A date: type it as the field shows, or pick it from its calendar.',
  )
  await card.getByRole('button', { name: 'Accept', exact: true }).click()
  await visible(card.getByText('Required.').first())
  await card.getByRole('button', { name: 'Decline', exact: true }).click()
  await waitIdle(page)
  await visible(transcript(page).getByRole('status').getByText('Declined', { exact: true }))
  // Read until the page has drawn the answer everywhere (the status may come a frame before the fields under load).
  await expect.poll(() => card.getByText('Required.').count()).toBe(0)
  await expect.poll(() => card.locator('[aria-invalid="true"]').count()).toBe(0)
})

it('Check connection keeps the keyboard’s place: its button has the focus again when the check is over', async () => {
  const { page } = await launch([{ id: 'a', name: AGENT, scenario: 'e2e-permissions' }], { viewport: { width: 900, height: 820 } })
  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await dialog.getByRole('tab', { name: 'Check connection', exact: true }).click()
  const check = dialog.getByRole('tabpanel').getByRole('button', { name: 'Check connection', exact: true })
  await check.focus()
  await page.keyboard.press('Enter')
  await visible(dialog.getByRole('region', { name: 'Check result' }))
  await expect.poll(() => check.evaluate((el) => el === document.activeElement)).toBe(true)
  await shootAll(page, 'check-connection')
})

it('the keyboard carries on after a form goes away: a new session’s message box, a saved agent’s Edit', async () => {
  const app = await launch([{ id: 'a', name: AGENT, scenario: 'e2e-permissions' }], { viewport: { width: 1400, height: 820 } })
  const { page } = app
  const focused = (locator: Locator) => expect.poll(() => locator.evaluate((el) => el === document.activeElement)).toBe(true)
  // Started with Enter in the working folder: the form goes, the message box has the focus (it fell to the page).
  const nav = page.getByRole('navigation', { name: 'Agents and sessions' })
  await (await visible(nav.getByRole('button', { name: 'New session', exact: true }))).click()
  const form = await visible(page.getByRole('form', { name: 'New session' }))
  await form.getByRole('textbox', { name: 'Working folder' }).fill(app.home.workspace)
  await form.getByRole('textbox', { name: 'Working folder' }).press('Enter')
  await gone(form)
  await focused(messageBox(page))
  // Saved from the Agents page: the saved agent's Edit has it.
  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await dialog.getByRole('button', { name: 'Edit', exact: true }).click()
  const editor = await visible(dialog.getByRole('form', { name: `Edit ${AGENT}` }))
  await editor.getByRole('button', { name: 'Save', exact: true }).click()
  await gone(editor)
  await focused(dialog.getByRole('button', { name: 'Edit', exact: true }))
})

it('without a keychain, the sign-in’s “With a key” says what happens instead of a field and a button that cannot work', async () => {
  const app = await launch([{ id: 'k', name: 'Keyed agent', scenario: 'auth-api-key', secretEnv: ['ACME_API_KEY'] }], {
    viewport: { width: 1400, height: 820 },
    secretStore: createMemorySecretStore({ available: false }),
  })
  const { page } = app
  await submitNewSession(page, { cwd: app.home.workspace })
  const dialog = await visible(page.getByRole('dialog', { name: 'Sign in to Keyed agent' }))
  const keys = await visible(dialog.getByRole('region', { name: 'Keys' }))
  await visible(keys.getByText('Without the system keychain Bosun cannot keep a key', { exact: false }))
  expect(await keys.innerText()).toContain('Keyed agent starts without it: sign in another way')
  expect(await keys.getByRole('textbox').count()).toBe(0)
  expect(await keys.getByRole('button').count()).toBe(0)
  // A method that takes its key in the login does not promise to keep it in the keychain either.
  await visible(dialog.getByText('Without the system keychain Bosun cannot keep it for Keyed agent’s environment', { exact: false }))
  expect(await dialog.getByText('in the system keychain, for Keyed agent only', { exact: false }).count()).toBe(0)
  await keys.scrollIntoViewIfNeeded()
  await shootAll(page, 'no-keychain-sign-in')
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click()
  await gone(dialog)
})

it('New session asked again while its form is open gives the form asked for (another agent’s +), with the focus', async () => {
  const { page } = await launch(
    [
      { id: 'a', name: 'First agent', scenario: 'e2e-permissions' },
      { id: 'b', name: 'Second agent', scenario: 'e2e-permissions' },
    ],
    { viewport: { width: 1400, height: 820 } },
  )
  const nav = page.getByRole('navigation', { name: 'Agents and sessions' })
  await (await visible(nav.getByRole('button', { name: 'New session with First agent' }))).click()
  const form = await visible(page.getByRole('form', { name: 'New session' }))
  const agent = form.getByRole('combobox', { name: 'Agent', exact: true })
  const picked = () => agent.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.textContent)
  expect(await picked()).toBe('First agent')
  await nav.getByRole('button', { name: 'New session with Second agent' }).click()
  await expect.poll(picked).toBe('Second agent')
  await expect.poll(() => form.getByRole('textbox', { name: 'Working folder' }).evaluate((el) => el === document.activeElement)).toBe(true)
  // The empty window's New session, with the form open: the form has the focus again (it stayed on the button).
  await page.getByRole('main', { name: 'No session' }).getByRole('button', { name: 'New session' }).click()
  await expect.poll(() => form.getByRole('textbox', { name: 'Working folder' }).evaluate((el) => el === document.activeElement)).toBe(true)
})

it('a form answered with the pointer at the end of the transcript leaves it following: no Jump to latest over nothing below', async () => {
  const { page } = await launch.session({ id: 'a', name: 'Form agent', scenario: 'e2e-elicitation' }, { viewport: { width: 1400, height: 820 } })
  await sendPrompt(page, 'small-form')
  const card = await visible(transcript(page).getByRole('form', { name: 'Answer to Form agent' }))
  // The press on Decline stops the follow while the form waits (nothing moves under the pointer); the form answered
  // and the view still at the end, the transcript follows again and shows what the agent said next.
  await card.getByRole('button', { name: 'Decline', exact: true }).click()
  await waitIdle(page)
  await visible(transcript(page).getByText(/elicitation response/))
  await expect.poll(() => page.getByRole('button', { name: 'Jump to latest', exact: true }).count(), { timeout: 10_000 }).toBe(0)
  await screenshot(page, 'ux10-form-answered-following-light-1400')
})
