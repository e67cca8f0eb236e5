/**
 * The history end to end (issue 12): the browser host is stopped and started again on the same home; the
 * session is found in the sidebar, read from the database without starting the agent, continued,
 * searched, exported and deleted.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright'
import { createBosunServices } from '../../main/app/create-services'
import { startWebHost, type WebHost } from '../../main/web/server'
import { createTestHome, type TestHome } from '../support/bosun-home'
import type { Scenario } from '../agents/scenario'
import { expectAxeCleanInBothThemes } from './support/axe'
import { assertBuilt, fileBrowser, rendererDir, screenshot } from './support/harness'
import { agentGroup, agentSays, gone, inTranscriptView, sendPrompt, startSession, transcript, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'

interface Run {
  host: WebHost
  context: BrowserContext
  page: Page
}

let home: TestHome | undefined
const runs: Run[] = []
afterEach(async () => {
  for (const run of runs.splice(0)) await stop(run)
  home?.cleanup()
  home = undefined
})

async function start(testHome: TestHome, colorScheme: 'light' | 'dark' = 'light'): Promise<Run> {
  assertBuilt()
  const host = await startWebHost({ port: 0, home: testHome.home, rendererDir, createServices: createBosunServices, appVersion: '0.0.0-e2e' })
  // A restart is of the host; the page is a new one, in a context of its own (the file shares one Chromium).
  const context = await (await fileBrowser()).newContext({ colorScheme, viewport: { width: 1280, height: 800 }, acceptDownloads: true })
  const page = await context.newPage()
  page.on('pageerror', (error) => console.error(`[page error] ${error.message}`))
  await page.goto(host.url)
  const run = { host, context, page }
  runs.push(run)
  return run
}

async function stop(run: Run): Promise<void> {
  const at = runs.indexOf(run)
  if (at >= 0) runs.splice(at, 1)
  await run.context.close().catch(() => {})
  await run.host.dispose()
}

/** The e2e-session scenario for an agent that lists its sessions (`sessionCapabilities`), with these session fields, in `dir`. */
function listingScenario(dir: string, sessionCapabilities: Record<string, unknown>, session: Record<string, unknown>): string {
  const scenario = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'scenarios', 'e2e-session.json'), 'utf8')) as {
    initialize?: Record<string, unknown>
    session?: Record<string, unknown>
  }
  scenario.initialize = { ...scenario.initialize, capabilities: { loadSession: true, sessionCapabilities } }
  scenario.session = { ...scenario.session, ...session }
  const file = join(dir, 'scenario.json')
  writeFileSync(file, JSON.stringify(scenario))
  return file
}

/**
 * Bosun on a new home whose agent plays `scenario`, with one session of Bosun's in the folder (so the history has the
 * folder to ask the agent about), and the agent asked for its own sessions there.
 */
async function askAgentSessions(scenario: string): Promise<{ page: Page; workspace: string }> {
  home = createTestHome([{ id: 'scripted', name: AGENT, scenario }])
  const { page } = await start(home)
  await startSession(page, { agentName: AGENT, cwd: home.workspace })
  await sendPrompt(page, 'fix')
  await waitIdle(page)
  await historyRegion(page).getByRole('button', { name: `More from ${AGENT}` }).click()
  return { page, workspace: home.workspace }
}

/**
 * Bosun on a new home whose agent plays the e2e-session scenario (with these `initialize` fields, in a copy in `dir`,
 * the caller's to remove), a session of it with the prompt 'fix' answered, then Bosun restarted and that session
 * opened from the history (its agent not started).
 */
async function reopenedAfterRestart(
  initialize?: Record<string, unknown>,
  options: { holdSecondStart?: boolean } = {},
): Promise<{ dir: string; page: Page; release: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-scenario-'))
  const go = join(dir, 'go')
  const scenario = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'scenarios', 'e2e-session.json'), 'utf8')) as { initialize?: Record<string, unknown> }
  scenario.initialize = { ...scenario.initialize, ...initialize, ...(options.holdSecondStart ? { untilFile: go } : {}) }
  writeFileSync(join(dir, 'scenario.json'), JSON.stringify(scenario))
  // Held: the first run's agent answers at once; the second's only once `release` is called.
  if (options.holdSecondStart) writeFileSync(go, '')
  home = createTestHome([{ id: 'scripted', name: AGENT, scenario: initialize ? join(dir, 'scenario.json') : 'e2e-session' }])
  const first = await start(home)
  await startSession(first.page, { agentName: AGENT, cwd: home.workspace })
  await sendPrompt(first.page, 'fix')
  await waitIdle(first.page)
  await stop(first)
  rmSync(go, { force: true })
  const { page } = await start(home)
  await (await visible(historyRegion(page).getByRole('button', { name: /^fix/ }))).click()
  await visible(agentSays(page, AGENT).getByText('Done: answer is 42 now.'))
  return { dir, page, release: () => writeFileSync(go, '') }
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Agents and sessions' })
const historyRegion = (page: Page) => nav(page).getByRole('region', { name: 'History', exact: true })

describe('history in the browser host', () => {
  it('names a session nobody has written in after its folder, alike while open, in its header and in the history', async () => {
    home = createTestHome([{ id: 'scripted', name: AGENT, scenario: 'e2e-session' }])
    const { page } = await start(home)
    await startSession(page, { agentName: AGENT, cwd: home.workspace })
    const name = `Session in ${basename(home.workspace)}`
    await visible(page.getByRole('main', { name, exact: true }).getByRole('heading', { name, exact: true }))
    await visible(agentGroup(page, AGENT).getByRole('button', { name: new RegExp(`^${name}`) }))
    await visible(historyRegion(page).getByRole('button', { name: new RegExp(`^${name}`) }))
    await screenshot(page, 'history-untitled-session')
  })

  it('survives a restart: find, read, continue, search, export, delete', async () => {
    home = createTestHome([{ id: 'scripted', name: AGENT, scenario: 'e2e-session' }])
    const first = await start(home)
    await startSession(first.page, { agentName: AGENT, cwd: home.workspace })
    await sendPrompt(first.page, 'fix')
    await waitIdle(first.page)
    await visible(historyRegion(first.page).getByRole('button', { name: /^fix/ }))
    await stop(first)

    // Restarted on the same home, in the dark theme.
    const second = await start(home, 'dark')
    const { page } = second
    const item = await visible(historyRegion(page).getByRole('button', { name: /^fix/ }))
    await visible(historyRegion(page).getByRole('region', { name: `Folder ${home.workspace}` }))
    await screenshot(page, 'history-sidebar-dark')

    // Read from the database: the transcript is there, the agent was not started.
    await item.click()
    await visible(transcript(page).getByLabel('Your message').getByText('fix', { exact: true }))
    await visible(agentSays(page, AGENT).getByText('Done: answer is 42 now.'))
    await visible(agentGroup(page, AGENT).getByRole('img', { name: 'Stopped' }))
    await screenshot(page, 'history-old-session-dark')

    // Continue it: the first prompt reattaches (session/load), the reply streams in below the stored turn.
    await sendPrompt(page, 'again')
    await waitIdle(page)
    await expect.poll(() => transcript(page).getByLabel('Your message').count(), { timeout: 30_000 }).toBe(2)
    await visible(agentGroup(page, AGENT).getByRole('img', { name: 'Ready' }))

    // Search, and open a result at its entry.
    await nav(page).getByRole('searchbox', { name: 'Search sessions' }).fill('src/app')
    const results = await visible(nav(page).getByRole('region', { name: 'Search results' }))
    const hit = await visible(results.getByRole('button', { name: /Edit src\/app\.ts/ }).first())
    await visible(results.locator('mark', { hasText: /src/i }))
    await screenshot(page, 'history-search-dark')
    await hit.click()
    await inTranscriptView(transcript(page).getByRole('article', { name: 'Edit src/app.ts', exact: true }))
    await nav(page).getByRole('searchbox', { name: 'Search sessions' }).fill('')

    // Export as Markdown: a download in the browser host.
    const row = historyRegion(page).getByRole('listitem').filter({ has: page.getByRole('button', { name: /^fix/ }) })
    await row.getByRole('button', { name: 'Actions for fix' }).click()
    const downloaded = page.waitForEvent('download')
    await row.getByRole('button', { name: 'Export Markdown' }).click()
    const download = await downloaded
    expect(download.suggestedFilename()).toBe('fix.md')
    const markdown = readFileSync((await download.path())!, 'utf8')
    expect(markdown).toContain('# fix')
    expect(markdown).toContain('## You\n\nagain')

    // Delete, after confirming.
    await row.getByRole('button', { name: 'Delete…' }).click()
    const confirm = await visible(page.getByRole('alertdialog', { name: 'Delete fix?' }))
    await screenshot(page, 'history-delete-confirm-dark')
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click()
    await gone(historyRegion(page).getByRole('button', { name: /^fix/ }))
    await visible(historyRegion(page).getByText('No past sessions yet.'))
    await visible(page.getByRole('main', { name: 'No session' }))
  })

  it('shows the history in the light theme, and its parts pass axe in both themes', async () => {
    const { dir, page } = await reopenedAfterRestart()
    rmSync(dir, { recursive: true, force: true })
    await screenshot(page, 'history-old-session-light')
    const row = historyRegion(page).getByRole('listitem').filter({ has: page.getByRole('button', { name: /^fix/ }) })
    await row.getByRole('button', { name: 'Actions for fix' }).click()
    await visible(row.getByRole('group', { name: 'Actions for fix' }))
    await row.getByRole('button', { name: 'Delete…' }).click()
    await visible(page.getByRole('alertdialog', { name: 'Delete fix?' }))
    await expectAxeCleanInBothThemes(page, 'the history with a delete confirmation', 'nav')
    await page.getByRole('alertdialog', { name: 'Delete fix?' }).getByRole('button', { name: 'Cancel' }).click()
    // The agent's own sessions for the folder: the scripted agent does not list them.
    await historyRegion(page).getByRole('button', { name: `More from ${AGENT}` }).click()
    await visible(historyRegion(page).getByText('Scripted agent does not list its sessions.'))
    await nav(page).getByRole('searchbox', { name: 'Search sessions' }).fill('answer')
    await visible(nav(page).getByRole('region', { name: 'Search results' }).locator('mark').first())
    await screenshot(page, 'history-search-light')
    await expectAxeCleanInBothThemes(page, 'search results', 'nav')
  })

  it('shows a message sent to an earlier session while its agent starts, and lets no second one go meanwhile', async () => {
    // The e2e agent, slow to start (OpenCode took 12 s to start and resume): the message went out of the composer and
    // was nowhere, the turn 'Idle' and Send ready, until the agent had started and the session was loaded. Here it
    // answers initialize only when released, after the checks, however long they took on this machine.
    const { dir, page, release } = await reopenedAfterRestart({ capabilities: { loadSession: true } }, { holdSecondStart: true })
    try {
      await sendPrompt(page, 'again')
      const waiting = await visible(page.getByRole('status', { name: 'Message waiting to be sent' }))
      expect(await waiting.innerText()).toBe(`Starting ${AGENT}; this goes as soon as it is ready: again`)
      // The header says so too (it said 'Idle').
      expect(await page.getByRole('status', { name: `Turn: starting ${AGENT}` }).innerText()).toBe('Starting…')
      await page.getByRole('textbox', { name: 'Message' }).fill('twice')
      expect(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true)
      await screenshot(page, 'history-waiting-to-send')
      release()
      await gone(waiting)
      await waitIdle(page)
      await expect.poll(() => transcript(page).getByLabel('Your message').allInnerTexts(), { timeout: 30_000 }).toEqual(['fix', 'again'])
      // What was typed meanwhile is still there, and goes now.
      expect(await page.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('twice')
      expect(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(false)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('shows a message sent to an earlier session while its running agent loads it, and Don’t send withdraws it', async () => {
    // The agent runs (another session uses it) and is slow to load the earlier one: the message went out of the
    // composer and was nowhere, the turn 'Idle', until the load ended.
    const dir = mkdtempSync(join(tmpdir(), 'bosun-scenario-'))
    const go = join(dir, 'go')
    const scenario = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'scenarios', 'e2e-session.json'), 'utf8')) as Scenario
    scenario.initialize = { ...scenario.initialize, capabilities: { loadSession: true } }
    scenario.session = { ...scenario.session, reattachUntilFile: go }
    writeFileSync(join(dir, 'scenario.json'), JSON.stringify(scenario))
    try {
      home = createTestHome([{ id: 'scripted', name: AGENT, scenario: join(dir, 'scenario.json') }])
      const first = await start(home)
      // The agent numbers its sessions anew at each start: the earlier one is its second, so the new one (its first
      // after the restart) does not take its id.
      await startSession(first.page, { agentName: AGENT, cwd: home.workspace })
      await startSession(first.page, { agentName: AGENT, cwd: home.workspace })
      await sendPrompt(first.page, 'fix')
      await waitIdle(first.page)
      await stop(first)
      const { page } = await start(home)
      // Another session starts the agent; then the earlier one is opened from the history and written to.
      await startSession(page, { agentName: AGENT, cwd: home.workspace })
      await (await visible(historyRegion(page).getByRole('button', { name: /^fix/ }))).click()
      await visible(agentSays(page, AGENT).getByText('Done: answer is 42 now.'))
      await sendPrompt(page, 'again')
      const waiting = await visible(page.getByRole('status', { name: 'Message waiting to be sent' }))
      expect(await waiting.innerText()).toBe(`${AGENT} is opening this session again; this goes as soon as it is ready: again`)
      expect(await page.getByRole('status', { name: `Turn: ${AGENT} opening the session` }).innerText()).toBe('Opening…')
      await page.getByRole('textbox', { name: 'Message' }).fill('meanwhile')
      await screenshot(page, 'history-waiting-for-load')
      await page.getByRole('button', { name: 'Don’t send', exact: true }).click()
      await gone(waiting)
      await expect.poll(() => page.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('again\n\nmeanwhile')
      expect(await page.getByRole('region', { name: 'Notices' }).getByText('Sending the message failed').count()).toBe(0)
      // Once loaded, the next message goes.
      writeFileSync(go, '')
      await page.getByRole('textbox', { name: 'Message' }).fill('after')
      await page.getByRole('textbox', { name: 'Message' }).press('Enter')
      await waitIdle(page)
      await expect.poll(() => transcript(page).getByLabel('Your message').allInnerTexts()).toEqual(['fix', 'after'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('offers a new session in the same folder when the agent cannot continue an old one', async () => {
    // The e2e agent, but with neither session/load nor session/resume.
    const { dir, page } = await reopenedAfterRestart({ capabilities: {} })
    const workspace = home!.workspace
    try {
      await sendPrompt(page, 'again')
      await visible(page.getByText(/cannot continue this earlier session/))
      const form = await visible(page.getByRole('form', { name: 'New session' }))
      expect(await form.getByRole('textbox', { name: 'Working folder' }).inputValue()).toBe(workspace)
      // Said once, in place of the composer: no toast on top.
      expect(await page.getByText('Sending the message failed').count()).toBe(0)
      await screenshot(page, 'history-cannot-continue-light')
      await form.getByRole('button', { name: 'Start session' }).click()
      await gone(form)
      await sendPrompt(page, 'fix')
      await waitIdle(page)
      await expect.poll(() => historyRegion(page).getByRole('button', { name: /^fix/ }).count(), { timeout: 30_000 }).toBe(2)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a session from the agent’s own list shows the folders the list gives it, and opens with them and its title (E17)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bosun-scenario-'))
    const docs = join(dir, 'docs')
    const shared = join(dir, 'shared')
    mkdirSync(docs)
    mkdirSync(shared)
    const file = listingScenario(dir, { list: {}, additionalDirectories: {} }, { list: [{ sessionId: 'terminal-7', title: 'Started in a terminal', additionalDirectories: [docs, shared] }] })
    try {
      const { page, workspace } = await askAgentSessions(file)
      const listed = await visible(historyRegion(page).getByRole('button', { name: /^Started in a terminal/ }))
      await visible(listed.getByText('+ docs, shared'))
      await screenshot(page, 'history-agent-session-folders-light')
      await listed.click()
      // The header names the folders; their full paths are its tooltip.
      await visible(page.locator('.session-subtitle').getByText(`${basename(workspace)} + docs + shared · ${AGENT}`, { exact: true }))
      expect(await page.locator('.session-subtitle').getAttribute('title')).toBe(`${workspace} + ${docs} + ${shared} · ${AGENT}`)
      // Called what the list called it, and no longer offered by the agent's list (it is in the history now).
      await visible(page.getByRole('heading', { name: 'Started in a terminal' }))
      await visible(historyRegion(page).getByText(`${AGENT} has no other sessions here.`))
      await screenshot(page, 'history-agent-session-opened-light')
      await page.emulateMedia({ colorScheme: 'dark' })
      await screenshot(page, 'history-agent-session-opened-dark')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('asks the agent for its own sessions again: one started in a terminal since shows without reloading the window', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bosun-scenario-'))
    // Nothing of its own at first; a session started in a terminal by the time it is asked again.
    const file = listingScenario(dir, { list: {} }, { list: [], listLater: [{ sessionId: 'terminal-9', title: 'Started later in a terminal' }] })
    try {
      const { page } = await askAgentSessions(file)
      await visible(historyRegion(page).getByText(`${AGENT} has no other sessions here.`))
      await historyRegion(page).getByRole('button', { name: 'Ask again', exact: true }).click()
      const listed = await visible(historyRegion(page).getByRole('button', { name: /^Started later in a terminal/ }))
      await screenshot(page, 'history-agent-sessions-asked-again-light')
      await listed.click()
      await visible(page.getByRole('heading', { name: 'Started later in a terminal' }))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a slow listing of the agent’s own sessions can be cancelled: “Cancelled” and Try again, which lists them (B16)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bosun-scenario-'))
    const gate = join(dir, 'list-now')
    const file = listingScenario(dir, { list: {} }, { list: [{ sessionId: 'terminal-5', title: 'Slow to list' }], listUntilFile: gate })
    try {
      const { page } = await askAgentSessions(file)
      await visible(historyRegion(page).getByText(`Asking ${AGENT}…`))
      await screenshot(page, 'history-agent-sessions-asking')
      await historyRegion(page).getByRole('button', { name: `Cancel asking ${AGENT}` }).click()
      await visible(historyRegion(page).getByText('Cancelled', { exact: true }))
      await gone(historyRegion(page).getByText(`Asking ${AGENT}…`))
      await screenshot(page, 'history-agent-sessions-cancelled')
      // The agent answers the withdrawn request after all: nothing changes on screen.
      writeFileSync(gate, '')
      await historyRegion(page).getByRole('button', { name: 'Try again' }).click()
      await visible(historyRegion(page).getByRole('button', { name: /^Slow to list/ }))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
