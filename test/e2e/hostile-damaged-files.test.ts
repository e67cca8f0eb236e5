/**
 * Bosun's own files damaged by hand or by another program while it runs: an agents.json with 10,000 invalid entries
 * beside a good one. The Agents screen keeps the good agent and says what is wrong in a few lines (the first five
 * problems and a count), where it showed every one of them, a 270 KB paragraph; the file is kept aside.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { visible } from './support/session-ui'

const launch = launchPerTest()

it('an agents.json with 10,000 invalid entries: the good agent stays, the warning names five and counts the rest', async () => {
  const { page, home } = await launch([{ id: 'good', name: 'Good agent', scenario: 'basic' }])
  const file = join(home.home, 'agents.json')
  const good = (JSON.parse(readFileSync(file, 'utf8')) as { agents: unknown[] }).agents
  const bad = Array.from({ length: 10_000 }, (_, i) => ({ id: `bad-${i}`, name: '', command: 'x'.repeat(200) }))
  const text = JSON.stringify({ version: 1, agents: [...good, ...bad] })
  // Written while Bosun runs: it reloads the file it watches.
  writeFileSync(file, text)
  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
  const warning = await visible(dialog.getByText('Some agents could not be loaded.'))
  const paragraph = warning.locator('..')
  await expect.poll(() => paragraph.textContent()).toContain('and 9,995 more (the whole file is in the backup)')
  expect((await paragraph.textContent())!.length).toBeLessThan(1_000)
  expect(await paragraph.textContent()).toContain('Skipped 10,000 invalid agents: entry 2 (bad-0): name, args, env, secretEnv missing or invalid;')
  await visible(dialog.getByRole('navigation', { name: 'Agents' }).getByRole('button', { name: /^Good agent / }))
  expect(readdirSync(home.home).filter((n) => n.startsWith('agents.json.corrupt-')).map((n) => readFileSync(join(home.home, n), 'utf8'))).toEqual([text])
  await screenshot(page, 'agents-many-invalid-light')
  await page.emulateMedia({ colorScheme: 'dark' })
  await screenshot(page, 'agents-many-invalid-dark')
}, 60_000)
