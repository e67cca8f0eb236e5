/**
 * A session whose turn ended with an error while the person looked at another one (the agent crashed mid-turn) is
 * marked in the sidebar: before, its spinner went away as after a normal answer, and nothing said it had failed.
 */
import { describe, expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { agentGroup, agentSays, gone, sendPrompt, startSession, transcript, visible, waitIdle } from './support/session-ui'

const launch = launchPerTest()
const FAILED = 'The last turn ended with an error'

describe('sidebar: a failed turn out of sight', () => {
  it('marks the session whose agent crashed mid-turn, in the live list and the history, until its next turn', async () => {
    const app = await launch([
      { id: 'crasher', name: 'Crasher', scenario: 'e2e-session' },
      { id: 'other', name: 'Other', scenario: 'e2e-session' },
    ])
    const { page } = app
    await startSession(page, { agentName: 'Crasher', cwd: app.home.workspace })
    await sendPrompt(page, 'crash')
    await visible(transcript(page).getByRole('alert').getByText(/The turn ended with an error: Crasher exited with code 3/))
    await waitIdle(page)

    // The person moves on to another agent's session: the crashed one is marked where it is listed.
    await startSession(page, { agentName: 'Other', cwd: app.home.workspace })
    const crashedRow = agentGroup(page, 'Crasher').getByRole('button', { name: /crash/ })
    await visible(crashedRow.getByRole('img', { name: FAILED }))
    // Its history row too (the live row and that one: two marks in the sidebar).
    await expect.poll(() => page.getByRole('navigation', { name: 'Agents and sessions' }).getByRole('img', { name: FAILED }).count()).toBe(2)
    await gone(agentGroup(page, 'Other').getByRole('img', { name: FAILED }))
    await screenshot(page, 'sidebar-failed-mark')

    // Its next turn clears the mark.
    await crashedRow.click()
    await sendPrompt(page, 'hello again')
    await visible(agentSays(page, 'Crasher').getByText('echo: hello again'))
    await waitIdle(page)
    await gone(agentGroup(page, 'Crasher').getByRole('img', { name: FAILED }))
  })
})
