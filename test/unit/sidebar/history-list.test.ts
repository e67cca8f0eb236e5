import { describe, expect, it } from 'vitest'
import type { HistorySummary } from '../../../common/contract/history'
import { listedSessions, type LiveInfo } from '../../../renderer/components/sidebar/HistoryList'

const row = (sessionId: string, title: string | null): HistorySummary => ({
  sessionId,
  agentId: 'a',
  acpSessionId: sessionId,
  cwd: '/work',
  title,
  createdAt: 1,
  updatedAt: 2,
  protocolVersion: 1,
  archived: false,
  interrupted: false,
})

describe('the sessions the history lists', () => {
  it('leaves out a closed session in which nothing was said; keeps titled ones and every open one', () => {
    const live = new Map<string, LiveInfo>([['open-empty', { turnState: 'idle', pending: 0, title: null }]])
    const sessions = [row('closed-empty', null), row('open-empty', null), row('prompted', 'fix the build'), row('named', 'Release notes')]
    expect(listedSessions(sessions, live).map((s) => s.sessionId)).toEqual(['open-empty', 'prompted', 'named'])
  })
})
