/**
 * Restart and Stop ask first when the agent has work under way, in place on its Overview. The question belongs to
 * the agent it was asked for: choosing another agent in the list while it is open leaves it behind (it read
 * "Restart Gemini CLI?" for an agent the person never asked to restart, and "Restart anyway" restarted that one).
 */
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'
import { callsOf, recordedAgentsApi } from './recorded-agents-api'

const entry = `${recordedAgentsApi()}
const sessions = [{ agentId: 'claude', turnState: 'running', pending: 0 }]
createRoot(document.getElementById('root')).render(<AgentsScreen api={api} onClose={() => {}} initialAgentId="claude" sessions={sessions} />)
`

const harness = browserHarness(entry)

describe('the Restart question', { timeout: 30_000 }, () => {
  it('stays with the agent it was asked for', async () => {
    const page = await harness.open({ viewport: { width: 1280, height: 800 } })
    try {
      await page.getByRole('heading', { name: 'Claude', level: 2 }).waitFor()
      await page.getByRole('button', { name: 'Restart', exact: true }).click()
      await page.getByRole('alertdialog', { name: 'Restart Claude?' }).waitFor()
      await page.getByRole('navigation', { name: 'Agents' }).getByRole('button', { name: /^Gemini CLI/ }).click()
      await page.getByRole('heading', { name: 'Gemini CLI', level: 2 }).waitFor()
      // Gemini CLI has nothing at work: no question, and Restart acts at once.
      expect(await page.getByRole('alertdialog').count()).toBe(0)
      expect(await callsOf(page, 'restartAgent')).toEqual([])
      // Back on Claude, the question is asked anew, not left open.
      await page.getByRole('navigation', { name: 'Agents' }).getByRole('button', { name: /^Claude/ }).click()
      await page.getByRole('heading', { name: 'Claude', level: 2 }).waitFor()
      expect(await page.getByRole('alertdialog').count()).toBe(0)
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })
})
