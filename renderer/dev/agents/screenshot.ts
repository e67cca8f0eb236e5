/**
 * Screenshots of the Agents screen preview, light and dark: `npx tsx renderer/dev/agents/screenshot.ts [name…]`.
 * Starts the preview server, drives Debian's Chromium with Playwright, writes /tmp/agents-<shot>-<scheme>.png.
 */
import { resolve } from 'node:path'
import { takeScreenshots, type Shot as BaseShot } from '../shots'

type Shot = BaseShot & { query?: string }

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

await takeScreenshots({
  configFile: resolve(import.meta.dirname, 'vite.config.ts'),
  shots,
  url: (shot) => `http://127.0.0.1:5197/?${shot.query ?? ''}`,
  ready: async (page) => {
    await page.getByRole('dialog', { name: 'Agents' }).waitFor()
    await page.getByRole('navigation', { name: 'Agents' }).getByRole('listitem').first().waitFor()
  },
  file: (shot, scheme) => `/tmp/agents-${shot.name}-${scheme}.png`,
  keepGoing: true,
})
