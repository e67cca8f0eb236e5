/**
 * An agent that numbers its sessions from 1 again after a restart gives an id Bosun already stored to a new
 * session (kept here as `<id>#n`). Opening that id from the agent's own list opens the conversation the agent has
 * under it now, the newest Bosun stored under it, not the older one that had it first.
 */
import { describe, expect, it, vi } from 'vitest'
import type { Scenario } from '../../agents/scenario'
import { must } from '../../support/must'
import { historyHarness } from './restart'

// Each test starts Bosun (and an agent) several times: about 20 s on a loaded 2-core machine.
vi.setConfig({ testTimeout: 60_000 })

const harness = historyHarness()

const agent: Scenario = {
  initialize: { capabilities: { loadSession: true, sessionCapabilities: { list: {} } } },
  session: { list: [{ sessionId: 'sess-1' }] },
  prompts: { default: [{ type: 'text', text: 'ok' }] },
}

describe('a listed session whose id the agent gave again after a restart', () => {
  /** Two runs of Bosun, each with a session the agent calls `sess-1`: the older one stored first, then the newer one. */
  async function twoRunsOfOneId() {
    const home = harness.home([{ id: 'scripted', name: 'Scripted', scenario: harness.scenario(agent) }])
    const sessionIn = async (text: string) => {
      const run = await harness.start(home)
      const sessionId = must(await run.handlers.newSession({ agentId: 'scripted', cwd: home.workspace })).sessionId
      must(await run.handlers.prompt({ sessionId, prompt: [{ type: 'text', text }] }))
      await harness.stop(run)
      return sessionId
    }
    const older = await sessionIn('the older one')
    const newer = await sessionIn('the newer one')
    return { home, older, newer }
  }

  it('opens the newest stored session of that id', async () => {
    const { home, older, newer } = await twoRunsOfOneId()
    expect([older, newer]).toEqual(['scripted/sess-1', 'scripted/sess-1#2'])

    const third = await harness.start(home)
    const opened = must(await third.handlers.historyOpenAgentSession({ agentId: 'scripted', acpSessionId: 'sess-1', cwd: home.workspace }))
    expect(opened.sessionId).toBe(newer)
  })

  it('with the older one deleted: listed as kept here, and opens the newer one, not a second copy', async () => {
    const { home, older, newer } = await twoRunsOfOneId()

    const third = await harness.start(home)
    must(await third.handlers.historyDelete({ sessionId: older }))
    const listed = must(await third.handlers.historyAgentSessions({ agentId: 'scripted', cwd: home.workspace })).sessions
    expect(listed.map((s) => [s.acpSessionId, s.stored])).toEqual([['sess-1', true]])
    const opened = must(await third.handlers.historyOpenAgentSession({ agentId: 'scripted', acpSessionId: 'sess-1', cwd: home.workspace }))
    expect(opened.sessionId).toBe(newer)
  })
})
