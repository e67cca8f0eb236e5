/**
 * Screenshots of the dev preview, light and dark: `npx tsx renderer/dev/screenshot.ts [name…]`.
 * Starts the dev server, drives Debian's Chromium with Playwright, writes /tmp/ui-<shot>-<scheme>.png.
 */
import { resolve } from 'node:path'
import { takeScreenshots, type Shot as BaseShot } from './shots'

type Shot = BaseShot & { session: string }

const shots: Shot[] = [
  { name: 'claude', session: 'sess-claude-1' },
  {
    name: 'claude-scrolled',
    session: 'sess-claude-1',
    act: async (page) => {
      await page.getByRole('log', { name: 'Transcript' }).hover()
      await page.mouse.wheel(0, -1500)
      await page.getByRole('button', { name: 'Jump to latest' }).waitFor()
    },
  },
  {
    name: 'thought-open',
    session: 'sess-claude-1',
    act: async (page) => {
      await page.getByRole('log', { name: 'Transcript' }).hover()
      await page.mouse.wheel(0, -2600)
      await page.getByRole('button', { name: /^Thought/ }).last().click()
    },
  },
  {
    name: 'markdown',
    session: 'sess-claude-1',
    act: async (page) => {
      await page.getByRole('log', { name: 'Transcript' }).hover()
      await page.mouse.wheel(0, -1000)
      await page.getByRole('button', { name: 'Jump to latest' }).waitFor()
    },
  },
  {
    name: 'close-armed',
    session: 'sess-gemini-1',
    act: async (page) => {
      await page.getByRole('button', { name: 'Close session' }).click()
    },
  },
  {
    name: 'inbox-open',
    session: 'sess-claude-huge',
    act: async (page) => {
      await page.getByRole('button', { name: /^Waiting for you/ }).click()
      await page.getByRole('button', { name: /Delete build artifacts/ }).click()
      await page.getByRole('button', { name: 'Allow once' }).waitFor()
    },
  },
  { name: 'gemini', session: 'sess-gemini-1' },
  { name: 'codex', session: 'sess-codex-1' },
  {
    name: 'slash',
    session: 'sess-claude-1',
    act: async (page) => {
      await page.getByRole('textbox', { name: 'Message' }).fill('/')
      await page.getByRole('textbox', { name: 'Message' }).press('ArrowDown')
    },
  },
  {
    name: 'new-session',
    session: 'sess-gemini-1',
    act: async (page) => {
      await page.getByRole('button', { name: 'New session', exact: true }).click()
    },
  },
  {
    name: 'inbox',
    session: 'sess-gemini-1',
    act: async (page) => {
      await page.getByRole('button', { name: /^Waiting for you/ }).click()
    },
  },
  {
    name: 'streaming',
    session: 'sess-gemini-1',
    act: async (page) => {
      await page.getByRole('textbox', { name: 'Message' }).fill('How does it look now?')
      await page.getByRole('textbox', { name: 'Message' }).press('Enter')
      await page.getByRole('button', { name: 'Stop' }).waitFor()
      await page.getByText('Next I would add a test').waitFor()
      await page.getByRole('button', { name: 'Send' }).waitFor()
    },
  },
  { name: 'huge', session: 'sess-claude-huge' },
  {
    name: 'request-scoped',
    session: 'sess-gemini-1',
    act: async (page) => {
      await page.getByRole('button', { name: 'New session with Gemini CLI' }).click()
      await page.getByRole('button', { name: 'Start session' }).click()
      await page.getByRole('region', { name: 'Questions from agents' }).waitFor()
    },
  },
  {
    name: 'request-scoped-done',
    session: 'sess-gemini-1',
    act: async (page) => {
      await page.getByRole('button', { name: 'New session with Gemini CLI' }).click()
      await page.getByRole('button', { name: 'Start session' }).click()
      await page.getByRole('textbox', { name: /Project ID/ }).fill('acme-dev')
      await page.getByRole('button', { name: 'Accept' }).click()
      await page.getByRole('heading', { name: 'scratch' }).waitFor()
    },
  },
  {
    name: 'answered',
    session: 'sess-claude-1',
    act: async (page) => {
      await page.getByRole('button', { name: /Allow once/ }).first().click()
      await page.getByRole('switch', { name: /Auto-approve/ }).click()
    },
  },
]

await takeScreenshots({
  configFile: resolve(import.meta.dirname, 'vite.config.ts'),
  shots,
  url: (shot) => `http://127.0.0.1:5199/?session=${shot.session}`,
  ready: (page) => page.getByRole('log', { name: 'Transcript' }).waitFor(),
  file: (shot, scheme) => `/tmp/ui-${shot.name}-${scheme}.png`,
})
