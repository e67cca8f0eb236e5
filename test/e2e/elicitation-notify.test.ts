/**
 * A pending elicitation asks for attention like a pending permission (issue 5 item 6): the composition root
 * feeds the same attention service, so in the browser host an unfocused page gets a Web Notification
 * ("… needs your input") and the title badge counts it until it is answered. `Notification` is replaced by a
 * recorder (headless Chromium shows none), and the page believes it is in the background: `hasFocus()` is
 * false and window `focus` events are swallowed before Bosun's listener sees them.
 */
import { describe, expect, it } from 'vitest'
import { useApp } from './support/harness'
import { messageBox, sendPrompt, startSession, transcript, visible, waitIdle } from './support/session-ui'

const AGENT = 'Notifying agent'

interface Recorded {
  title: string
  body?: string
  tag?: string
}

const { app, page } = useApp([{ id: 'notify', name: AGENT, scenario: 'e2e-elicitation' }], {
  beforeLoad: (p) =>
    p.addInitScript(() => {
      const shown: { title: string; body?: string; tag?: string; instance: { onclick: (() => void) | null } }[] = []
      class RecordingNotification {
        static permission = 'granted'
        static requestPermission = () => Promise.resolve('granted')
        onclick: (() => void) | null = null
        constructor(title: string, options: { body?: string; tag?: string } = {}) {
          shown.push({ title, ...options, instance: this })
        }
        close() {}
      }
      const w = window as unknown as { Notification: unknown; __notifications: typeof shown }
      w.Notification = RecordingNotification
      w.__notifications = shown
      Document.prototype.hasFocus = () => false
      // Registered before the app's listener on the same target: stopImmediatePropagation hides the event from it.
      window.addEventListener('focus', (event) => event.stopImmediatePropagation())
    }),
})

const notifications = () =>
  page.evaluate(() =>
    (window as unknown as { __notifications: { title: string; body?: string; tag?: string }[] }).__notifications.map(
      ({ title, body, tag }): Recorded => ({ title, ...(body !== undefined ? { body } : {}), ...(tag !== undefined ? { tag } : {}) }),
    ),
  )

describe('attention for pending elicitations', () => {
  it('notifies an unfocused page, counts it in the title badge, and a click brings the form back', async () => {
    await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
    const asking = await page.title()
    await sendPrompt(page, 'small-form')
    const form = await visible(transcript(page).getByRole('region', { name: 'Branch name', exact: true }))

    await page.waitForFunction(() => (window as unknown as { __notifications: unknown[] }).__notifications.length > 0, undefined, { timeout: 30_000 })
    const [first, ...rest] = await notifications()
    expect(rest).toEqual([])
    expect(first!.title).toBe(`${AGENT} needs your input`)
    expect(first!.body).toBe('Name the branch.\nin “small-form”')
    expect(first!.tag).toMatch(/^bosun-/)
    await page.waitForFunction((base) => document.title === `(1) ${base}`, asking.replace(/^\(\d+\) /, ''), { timeout: 30_000 })

    // Clicking the notification opens the request: its form takes the focus (from the composer).
    await messageBox(page).focus()
    expect(await page.evaluate(() => document.activeElement?.closest('section[aria-labelledby]') ?? null)).toBeNull()
    await page.evaluate(() => (window as unknown as { __notifications: { instance: { onclick: (() => void) | null } }[] }).__notifications[0]!.instance.onclick?.())
    await page.waitForFunction(() => document.activeElement?.closest('section[aria-labelledby]')?.textContent?.includes('Name the branch.') ?? false, undefined, {
      timeout: 30_000,
    })

    await form.getByRole('button', { name: 'Decline' }).click()
    await visible(transcript(page).getByText('elicitation response: {"action":"decline"}'))
    // Answered: the badge is gone.
    await page.waitForFunction(() => !/^\(\d+\) /.test(document.title), undefined, { timeout: 30_000 })
    await waitIdle(page)
  })
})
