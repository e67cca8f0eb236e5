/**
 * UX pass 16: the smallest window Bosun allows (640 × 420, main/shell/window.ts) and a 1280 × 800 window at 150% and
 * 200% zoom (853 × 533 and 640 × 400 CSS pixels), with the decision dialogs and long or odd content; light and dark.
 * Screenshots: test/e2e/screenshots/ux16-*.png.
 */
import { expect, it } from 'vitest'
import type { Locator, Page } from 'playwright'
import { launchPerTest, screenshot } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import { gone, messageBox, sendPrompt, startSession, transcript, turnStatus, until, visible } from './support/session-ui'

const launch = launchPerTest()
const scenarioFile = scenarioFiles()
const AGENT = 'Scripted agent'

/** The smallest window, and a 1280 × 800 window at 150% and 200% zoom, as CSS pixels. */
const SMALL = [
  { name: 'min', width: 640, height: 420 },
  { name: 'zoom150', width: 853, height: 533 },
  { name: 'zoom200', width: 640, height: 400 },
] as const

/** Screenshots at each of {@link SMALL}, light and dark, named `ux16-<name>-<size>-<scheme>`; `check` runs at each size first. */
async function shootSmall(page: Page, name: string, check?: () => Promise<void>): Promise<void> {
  for (const size of SMALL) {
    await page.setViewportSize({ width: size.width, height: size.height })
    await check?.()
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      await screenshot(page, `ux16-${name}-${size.name}-${colorScheme}`)
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

/** Whether the whole of `locator` is drawn inside the window. */
const inWindow = (locator: Locator) =>
  locator.evaluate((el) => {
    const r = el.getBoundingClientRect()
    return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth
  })

const LONG_URL = `https://docs.example.com/${'guides/setup/'.repeat(20)}?state=${'a1b2c3d4'.repeat(120)}`

it('a link with a 1,200-character address: the dialog’s question, site and buttons all show at once, the address scrolls in its box', async () => {
  const file = scenarioFile('ux16-link', { prompts: { default: [{ type: 'text', text: `See [the setup guide](${LONG_URL}) for the rest.` }] } })
  const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: file }, { viewport: { width: 640, height: 400 } })
  await sendPrompt(page, 'link')
  await transcript(page).getByRole('link', { name: 'the setup guide' }).click()
  const dialog = await visible(page.getByRole('dialog', { name: 'Open this page in your browser?' }))
  const address = dialog.locator('code.eli-url')
  const cancel = dialog.getByRole('button', { name: 'Cancel' })
  await until(cancel, (el) => el === document.activeElement)
  await shootSmall(page, 'link-dialog-long-url', async () => {
    for (const part of [dialog.getByRole('heading', { name: 'Open this page in your browser?' }), dialog.getByText('Site: example.com'), dialog.getByRole('button', { name: 'Open in browser' }), cancel])
      expect(await inWindow(part)).toBe(true)
    // The dialog itself does not scroll; the address does, in its box.
    expect(await dialog.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true)
    expect(await address.evaluate((el) => el.scrollHeight > el.clientHeight + 1)).toBe(true)
  })
  // The address is whole (only bounded), and the keyboard reaches it to scroll it: Shift+Tab from Open in browser.
  expect(await address.textContent()).toBe(LONG_URL)
  await page.keyboard.press('Shift+Tab')
  await page.keyboard.press('Shift+Tab')
  await until(address, (el) => el === document.activeElement)
  await page.keyboard.press('End')
  await until(address, (el) => el.scrollTop > 0)
  await page.keyboard.press('Escape')
  await gone(dialog)
})

it('the Agents page at 640 px (the smallest window, or 200% zoom): every tab of an agent shows, none cut at the edge', async () => {
  const { page } = await launch([{ id: 'scripted', name: AGENT, scenario: 'e2e-session' }], { viewport: { width: 640, height: 400 } })
  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
  const tabs = await visible(dialog.getByRole('tablist', { name: `${AGENT} details` }))
  const cutTabs = () =>
    tabs.evaluate((list) => {
      const box = list.getBoundingClientRect()
      return Array.from(list.querySelectorAll('[role="tab"]'))
        .filter((tab) => tab.getBoundingClientRect().right > box.right + 0.5 || tab.getBoundingClientRect().left < box.left - 0.5)
        .map((tab) => tab.textContent)
    })
  await shootSmall(page, 'agents-tabs', async () => {
    expect(await cutTabs()).toEqual([])
    expect(await tabs.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true)
  })
})

it('the session header at 640 px while a request waits: the status is a dot named by its words, and the title has the room', async () => {
  const file = scenarioFile('ux16-header', {
    prompts: {
      default: [
        { type: 'request_permission', params: { toolCall: { toolCallId: 'c1', title: 'Write src/billing/invoices.ts', kind: 'edit' }, options: [{ optionId: 'a', name: 'Allow once', kind: 'allow_once' }, { optionId: 'r', name: 'Reject', kind: 'reject_once' }] } },
        { type: 'text', text: 'done' },
      ],
    },
  })
  const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: file }, { viewport: { width: 640, height: 400 } })
  await sendPrompt(page, 'Refactor the billing module so that invoices are generated in the background')
  await visible(transcript(page).getByRole('alertdialog'))
  const status = turnStatus(page)
  await until(status, (el) => el.getAttribute('aria-label') === 'Turn: Needs you')
  const title = page.getByRole('heading', { level: 1 })
  const width = async () => Math.round((await title.boundingBox())!.width)
  await shootSmall(page, 'header-waiting', async () => {
    if (page.viewportSize()!.width === 640) {
      // Two words of the title showed (130 px) beside "Needs you"; the words are the dot's name and tooltip.
      expect(await width()).toBeGreaterThanOrEqual(200)
      expect(await status.getAttribute('title')).toBe('Needs you')
      expect(await status.evaluate((el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(30)
    } else {
      await visible(status.getByText('Needs you'))
    }
  })
})

const MANY_OPTIONS = [
  { optionId: 'a1', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'a2', name: 'Always allow psql commands against the staging cluster in this folder', kind: 'allow_always' },
  { optionId: 'a3', name: 'Allow with a dry run first', kind: 'allow_once' },
  { optionId: 'r1', name: 'Reject', kind: 'reject_once' },
  { optionId: 'r2', name: 'No, and tell the agent what to do instead', kind: 'reject_once' },
  { optionId: 'r3', name: 'Always reject', kind: 'reject_always' },
]
const LONG_COMMAND = Array.from({ length: 40 }, (_, i) => `psql "$STAGING_URL" -c "ALTER TABLE accounts_${i} ADD COLUMN verified_at timestamptz" && echo migrated-${i}`).join(' && \\\n  ')

it('a permission with six options and a 40-line command in the smallest window: focus on it, every option whole and in order, Escape dismisses and the keyboard goes on to the message box', async () => {
  const file = scenarioFile('ux16-permission', {
    prompts: {
      default: [
        { type: 'request_permission', params: { toolCall: { toolCallId: 'c-long', title: 'Migrate the staging database', kind: 'execute', rawInput: { command: LONG_COMMAND } }, options: MANY_OPTIONS } },
        { type: 'text', text: 'the agent went on' },
      ],
    },
  })
  const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: file }, { viewport: { width: 640, height: 420 } })
  await sendPrompt(page, 'migrate')
  const prompt = await visible(transcript(page).getByRole('alertdialog', { name: 'Migrate the staging database' }))
  await until(prompt, (el) => el === document.activeElement)
  // What a screen reader meets: the options in Bosun's fixed order (allow once, allow always, reject once, reject always,
  // the rest), an "always" saying that Bosun keeps it.
  expect(await prompt.getByRole('group', { name: 'Options' }).ariaSnapshot()).toBe(
    [
      '- group "Options":',
      '  - button "Allow once"',
      '  - button "Always allow psql commands against the staging cluster in this folder (remembered for next time)"',
      '  - button "Reject"',
      '  - button "Always reject (remembered for next time)"',
      '  - button "Allow with a dry run first"',
      '  - button "No, and tell the agent what to do instead"',
      '  - button "Dismiss"',
    ].join('\n'),
  )
  const buttons = prompt.getByRole('group', { name: 'Options' }).getByRole('button')
  await shootSmall(page, 'permission-many-options', async () => {
    await buttons.last().scrollIntoViewIfNeeded()
    for (const button of await buttons.all()) {
      await button.scrollIntoViewIfNeeded()
      expect(await inWindow(button)).toBe(true)
    }
    // The shot shows the options from their top.
    await prompt.getByRole('group', { name: 'Options' }).evaluate((el) => el.scrollIntoView({ block: 'start' }))
  })
  await page.setViewportSize({ width: 640, height: 420 })
  await prompt.focus()
  await page.keyboard.press('Escape')
  await visible(transcript(page).getByText('the agent went on'))
  await until(messageBox(page), (el) => el === document.activeElement)
})

it('an empty session at 640 px with a long agent name: each line of "Ask … something to start." is centred, off the column’s edges', async () => {
  const name = 'Scripted agent with a rather long display name'
  const { page } = await launch.session({ id: 'scripted', name, scenario: 'e2e-session' }, { viewport: { width: 640, height: 400 } })
  const hint = await visible(transcript(page).getByText(`Ask ${name} something to start.`))
  /** Each drawn line's room on its left and on its right, within the transcript. */
  const margins = () =>
    hint.evaluate((el) => {
      const column = el.closest('[role="log"]')!.getBoundingClientRect()
      const range = document.createRange()
      range.selectNodeContents(el)
      const lines = new Map<number, { left: number; right: number }>()
      for (const r of Array.from(range.getClientRects())) {
        const line = lines.get(Math.round(r.top)) ?? { left: Infinity, right: -Infinity }
        lines.set(Math.round(r.top), { left: Math.min(line.left, r.left), right: Math.max(line.right, r.right) })
      }
      return [...lines.values()].map((l) => ({ left: Math.round(l.left - column.left), right: Math.round(column.right - l.right) }))
    })
  await shootSmall(page, 'empty-session-long-name', async () => {
    const lines = await margins()
    if (page.viewportSize()!.width === 640) expect(lines.length).toBe(2)
    for (const line of lines) {
      expect(line.left).toBeGreaterThanOrEqual(12)
      expect(Math.abs(line.left - line.right)).toBeLessThanOrEqual(2)
    }
  })
})

it('the "Waiting for you" list at 400 px high with five requests: it ends inside the window, and its last request can be scrolled to', async () => {
  const file = scenarioFile('ux16-inbox', {
    prompts: {
      default: [
        { type: 'request_permission', params: { toolCall: { toolCallId: 'c1', title: 'Run the database migration against the staging cluster, then rebuild the search index', kind: 'execute' }, options: [{ optionId: 'a', name: 'Allow once', kind: 'allow_once' }, { optionId: 'r', name: 'Reject', kind: 'reject_once' }] } },
        { type: 'text', text: 'done' },
      ],
    },
  })
  const app = await launch.session({ id: 'scripted', name: AGENT, scenario: file }, { viewport: { width: 640, height: 400 } })
  const { page } = app
  for (let i = 1; i <= 5; i++) {
    if (i > 1) await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
    await sendPrompt(page, `request ${i}`)
    await visible(transcript(page).getByRole('alertdialog'))
  }
  await page.getByRole('button', { name: 'Waiting for you, 5' }).click()
  const inbox = await visible(page.getByRole('dialog', { name: 'Waiting for you' }))
  const items = inbox.getByRole('listitem')
  await expect.poll(() => items.count()).toBe(5)
  await shootSmall(page, 'inbox-five', async () => {
    const box = (await inbox.boundingBox())!
    expect(box.y + box.height).toBeLessThanOrEqual(page.viewportSize()!.height)
    await items.last().scrollIntoViewIfNeeded()
    expect(await inWindow(items.last())).toBe(true)
    await inbox.evaluate((el) => el.scrollTo({ top: 0 }))
  })
})

it('the form with every field type at 640 px: a format’s example stays on one line', async () => {
  const { page } = await launch.session({ id: 'eli', name: 'Elicitation agent', scenario: 'e2e-elicitation' }, { viewport: { width: 640, height: 400 } })
  await sendPrompt(page, 'every-field')
  const form = await visible(transcript(page).getByRole('region', { name: 'Project setup', exact: true }))
  await until(form, (el) => el === document.activeElement)
  const hint = form.getByText(/^A date and time with a time zone, such as/)
  /** How many lines the hint's example is drawn on. */
  const lines = () =>
    hint.evaluate((el) => {
      const EXAMPLE = '2026-01-31T09:30:00Z'
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent!.indexOf(EXAMPLE)
        if (at < 0) continue
        const range = document.createRange()
        range.setStart(node, at)
        range.setEnd(node, at + EXAMPLE.length)
        return new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size
      }
      return 0
    })
  await shootSmall(page, 'form-every-field', async () => {
    await hint.scrollIntoViewIfNeeded()
    // It broke at its first hyphen ("2026-01-" then "31T09:30:00Z") at 640 px.
    expect(await lines()).toBe(1)
  })
})
