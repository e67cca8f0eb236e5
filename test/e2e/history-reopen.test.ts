/**
 * A history file Bosun cannot open at start (another program holds it, a folder in its place, a read-only disk): the
 * sidebar says so and that Bosun tries again, the session works in memory, and once the file can be opened the
 * session is saved and the note goes, without a restart. Screenshots: test/e2e/screenshots/history-reopen-*.png.
 */
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { gone, sendPrompt, startSession, transcript, visible, waitIdle } from './support/session-ui'

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

it('history off: a session closed meanwhile stays in the sidebar and opens again as it was', async () => {
  const { page, home } = await launch([{ id: 'a', name: 'Scripted agent', scenario: 'basic' }], {
    viewport: { width: 1280, height: 800 },
    prepareHome: (h) => mkdirSync(join(h.home, 'history.sqlite')),
  })
  const nav = page.getByRole('navigation', { name: 'Agents and sessions' })
  await visible(nav.getByRole('alert').filter({ hasText: 'History is off' }))
  await startSession(page, { agentName: 'Scripted agent', cwd: home.workspace })
  await sendPrompt(page, 'closed while history is off')
  await waitIdle(page)
  await page.getByRole('button', { name: 'Close session' }).click()
  await page.getByRole('button', { name: 'Confirm close session' }).click()
  await gone(page.getByRole('main', { name: 'Session closed while history is off' }))
  // Listed from memory (nothing could be written), beside the note that history is off.
  const history = nav.getByRole('region', { name: 'History' })
  const row = await visible(history.getByRole('button', { name: /^closed while history is off / }))
  await screenshot(page, 'history-reopen-closed-while-off')
  await row.click()
  await visible(page.getByRole('main', { name: 'Session closed while history is off' }))
  await visible(transcript(page).getByText('closed while history is off', { exact: true }))
  await screenshot(page, 'history-reopen-closed-while-off-opened')
})
