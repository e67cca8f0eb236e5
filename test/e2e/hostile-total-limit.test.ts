/**
 * Two agents that each stay under one session's bound, in the browser host: the open sessions together may take a
 * bounded amount (2 MiB here; 1 GiB by default). The session whose output passes it is stopped, says why where the
 * person types (closing sessions makes room) and offers a new session; the session that came first is left as it was.
 * Screenshots (not kept in the repository): /tmp/shots-hostile6/total-limit-{light,dark}.png.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Page } from 'playwright'
import { hostileAgentCommand } from '../agents/command'
import { launchApp, type E2eApp } from './support/harness'
import { sendPrompt, startSession, visible } from './support/session-ui'

const CHATTY = 'Chatty agent'
const ENDLESS = 'Endless agent'
const KiB = 1024
const shots = process.env.BOSUN_SHOTS_DIR
let app: E2eApp
let page: Page
let scratch: string

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'bosun-total-limit-'))
  const script = join(scratch, 'script.json')
  // 1.2 MiB in twelve chunks, then the turn ends.
  const chunk = JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: '{session}', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'chatty '.repeat((100 * KiB) / 7) } } } })
  writeFileSync(script, JSON.stringify(Array.from({ length: 12 }, () => chunk)))
  app = await launchApp(
    [
      { id: 'chatty', name: CHATTY, scenario: 'basic', command: hostileAgentCommand('script', { extraArgs: ['--file', script] }) },
      { id: 'endless', name: ENDLESS, scenario: 'basic', command: hostileAgentCommand('endless', { count: 1_000 }) },
    ],
    { limits: { maxSessionBytes: 4 * 1024 * KiB, maxTotalSessionBytes: 2 * 1024 * KiB } },
  )
  page = app.page
}, 60_000)

afterAll(async () => {
  await app?.close()
  rmSync(scratch, { recursive: true, force: true })
})

it('stops the session that passes what the open sessions may take together, and leaves the first one as it was', async () => {
  await startSession(page, { agentName: CHATTY, cwd: app.home.workspace })
  await sendPrompt(page, 'go')
  // Its 1.2 MiB arrived (shown cut, with the rest a click away), and its turn is over.
  await visible(page.getByRole('button', { name: /^Show more \(1,\d{3},\d{3} more characters\)$/ }), 30_000)
  await visible(page.getByRole('status', { name: 'Turn: Idle' }), 30_000)

  await startSession(page, { agentName: ENDLESS, cwd: app.home.workspace })
  await sendPrompt(page, 'go')
  const blocked = await visible(page.getByRole('region', { name: 'This session cannot continue' }), 30_000)
  await expect.poll(() => blocked.innerText()).toMatch(/The open sessions reached Bosun's limit of 2(\.0)? MiB of agent output together.*new sessions share it/s)
  await visible(page.getByRole('status', { name: 'Turn: Idle' }), 30_000)
  await visible(page.getByText(/^The open sessions reached their limit of 2(\.0)? MiB$/).first())
  if (shots) {
    await page.screenshot({ path: join(shots, 'total-limit-light.png') })
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.screenshot({ path: join(shots, 'total-limit-dark.png') })
    await page.emulateMedia({ colorScheme: 'light' })
  }

  // The first session is as it was: no block, its composer works.
  await page.getByRole('navigation', { name: 'Agents and sessions' }).getByRole('button', { name: /^go/ }).first().click()
  await visible(page.getByText(`· ${CHATTY}`))
  await visible(page.getByRole('button', { name: /^Show more \(1,\d{3},\d{3} more characters\)$/ }))
  expect(await page.getByRole('region', { name: 'This session cannot continue' }).count()).toBe(0)
}, 120_000)
