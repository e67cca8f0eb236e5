/**
 * Screenshots of the Agents screen preview, light and dark: `npx tsx renderer/dev/agents/screenshot.ts [name…]`.
 * Starts the preview server, drives Debian's Chromium with Playwright, writes /tmp/agents-<shot>-<scheme>.png.
 */
import { resolve } from 'node:path'
import { createServer } from 'vite'
import { chromium, type Page } from 'playwright'

type Shot = { name: string; query?: string; act?: (page: Page) => Promise<void>; width?: number; height?: number }

const shots: Shot[] = [
  { name: 'overview', query: 'agent=claude' },
  { name: 'overview-crashed', query: 'agent=local' },
  { name: 'corrupt', query: 'agent=gemini&corrupt' },
  {
    name: 'check-ok',
    query: 'agent=claude&tab=check',
    act: async (page) => {
      await page.getByRole('button', { name: 'Check connection' }).click()
      await page.getByRole('list', { name: 'Capabilities' }).waitFor()
    },
  },
  {
    name: 'check-failed',
    query: 'agent=local&tab=check',
    act: async (page) => {
      await page.getByRole('button', { name: 'Check connection' }).click()
      await page.getByLabel('Agent error output').waitFor()
    },
  },
  { name: 'login', query: 'agent=claude&tab=login', act: async (page) => void (await page.getByRole('list', { name: 'Sign-in methods' }).waitFor()) },
  {
    name: 'login-terminal',
    query: 'agent=claude&tab=login',
    act: async (page) => {
      await page.getByRole('button', { name: 'Open terminal' }).click()
      await page.getByText('Paste code here').waitFor()
      await page.getByRole('textbox', { name: 'Terminal input' }).fill('sk-ant-oat01-abc')
      await page.getByRole('textbox', { name: 'Terminal input' }).press('Enter')
      await page.getByText('Finished').waitFor()
    },
  },
  { name: 'login-nokeychain', query: 'agent=codex&tab=login&nokeychain', act: async (page) => void (await page.getByRole('list', { name: 'Sign-in methods' }).waitFor()) },
  { name: 'logs', query: 'agent=claude&tab=logs', act: async (page) => void (await page.getByText('heartbeat').or(page.getByText('awaiting permission')).first().waitFor()) },
  {
    name: 'inspector',
    query: 'agent=claude&tab=inspector',
    act: async (page) => {
      await page.getByRole('row', { name: /initialize/ }).nth(1).click()
    },
  },
  {
    name: 'inspector-filtered',
    query: 'agent=claude&tab=inspector',
    act: async (page) => {
      await page.getByRole('searchbox', { name: 'Filter by method' }).fill('session/')
      await page.getByRole('row', { name: /request_permission/ }).first().click()
    },
  },
  {
    name: 'inspector-after-check',
    query: 'agent=codex&tab=check',
    width: 1024,
    height: 720,
    act: async (page) => {
      await page.getByRole('button', { name: 'Check connection' }).click()
      await page.getByRole('list', { name: 'Capabilities' }).waitFor()
      await page.getByRole('tab', { name: 'Inspector' }).click()
      await page.getByRole('row', { name: /response/ }).first().click()
    },
  },
  { name: 'pick', query: 'agent=claude', act: async (page) => void (await page.getByRole('button', { name: 'Add agent' }).click()) },
  {
    name: 'add-preset',
    query: 'agent=claude',
    act: async (page) => {
      await page.getByRole('button', { name: 'Add agent' }).click()
      await page.getByRole('list', { name: 'Presets' }).getByRole('button', { name: /^Codex/ }).click()
      await page.getByRole('list', { name: 'Arguments as passed' }).waitFor()
    },
  },
  {
    name: 'add-bad',
    query: 'agent=claude&nokeychain',
    act: async (page) => {
      await page.getByRole('button', { name: 'Add agent' }).click()
      await page.getByRole('list', { name: 'Presets' }).getByRole('button', { name: /^Custom agent/ }).click()
      await page.getByRole('textbox', { name: 'Name' }).fill('Broken')
      await page.getByRole('textbox', { name: 'Command' }).fill('missing-agent')
      await page.getByText('was not found on PATH').waitFor()
    },
  },
  {
    name: 'edit',
    query: 'agent=claude',
    act: async (page) => {
      await page.getByRole('button', { name: 'Edit' }).first().click()
      await page.getByRole('button', { name: 'Remove…' }).click()
    },
  },
]

const only = process.argv.slice(2)
const server = await createServer({ configFile: resolve(import.meta.dirname, 'vite.config.ts') })
await server.listen()
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
})
const problems: string[] = []
try {
  for (const scheme of ['light', 'dark'] as const) {
    for (const shot of shots.filter((s) => only.length === 0 || only.includes(s.name))) {
      const page = await browser.newPage({ colorScheme: scheme, viewport: { width: shot.width ?? 1360, height: shot.height ?? 860 } })
      page.on('console', (m) => m.type() === 'error' && !/frame-ancestors|404/.test(m.text()) && problems.push(`${shot.name}: ${m.text()}`))
      page.on('pageerror', (e) => problems.push(`${shot.name}: ${e.message}`))
      await page.goto(`http://127.0.0.1:5197/?${shot.query ?? ''}`)
      await page.getByRole('dialog', { name: 'Agents' }).waitFor()
      await page.getByRole('navigation', { name: 'Agents' }).getByRole('listitem').first().waitFor()
      try {
        await shot.act?.(page)
      } catch (e) {
        problems.push(`${shot.name}: ${(e as Error).message.split('\n')[0]}`)
      }
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
      const file = `/tmp/agents-${shot.name}-${scheme}.png`
      await page.screenshot({ path: file })
      console.log(file)
      await page.close()
    }
  }
} finally {
  await browser.close()
  await server.close()
}
if (problems.length) console.log('page problems:\n' + problems.join('\n'))
