/**
 * The add-agent form in a real browser (Debian's Chromium through the playwright library): preset
 * filling, validation as you type, the parsed argv, and a secret that goes out once through onSave and is
 * never shown back. The component is bundled with esbuild (vite's own) with stub callbacks that record calls.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright'
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'
import { screenshotDir } from '../../e2e/support/harness'

const entry = `
import { createRoot } from 'react-dom/client'
import { AgentEditor } from './renderer/components/agents/AgentEditor'
import { splitArgs } from './main/config/split-args'

const presets = [
  { id: 'goose', name: 'goose', description: 'goose in ACP mode', command: 'goose', args: ['acp'], argsText: 'acp',
    env: { GOOSE_PROVIDER: 'anthropic' }, secretEnv: ['ANTHROPIC_API_KEY'] },
  { id: 'custom', name: 'Custom', description: 'Anything', command: '', args: [], argsText: '', env: {}, secretEnv: [] },
]
const calls = { validate: [], save: [], cancel: 0 }
window.__calls = calls
const validate = async (draft) => {
  calls.validate.push(draft)
  const split = splitArgs(draft.argsText)
  const errors = {}
  if (!draft.name.trim()) errors.name = 'Give the agent a name'
  if (!draft.command.trim()) errors.command = 'Enter the program to run'
  if (!split.ok) errors.args = split.message
  return { errors, argv: split.ok ? split.argv : null }
}
const onSave = async (request) => { calls.save.push(request); return { ok: true } }
createRoot(document.getElementById('root')).render(
  <AgentEditor presets={presets} keychain={{ available: true }} validate={validate} onSave={onSave}
    onCancel={() => { calls.cancel++ }} validateDelayMs={10} />,
)
`

const harness = browserHarness(entry)

async function openEditor(): Promise<Page> {
  const page = await harness.open()
  await page.getByRole('form', { name: 'Add agent' }).waitFor()
  expect(page.errors).toEqual([])
  return page
}

describe('AgentEditor in Chromium', { timeout: 30_000 }, () => {
  it('fills from a preset, shows argv and errors as you type, and sends a secret once', async () => {
    const page = await openEditor()
    try {
      await page.getByLabel('Start from', { exact: true }).selectOption('goose')
      await expect.poll(() => page.getByLabel('Name', { exact: true }).inputValue()).toBe('goose')
      expect(await page.getByLabel('Command', { exact: true }).inputValue()).toBe('goose')
      expect(await page.getByLabel('Variable 1 name', { exact: true }).inputValue()).toBe('GOOSE_PROVIDER')
      expect(await page.getByLabel('Secret 1 name', { exact: true }).inputValue()).toBe('ANTHROPIC_API_KEY')
      const argv = page.getByRole('list', { name: 'Arguments as passed' }).getByRole('listitem')
      await expect.poll(() => argv.allInnerTexts()).toEqual(['acp'])

      await page.getByLabel('Arguments', { exact: true }).fill(`acp "two words" 'x y' z\\ w`)
      await expect.poll(() => argv.allInnerTexts()).toEqual(['acp', 'two words', 'x y', 'z w'])

      await page.getByLabel('Arguments', { exact: true }).fill('acp "open')
      const argsError = page.locator('.field-error', { hasText: 'Unbalanced double quote' })
      await argsError.waitFor()
      expect(await page.getByLabel('Arguments', { exact: true }).getAttribute('aria-invalid')).toBe('true')
      expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true)

      await page.getByLabel('Name', { exact: true }).fill('')
      await page.locator('.field-error', { hasText: 'Give the agent a name' }).waitFor()
      await page.getByLabel('Name', { exact: true }).fill('Work goose')
      await page.getByLabel('Arguments', { exact: true }).fill('acp')
      await argsError.waitFor({ state: 'detached' })

      await page.getByLabel('Value for ANTHROPIC_API_KEY', { exact: true }).fill('sk-canary-browser')
      await page.getByRole('button', { name: 'Save' }).click()
      await expect.poll(() => page.evaluate(() => (window as unknown as { __calls: { save: unknown[] } }).__calls.save.length)).toBe(1)
      const [request] = await page.evaluate(() => (window as unknown as { __calls: { save: unknown[] } }).__calls.save)
      expect(request).toEqual({
        draft: {
          name: 'Work goose',
          command: 'goose',
          argsText: 'acp',
          env: [{ name: 'GOOSE_PROVIDER', value: 'anthropic' }],
          secretEnv: ['ANTHROPIC_API_KEY'],
          defaultCwd: '',
          presetId: 'goose',
        },
        secrets: { ANTHROPIC_API_KEY: 'sk-canary-browser' },
      })
      // Handed over and forgotten: the field is gone and the value is nowhere in the page.
      await page.getByLabel('ANTHROPIC_API_KEY is set', { exact: true }).waitFor()
      expect(await page.locator('input[type="password"]').count()).toBe(0)
      const values = await page.locator('input').evaluateAll((inputs) => inputs.map((i) => (i as unknown as { value: string }).value))
      expect(values).not.toContain('sk-canary-browser')
      expect(await page.content()).not.toContain('sk-canary-browser')
    } finally {
      await page.close()
    }
  })

  it('a secret being typed can be cancelled: the value goes, the name stays, and Set asks again', async () => {
    const page = await openEditor()
    try {
      await page.getByLabel('Start from', { exact: true }).selectOption('goose')
      const value = page.getByLabel('Value for ANTHROPIC_API_KEY', { exact: true })
      await value.fill('sk-typed-by-mistake')
      await page.getByRole('button', { name: 'Leave ANTHROPIC_API_KEY unset' }).click()
      await page.getByLabel('ANTHROPIC_API_KEY is not set', { exact: true }).waitFor()
      expect(await value.count()).toBe(0)
      expect(await page.getByLabel('Secret 1 name', { exact: true }).inputValue()).toBe('ANTHROPIC_API_KEY')
      await page.getByRole('button', { name: 'Set ANTHROPIC_API_KEY' }).click()
      expect(await value.inputValue()).toBe('')
    } finally {
      await page.close()
    }
  })

  it('adds and removes env rows, and Escape cancels', async () => {
    const page = await openEditor()
    try {
      await page.getByRole('button', { name: 'Add variable' }).click()
      await page.getByLabel('Variable 1 name', { exact: true }).fill('1BAD')
      await page.getByRole('button', { name: 'Add secret' }).click()
      await page.getByLabel('Secret 1 name', { exact: true }).fill('TOKEN')
      await expect.poll(() => page.evaluate(() => (window as unknown as { __calls: { validate: Array<{ env: unknown; secretEnv: unknown }> } }).__calls.validate.at(-1))).toMatchObject({
        env: [{ name: '1BAD', value: '' }],
        secretEnv: ['TOKEN'],
      })
      await page.getByRole('button', { name: 'Remove variable 1BAD' }).click()
      expect(await page.getByLabel('Variable 1 name', { exact: true }).count()).toBe(0)
      await page.getByLabel('Name', { exact: true }).press('Escape')
      expect(await page.evaluate(() => (window as unknown as { __calls: { cancel: number } }).__calls.cancel)).toBe(1)
    } finally {
      await page.close()
    }
  })

  it('a long argument list wraps and shows whole as its box grows; what is split and saved is the text as typed, and Enter still saves', async () => {
    // In one line, Claude's arguments with a few flags read a few words at a time, the rest scrolled out of sight.
    const styles = ['renderer/styles/app.css', 'renderer/components/agents/agents.css'].map((f) => readFileSync(f, 'utf8')).join('\n')
    const page = await harness.open({ viewport: { width: 900, height: 700 }, styles })
    try {
      await page.getByRole('form', { name: 'Add agent' }).waitFor()
      await page.getByLabel('Start from', { exact: true }).selectOption('goose')
      const args = page.getByRole('textbox', { name: 'Arguments', exact: true })
      const oneLine = (await args.boundingBox())!.height
      const long = `acp --model claude-sonnet-4-5 --permission-mode acceptEdits --add-dir /home/ada/projects/bosun --add-dir "/home/ada/My Documents" --mcp-config /home/ada/.config/bosun/mcp.json --verbose`
      await args.fill(long)
      const argv = page.getByRole('list', { name: 'Arguments as passed' }).getByRole('listitem')
      await expect.poll(() => argv.count()).toBe(12)
      expect(await argv.nth(8).innerText()).toBe('/home/ada/My Documents')
      // All of it shows: taller than one line, nothing scrolled out of sight either way.
      const fits = () => args.evaluate((el) => ({ across: el.scrollWidth <= el.clientWidth, down: el.scrollHeight <= el.clientHeight + 1 }))
      expect((await args.boundingBox())!.height).toBeGreaterThan(oneLine * 1.5)
      expect(await fits()).toEqual({ across: true, down: true })
      await page.screenshot({ path: join(screenshotDir, 'agent-form-long-arguments-900.png') })
      // Shorter again, it is one line again.
      await args.fill('acp')
      await expect.poll(async () => (await args.boundingBox())!.height).toBe(oneLine)
      // Enter in it saves, as in the one-line field; the text is saved as typed.
      await args.fill(long)
      await page.getByLabel('Value for ANTHROPIC_API_KEY', { exact: true }).fill('sk-x')
      await args.press('End')
      await args.press('Enter')
      await expect.poll(() => page.evaluate(() => (window as unknown as { __calls: { save: unknown[] } }).__calls.save.length)).toBe(1)
      const [request] = (await page.evaluate(() => (window as unknown as { __calls: { save: unknown[] } }).__calls.save)) as { draft: { argsText: string } }[]
      expect(request!.draft.argsText).toBe(long)
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })
})
