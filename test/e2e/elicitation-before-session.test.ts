/**
 * A request-scoped elicitation before any session exists (issue 5, checklist G12), end to end: the browser
 * host, the built renderer in Debian's Chromium and the scripted agent, which asks while it handles
 * Bosun's `session/new` (`requestId` = that request's id) and replies only after the answer. While
 * "New session" waits, the question shows above the app and in the inbox with the agent's name; the
 * person answers it there, then the session opens and the agent reports the answer it received.
 */
import { describe, expect, it } from 'vitest'
import { screenshot, useApp } from './support/harness'
import { gone, messageBox, transcript, until, visible } from './support/session-ui'

const AGENT = 'Setup agent'

const { app, page } = useApp([{ id: 'setup', name: AGENT, scenario: 'elicit-session-new', v2: true }])

describe('request-scoped elicitation before a session exists', () => {
  it('shows in the inbox while "New session" waits, is answered from the UI, and the agent gets the answer', async () => {
    const nav = page.getByRole('navigation', { name: 'Agents and sessions' })
    await (await visible(nav.getByRole('button', { name: 'New session', exact: true }))).click()
    const newSession = await visible(page.getByRole('form', { name: 'New session' }))
    await newSession.getByRole('combobox', { name: 'Agent' }).selectOption({ label: AGENT })
    await newSession.getByRole('textbox', { name: 'Working folder' }).fill(app.home.workspace)
    await newSession.getByRole('button', { name: 'Start session' }).click()

    // The agent asks before it answers session/new: the form waits, and no session is open yet.
    const questions = await visible(page.getByRole('region', { name: 'Questions from agents' }))
    await visible(questions.getByText(`${AGENT} asks while starting`))
    const form = await visible(questions.getByRole('region', { name: 'Workspace', exact: true }))
    await visible(form.getByText('Which workspace should the new session use?'))
    await visible(newSession.getByRole('button', { name: 'Starting…' }))
    await visible(page.getByRole('heading', { name: 'No session is open' }))
    expect(await transcript(page).count()).toBe(0)

    // In the inbox, with the agent's name and no session.
    const inbox = await visible(page.getByRole('button', { name: 'Waiting for you, 1' }))
    await inbox.click()
    const panel = await visible(page.getByRole('navigation', { name: 'Waiting for you' }))
    await visible(panel.getByText('Which workspace should the new session use?'))
    const item = await visible(panel.getByText(new RegExp(`${AGENT} · New session`)))
    // The panel the person opened is on top: the question card above the app does not cover it.
    await until(item, (el) => {
      const box = el.getBoundingClientRect()
      return el.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2))
    })
    await screenshotBothSchemes('elicitation-before-session-inbox')
    // Close the panel with its button (Escape could reach the form and cancel it).
    await inbox.click()
    await gone(panel)

    // Accept is blocked until the required choice is made.
    await form.getByRole('button', { name: 'Accept' }).click()
    await visible(form.getByText(/required/i))
    await form.getByRole('radio', { name: 'Beta (sandbox)' }).check()
    await form.getByRole('checkbox', { name: /^Start from a clean checkout/ }).check()
    await screenshotBothSchemes('elicitation-before-session-form')
    await form.getByRole('button', { name: 'Accept' }).click()

    // Answered: the question goes, session/new completes and the new session opens.
    await gone(questions)
    await gone(newSession)
    await visible(messageBox(page))
    await until<HTMLTextAreaElement>(messageBox(page), (el) => !el.disabled)
    const said = await visible(transcript(page).getByText(/^request-scoped elicitation response \(session\/new\): /))
    const text = ((await said.first().textContent()) ?? '').trim()
    expect(JSON.parse(text.slice(text.indexOf('{')))).toEqual({ action: 'accept', content: { ws: 'beta', fresh: true } })
    await visible(page.getByRole('button', { name: 'Waiting for you, 0' }))
  })
})

/** Light and dark. */
async function screenshotBothSchemes(name: string): Promise<void> {
  await screenshot(page, `${name}-light`)
  await page.emulateMedia({ colorScheme: 'dark' })
  await screenshot(page, `${name}-dark`)
  await page.emulateMedia({ colorScheme: 'light' })
}
