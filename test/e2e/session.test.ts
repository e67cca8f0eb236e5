/**
 * The session screen end to end (issue 3): the real browser host, the built renderer in Debian's Chromium,
 * and the scripted agent as a real child process. Start → new session → prompt → streamed reply → tool call
 * with a diff → plan → Stop → crash and Restart, against the v1 agent and (prompt/tool call/plan) the v2 agent.
 */
import { describe, expect, it } from 'vitest'
import { launchPerTest, screenshot, type E2eApp } from './support/harness'
import {
  agentGroup,
  agentSays,
  gone,
  inTranscriptView,
  messageBox,
  openPlan,
  sendButton,
  sendPrompt,
  startSession,
  stopButton,
  transcript,
  until,
  visible,
  waitIdle,
  watchAgent,
} from './support/session-ui'

const AGENT = 'Scripted agent'

const launch = launchPerTest()

async function promptToolCallAndPlan(current: E2eApp, version: 1 | 2): Promise<void> {
  const { page } = current
  const log = transcript(page)

  await sendPrompt(page, 'fix')
  // The user's message, then the streamed reply (three chunks joined, Markdown rendered).
  await visible(log.getByLabel('Your message').getByText('fix', { exact: true }))
  await visible(agentSays(page, AGENT).getByText("I'll fix the off-by-one in src/app.ts and run the tests."))
  await visible(agentSays(page, AGENT).locator('code', { hasText: 'src/app.ts' }))
  // The thought is collapsed: a toggle with a preview, not its body.
  const thought = await visible(log.getByRole('button', { name: /^Thought/ }))
  expect(await thought.getAttribute('aria-expanded')).toBe('false')

  // The tool call card with its diff: the removed and the added line, and the untouched context.
  const card = await visible(log.getByRole('article', { name: 'Edit src/app.ts', exact: true }))
  await visible(card.getByText('Completed', { exact: true }))
  // v1 sends old/new text (diffed here), v2 its changes (listed) and a git patch: both show as unified diff rows.
  const figure = await visible(card.getByRole('figure', { name: version === 2 ? 'File changes' : 'Diff of /tmp/project/src/app.ts', exact: true }))
  if (version === 2) {
    await visible(figure.getByRole('list', { name: 'Changed files' }).getByRole('listitem').filter({ hasText: /^modified\s*\/tmp\/project\/src\/app\.ts$/ }))
  }
  await visible(card.getByRole('row', { name: 'removed: export const answer = 41' }))
  await visible(card.getByRole('row', { name: 'added: export const answer = 42' }))
  await visible(card.getByRole('row', { name: "export const question = 'unknown'" }))
  await visible(card.getByLabel('1 lines added, 1 removed'))

  // The plan, as a checklist with status and priority.
  const plan = await openPlan(page)
  await visible(plan.getByRole('button', { name: /Plan.*1\/3 done/ }))
  const items = plan.getByRole('listitem')
  expect(await items.count()).toBe(3)
  await visible(items.nth(0).getByRole('img', { name: 'completed' }))
  await visible(items.nth(1).getByRole('img', { name: 'in progress' }))
  await visible(items.nth(1).getByText('Change 41 to 42'))
  await visible(items.nth(2).getByText('low'))

  await visible(agentSays(page, AGENT).getByText('Done: answer is 42 now.'))
  await waitIdle(page)
}

describe('session screen (v1 agent)', () => {
  it('runs a session: streamed reply, diff card, plan, Stop, crash with the stderr tail, Restart', async () => {
    const app = await launch([{ id: 'scripted', name: AGENT, scenario: 'e2e-session' }])
    const { page } = app
    const log = transcript(page)

    // The configured agent is listed before anything runs.
    await visible(agentGroup(page, AGENT))
    await visible(page.getByRole('main', { name: 'No session' }))

    await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
    await visible(agentGroup(page, AGENT).getByRole('img', { name: 'Ready' }))
    await visible(page.getByRole('combobox', { name: 'Mode' }))
    await visible(page.getByRole('button', { name: 'Waiting for you, 0' }))

    await promptToolCallAndPlan(app, 1)

    // Stop cancels a running turn: the turn ends as cancelled, said neutrally, and Send is back.
    await sendPrompt(page, 'slow')
    await visible(agentSays(page, AGENT).getByText('Working on it'))
    await visible(page.getByRole('status', { name: 'Turn: Working…' }))
    await (await visible(stopButton(page))).click()
    await waitIdle(page)
    await visible(log.getByRole('note', { name: 'How the turn ended' }).getByText(/^Stopped\./))
    expect(await log.getByRole('alert').count()).toBe(0)
    await gone(stopButton(page))

    // A crash ends the turn with the agent's error; the agent is restarted automatically and the same
    // session continues on the new process (session/load). The third crash within minutes gives up.
    const agent = await watchAgent(page, AGENT)
    for (let crash = 1; crash <= 3; crash++) {
      await agent.clear()
      await sendPrompt(page, 'crash')
      await visible(agentSays(page, AGENT).getByText('About to crash').nth(crash - 1))
      // The stopped turn keeps its note in the transcript once the next one has started.
      if (crash === 1) {
        await visible(log.getByRole('note', { name: 'How the turn ended' }).getByText(/^Stopped\./))
        await screenshot(page, 'session-stopped-earlier')
      }
      await visible(log.getByRole('alert').getByText(/The turn ended with an error: Scripted agent exited with code 3/))
      await waitIdle(page)
      if (crash === 3) break
      // While the automatic restart waits, the banner shows the crash with the stderr tail; then it is back.
      await agent.waitForStatuses(['Restarting', 'Ready'])
      // The agent answered before it died: the message was sent, and the composer does not offer it again.
      if (crash === 1) expect(await messageBox(page).inputValue()).toBe('')
      expect(await agent.banners()).toContainEqual(expect.stringMatching(/^Scripted agent restarting: Scripted agent crashed[\s\S]*fatal: out of cheese/))
      await gone(page.getByRole('alert', { name: `${AGENT} restarting` }))
    }
    // Given up: the banner stays, with the reason, the stderr tail and Restart; the composer waits for it.
    const banner = await visible(page.getByRole('alert', { name: `${AGENT} failed` }))
    await visible(banner.getByText(/crashed 3 times/))
    await visible(banner.getByLabel('Agent error output').getByText(/fatal: out of cheese/))
    await until<HTMLTextAreaElement>(messageBox(page), (el) => el.disabled)
    // The banner took room from the transcript; it still shows its end (the last crash and its error).
    await inTranscriptView(log.getByRole('alert'))
    await inTranscriptView(agentSays(page, AGENT).getByText('About to crash').nth(2))
    await screenshot(page, 'session-crashed')

    // Restart brings it back: the agent is ready, the composer works, and the same session answers.
    await banner.getByRole('button', { name: 'Restart' }).click()
    await gone(page.getByRole('alert', { name: `${AGENT} failed` }))
    await visible(agentGroup(page, AGENT).getByRole('img', { name: 'Ready' }))
    await sendPrompt(page, 'again')
    await visible(agentSays(page, AGENT).getByText('Back again, same session.'))
    await waitIdle(page)
    expect(await page.getByRole('alert').count()).toBe(0)
    await until<HTMLButtonElement>(sendButton(page), (el) => el.disabled)
  })
})

describe('session screen (v2 agent)', () => {
  it('streams the reply, the diff card and the plan; a crash ends the turn', async () => {
    const app = await launch([{ id: 'scripted-v2', name: AGENT, scenario: 'e2e-session', v2: true }])
    const { page } = app
    await visible(agentGroup(page, AGENT))
    await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
    await promptToolCallAndPlan(app, 2)

    // v2 turns end with an idle state_update that a dead agent never sends: Bosun ends the turn itself.
    await sendPrompt(page, 'crash')
    await visible(transcript(page).getByRole('alert').getByText(/exited with code 3/))
    await waitIdle(page)
    await visible(agentGroup(page, AGENT).getByRole('img', { name: 'Ready' }))
    await sendPrompt(page, 'slow')
    await visible(agentSays(page, AGENT).getByText('Working on it'))
    await (await visible(stopButton(page))).click()
    await waitIdle(page)
    await visible(transcript(page).getByRole('note', { name: 'How the turn ended' }))
  })
})
