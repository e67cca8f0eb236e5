/**
 * Steps through the session screen by role and accessible name, the way a person would. Every wait is on
 * a visible UI state (Playwright's auto-waiting locators, or polling the page), never a fixed delay.
 */
import type { Locator, Page } from 'playwright'

/** Agent start-up runs tsx in a child process: seconds on a busy machine. */
export const UI_TIMEOUT = 30_000

/** Waits until the locator is visible (and returns it, for chaining). */
export async function visible(locator: Locator, timeout = UI_TIMEOUT): Promise<Locator> {
  await locator.first().waitFor({ state: 'visible', timeout })
  return locator
}

/** Waits until the locator is gone (detached or hidden). */
export async function gone(locator: Locator, timeout = UI_TIMEOUT): Promise<void> {
  await locator.first().waitFor({ state: 'hidden', timeout })
}

/** Waits until `predicate` (evaluated in the page against the element) holds. */
export async function until<T extends Element>(locator: Locator, predicate: (el: T) => boolean, timeout = UI_TIMEOUT): Promise<void> {
  const handle = await locator.first().elementHandle({ timeout })
  if (!handle) throw new Error('element not found')
  await locator.page().waitForFunction(predicate as (el: Element) => boolean, handle as never, { timeout })
}

/** Waits until the element is fully inside the visible part of its scrolling transcript. */
export async function inTranscriptView(locator: Locator, timeout = UI_TIMEOUT): Promise<void> {
  await until(
    locator,
    (el) => {
      const view = el.closest('[role="log"]')?.getBoundingClientRect()
      const box = el.getBoundingClientRect()
      return view !== undefined && box.height > 0 && box.top >= view.top - 1 && box.bottom <= view.bottom + 1
    },
    timeout,
  )
}

/**
 * The text a terminal card's xterm shows, read with the card in view: xterm pauses drawing while its element is off
 * screen, so rows read there can be those of an earlier moment.
 */
export async function terminalText(terminal: Locator): Promise<string> {
  await terminal.scrollIntoViewIfNeeded()
  return terminal.locator('.xterm-rows').innerText()
}

export const transcript = (page: Page) => page.getByRole('log', { name: 'Transcript' })
export const messageBox = (page: Page) => page.getByRole('textbox', { name: 'Message' })
export const sendButton = (page: Page) => page.getByRole('button', { name: 'Send', exact: true })
export const stopButton = (page: Page) => page.getByRole('button', { name: 'Stop', exact: true })
export const turnStatus = (page: Page) => page.getByRole('status', { name: /^Turn:/ })

/** The sidebar group of an agent (a section named after it). */
export const agentGroup = (page: Page, agentName: string) =>
  page.getByRole('navigation', { name: 'Agents and sessions' }).getByRole('region', { name: agentName, exact: true })

/**
 * Opens "New session", picks the agent (when named; the only one is picked already), sets the working folder and
 * presses Start session; resolves with the form, which stays open when the agent cannot start.
 */
export async function submitNewSession(page: Page, options: { agentName?: string; cwd: string }): Promise<Locator> {
  const nav = page.getByRole('navigation', { name: 'Agents and sessions' })
  await (await visible(nav.getByRole('button', { name: 'New session', exact: true }))).click()
  const form = await visible(page.getByRole('form', { name: 'New session' }))
  if (options.agentName !== undefined) await form.getByRole('combobox', { name: 'Agent', exact: true }).selectOption({ label: options.agentName })
  await form.getByRole('textbox', { name: 'Working folder' }).fill(options.cwd)
  await form.getByRole('button', { name: 'Start session' }).click()
  return form
}

/** Opens "New session", picks the agent, sets the working folder and starts; resolves when the composer is ready. */
export async function startSession(page: Page, options: { agentName: string; cwd: string }): Promise<void> {
  await gone(await submitNewSession(page, options))
  await visible(messageBox(page))
  await until<HTMLTextAreaElement>(messageBox(page), (el) => !el.disabled)
}

/** Types a prompt and sends it with Enter. */
export async function sendPrompt(page: Page, text: string): Promise<void> {
  const box = messageBox(page)
  await until<HTMLTextAreaElement>(box, (el) => !el.disabled)
  await box.fill(text)
  await box.press('Enter')
}

/** Waits until the turn is over: the header says Idle and Send is back. */
export async function waitIdle(page: Page): Promise<void> {
  await visible(page.getByRole('status', { name: 'Turn: Idle' }))
  await visible(sendButton(page))
}

/** The transcript's rows for agent replies. */
export const agentSays = (page: Page, agentName: string) => transcript(page).getByLabel(`${agentName} says`)

/**
 * Records, in the page, every status an agent's sidebar dot shows and the text of every error banner shown
 * for it (a MutationObserver: catches short-lived states, such as the wait before an automatic restart,
 * that polling could miss). {@link AgentWatch.clear} starts a new record.
 */
export interface AgentWatch {
  clear(): Promise<void>
  /** Waits until the statuses seen since the last clear contain `labels` in this order. */
  waitForStatuses(labels: string[], timeout?: number): Promise<void>
  /** Texts of the agent's error banners seen since the last clear (`<aria-label>: <text>`). */
  banners(): Promise<string[]>
}

export async function watchAgent(page: Page, agentName: string): Promise<AgentWatch> {
  await page.evaluate((name) => {
    type Record = { statuses: string[]; banners: string[] }
    const w = window as unknown as { __bosunWatch?: { [agent: string]: Record } }
    const watches = (w.__bosunWatch ??= {})
    const record: Record = (watches[name] = { statuses: [], banners: [] })
    const check = () => {
      const groups = document.querySelectorAll('nav[aria-label="Agents and sessions"] section[aria-label]')
      const group = Array.from(groups).find((g) => g.getAttribute('aria-label') === name)
      const status = group?.querySelector('.status-dot')?.getAttribute('aria-label')
      if (status && record.statuses.at(-1) !== status) record.statuses.push(status)
      for (const banner of Array.from(document.querySelectorAll('section[role="alert"][aria-label]'))) {
        const label = banner.getAttribute('aria-label') ?? ''
        if (!label.startsWith(`${name} `)) continue
        const text = `${label}: ${(banner as HTMLElement).innerText}`
        if (!record.banners.includes(text)) record.banners.push(text)
      }
    }
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true })
    check()
  }, agentName)
  const read = () =>
    page.evaluate((name) => {
      const w = window as unknown as { __bosunWatch: { [agent: string]: { statuses: string[]; banners: string[] } } }
      return w.__bosunWatch[name]!
    }, agentName)
  return {
    async clear() {
      await page.evaluate((name) => {
        const w = window as unknown as { __bosunWatch: { [agent: string]: { statuses: string[]; banners: string[] } } }
        const record = w.__bosunWatch[name]!
        record.statuses = record.statuses.slice(-1)
        record.banners = []
      }, agentName)
    },
    async waitForStatuses(labels, timeout = UI_TIMEOUT) {
      await page.waitForFunction(
        ([name, wanted]) => {
          const w = window as unknown as { __bosunWatch: { [agent: string]: { statuses: string[] } } }
          let at = 0
          for (const status of w.__bosunWatch[name]!.statuses) if (status === wanted[at]) at++
          return at >= wanted.length
        },
        [agentName, labels] as const,
        { timeout },
      )
    },
    async banners() {
      return (await read()).banners
    },
  }
}

/**
 * The plan panel, opened: a window under 900 px tall (the tests' 800) shows it folded to its one line at first. Returns
 * the panel's region.
 */
export async function openPlan(page: Page): Promise<Locator> {
  const plan = await visible(page.getByRole('region', { name: 'Plan' }))
  const toggle = plan.getByRole('button', { name: /^Plan/ })
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click()
  return plan
}

/** Restart on the agent's page (the Agents dialog), closed again once the agent shows Starting; the watch started before it. */
export async function restartFromAgentsPage(page: Page, agentName: string): Promise<AgentWatch> {
  const watch = await watchAgent(page, agentName)
  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await dialog.getByRole('button', { name: 'Restart', exact: true }).click()
  await watch.waitForStatuses(['Starting'])
  await dialog.getByRole('button', { name: 'Close', exact: true }).click()
  return watch
}
