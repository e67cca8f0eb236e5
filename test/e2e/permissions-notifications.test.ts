/**
 * Browser-host notifications: the page reports its focus to main, shows a Web Notification for a request
 * that arrives while it is hidden (never while focused), and a click on it opens the request. The page's
 * `Notification` is replaced before load by a recorder (permission `granted`), and "hidden" is made the way
 * the browser says it: `document.visibilityState`/`hidden` overridden, then `visibilitychange` and `blur`.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator } from 'playwright'
import { useApp } from './support/harness'
import { gone, sendPrompt, startSession, transcript, visible } from './support/session-ui'

const AGENT = 'Scripted v1'

declare global {
  interface Window {
    __notifications: { title: string; options: { body?: string; tag?: string }; closed: boolean; onclick: (() => void) | null }[]
    __setPageShown: (shown: boolean) => void
  }
}

/** Runs in the page before any of its scripts. */
function installNotificationRecorder(): void {
  window.__notifications = []
  class RecordingNotification {
    static permission = 'granted'
    static requestPermission = () => Promise.resolve('granted')
    onclick: (() => void) | null = null
    closed = false
    constructor(
      public title: string,
      public options: { body?: string; tag?: string } = {},
    ) {
      window.__notifications.push(this)
    }
    close() {
      this.closed = true
    }
  }
  Object.defineProperty(window, 'Notification', { value: RecordingNotification, configurable: true, writable: true })

  let shown = true
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (shown ? 'visible' : 'hidden') })
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => !shown })
  Object.defineProperty(document, 'hasFocus', { configurable: true, value: () => shown })
  window.__setPageShown = (value: boolean) => {
    shown = value
    document.dispatchEvent(new Event('visibilitychange'))
    window.dispatchEvent(new Event(value ? 'focus' : 'blur'))
  }
}

const { app, page } = useApp([{ id: 'v1', name: AGENT, scenario: 'e2e-permissions' }], {
  beforeLoad: (p) => p.addInitScript(installNotificationRecorder),
})

// Every report travels on the page's socket, ahead of the prompt that later makes the agent ask.
beforeAll(() => startSession(page, { agentName: AGENT, cwd: app.home.workspace }))

const dialog = (title: string) => transcript(page).getByRole('alertdialog', { name: title, exact: true })
const outcome = (optionId: string) => transcript(page).getByText(`permission outcome: ${JSON.stringify({ outcome: 'selected', optionId })}`)
const recorded = () => page.evaluate(() => window.__notifications.map(({ title, options, closed }) => ({ title, body: options.body, tag: options.tag, closed })))
const setShown = (shown: boolean) => page.evaluate((value) => window.__setPageShown(value), shown)

async function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el === document.activeElement)
}

async function isInViewport(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect()
    return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0
  })
}

describe('notifications in the browser host', () => {
  it('none while the page is focused; the badge is in the title', async () => {
    await sendPrompt(page, 'notify')
    const prompt = await visible(dialog('Push to origin/main'))
    await expect.poll(() => page.title(), { timeout: 15_000 }).toBe('(1) Bosun')
    await prompt.getByRole('button', { name: 'Allow once', exact: true }).click()
    // Any notification for the request would have arrived before the agent's report of the answer.
    await visible(outcome('allow-once'))
    await expect.poll(() => page.title(), { timeout: 15_000 }).toBe('Bosun')
    expect(await recorded()).toEqual([])
  })

  it('exactly one while hidden, naming the agent and the request; clicking it opens the request', async () => {
    await setShown(false)
    await sendPrompt(page, 'notify-hidden')
    await page.waitForFunction(() => window.__notifications.length > 0, undefined, { timeout: 30_000 })
    const [notification, ...more] = await recorded()
    expect(more).toEqual([])
    expect(notification!.title).toBe(`${AGENT} needs your approval`)
    // The session that asks is named under the request (two sessions of one agent are told apart).
    expect(notification!.body).toBe('Push tag v1.2.0\nin “notify”')

    // The person looks elsewhere in Bosun meanwhile: the Settings page covers the session.
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    await visible(page.getByRole('dialog', { name: 'Settings' }))
    await page.evaluate(() => window.__notifications[0]!.onclick?.())
    await gone(page.getByRole('dialog', { name: 'Settings' }))
    const prompt = dialog('Push tag v1.2.0')
    await expect.poll(() => isFocused(prompt), { timeout: 15_000 }).toBe(true)
    expect(await isInViewport(prompt)).toBe(true)
    expect((await recorded())[0]!.closed).toBe(true)

    await setShown(true)
    await page.keyboard.press('1')
    await visible(outcome('allow-once').nth(1))
    expect(await recorded()).toHaveLength(1)
  })

  it('one whose request goes before the person answers (they stop the turn) is closed while the page is still hidden', async () => {
    const before = (await recorded()).length
    await setShown(false)
    await sendPrompt(page, 'notify-hidden')
    await page.waitForFunction((n) => window.__notifications.length > n, before, { timeout: 30_000 })
    expect((await recorded())[before]).toMatchObject({ title: `${AGENT} needs your approval`, closed: false })
    await page.getByRole('button', { name: 'Stop', exact: true }).click()
    // Main withdraws it once the request is cancelled: before, it stayed until the person came back to the page.
    await page.waitForFunction((n) => window.__notifications[n]!.closed, before, { timeout: 30_000 })
    await expect.poll(() => page.title(), { timeout: 15_000 }).toBe('Bosun')
    expect(await recorded()).toHaveLength(before + 1)
    await setShown(true)
  })

  it('none while hidden when turned off in Settings', async () => {
    const before = (await recorded()).length
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    const settings = await visible(page.getByRole('dialog', { name: 'Settings' }))
    const toggle = settings.getByRole('checkbox', { name: 'Notify me when an agent waits for an answer' })
    await visible(toggle)
    expect(await toggle.isChecked()).toBe(true)
    expect(await settings.getByText('This browser may show Bosun’s notifications.').count()).toBe(1)
    await toggle.uncheck()
    await expect.poll(() => toggle.isChecked(), { timeout: 15_000 }).toBe(false)
    await settings.getByRole('button', { name: 'Close', exact: true }).click()
    await gone(settings)
    // Opened again, the screen reads the settings back from main: the change was kept there.
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    await visible(settings)
    await visible(toggle)
    expect(await toggle.isChecked()).toBe(false)
    await settings.getByRole('button', { name: 'Close', exact: true }).click()
    await gone(settings)

    await setShown(false)
    await sendPrompt(page, 'notify-off')
    const prompt = await visible(dialog('Push branch fix-1'))
    await prompt.getByRole('button', { name: 'Allow once', exact: true }).click()
    await visible(outcome('allow-once').nth(2))
    expect(await recorded()).toHaveLength(before)
    await setShown(true)
  })

  it('asks the browser for permission only when the person clicks "Enable notifications"', async () => {
    await page.evaluate(() => {
      const recorder = window.Notification as unknown as { permission: string; requestPermission: () => Promise<string>; asked: number }
      recorder.permission = 'default'
      recorder.asked = 0
      recorder.requestPermission = () => {
        recorder.asked++
        recorder.permission = 'granted'
        return Promise.resolve('granted')
      }
    })
    const asked = () => page.evaluate(() => (window.Notification as unknown as { asked: number }).asked)
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    const settings = await visible(page.getByRole('dialog', { name: 'Settings' }))
    const permission = settings.getByRole('group', { name: 'Browser permission' })
    await visible(permission.getByText('This browser has not yet allowed Bosun to show notifications.'))
    expect(await asked()).toBe(0)
    await permission.getByRole('button', { name: 'Enable notifications' }).click()
    await visible(permission.getByText('This browser may show Bosun’s notifications.'))
    expect(await asked()).toBe(1)
    await page.keyboard.press('Escape')
    await gone(settings)
  })

  it('"turn ended" while hidden: clicking the notification opens the session whose turn ended', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    const settings = await visible(page.getByRole('dialog', { name: 'Settings' }))
    await settings.getByRole('checkbox', { name: 'Notify me when an agent waits for an answer' }).check()
    const turnEnd = settings.getByRole('checkbox', { name: 'Also notify when an agent finishes a turn' })
    await turnEnd.check()
    await expect.poll(() => turnEnd.isChecked(), { timeout: 15_000 }).toBe(true)
    await settings.getByRole('button', { name: 'Close', exact: true }).click()
    await gone(settings)

    // A turn in the first session ends while the page is hidden…
    const before = (await recorded()).length
    await setShown(false)
    await sendPrompt(page, 'default')
    await page.waitForFunction((n) => window.__notifications.length > n, before, { timeout: 30_000 })
    const notification = (await recorded())[before]!
    expect(notification.title).toBe(`${AGENT} finished`)
    await visible(transcript(page).getByText('Nothing scripted for that.'))

    // …meanwhile the person opened another session; the click brings back the one that finished.
    await setShown(true)
    await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
    expect(await transcript(page).getByText('Nothing scripted for that.').count()).toBe(0)
    await page.evaluate((i) => window.__notifications[i]!.onclick?.(), before)
    await visible(transcript(page).getByText('Nothing scripted for that.'))
    expect((await recorded())[before]!.closed).toBe(true)
  })

  it('"turn ended" while hidden: a turn the agent ends by crashing is told too, with its error', async () => {
    // (The setting is on from the test above.) Before, only a turn that ended normally was told: a crash, nothing.
    const before = (await recorded()).length
    await setShown(false)
    await sendPrompt(page, 'crash-card')
    const failed = `${AGENT}'s turn ended with an error`
    await page.waitForFunction((title) => window.__notifications.some((n) => n.title === title), failed, { timeout: 30_000 })
    const notification = (await recorded()).slice(before).find((n) => n.title === failed)!
    expect(notification.body).toMatch(/\n.*exited with code 3/)
    await setShown(true)
  })
})
