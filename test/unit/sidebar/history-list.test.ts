import { describe, expect, it } from 'vitest'
import type { HistorySummary } from '../../../common/contract/history'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { HistoryList, listedSessions, snippetParts, type LiveInfo } from '../../../renderer/components/sidebar/HistoryList'
import type { HistoryActions } from '../../../renderer/components/sidebar/use-history'

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

describe('an empty history', () => {
  it('says what it is and what fills it', () => {
    const html = renderToStaticMarkup(
      createElement(HistoryList, { sessions: [], live: new Map(), agentName: (id: string) => id, selectedSessionId: null, showArchived: false, actions: {} as HistoryActions, onOpen: () => undefined, onNewSessionIn: () => undefined }),
    )
    expect(html).toContain('No past sessions yet. The sessions you start stay here, by folder, to reopen and search.')
  })
})

describe('a folder of the history', () => {
  const render = (hasAgent?: (agentId: string) => boolean) =>
    renderToStaticMarkup(
      createElement(HistoryList, {
        sessions: [row('s1', 'fix the build')],
        live: new Map(),
        agentName: (id: string) => (id === 'a' ? 'Agent A' : id),
        ...(hasAgent ? { hasAgent } : {}),
        selectedSessionId: null,
        showArchived: false,
        actions: {} as HistoryActions,
        onOpen: () => undefined,
        onNewSessionIn: () => undefined,
      }),
    )

  it('isolates the agent’s name in a row, so a right-to-left name does not take the time after it into its run', () => {
    expect(render()).toMatch(/<bdi class="cut-words-first">Agent A<\/bdi>/)
  })

  it('cuts a long agent name in a row before the time after it (the time was cut with the name), or puts the time on the next line', () => {
    // The name shrinks (cut-words-first); the time is words that keep their room (cut-words), after a separator of its own
    // that the start of a line hides (cut-line-wraps: the e2e polish-ux13 lays it out).
    expect(render()).toMatch(/<span class="cut-line cut-line-wraps" aria-hidden="true"><bdi class="cut-words-first">Agent A<\/bdi><span class="cut-words"><span class="cut-sep">·<\/span>[^<]*\d[^<]*<\/span>/)
  })

  it('offers to list the agent’s own sessions there, unless the agent was removed from Bosun', () => {
    expect(render()).toContain('More from Agent A')
    expect(render(() => true)).toContain('More from Agent A')
    expect(render(() => false)).not.toContain('More from')
  })

  it('ends the link to the agent’s own sessions with its name, so a long name is cut after the words, not inside them', () => {
    expect(render()).toMatch(/<span class="cut-words">More from <\/span><bdi class="cut-words-first">Agent A<\/bdi>/)
  })

  it('offers each agent with a session in the folder its own list, newest first: not only the agent of the newest session', () => {
    const html = renderToStaticMarkup(
      createElement(HistoryList, {
        sessions: [{ ...row('s3', 'from codex'), agentId: 'c', updatedAt: 9 }, { ...row('s2', 'from a'), updatedAt: 5 }, { ...row('s1', 'again codex'), agentId: 'c', updatedAt: 3 }, { ...row('s0', 'gone'), agentId: 'x', updatedAt: 1 }],
        live: new Map(),
        agentName: (id: string) => ({ a: 'Agent A', c: 'Codex', x: 'Removed' })[id] ?? id,
        hasAgent: (id: string) => id !== 'x',
        selectedSessionId: null,
        showArchived: false,
        actions: {} as HistoryActions,
        onOpen: () => undefined,
        onNewSessionIn: () => undefined,
      }),
    )
    const offers = [...html.matchAll(/title="([^"]+)’s own sessions in this folder/g)].map((m) => m[1])
    expect(offers).toEqual(['Codex', 'Agent A'])
  })
})

describe('a search hit’s snippet', () => {
  it('splits plain and matched text at main’s marks', () => {
    expect(snippetParts('a \u0002b\u0003 c', false)).toEqual(['a ', 'b', ' c'])
  })
  it('leaves out the Markdown emphasis and code marks of an agent’s message, not its single * and _', () => {
    expect(snippetParts('Done: **\u0002answer\u0003** is `42` in my_file *.ts', true)).toEqual(['Done: ', 'answer', ' is 42 in my_file *.ts'])
  })
  it('keeps what the person typed as typed', () => {
    expect(snippetParts('why **\u0002answer\u0003**', false)).toEqual(['why **', 'answer', '**'])
  })
})
