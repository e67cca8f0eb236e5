/**
 * The agent's own sessions for a folder (`session/list`): every page is read, an empty cursor included (v2: "an empty
 * string is a valid cursor"), and a session in the same folder written another way is kept.
 */
import { describe, expect, it } from 'vitest'
import { fakeAgentConnection, sessionsOn } from '../../support/fake-agent-connection'

const info = (sessionId: string, cwd: string, title: string | null = null) => ({ sessionId, cwd, title, updatedAt: null })

function listing(pages: Record<string, { sessions: ReturnType<typeof info>[]; nextCursor: string | null }>) {
  const asked: (string | undefined)[] = []
  const { connection } = fakeAgentConnection({
    handshake: { protocolVersion: 2, capabilities: { listSessions: true } },
    listSessions: async ({ cursor }: { cursor?: string }) => {
      asked.push(cursor)
      return pages[cursor ?? 'first']!
    },
  })
  return { service: sessionsOn(connection), asked }
}

describe('listing the agent\'s sessions', () => {
  it('reads the page an empty cursor names, and stops only when there is no cursor', async () => {
    const { service, asked } = listing({
      first: { sessions: [info('A', '/w')], nextCursor: '' },
      '': { sessions: [info('B', '/w')], nextCursor: null },
    })
    const listed = await service.listAgentSessions('a', '/w')
    expect(listed.ok && listed.value?.map((s) => s.sessionId)).toEqual(['A', 'B'])
    expect(asked).toEqual([undefined, ''])
    service.dispose()
  })

  it('keeps a session whose folder the agent wrote with a trailing slash or a dot segment, and leaves out other folders', async () => {
    const { service } = listing({ first: { sessions: [info('A', '/w/'), info('B', '/w/./'), info('C', '/other'), info('D', 'w')], nextCursor: null } })
    const listed = await service.listAgentSessions('a', '/w')
    expect(listed.ok && listed.value?.map((s) => s.sessionId)).toEqual(['A', 'B'])
    service.dispose()
  })

  it('stops when the agent hands back the cursor it was just given (the same page again)', async () => {
    const { service, asked } = listing({ first: { sessions: [info('A', '/w')], nextCursor: 'x' }, x: { sessions: [info('B', '/w')], nextCursor: 'x' } })
    const listed = await service.listAgentSessions('a', '/w')
    expect(listed.ok && listed.value?.map((s) => s.sessionId)).toEqual(['A', 'B'])
    expect(asked).toEqual([undefined, 'x'])
    service.dispose()
  })

  it('lists a session the agent repeats once, stops at a cursor it handed out before, and lists its title without bidi controls (hostile14)', async () => {
    // Before: three rows of A (the page, then the same page again under cursors that cycle), and A's title read "… exe.pdf".
    const { service, asked } = listing({
      first: { sessions: [info('A', '/w', 'Fix login \u202Efdp.exe'), info('A', '/w')], nextCursor: 'x' },
      x: { sessions: [info('A', '/w'), info('B', '/w')], nextCursor: 'y' },
      y: { sessions: [info('B', '/w'), info('A', '/w')], nextCursor: 'x' },
    })
    const listed = await service.listAgentSessions('a', '/w')
    expect(listed.ok && listed.value?.map((s) => [s.sessionId, s.title])).toEqual([
      ['A', 'Fix login fdp.exe'],
      ['B', null],
    ])
    expect(asked).toEqual([undefined, 'x', 'y'])
    service.dispose()
  })

  it('an agent that never answers session/list: the list fails after the session-call deadline, as new, load and resume do', async () => {
    const { connection } = fakeAgentConnection({
      handshake: { protocolVersion: 2, capabilities: { listSessions: true } },
      listSessions: () => new Promise(() => undefined),
    })
    const timers: (() => void)[] = []
    const service = sessionsOn(connection, { scheduler: { setTimeout: (fn: () => void) => timers.push(fn), clearTimeout: () => undefined }, sessionCallTimeoutMs: 1_000 })
    const listed = service.listAgentSessions('a', '/w')
    for (let i = 0; i < 5 && timers.length === 0; i++) await Promise.resolve()
    for (const run of timers.splice(0)) run()
    expect(await Promise.race([listed, new Promise((resolve) => setTimeout(() => resolve('still waiting'), 100))])).toMatchObject({ ok: false, error: { kind: 'timeout' } })
    service.dispose()
  })
})

describe('opening a session from the agent\'s list', () => {
  it('a v1 agent that does not say loadSession (it resumes and lists) is not sent session/load, nor anything in its place (E6)', async () => {
    const asked: unknown[] = []
    const { connection } = fakeAgentConnection({
      handshake: { protocolVersion: 1, capabilities: { loadSession: false, resumeSession: true, listSessions: true } },
      resumeSession: async (params: unknown) => {
        asked.push(params)
        return { sessionId: 'A', raw: null }
      },
    })
    const service = sessionsOn(connection)
    const opened = await service.openAgentSession('a', 'A', '/w')
    expect(opened).toMatchObject({ ok: false, error: { kind: 'invalid-argument', message: expect.stringMatching(/cannot load its earlier sessions/) } })
    expect(asked).toEqual([])
    expect(service.has('a/A')).toBe(false)
    service.dispose()
  })
})
