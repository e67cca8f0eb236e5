/**
 * Links in agent messages (issue 3 item 2): a click never navigates; it opens the same consent dialog URL
 * elicitations use, and only "Open in browser" reaches main's chokepoint (`openLink`), after which the
 * browser host's page opens a `noopener` tab. A loopback server that counts requests proves that nothing
 * was fetched before consent. `javascript:` never becomes a link at all; other schemes are refused in the
 * dialog with no Open button.
 */
import { describe, expect, it } from 'vitest'
import { screenshot, useApp } from './support/harness'
import { useLoopbackScenario } from './support/loopback-server'
import { openedTabs, recordOpenedTabs } from './support/opened-tabs'
import { agentSays, gone, sendPrompt, startSession, until, visible, waitIdle } from './support/session-ui'

const AGENT = 'Link agent'

/** JavaScript dialogs (alert…) the page raised: a `javascript:` URL that ran would show up here. */
const alerts: string[] = []

const { server, scenario } = useLoopbackScenario('e2e-elicitation')
const { app, page } = useApp(() => [{ id: 'links', name: AGENT, scenario: scenario.path }], {
  beforeLoad: async (p) => {
    p.on('dialog', (dialog) => {
      alerts.push(dialog.message())
      void dialog.dismiss()
    })
    await recordOpenedTabs(p)
  },
})

const opened = () => openedTabs(page)
const consent = () => page.getByRole('dialog', { name: 'Open this page in your browser?' })
const refusal = () => page.getByRole('dialog', { name: 'Bosun will not open this link' })
async function screenshotBothSchemes(name: string): Promise<void> {
  await screenshot(page, `${name}-light`)
  await page.emulateMedia({ colorScheme: 'dark' })
  await screenshot(page, `${name}-dark`)
  await page.emulateMedia({ colorScheme: 'light' })
}
const linkHits = (before: number) => server.hits.slice(before).filter((h) => h.startsWith('GET /from-link'))

describe('links in agent messages', () => {
  it('click → consent dialog (nothing fetched) → Cancel; click → Open → one request in a noopener tab', async () => {
    const before = server.hits.length
    await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
    await sendPrompt(page, 'links')
    await waitIdle(page)
    const message = agentSays(page, AGENT)
    const link = await visible(message.getByRole('link', { name: 'the local guide' }))
    const href = `${server.origin}/from-link?x=1`

    await link.click()
    const dialog = await visible(consent())
    expect(await dialog.locator('code.eli-url').textContent()).toBe(href)
    expect(await dialog.locator('code.eli-url mark').textContent()).toBe('127.0.0.1')
    await visible(dialog.getByText(/unencrypted http/))
    // Focus starts on Cancel: Enter never opens by accident.
    await until<HTMLButtonElement>(dialog.getByRole('button', { name: 'Cancel' }), (el) => el === document.activeElement)
    await screenshotBothSchemes('elicitation-link-consent')
    expect(server.hits.slice(before)).toEqual([])

    // Escape closes it; focus returns to the link; still nothing fetched, nothing opened.
    await page.keyboard.press('Escape')
    await gone(consent())
    await until<HTMLElement>(link, (el) => el === document.activeElement)
    expect(server.hits.slice(before)).toEqual([])
    expect(await opened()).toEqual([])

    // Keyboard activation (Enter on the focused link) shows it again; this time Open.
    await link.press('Enter')
    await visible(consent())
    const popup = app.context.waitForEvent('page', { timeout: 30_000 })
    await consent().getByRole('button', { name: 'Open in browser' }).click()
    const tab = await popup
    expect(await server.waitForHit('/from-link')).toBe('GET /from-link?x=1')
    await tab.waitForLoadState('domcontentloaded')
    expect(tab.url()).toBe(href)
    expect(await tab.evaluate(() => window.opener)).toBeNull()
    expect(await opened()).toEqual([[href, '_blank', 'noopener,noreferrer']])
    await gone(consent())
    expect(linkHits(before)).toEqual(['GET /from-link?x=1'])
    // Bosun itself never navigated (its URL is the host's, without the token it removed on load: issue 13).
    const own = new URL(app.host.url)
    own.searchParams.delete('token')
    expect(page.url()).toBe(own.href)
    await tab.close()
  })

  it('a javascript: link is not a link at all; another scheme is refused in the dialog with no Open button', async () => {
    const message = agentSays(page, AGENT)
    // markdown-it refuses the javascript: target: the text stays plain text, clicking it does nothing.
    await visible(message.getByText(/this script/))
    expect(await message.getByRole('link', { name: 'this script' }).count()).toBe(0)
    expect(await message.locator('[data-url^="javascript" i]').count()).toBe(0)
    await message.getByText(/this script/).first().click()

    // A scheme Bosun never opens: the dialog explains, offers only Close.
    await message.getByRole('link', { name: 'the editor' }).click()
    const dialog = await visible(refusal())
    await visible(dialog.getByRole('alert').getByText('Bosun will not open this address. Bosun only opens https addresses; this one uses "vscode:".'))
    expect(await dialog.getByRole('button', { name: 'Open in browser' }).count()).toBe(0)
    // The address is shown, but no part of it is presented as the site.
    expect(await dialog.locator('code.eli-url').textContent()).toBe('vscode://file/etc/passwd')
    expect(await dialog.locator('mark').count()).toBe(0)
    // Only this dialog: the javascript: click before it opened none.
    expect(await page.getByRole('dialog').count()).toBe(1)
    await screenshotBothSchemes('elicitation-link-refused')
    await dialog.getByRole('button', { name: 'Close' }).click()
    await gone(refusal())

    expect(alerts).toEqual([])
    expect(await opened()).toEqual([[`${server.origin}/from-link?x=1`, '_blank', 'noopener,noreferrer']])
    expect(app.context.pages()).toHaveLength(1)
  })
})
