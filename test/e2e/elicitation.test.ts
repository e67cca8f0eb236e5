/**
 * Elicitations end to end (issue 5): the browser host, the built renderer in Debian's Chromium and the
 * scripted agent as a real child process. The agent reports the answer it received as its own text
 * (`elicitation response: {…}`), so each test checks what crossed the wire, not only the UI.
 *
 * A loopback HTTP server that counts requests stands in for the page a URL elicitation points at: it must
 * see nothing while the consent dialog is shown (or after Decline), and exactly one request after Open.
 */
import { describe, expect, it } from 'vitest'
import type { Locator } from 'playwright'
import { screenshot, useApp } from './support/harness'
import { useLoopbackScenario } from './support/loopback-server'
import { openedTabs, recordOpenedTabs } from './support/opened-tabs'
import { gone, sendPrompt, startSession, transcript, until, visible, waitIdle } from './support/session-ui'

const AGENT = 'Elicitation agent'

const { server, scenario } = useLoopbackScenario('e2e-elicitation')

const { app, page } = useApp(() => [{ id: 'eli', name: AGENT, scenario: scenario.path }], {
  // Record how the page opens tabs: the browser host must use `noopener`.
  beforeLoad: recordOpenedTabs,
})

/** A new session (clean transcript), then the prompt that makes the agent ask. */
async function ask(prompt: string): Promise<void> {
  await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
  await sendPrompt(page, prompt)
}

/** The agent's report of the answer it got (one per session in these tests). */
async function agentResponse(): Promise<unknown> {
  const said = await visible(transcript(page).getByText(/^elicitation response: \{/))
  const text = ((await said.first().textContent()) ?? '').trim()
  return JSON.parse(text.slice('elicitation response: '.length))
}

const card = (name: string) => transcript(page).getByRole('region', { name, exact: true })
const text = async (locator: Locator) => ((await locator.first().textContent()) ?? '').replace(/\s+/g, ' ').trim()

/** The text of the elements `aria-describedby` points at: what a screen reader says about the field. */
async function description(locator: Locator): Promise<string> {
  return locator.first().evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' | '),
  )
}

/** Light and dark; `height` makes the window tall enough to show a whole card. */
async function screenshotBothSchemes(name: string, target?: Locator, height?: number): Promise<void> {
  if (height) await page.setViewportSize({ width: 1280, height })
  await target?.scrollIntoViewIfNeeded()
  await screenshot(page, `${name}-light`)
  await page.emulateMedia({ colorScheme: 'dark' })
  await screenshot(page, `${name}-dark`)
  await page.emulateMedia({ colorScheme: 'light' })
  if (height) await page.setViewportSize({ width: 1280, height: 800 })
}

describe('form elicitation', () => {
  it('fills every field type; an out-of-range integer and a pattern mismatch block Accept until fixed', async () => {
    await ask('every-field')
    const form = await visible(card('Project setup'))
    await visible(form.getByText('A few details before I scaffold the project.'))

    // Defaults are pre-filled.
    const email = form.getByRole('textbox', { name: /^Contact email/ })
    expect(await email.inputValue()).toBe('dev@example.com')
    const workers = form.getByRole('spinbutton', { name: /^Workers/ })
    expect(await workers.inputValue()).toBe('2')
    const tests = form.getByRole('checkbox', { name: /^Run the tests/ })
    expect(await tests.isChecked()).toBe(true)
    expect(await form.getByRole('radio', { name: 'Refactor in place' }).isChecked()).toBe(true)
    // Required fields say so to assistive technology.
    expect(await email.getAttribute('aria-required')).toBe('true')

    await form.getByRole('textbox', { name: /^Homepage/ }).fill('https://example.org/project')
    await form.getByLabel(/^Start date/).fill('2026-03-01')
    await form.getByRole('textbox', { name: /^Deadline/ }).fill('2026-03-31T17:00:00Z')
    const code = form.getByRole('textbox', { name: /^Project code/ })
    await code.fill('ABC-4X')
    await form.getByRole('spinbutton', { name: /^Budget/ }).fill('12.5')
    await workers.fill('12')
    await tests.uncheck()
    await form.getByRole('radio', { name: 'postgres' }).check()
    await form.getByRole('radio', { name: 'Rewrite from scratch' }).check()
    await form.getByRole('checkbox', { name: 'TypeScript' }).check()
    await form.getByRole('checkbox', { name: 'Go' }).check()

    await form.getByRole('button', { name: 'Accept' }).click()
    // The errors sit by their fields (described-by), the fields are marked invalid, and nothing was sent.
    await visible(form.getByText('Must be at most 8.'))
    await until<HTMLInputElement>(workers, (el) => el.getAttribute('aria-invalid') === 'true')
    expect(await description(workers)).toContain('Must be at most 8.')
    expect(await code.getAttribute('aria-invalid')).toBe('true')
    expect(await description(code)).toContain('Does not have the expected form.')
    // Focus moves to the first invalid field in the form's order.
    await until<HTMLInputElement>(code, (el) => el === document.activeElement)
    expect(await transcript(page).getByText(/^elicitation response:/).count()).toBe(0)
    await visible(form.getByRole('button', { name: 'Accept' }))
    await screenshotBothSchemes('elicitation-form-error', form, 1250)

    // Fixing a field clears its error live.
    await workers.fill('3')
    await gone(form.getByText('Must be at most 8.'))
    await code.fill('ABC-42')
    await gone(form.getByText('Does not have the expected form.'))
    await form.getByRole('button', { name: 'Accept' }).click()

    expect(await agentResponse()).toEqual({
      action: 'accept',
      content: {
        email: 'dev@example.com',
        homepage: 'https://example.org/project',
        start: '2026-03-01',
        deadline: '2026-03-31T17:00:00Z',
        code: 'ABC-42',
        budget: 12.5,
        workers: 3,
        tests: false,
        db: 'postgres',
        approach: 'rewrite',
        langs: ['ts', 'go'],
      },
    })
    await visible(form.getByRole('status').getByText('Answered'))
    await gone(form.getByRole('button', { name: 'Accept' }))
    await waitIdle(page)
  })

  it('a form with fields outside the subset: shown, not refused; unsupported fields read-only with a note, a pattern Bosun does not run noted and skipped', async () => {
    await ask('partly-unsupported')
    const form = await visible(card('Deployment'))
    await visible(form.getByText('Where should I deploy?'))
    // A nested object and a list of objects: a note each, no control, Accept still offered.
    await visible(form.getByRole('note', { name: 'Target host: not supported' }).getByText('Bosun cannot show this kind of field (object); it is optional and is left out of your answer.'))
    await visible(form.getByRole('note', { name: 'Mirrors: not supported' }).getByText(/\(array of object\); it is optional/))
    expect(await form.getByRole('textbox', { name: /^Target host/ }).count()).toBe(0)
    // The lookahead pattern: a note the field is described by, naming the pattern.
    const release = form.getByRole('textbox', { name: /^Release name/ })
    expect(await description(release)).toContain('Not checked by Bosun: the agent’s pattern ^(?!latest$)(?=.*\\d)[a-z0-9.-]+$ needs features Bosun does not run')
    // A mixed enum with a numeric title: the property name, the string choices, and a note for the rest.
    const size = await visible(form.getByRole('radiogroup', { name: /^size/ }))
    expect(await size.getByRole('radio').count()).toBe(2)
    await visible(size.getByText('One choice the agent offered could not be shown (not text), so it is left out.'))

    // `^\d{3}\-\d{4}$` (valid only without the u flag) is checked, on re2js.
    const phone = form.getByRole('textbox', { name: /^On-call phone/ })
    await release.fill('latest')
    await phone.fill('5551234')
    await size.getByRole('radio', { name: 'large' }).check()
    await form.getByRole('button', { name: 'Accept' }).click()
    await until<HTMLInputElement>(phone, (el) => el.getAttribute('aria-invalid') === 'true')
    expect(await description(phone)).toContain('Does not have the expected form.')
    expect(await release.getAttribute('aria-invalid')).toBeNull()
    await screenshotBothSchemes('elicitation-form-unsupported', form, 1100)

    await phone.fill('555-1234')
    await form.getByRole('button', { name: 'Accept' }).click()
    // The unchecked pattern is the agent's to enforce: Bosun sent the answer as given, without the unsupported fields.
    expect(await agentResponse()).toEqual({ action: 'accept', content: { release: 'latest', phone: '555-1234', size: 'large' } })
    await visible(form.getByRole('status').getByText('Answered'))
    await waitIdle(page)
  })

  it('Decline answers decline', async () => {
    await ask('small-form')
    const form = await visible(card('Branch name'))
    expect(await form.getByRole('textbox', { name: /^Branch/ }).inputValue()).toBe('main')
    await form.getByRole('button', { name: 'Decline' }).click()
    expect(await agentResponse()).toEqual({ action: 'decline' })
    await visible(form.getByRole('status').getByText('Declined'))
    await waitIdle(page)
  })

  it('Escape in the form answers cancel', async () => {
    await ask('small-form')
    const form = await visible(card('Branch name'))
    await form.getByRole('textbox', { name: /^Branch/ }).press('Escape')
    expect(await agentResponse()).toEqual({ action: 'cancel' })
    await visible(form.getByRole('status').getByText('Cancelled'))
    await waitIdle(page)
  })

  it('the inbox lists the form by its title; Escape after typing asks first, Escape again keeps editing, Discard answers cancel', async () => {
    await ask('small-form')
    const form = await visible(card('Branch name'))
    // The inbox names the form by its title, its message under it.
    const inbox = page.getByRole('button', { name: /^Waiting for you, [1-9]\d*$/ })
    await (await visible(inbox)).click()
    const panel = await visible(page.getByRole('navigation', { name: 'Waiting for you' }))
    const item = await visible(panel.getByRole('button', { name: /Branch name\s*Name the branch\./ }))
    expect(await item.locator('.perm-inbox-item-title').textContent()).toBe('Branch name')
    await inbox.click()
    await gone(panel)

    const branch = form.getByRole('textbox', { name: /^Branch/ })
    await branch.fill('feature/login')
    await branch.press('Escape')
    const question = await visible(form.getByRole('group', { name: 'Discard your answers?' }))
    const keepEditing = question.getByRole('button', { name: 'Keep editing' })
    await until(keepEditing, (el) => el === document.activeElement)
    await screenshotBothSchemes('elicitation-discard-question', form)
    // Escape again keeps editing: nothing was sent, the typed answer and the focus are back.
    await page.keyboard.press('Escape')
    await gone(question)
    await until(branch, (el) => el === document.activeElement)
    expect(await branch.inputValue()).toBe('feature/login')
    expect(await transcript(page).getByText(/^elicitation response: /).count()).toBe(0)

    await branch.press('Escape')
    await (await visible(question.getByRole('button', { name: 'Discard' }))).click()
    expect(await agentResponse()).toEqual({ action: 'cancel' })
    await visible(form.getByRole('status').getByText('Cancelled'))
    await waitIdle(page)
  })

  it('a form left for another session still holds what the person typed when they come back through the inbox', async () => {
    await ask('small-form')
    const form = await visible(card('Branch name'))
    await form.getByRole('textbox', { name: /^Branch/ }).fill('feature/half-done')
    // Another session in view: this one's form leaves the page.
    await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
    await gone(form)
    await page.getByRole('button', { name: /^Waiting for you, 1$/ }).click()
    const panel = await visible(page.getByRole('navigation', { name: 'Waiting for you' }))
    await panel.getByRole('button', { name: /Branch name/ }).click()
    const back = form.getByRole('textbox', { name: /^Branch/ })
    await until(back, (el) => el === document.activeElement)
    expect(await back.inputValue()).toBe('feature/half-done')
    await form.getByRole('button', { name: 'Accept' }).click()
    expect(await agentResponse()).toEqual({ action: 'accept', content: { branch: 'feature/half-done' } })
    await waitIdle(page)
  })
})

describe('URL elicitation consent', () => {
  it('a normal https host: the parsed address with the host highlighted, no warning; Decline answers decline', async () => {
    await ask('url-docs')
    const dialog = await visible(card('Read the setup guide'))
    const address = dialog.locator('code.eli-url')
    expect(await text(address)).toBe('https://docs.example.com/guide?step=1#top')
    expect(await text(address.locator('mark'))).toBe('docs.example.com')
    expect(await dialog.getByRole('list', { name: 'Warnings about this address' }).count()).toBe(0)
    // Shown as text, never as a link.
    expect(await dialog.getByRole('link').count()).toBe(0)
    await visible(dialog.getByRole('button', { name: 'Open in browser' }))
    await dialog.getByRole('button', { name: 'Decline' }).click()
    expect(await agentResponse()).toEqual({ action: 'decline' })
    await visible(dialog.getByText('Declined.'))
    await waitIdle(page)
  })

  it('a look-alike host: the registrable domain is what stands out, with a warning (issue 13)', async () => {
    await ask('url-lookalike')
    const dialog = await visible(card('Sign in with Google'))
    const address = dialog.locator('code.eli-url')
    expect(await text(address.locator('mark .eli-url-subdomain'))).toBe('google.com.')
    expect(await text(address.locator('mark .eli-url-domain'))).toBe('attacker.example')
    expect(await text(dialog.locator('.eli-url-site'))).toBe('Site: attacker.example (host google.com.attacker.example)')
    const warnings = await visible(dialog.getByRole('list', { name: 'Warnings about this address' }))
    await visible(warnings.getByText(/looks like another site’s name/))
    await screenshotBothSchemes('elicitation-url-lookalike')
    await dialog.getByRole('button', { name: 'Decline' }).click()
    expect(await agentResponse()).toEqual({ action: 'decline' })
    await waitIdle(page)
  })

  it('the browser host token left the address bar once the page connected (issue 13)', () => {
    expect(page.url()).not.toContain('token=')
  })

  it('a punycode host: warning visible, the ASCII host highlighted and its Unicode look shown; Escape answers cancel', async () => {
    await ask('url-idn')
    const dialog = await visible(card('Sign in to your Apple account'))
    const address = dialog.locator('code.eli-url')
    expect(await text(address)).toBe('https://xn--80ak6aa92e.com/login?next=%2Faccount')
    expect(await text(address.locator('mark'))).toBe('xn--80ak6aa92e.com')
    const warnings = await visible(dialog.getByRole('list', { name: 'Warnings about this address' }))
    await visible(warnings.getByText(/international characters \(Punycode\)/))
    await visible(dialog.getByText('(displayed as “аррӏе.com”)'))
    // The Open button is described by the address and the warnings.
    const open = dialog.getByRole('button', { name: 'Open in browser' })
    expect(await description(open)).toContain('Punycode')
    await screenshotBothSchemes('elicitation-url-punycode')

    await dialog.getByRole('button', { name: 'Decline' }).focus()
    await page.keyboard.press('Escape')
    expect(await agentResponse()).toEqual({ action: 'cancel' })
    await visible(dialog.getByText('Cancelled.'))
    await waitIdle(page)
  })

  for (const [prompt, title, scheme, why] of [
    ['url-js', 'Run this to finish', 'javascript', 'Bosun only opens https addresses; this one uses "javascript:".'],
    ['url-file', 'Open your key file', 'file', 'This is a file on this computer, not a web address: Bosun does not open files from links. Copy its path to open it yourself.'],
  ] as const) {
    it(`a ${scheme}: URL is refused: no Open button, only Decline/Cancel`, async () => {
      await ask(prompt)
      const dialog = await visible(card(title))
      await visible(dialog.getByRole('alert').getByText(`Bosun will not open this address. ${why}`))
      expect(await dialog.getByRole('button', { name: 'Open in browser' }).count()).toBe(0)
      await dialog.getByRole('button', { name: 'Decline' }).click()
      expect(await agentResponse()).toEqual({ action: 'decline' })
      await waitIdle(page)
    })
  }

  it('nothing reaches the URL before consent; Open makes exactly one request in a noopener tab; completion marks it done', async () => {
    const before = server.hits.length
    await ask('url-local')
    const dialog = await visible(card('Connect your local account'))
    const href = `${server.origin}/connect?flow=e2e`
    expect(await text(dialog.locator('code.eli-url'))).toBe(href)
    await visible(dialog.getByText(/unencrypted http/))
    // The dialog is up: the page has not fetched, prefetched or preconnected anything.
    expect(server.hits.slice(before)).toEqual([])

    const popup = app.context.waitForEvent('page', { timeout: 30_000 })
    await dialog.getByRole('button', { name: 'Open in browser' }).click()
    const tab = await popup
    expect(await server.waitForHit('/connect')).toBe('GET /connect?flow=e2e')
    await tab.waitForLoadState('domcontentloaded')
    expect(tab.url()).toBe(href)
    // `noopener`: the new tab cannot reach back into Bosun.
    expect(await tab.evaluate(() => window.opener)).toBeNull()
    expect(await openedTabs(page)).toEqual([[href, '_blank', 'noopener,noreferrer']])
    expect(server.hits.slice(before).filter((h) => h.startsWith('GET /connect'))).toEqual(['GET /connect?flow=e2e'])

    // Accept means consent (not completion): the card waits for the agent, and an unknown completion id changes nothing.
    expect(await agentResponse()).toEqual({ action: 'accept' })
    await visible(transcript(page).getByText('sent an unknown completion'))
    await waitIdle(page)
    await visible(dialog.getByText(/Waiting for Elicitation agent to report that you finished/))
    await visible(dialog.getByRole('button', { name: 'Open again' }))

    // The agent completes it (twice: the repeat is ignored) → done.
    await sendPrompt(page, 'complete-local')
    await visible(transcript(page).getByText('completed twice'))
    await waitIdle(page)
    await visible(dialog.getByText('Done.'))
    expect(await dialog.getByRole('button').count()).toBe(0)
    // Still exactly one request: nothing was opened again.
    expect(server.hits.slice(before).filter((h) => h.startsWith('GET /connect'))).toEqual(['GET /connect?flow=e2e'])
    await tab.close()
  })

  it('from the keyboard, the focus stays with the card: Open in browser leads to Open again, Stop waiting to the message box (it fell to the page)', async () => {
    await ask('url-docs')
    const dialog = await visible(card('Read the setup guide'))
    const isFocused = (locator: Locator) => until(locator, (el) => el === document.activeElement)
    const open = dialog.getByRole('button', { name: 'Open in browser' })
    await open.focus()
    await page.keyboard.press('Enter')
    await isFocused(dialog.getByRole('button', { name: 'Open again' }))
    await page.keyboard.press('Tab')
    await isFocused(dialog.getByRole('button', { name: 'Stop waiting' }))
    await page.keyboard.press('Enter')
    await visible(dialog.getByText('No longer waiting.'))
    await isFocused(page.getByRole('textbox', { name: 'Message' }))
    await waitIdle(page)
  })

  it('Decline on a loopback URL: the server never hears about it', async () => {
    const before = server.hits.length
    await ask('url-local')
    const dialog = await visible(card('Connect your local account'))
    await dialog.getByRole('button', { name: 'Decline' }).click()
    expect(await agentResponse()).toEqual({ action: 'decline' })
    await visible(transcript(page).getByText('sent an unknown completion'))
    await waitIdle(page)
    expect(server.hits.slice(before)).toEqual([])
  })
})

describe('request-scoped elicitation', () => {
  // Here the agent asks while a prompt runs, with a `requestId` scope and `sessionId: null`: Bosun must show
  // it outside any session even then. The real "before any session exists" case (the agent asks while it
  // handles session/new) is in elicitation-before-session.test.ts.
  it('shows with the agent name above the app and in the inbox; the answer reaches the agent', async () => {
    await ask('request-scoped')
    const questions = await visible(page.getByRole('region', { name: 'Questions from agents' }))
    await visible(questions.getByText(`${AGENT} asks while starting`))
    const form = await visible(questions.getByRole('region', { name: 'Workspace', exact: true }))
    await visible(form.getByText('Pick a workspace before I start.'))
    // Not in the transcript: it belongs to no session.
    expect(await card('Workspace').count()).toBe(0)

    const inbox = page.getByRole('button', { name: /^Waiting for you, [1-9]\d*$/ })
    await (await visible(inbox)).click()
    const panel = await visible(page.getByRole('navigation', { name: 'Waiting for you' }))
    await visible(panel.getByText('Pick a workspace before I start.'))
    await visible(panel.getByText(new RegExp(`${AGENT} · New session`)))
    // Close the panel with its button (Escape could reach the form and cancel it).
    await inbox.click()
    await gone(panel)

    await form.getByRole('radio', { name: 'alpha' }).check()
    await form.getByRole('button', { name: 'Accept' }).click()
    expect(await agentResponse()).toEqual({ action: 'accept', content: { ws: 'alpha' } })
    await gone(questions)
    await waitIdle(page)
  })
})
