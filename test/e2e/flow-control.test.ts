/**
 * An agent that floods until Stop, in the browser host, with main's per-page bounds shrunk so the flood outruns the
 * page (main/web/view-flow.ts): main holds back and merges what the page has not applied, and the page stays usable
 * while it goes on. The agent stops writing after 24 MiB (its turn still open, waiting for the cancel): with 256 KiB
 * in flight and an ack at most every 100 ms, the page takes 10 s or more to apply that, so main holds for seconds;
 * and a flood without end would reach the session's 256 MiB budget on a slow machine, which stops the turn itself
 * (no Stop left to press). Another session can be opened and used, Stop ends the turn, and the flooded session shows its last
 * words (nothing of the end lost). Screenshot: flow-control-light.png.
 */
import { expect, it } from 'vitest'
import { hostileAgentCommand } from '../agents/command'
import { screenshot, useApp } from './support/harness'
import { agentGroup, agentSays, messageBox, sendPrompt, startSession, visible, waitIdle } from './support/session-ui'

const FLOOD = 'Endless agent'
const OTHER = 'Scripted agent'
const FLOOD_BYTES = 24 * 1024 * 1024
const { app, page } = useApp(
  [
    { id: 'endless', name: FLOOD, scenario: 'basic', command: hostileAgentCommand('endless', { count: 1_000, extraArgs: ['--variant', String(FLOOD_BYTES)] }) },
    { id: 'scripted', name: OTHER, scenario: 'basic' },
  ],
  { flow: { maxInFlightBytes: 256 * 1024, maxHeldBytes: 1024 * 1024, maxMergedBytes: 128 * 1024 } },
)

it('keeps the page usable under a flood that outruns it: another session works, Stop ends the turn, nothing of the end is lost', async () => {
  // A quiet session first, to come back to during the flood.
  await startSession(page, { agentName: OTHER, cwd: app.home.workspace })
  await startSession(page, { agentName: FLOOD, cwd: app.home.workspace })
  await sendPrompt(page, 'go')
  // The page fell behind: main holds what it has not applied (bounded), instead of queueing it on the socket.
  let mostHeld = 0
  await expect
    .poll(() => ((mostHeld = Math.max(mostHeld, ...app.host.views().map((v) => v.held))), mostHeld), { timeout: 30_000 })
    .toBeGreaterThan(0)
  // While the flood goes on, the other session opens and answers.
  await agentGroup(page, OTHER).getByRole('listitem').first().getByRole('button').first().click()
  await sendPrompt(page, 'hello')
  await visible(agentSays(page, OTHER).first())
  await waitIdle(page)
  // Back to the flooded session, still working: Stop ends its turn.
  await agentGroup(page, FLOOD).getByRole('button', { name: /^go/ }).click()
  await visible(page.getByRole('main', { name: 'Session go' }))
  await (await visible(page.getByRole('button', { name: 'Stop', exact: true }))).click()
  await waitIdle(page)
  // The agent's last words after Stop (it flushes 1,000 chunks) reached the page: the end of the flood is all there.
  await visible(page.getByText(/after cancel endless/).last())
  await expect.poll(() => app.host.views().map((v) => v.inFlight + v.held)).toEqual([0])
  await visible(messageBox(page))
  await screenshot(page, 'flow-control-light')
}, 120_000)
