/**
 * The agent's own sessions (`session/list`) are marked `stored` when Bosun has them: kept in the history, or open
 * here now (one just opened from the list, which the recorder has not written yet), so the sidebar's list, asked
 * again after an open, no longer offers it. Their titles are the agent's words and are redacted as its updates are.
 */
import { describe, expect, it } from 'vitest'
import { ok } from '../../../main/base/errors'
import { createLogger } from '../../../main/base/log'
import { NullHistoryStore } from '../../../main/history/history-store'
import { createHistoryService, type HistorySessionsPort } from '../../../main/history/service'
import { RecordingSink } from '../../support/recording-sink'

describe('the agent’s own sessions', () => {
  it('marks one open here as stored, before anything of it is written', async () => {
    const store = new NullHistoryStore()
    const history = createHistoryService({ store, events: new RecordingSink(), logger: createLogger('test', () => undefined), openProblem: null })
    const listed = (sessionId: string) => ({ sessionId, cwd: '/w', title: null, updatedAt: null })
    history.bind({
      has: (sessionId: string) => sessionId === 'a/open-here',
      listAgentSessions: async () => ok([listed('open-here'), listed('elsewhere')]),
    } as unknown as HistorySessionsPort)
    const answer = await history.handlers.historyAgentSessions({ agentId: 'a', cwd: '/w' })
    history.dispose()
    expect(answer.ok && answer.value.sessions.map((s) => [s.acpSessionId, s.stored])).toEqual([
      ['open-here', true],
      ['elsewhere', false],
    ])
  })

  it('redacts secret values in the titles the agent lists, as in its updates', async () => {
    const history = createHistoryService({
      store: new NullHistoryStore(),
      events: new RecordingSink(),
      logger: createLogger('test', () => undefined),
      openProblem: null,
      redactText: (text) => text.replaceAll('sk-live-123', '[REDACTED]'),
    })
    history.bind({
      has: () => false,
      listAgentSessions: async () =>
        ok([
          { sessionId: 'leaky', cwd: '/w', title: 'export KEY=sk-live-123 && deploy', updatedAt: null },
          { sessionId: 'untitled', cwd: '/w', title: null, updatedAt: null },
        ]),
    } as unknown as HistorySessionsPort)
    const answer = await history.handlers.historyAgentSessions({ agentId: 'a', cwd: '/w' })
    history.dispose()
    expect(answer.ok && answer.value.sessions.map((s) => s.title)).toEqual(['export KEY=[REDACTED] && deploy', null])
  })
})
