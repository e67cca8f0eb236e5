/**
 * Remembered decisions mean what was approved, and keys mean the same with every agent (issue 10 §1), in the
 * browser host against the scripted agent: the dialog says before the click when "always" is kept for this
 * session only, a near miss is asked again, Settings says what each rule covers; three option orders get the
 * same keys; an option of an unknown kind is reported by its name. The agent reports each answer it received.
 */
import { describe, expect, it } from 'vitest'
import { axeViolations } from './support/axe'
import { screenshot, sharedApp } from './support/harness'
import { gone, sendPrompt, startSession, transcript, visible } from './support/session-ui'

const V1 = 'Scripted v1'
const V2 = 'Scripted v2'

const shared = sharedApp()
const { app, page } = shared

function withApp(agent: { id: string; name: string; v2?: boolean }): void {
  shared.launchAround([{ ...agent, scenario: 'e2e-rules' }])
}

const dialog = (title: string) => transcript(page).getByRole('alertdialog', { name: title, exact: true })
const said = (text: string) => transcript(page).getByText(text)
/** The agent's reports of the answer it received (the v1 and v2 agents order the keys differently). */
const outcome = (optionId: string) =>
  transcript(page).getByText(`permission outcome: {"outcome":"selected","optionId":"${optionId}"}`).or(transcript(page).getByText(`permission outcome: {"optionId":"${optionId}","outcome":"selected"}`))
const buttons = async (title: string) =>
  (await dialog(title).getByRole('group', { name: 'Options' }).getByRole('button').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())

/** Screenshots in both themes, each checked by axe (inside `selector`). */
async function screenshotBothSchemes(name: string, selector: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await screenshot(page, `${name}-${scheme}`)
    expect(await axeViolations(page, selector), `${name} (${scheme})`).toEqual([])
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

describe('remembered decisions, v2 agent', () => {
  withApp({ id: 'v2', name: V2, v2: true })

  it('a vague request: the dialog says “always” is for this session only, before the click; the rule answers only this session', async () => {
    await startSession(page, { agentName: V2, cwd: app.home.workspace })
    await sendPrompt(page, 'vague-1')
    const prompt = await visible(dialog('Use an unnamed tool?'))
    const note = await visible(prompt.getByRole('note').filter({ hasText: 'remembered for this session only' }))
    expect(await note.innerText()).toContain('Bosun cannot tell this tool apart from other tools')
    // The "always" buttons point at the note; screen readers hear it with the button.
    const noteId = await note.getAttribute('id')
    expect(await prompt.getByRole('button', { name: /^Always allow/ }).getAttribute('aria-describedby')).toBe(noteId)
    // The description is prose: its line breaks are line breaks, with no hidden-character markers or warning.
    const description = prompt.locator('.perm-description')
    expect(await description.innerText()).toBe('The agent wants to call a tool it did not name.\nIt says the tool only reads the weather forecast.\n\nNothing is written.')
    expect(await description.locator('abbr').count()).toBe(0)
    expect(await prompt.getByText('hidden or direction-changing characters').count()).toBe(0)
    await prompt.scrollIntoViewIfNeeded()
    await screenshotBothSchemes('permission-dialog-session-always', '.perm-prompt')

    await prompt.focus()
    await page.keyboard.press('2')
    await visible(outcome('allow-always'))
    await visible(said('done vague-1'))
    // The same request again in this session: answered by the session rule, nobody asked.
    await sendPrompt(page, 'vague-2')
    await visible(said('done vague-2'))
    // Answered "once" by the rule: the agent is given no standing leave of its own.
    expect(await outcome('allow-always').count()).toBe(1)
    expect(await outcome('allow-once').count()).toBe(1)
    expect(await transcript(page).getByRole('alertdialog').count()).toBe(0)
  })

  it('a command: the rule answers the exact command only; Settings says what each rule covers', async () => {
    await sendPrompt(page, 'cmd-1')
    const prompt = await visible(dialog('Run npm test'))
    // A command is a distinguishing fact: no session-only note.
    expect(await prompt.getByRole('note').count()).toBe(0)
    await prompt.getByRole('button', { name: /^Always allow/ }).click()
    await visible(said('done cmd-1'))
    await sendPrompt(page, 'cmd-2')
    await visible(said('done cmd-2'))
    expect(await outcome('allow-always').count()).toBe(2)
    expect(await outcome('allow-once').count()).toBe(2)
    // The same words with a second line: a near miss, asked again.
    await sendPrompt(page, 'cmd-3')
    const nearMiss = await visible(transcript(page).getByRole('alertdialog', { name: /^Run npm test/ }))
    await nearMiss.focus()
    await page.keyboard.press('Escape')
    await visible(said('done cmd-3'))

    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    const settings = await visible(page.getByRole('dialog', { name: 'Settings' }))
    const rules = settings.getByRole('region', { name: 'Remembered decisions' })
    await visible(rules.getByRole('listitem').first())
    const items = (await rules.getByRole('listitem').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())
    expect(items).toHaveLength(2)
    const command = items.find((t) => t.includes('npm test'))
    const session = items.find((t) => t.includes('This session only'))
    expect(command).toContain(`Always allow \`npm test\` in ${app.home.workspace} (${V2})`)
    expect(session).toContain(`Always allow the tool with the same city as approved (${V2}, this session only)`)
    expect(session).toContain('forgotten when the session closes or Bosun quits')
    await screenshotBothSchemes('permission-settings-rules', '.perm-rules')
    await settings.getByRole('button', { name: 'Close', exact: true }).click()
    await gone(page.getByRole('dialog', { name: 'Settings' }))
  })
})

describe('keys by option kind, v1 agent', () => {
  withApp({ id: 'v1', name: V1 })

  it('three agents’ option orders: the same order and the same keys, by kind', async () => {
    await startSession(page, { agentName: V1, cwd: app.home.workspace })
    const allowOnce = '✓ Allow once 1'
    const allowAlways = '✓✓ Always allow (remembered for next time) 2'
    const reject = '✕ Reject 3'
    const rejectAlways = '⊘ Always reject (remembered for next time) 4'
    const cases: [prompt: string, title: string, shown: string[]][] = [
      ['order-a', 'Check (always first)', [allowOnce, allowAlways, reject, rejectAlways]],
      ['order-b', 'Check (reversed)', [allowOnce, allowAlways, reject, rejectAlways, 'Ask me later 5']],
      ['order-c', 'Check (no always reject)', [allowOnce, allowAlways, reject]],
    ]
    let answered = 0
    for (const [name, title, shown] of cases) {
      await sendPrompt(page, name)
      const prompt = await visible(dialog(title))
      // The keys are shown while the request has the focus (they answer only then).
      await prompt.focus()
      expect(await buttons(title)).toEqual([...shown, 'Dismiss Esc'])
      if (name === 'order-c') {
        // No "always reject" offered: its key does nothing (never another option).
        await page.keyboard.press('4')
        expect(await dialog(title).count()).toBe(1)
      }
      // "1" is "Allow once" with every agent.
      await page.keyboard.press('1')
      await visible(said(`done ${name}`))
      expect(await outcome('allow-once').count()).toBe(++answered)
    }
    expect(await outcome('allow-always').count()).toBe(0)
  })

  it('an option of an unknown kind is reported by its name, never as allowed or rejected', async () => {
    await sendPrompt(page, 'defer')
    const prompt = await visible(dialog('Check (can wait)'))
    await prompt.getByRole('button', { name: 'Ask me later', exact: true }).click()
    await visible(outcome('later'))
    const card = transcript(page).getByRole('article', { name: /Check \(can wait\)/ })
    await visible(card.getByText('You chose “Ask me later”'))
    expect(await card.getByText(/Allowed by|Rejected by/).count()).toBe(0)
    await card.scrollIntoViewIfNeeded()
    await screenshot(page, 'permission-card-unknown-kind-light')
  })
})

describe('an "always" answer the person does not confirm in main\'s dialog', () => {
  let declined = 0
  shared.launchAround([{ id: 'v2', name: V2, v2: true, scenario: 'e2e-rules' }], {
    // Main's own dialog, answered "Cancel" for remembering; everything else is confirmed (the test agent's start).
    confirmation: {
      confirm: async (request) => (request.kind === 'remember-decision' ? (declined++, { confirmed: false, by: 'person' as const }) : { confirmed: true, by: 'owner' as const }),
    },
  })

  it('says that nothing was remembered, and the request keeps waiting for an answer', async () => {
    await startSession(page, { agentName: V2, cwd: app.home.workspace })
    await sendPrompt(page, 'vague-1')
    const prompt = await visible(dialog('Use an unnamed tool?'))
    await prompt.getByRole('button', { name: /^Always allow/ }).click()
    const toast = await visible(page.getByRole('alert').filter({ hasText: 'Nothing was remembered; the request is still waiting for your answer.' }))
    expect(await toast.innerText()).toContain('Remembering the answer failed')
    expect(declined).toBe(1)
    expect(await prompt.isVisible()).toBe(true)
    await screenshot(page, 'permission-always-declined-light')
    await prompt.getByRole('button', { name: /^Allow once/ }).click()
    await gone(prompt)
  })
})
