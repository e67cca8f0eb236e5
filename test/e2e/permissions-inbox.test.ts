/**
 * The approval inbox across sessions, and remembered decisions ("Always allow" → a rule that answers the
 * next match, listed in Settings, revocable), in the browser host against the scripted agent.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Locator } from 'playwright'
import { screenshot, useApp } from './support/harness'
import { gone, sendPrompt, startSession, transcript, visible } from './support/session-ui'

const AGENT = 'Scripted v1'

// One agent, several sessions: the scripted agents all number their sessions from `sess-1`, and Bosun keys
// sessions by the agent's id alone, so two agents' sessions would collide in one app.
const { app, page } = useApp([{ id: 'v1', name: AGENT, scenario: 'e2e-permissions' }])

const dialog = (title: string) => transcript(page).getByRole('alertdialog', { name: title, exact: true })
const said = (text: string) => transcript(page).getByText(text)
const outcome = (value: object) => said(`permission outcome: ${JSON.stringify(value)}`)
const inboxButton = () => page.getByRole('button', { name: /^Waiting for you, \d+$/ })
const inboxItems = () => page.getByRole('dialog', { name: 'Waiting for you' }).getByRole('navigation', { name: 'Waiting for you' }).getByRole('listitem')

async function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el === document.activeElement)
}

async function isInViewport(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect()
    return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth && r.height > 0
  })
}

async function openInbox(): Promise<void> {
  await inboxButton().click()
  await visible(page.getByRole('dialog', { name: 'Waiting for you' }))
}

async function screenshotBothSchemes(name: string): Promise<void> {
  await screenshot(page, `${name}-light`)
  await page.emulateMedia({ colorScheme: 'dark' })
  await screenshot(page, `${name}-dark`)
  await page.emulateMedia({ colorScheme: 'light' })
}

describe('approval inbox', () => {
  it('lists the pending requests of two sessions, oldest first; opening one focuses it', async () => {
    const alpha = join(app.home.workspace, 'alpha')
    const beta = join(app.home.workspace, 'beta')
    mkdirSync(alpha)
    mkdirSync(beta)
    await startSession(page, { agentName: AGENT, cwd: alpha })
    await sendPrompt(page, 'inbox-first')
    await visible(dialog('Edit first.ts'))
    await startSession(page, { agentName: AGENT, cwd: beta })
    await sendPrompt(page, 'inbox-second')
    await visible(dialog('Run make install'))
    // Beta is in view (named by its first prompt, as in the sidebar); alpha's request is waiting out of sight.
    await visible(page.getByRole('main', { name: 'Session inbox-second' }))
    expect(await dialog('Edit first.ts').count()).toBe(0)

    await visible(page.getByRole('button', { name: 'Waiting for you, 2' }))
    await openInbox()
    await expect.poll(() => inboxItems().count(), { timeout: 15_000 }).toBe(2)
    const texts = await inboxItems().allInnerTexts()
    expect(texts[0]).toContain('Edit first.ts')
    expect(texts[0]).toContain('inbox-first')
    expect(texts[1]).toContain('Run make install')
    expect(texts[1]).toContain('inbox-second')
    for (const text of texts) expect(text).toContain(AGENT)
    // The keyboard went into the panel; Escape closes it and gives the focus back to its button.
    const focusedIn = () => page.evaluate(() => document.activeElement?.closest('[role="dialog"]')?.getAttribute('aria-label') ?? document.activeElement?.getAttribute('aria-label'))
    expect(await focusedIn()).toBe('Waiting for you')
    await page.keyboard.press('Escape')
    await gone(page.getByRole('dialog', { name: 'Waiting for you' }))
    expect(await focusedIn()).toBe('Waiting for you, 2')
    await openInbox()
    await screenshotBothSchemes('permission-inbox')

    // Opening the older one switches to its session and puts the keyboard in its prompt.
    await inboxItems().nth(0).getByRole('button').click()
    await gone(page.getByRole('dialog', { name: 'Waiting for you' }))
    await visible(page.getByRole('main', { name: 'Session inbox-first' }))
    const first = dialog('Edit first.ts')
    await expect.poll(() => isFocused(first), { timeout: 15_000 }).toBe(true)
    expect(await isInViewport(first)).toBe(true)
    await page.keyboard.press('1')
    await visible(outcome({ outcome: 'selected', optionId: 'allow-once' }))

    await visible(page.getByRole('button', { name: 'Waiting for you, 1' }))
    await openInbox()
    await expect.poll(() => inboxItems().count(), { timeout: 15_000 }).toBe(1)
    await inboxItems().nth(0).getByRole('button', { name: /Run make install/ }).click()
    await visible(page.getByRole('main', { name: 'Session inbox-second' }))
    const second = dialog('Run make install')
    await expect.poll(() => isFocused(second), { timeout: 15_000 }).toBe(true)
    await page.keyboard.press('3')
    await visible(outcome({ outcome: 'selected', optionId: 'reject-once' }))
    await visible(page.getByRole('button', { name: 'Waiting for you, 0' }))
  })
})

describe('app shell', () => {
  it('reaches the Agents page and Settings from the header; Escape and Close return to the session', async () => {
    await page.getByRole('button', { name: 'Agents', exact: true }).click()
    const agents = await visible(page.getByRole('dialog', { name: 'Agents' }))
    await agents.getByRole('button', { name: 'Close', exact: true }).click()
    await gone(agents)
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    const settings = await visible(page.getByRole('dialog', { name: 'Settings' }))
    await visible(settings.getByRole('region', { name: 'Notifications' }))
    await expect.poll(() => isFocused(settings.getByRole('heading', { name: 'Settings' })), { timeout: 15_000 }).toBe(true)
    await page.keyboard.press('Escape')
    await gone(settings)
  })
})

describe('remembered decisions', () => {
  it('"Always allow" answers the next match without asking, shows the rule, and is revoked in Settings', async () => {
    await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
    await sendPrompt(page, 'lint')
    const prompt = await visible(dialog('Run npm run lint'))
    await prompt.getByRole('button', { name: /^Always allow/ }).click()
    await visible(outcome({ outcome: 'selected', optionId: 'allow-always' }))
    await visible(said('done lint'))

    // The same command again: Bosun answers by the rule, nobody is asked.
    await sendPrompt(page, 'lint-again')
    await visible(said('done lint-again'))
    // Answered "once" by the rule: the agent is given no standing leave of its own.
    expect(await outcome({ outcome: 'selected', optionId: 'allow-always' }).count()).toBe(1)
    expect(await outcome({ outcome: 'selected', optionId: 'allow-once' }).count()).toBe(1)
    expect(await transcript(page).getByRole('alertdialog').count()).toBe(0)
    const cards = transcript(page).getByRole('article', { name: /Run npm run lint/ })
    expect(await cards.count()).toBe(2)
    // Said once, naming the rule: "Allowed by rule “Always allow execute `npm run lint` for … in …”".
    const byRule = await visible(cards.nth(1).getByText(/^Allowed by rule “.+”$/))
    const byRuleText = (await byRule.innerText()).trim()
    expect(byRuleText).toContain('npm run lint')
    expect(byRuleText.match(/by rule/g)).toHaveLength(1)
    expect(await cards.nth(0).getByText('Allowed by you (Always allow)').count()).toBe(1)
    await screenshot(page, 'permission-rule-light')

    // Settings lists it; forgetting it makes Bosun ask again.
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    const settings = await visible(page.getByRole('dialog', { name: 'Settings' }))
    const rules = settings.getByRole('region', { name: 'Remembered decisions' })
    const rule = await visible(rules.getByRole('listitem'))
    expect(await rules.getByRole('listitem').count()).toBe(1)
    const ruleText = (await rule.innerText()).replace(/\s+/g, ' ')
    expect(ruleText).toContain('Always allow')
    expect(ruleText).toContain('npm run lint')
    expect(ruleText).toContain(AGENT)
    await screenshotBothSchemes('permission-settings')
    await rule.getByRole('button', { name: /^Forget:/ }).click()
    await visible(rules.getByText('None yet.'))
    await settings.getByRole('button', { name: 'Close', exact: true }).click()
    await gone(page.getByRole('dialog', { name: 'Settings' }))

    await sendPrompt(page, 'lint-third')
    const asked = await visible(dialog('Run npm run lint'))
    await asked.getByRole('button', { name: 'Allow once', exact: true }).click()
    await visible(outcome({ outcome: 'selected', optionId: 'allow-once' }))
  })
})
