/**
 * The Agents screen in a real browser (Debian's Chromium through the playwright library) over the dev
 * preview's fake API: add from a preset, a bad command, check connection then the inspector, keyboard
 * tabs, an env-var sign-in whose value never comes back, the auth terminal's input line, Sign out only once a check
 * said the agent supports it, Escape. Screenshots of the Sign in tab land in test/e2e/screenshots/login-logout-*.png.
 * Bundled with esbuild; every call the screen makes is recorded in `window.__calls`.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { browserHarness, type HarnessPage } from '../../support/browser-bundle'
import { callsOf, recordedAgentsApi } from './recorded-agents-api'
import { screenshotDir } from '../../e2e/support/harness'

const CANARY = 'sk-canary-agents-screen'

const entry = `${recordedAgentsApi({
  prelude: 'const params = new URLSearchParams(location.hash.slice(1))',
  options: "{ keychainAvailable: true, ...(params.get('live') ? { liveLogMs: Number(params.get('live')) } : {}) }",
})}
window.__closed = 0
createRoot(document.getElementById('root')).render(
  <AgentsScreen api={api} onClose={() => { window.__closed++ }} initialAgentId={params.get('agent') || undefined} initialTab={params.get('tab') || undefined} />,
)
`

const harness = browserHarness(entry)
/** The real styles (the bundle drops CSS imports): scrolling and layout depend on them. */
const styles = ['renderer/styles/app.css', 'renderer/components/agents/agents.css', 'renderer/components/inspector/inspector.css', 'renderer/screens/agents/agents-screen.css']
  .map((file) => readFileSync(file, 'utf8'))
  .join('\n')

async function open(hash = '', viewport = { width: 1280, height: 800 }): Promise<HarnessPage> {
  const page = await harness.open({ viewport, hash, styles })
  await page.getByRole('dialog', { name: 'Agents' }).waitFor()
  await page.getByRole('navigation', { name: 'Agents' }).getByRole('listitem').first().waitFor()
  return page
}

describe('AgentsScreen in Chromium', { timeout: 30_000 }, () => {
  it('adds an agent from a preset, and shows a bad command as an error', async () => {
    const page = await open()
    try {
      await page.getByRole('button', { name: 'Add agent' }).click()
      await page.getByRole('list', { name: 'Presets' }).getByRole('button', { name: /^goose/ }).click()
      await expect.poll(() => page.getByLabel('Command', { exact: true }).inputValue()).toBe('goose')
      await page.getByRole('button', { name: 'Save', exact: true }).click()
      await page.getByRole('heading', { name: 'goose', level: 2 }).waitFor()
      await page.getByRole('navigation', { name: 'Agents' }).getByRole('button', { name: /^goose Not running · goose acp$/ }).waitFor()
      expect(await callsOf(page, 'saveAgentDefinition')).toMatchObject([{ draft: { name: 'goose', command: 'goose', argsText: 'acp', presetId: 'goose' } }])

      await page.getByRole('button', { name: 'Add agent' }).click()
      await page.getByRole('list', { name: 'Presets' }).getByRole('button', { name: /^Custom agent/ }).click()
      await page.getByLabel('Name', { exact: true }).fill('Broken')
      await page.getByLabel('Command', { exact: true }).fill('missing-agent')
      await page.locator('.field-error', { hasText: 'was not found on PATH' }).waitFor()
      expect(await page.getByLabel('Command', { exact: true }).getAttribute('aria-invalid')).toBe('true')
      expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true)
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })

  it('checks the connection, then shows the initialize exchange in the inspector', async () => {
    const page = await open('agent=codex&tab=check')
    try {
      await page.getByRole('button', { name: 'Check connection' }).click()
      await page.getByRole('list', { name: 'Capabilities' }).waitFor()
      expect(await callsOf(page, 'checkAgentConnection')).toEqual([{ agentId: 'codex' }])

      await page.getByRole('tab', { name: 'Inspector' }).click()
      const rows = page.getByRole('grid', { name: 'Protocol messages' }).getByRole('row')
      await rows.filter({ hasText: 'initialize' }).first().waitFor()
      expect(await rows.filter({ hasText: 'initialize' }).count()).toBe(2)
      await rows.filter({ hasText: 'response' }).first().click()
      const json = page.getByRole('region', { name: 'Selected message' }).locator('pre')
      await expect.poll(() => json.innerText()).toContain('"protocolVersion": 1')
      expect(await rows.filter({ hasText: 'response' }).first().getAttribute('aria-selected')).toBe('true')

      await page.getByRole('searchbox', { name: 'Filter by method' }).fill('session/')
      await expect.poll(() => rows.filter({ hasText: 'initialize' }).count()).toBe(0)
      await page.getByText('No message matches the filter.').waitFor()
    } finally {
      await page.close()
    }
  })

  it('at 900 × 700, the inspector’s message pane is one line until a message is picked, and the table has the rest', async () => {
    const page = await open('agent=codex&tab=check', { width: 900, height: 700 })
    try {
      await page.getByRole('button', { name: 'Check connection' }).click()
      await page.getByRole('list', { name: 'Capabilities' }).waitFor()
      await page.getByRole('tab', { name: 'Inspector' }).click()
      const rows = page.getByRole('grid', { name: 'Protocol messages' }).getByRole('row')
      await rows.filter({ hasText: 'initialize' }).first().waitFor()
      const detail = page.getByRole('region', { name: 'Selected message' })
      await detail.getByText('Pick a message to see it whole: click its row, or use ↑ and ↓ in the table.').waitFor()
      const height = async (locator: typeof detail) => (await locator.boundingBox())!.height
      const table = page.locator('.inspector-table-wrap')
      // One line of words (it was 160 px and more, empty), the table at least four times as tall.
      expect(await height(detail)).toBeLessThan(60)
      expect(await height(table)).toBeGreaterThan((await height(detail)) * 4)
      await page.screenshot({ path: join(screenshotDir, 'ux15-inspector-unpicked-900.png') })
      // Picked, the message has its room.
      await rows.filter({ hasText: 'response' }).first().click()
      await expect.poll(() => height(detail)).toBeGreaterThan(150)
      await page.screenshot({ path: join(screenshotDir, 'ux15-inspector-picked-900.png') })
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })

  it('keeps the keyboard in the form: a Save that fails goes to the first marked field, Remove… asks with Keep focused and Escape takes it back', async () => {
    const page = await open()
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-invalid') === 'true' ? `invalid ${document.activeElement.id}` : (document.activeElement?.textContent ?? '').trim() || document.activeElement?.tagName)
    try {
      await page.getByRole('button', { name: 'Add agent' }).click()
      await page.getByRole('list', { name: 'Presets' }).getByRole('button', { name: /^Custom agent/ }).click()
      await page.getByRole('button', { name: 'Save', exact: true }).focus()
      await page.keyboard.press('Enter')
      // The errors it revealed disable Save: the focus fell to the page (BODY) before.
      const name = page.getByLabel('Name', { exact: true })
      await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true')
      await expect.poll(() => name.evaluate((el) => el === document.activeElement)).toBe(true)
      await page.keyboard.press('Escape')

      await page.getByRole('navigation', { name: 'Agents' }).getByRole('button', { name: /^Claude/ }).click()
      await page.getByRole('button', { name: 'Edit', exact: true }).click()
      await page.getByRole('button', { name: 'Remove…' }).click()
      await expect.poll(focused).toBe('Keep')
      await page.keyboard.press('Escape')
      // Escape took back the question only: the form is still open, the keyboard on Remove….
      await expect.poll(focused).toBe('Remove…')
      expect(await page.getByRole('form', { name: 'Edit Claude' }).count()).toBe(1)
      expect(await callsOf(page, 'removeAgentDefinition')).toEqual([])
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })

  it('opening the add flow, a preset’s form or the edit form puts the keyboard in it; closing each gives it back to what opened it', async () => {
    const page = await open('agent=claude')
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null
        const label = el?.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null
        return `${el?.tagName.toLowerCase()} ${(label ?? el?.textContent ?? '').trim().slice(0, 20)}`
      })
    try {
      const add = page.getByRole('button', { name: 'Add agent' })
      await add.focus()
      await page.keyboard.press('Enter')
      // The first preset, not "Add agent" still (the person had to Tab into the page).
      await expect.poll(focused).toMatch(/^button Claude/)
      await page.keyboard.press('Tab')
      await page.keyboard.press('Enter')
      await page.getByRole('form', { name: 'Add agent' }).waitFor()
      // Its first field (it was the form's title).
      await expect.poll(focused).toBe('input Name')
      await page.keyboard.press('Escape')
      // Back on the preset that opened it, then out of the flow onto "Add agent".
      await expect.poll(focused).toMatch(/^button Codex/)
      await page.keyboard.press('Escape')
      await expect.poll(focused).toMatch(/^button \+\s*Add agent/)

      await page.getByRole('button', { name: 'Edit', exact: true }).focus()
      await page.keyboard.press('Enter')
      await page.getByRole('form', { name: 'Edit Claude' }).waitFor()
      await expect.poll(focused).toBe('input Name')
      await page.keyboard.press('Escape')
      await expect.poll(focused).toBe('button Edit')
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })

  it('at 200% zoom of a 1280 × 800 window (640 × 400): each tab keeps one line, the last one scrolls into view, the overview cards fit the page', async () => {
    const page = await open('agent=claude', { width: 640, height: 400 })
    try {
      const tabs = page.getByRole('tab')
      await page.getByRole('region', { name: 'Runtime' }).or(page.getByRole('heading', { name: 'Runtime' })).first().waitFor()
      const heights = await tabs.evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().height)))
      // 'Check connection' wrapped to two lines, twice the others' height.
      expect(new Set(heights).size).toBe(1)
      await tabs.first().focus()
      await page.keyboard.press('End')
      const inView = () =>
        page.getByRole('tab', { name: 'Inspector' }).evaluate((el) => {
          const list = el.parentElement!.getBoundingClientRect()
          const box = el.getBoundingClientRect()
          return box.left >= list.left && box.right <= list.right + 0.5
        })
      await expect.poll(inView).toBe(true)
      await page.getByRole('tab', { name: 'Overview' }).click()
      const overflow = await page.locator('.agent-overview').evaluate((grid) => {
        const right = grid.getBoundingClientRect().right
        return Array.from(grid.children).map((card) => Math.round(card.getBoundingClientRect().right - right))
      })
      expect(overflow.every((px) => px <= 0)).toBe(true)
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })

  it('moves between tabs with the arrow keys', async () => {
    const page = await open('agent=claude')
    try {
      await page.getByRole('tab', { name: 'Overview' }).focus()
      await page.keyboard.press('ArrowRight')
      expect(await page.getByRole('tab', { name: 'Check connection' }).getAttribute('aria-selected')).toBe('true')
      await page.keyboard.press('End')
      expect(await page.getByRole('tab', { name: 'Inspector' }).getAttribute('aria-selected')).toBe('true')
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Inspector')
      await page.keyboard.press('ArrowRight')
      expect(await page.getByRole('tab', { name: 'Overview' }).getAttribute('aria-selected')).toBe('true')
    } finally {
      await page.close()
    }
  })

  it('sends an env-var login value once and never shows it again', async () => {
    const page = await open('agent=claude&tab=login')
    try {
      const field = page.getByLabel('ANTHROPIC_API_KEY', { exact: true })
      await field.fill(CANARY)
      // Uncontrolled: the typed value is not mirrored into a DOM attribute.
      expect(await field.getAttribute('value') ?? '').toBe('')
      await page.getByRole('button', { name: 'Save and restart' }).click()
      await page.getByText('Saved. Claude restarted with it.').waitFor()
      expect(await callsOf(page, 'loginAgent')).toEqual([{ agentId: 'claude', methodId: 'anthropic-api-key', value: CANARY }])
      expect(await field.inputValue()).toBe('')
      expect(await page.content()).not.toContain(CANARY)
    } finally {
      await page.close()
    }
  })

  it('types into the auth terminal line by line and shows its exit', async () => {
    const page = await open('agent=claude&tab=login')
    try {
      await page.getByRole('button', { name: 'Open terminal' }).click()
      const output = page.getByRole('log', { name: 'Terminal output' })
      await output.getByText('Paste code here').waitFor()
      // The OSC 8 hyperlink in the output is plain text, not a link.
      expect(await output.locator('a').count()).toBe(0)
      await page.getByRole('textbox', { name: 'Type a line' }).fill('abc123')
      await page.getByRole('textbox', { name: 'Type a line' }).press('Enter')
      await page.getByRole('status').filter({ hasText: 'Finished' }).waitFor()
      const [input] = await callsOf(page, 'authTerminalInput')
      expect(input).toMatchObject({ data: 'abc123\n' })
      expect(await page.getByRole('textbox', { name: 'Type a line' }).isDisabled()).toBe(true)
      await page.getByRole('button', { name: 'Close terminal' }).click()
      await page.getByText(/Finished\. Check the connection/).waitFor()
    } finally {
      await page.close()
    }
  })

  it('follows the live log, stops following when scrolled up, and jumps back', async () => {
    const page = await open('agent=claude&tab=logs&live=15', { width: 1000, height: 420 })
    try {
      const log = page.getByRole('log', { name: 'Agent log' })
      await log.getByText('heartbeat 40').waitFor({ timeout: 5000 })
      const gap = () => log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)
      expect(await log.evaluate((el) => el.scrollHeight > el.clientHeight * 2)).toBe(true)
      expect(await gap()).toBeLessThan(30)
      await log.evaluate((el) => {
        el.scrollTop = 0
        el.dispatchEvent(new Event('scroll'))
      })
      await page.getByRole('button', { name: 'Jump to latest' }).waitFor({ timeout: 5000 })
      // Under the log, not over its last lines.
      const logBox = (await log.boundingBox())!
      const jumpBox = (await page.getByRole('button', { name: 'Jump to latest' }).boundingBox())!
      expect(jumpBox.y).toBeGreaterThanOrEqual(logBox.y + logBox.height)
      await log.getByText('heartbeat 60').waitFor({ timeout: 5000 })
      expect(await log.evaluate((el) => el.scrollTop)).toBe(0)
      await page.getByRole('button', { name: 'Jump to latest' }).click()
      await page.getByRole('button', { name: 'Jump to latest' }).waitFor({ state: 'detached' })
      await log.getByText('heartbeat 70').waitFor()
      expect(await gap()).toBeLessThan(30)
    } finally {
      await page.close()
    }
  })

  it('Escape in the editor cancels the edit; Escape elsewhere closes the screen', async () => {
    const page = await open('agent=claude')
    try {
      await page.getByRole('button', { name: 'Edit', exact: true }).click()
      await page.getByLabel('Name', { exact: true }).press('Escape')
      await page.getByRole('tablist').waitFor()
      expect(await page.evaluate(() => (window as unknown as { __closed: number }).__closed)).toBe(0)
      await page.getByRole('tab', { name: 'Overview' }).press('Escape')
      expect(await page.evaluate(() => (window as unknown as { __closed: number }).__closed)).toBe(1)
    } finally {
      await page.close()
    }
  })

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`offers Sign out only once a connection check said the agent supports it, and that check from the Sign in tab (${colorScheme})`, async () => {
      const page = await open('agent=claude&tab=login')
      try {
        await page.emulateMedia({ colorScheme })
        const panel = page.getByRole('tabpanel')
        await panel.getByText('Checking the connection tells whether Claude can sign out through Bosun.').waitFor()
        expect(await panel.getByRole('button', { name: 'Sign out' }).count()).toBe(0)
        await panel.screenshot({ path: join(screenshotDir, `login-logout-unknown-${colorScheme}.png`) })
        await panel.getByRole('button', { name: 'Check connection' }).click()
        await panel.getByRole('button', { name: 'Sign out' }).waitFor()
        expect(await panel.getByText('Checking the connection tells').count()).toBe(0)
        expect(await callsOf(page, 'checkAgentConnection')).toEqual([{ agentId: 'claude' }])
        await panel.screenshot({ path: join(screenshotDir, `login-logout-known-${colorScheme}.png`) })
        expect(page.errors).toEqual([])
      } finally {
        await page.close()
      }
    })
  }
})
