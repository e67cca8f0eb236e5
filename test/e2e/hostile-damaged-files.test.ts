/**
 * Bosun's own files damaged by hand or by another program while it runs: an agents.json with 10,000 invalid entries
 * beside a good one. The Agents screen keeps the good agent and says what is wrong in a few lines (the first five
 * problems and a count), where it showed every one of them, a 270 KB paragraph; the file is kept aside.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { launchPerTest } from './support/harness'
import { visible } from './support/session-ui'

const launch = launchPerTest()
const SHOTS = '/tmp/shots-hostile8'

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
  await expect.poll(() => paragraph.textContent()).toContain('and 9995 more (the whole file is in the backup)')
  expect((await paragraph.textContent())!.length).toBeLessThan(3_000)
  await visible(dialog.getByRole('navigation', { name: 'Agents' }).getByRole('button', { name: /^Good agent / }))
  expect(readdirSync(home.home).filter((n) => n.startsWith('agents.json.corrupt-')).map((n) => readFileSync(join(home.home, n), 'utf8'))).toEqual([text])
  mkdirSync(SHOTS, { recursive: true })
  await page.screenshot({ path: join(SHOTS, 'agents-many-invalid-light.png') })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: join(SHOTS, 'agents-many-invalid-dark.png') })
}, 60_000)
