/**
 * An elicitation tied to a tool call (issue 5, scope "optionally tied to a tool call: show it on that tool
 * call"): the form sits on the tool call's card, the inbox brings the person to it, and the answer crosses
 * the wire. Browser host, built renderer, Debian's Chromium, the scripted agent as a real child process.
 */
import { describe, expect, it } from 'vitest'
import type { Locator } from 'playwright'
import { screenshot, useApp } from './support/harness'
import { gone, sendPrompt, startSession, transcript, until, visible, waitIdle } from './support/session-ui'

const AGENT = 'Elicitation agent'

const { app, page } = useApp([{ id: 'eli', name: AGENT, scenario: 'e2e-elicitation' }])

async function screenshotBothSchemes(name: string, target: Locator): Promise<void> {
  await target.scrollIntoViewIfNeeded()
  await screenshot(page, `${name}-light`)
  await page.emulateMedia({ colorScheme: 'dark' })
  await screenshot(page, `${name}-dark`)
  await page.emulateMedia({ colorScheme: 'light' })
}

describe('elicitation on a tool call', () => {
  it('the form is on the tool call’s card; the inbox opens it there; it is answered from the card', async () => {
    await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
    await sendPrompt(page, 'tool-form')
    const card = await visible(transcript(page).getByRole('article', { name: 'Run: Deploy to staging' }))
    // The form is inside the card (not a separate transcript row), with the card marked as waiting for input.
    const form = await visible(card.getByRole('region', { name: 'Release', exact: true }))
    await visible(form.getByText('Which release should I deploy to staging?'))
    await visible(card.getByText('Needs input', { exact: true }))
    expect(await transcript(page).getByRole('region', { name: 'Release', exact: true }).count()).toBe(1)
    expect(await (await card.getByLabel('Command', { exact: true }).textContent())?.trim()).toBe('./deploy.sh staging')
    await screenshotBothSchemes('elicitation-tool-call', card)

    // The inbox lists it and brings the person to its first field, on the card.
    const inboxButton = page.getByRole('button', { name: 'Waiting for you, 1' })
    await (await visible(inboxButton)).click()
    const inbox = await visible(page.getByRole('dialog', { name: 'Waiting for you' }))
    await inbox.getByRole('listitem').getByRole('button', { name: /Which release should I deploy to staging\?/ }).click()
    await gone(inbox)
    const tag = form.getByRole('textbox', { name: /^Release tag/ })
    await until<HTMLElement>(tag, (el) => el === document.activeElement)

    // A value outside the pattern is refused by the field; a valid one is sent.
    await tag.fill('latest')
    await form.getByRole('button', { name: 'Accept' }).click()
    await until<HTMLElement>(tag, (el) => el.getAttribute('aria-invalid') === 'true')
    expect(await transcript(page).getByText(/^elicitation response:/).count()).toBe(0)
    await tag.fill('v1.4.2')
    await form.getByRole('button', { name: 'Accept' }).click()

    // The agent reports the answer it received, then finishes the turn's text in the same message.
    const said = await visible(transcript(page).getByText(/^elicitation response: \{.*\}done tool-form$/))
    const response = JSON.parse(/^elicitation response: (\{.*\})done tool-form$/.exec(((await said.first().textContent()) ?? '').trim())![1]!)
    expect(response).toEqual({ action: 'accept', content: { tag: 'v1.4.2', notify: true } })
    await visible(form.getByRole('status').getByText('Answered'))
    await gone(card.getByText('Needs input', { exact: true }))
    await visible(page.getByRole('button', { name: 'Waiting for you, 0' }))
    await visible(card.getByText('Completed', { exact: true }))
    await waitIdle(page)
  })
})
