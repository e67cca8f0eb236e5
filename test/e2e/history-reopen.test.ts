/**
 * A history file Bosun cannot open at start (another program holds it, a folder in its place, a read-only disk): the
 * sidebar says so and that Bosun tries again, the session works in memory, and once the file can be opened the
 * session is saved and the note goes, without a restart. Screenshots: test/e2e/screenshots/history-reopen-*.png.
 */
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { gone, sendPrompt, startSession, visible, waitIdle } from './support/session-ui'

const launch = launchPerTest()

it('history off at start: said in the sidebar, then the session is saved once the file can be opened', async () => {
  const { page, home } = await launch([{ id: 'a', name: 'Scripted agent', scenario: 'basic' }], {
    viewport: { width: 1280, height: 800 },
    prepareHome: (h) => mkdirSync(join(h.home, 'history.sqlite')),
  })
  const nav = page.getByRole('navigation', { name: 'Agents and sessions' })
  const off = await visible(nav.getByRole('alert').filter({ hasText: 'History is off' }))
  expect(await off.textContent()).toMatch(/It is a folder: move or remove it\. Bosun tries again every few seconds/)
  await screenshot(page, 'history-reopen-off')
  await startSession(page, { agentName: 'Scripted agent', cwd: home.workspace })
  await sendPrompt(page, 'hello while history is off')
  await waitIdle(page)
  // Said once, where the history is: no notice for each write that cannot be made.
  await visible(nav.getByRole('alert').filter({ hasText: 'History is off' }))
  expect(await page.getByText('History not saved').count()).toBe(0)
  await screenshot(page, 'history-reopen-unsaved')
  // The folder goes: within a few seconds the session is written and the note is gone.
  rmSync(join(home.home, 'history.sqlite'), { recursive: true })
  await gone(nav.getByRole('alert').filter({ hasText: 'History is off' }))
  await screenshot(page, 'history-reopen-saved')
})
