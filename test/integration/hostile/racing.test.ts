/**
 * Racing the person: the agent asks a permission and a form while the window is elsewhere (each notified), and before
 * the person answers, the session is closed, or the agent is stopped or removed. Nothing stays waiting: no pending request, no
 * count, no notification on the screen; the agent hears each request ended.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { Notifier } from '../../../main/app/services'
import { must } from '../../support/services'
import { hostilePerTest, tallyPerFile } from './harness'

const tally = tallyPerFile('racing')
const start = hostilePerTest()

const S = '{session}'
const ask = (id: number, method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method, params })
const LINES = [
  ask(1, 'session/request_permission', {
    sessionId: S,
    toolCall: { toolCallId: 'race', title: 'Run the race', kind: 'execute' },
    options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }],
  }),
  ask(2, 'elicitation/create', { sessionId: S, mode: 'form', message: 'Which lane?', requestedSchema: { type: 'object', properties: { lane: { type: 'string' } } } }),
]

/** A notifier that keeps what is on the screen: shown, then gone when withdrawn. */
function screenNotifier() {
  const onScreen = new Map<string, string>()
  const badges: number[] = []
  const notifier: Notifier = {
    show: (n) => void onScreen.set(n.requestId ?? n.title, n.title),
    setBadgeCount: (count) => void badges.push(count),
    withdraw: (requestId) => void onScreen.delete(requestId),
  }
  return { notifier, onScreen, badges }
}

for (const how of ['the session is closed', 'the agent is stopped', 'the agent is removed'] as const) {
  it(`a permission and a form waiting when ${how}: neither waits any more, in the count or on the screen`, async () => {
    const screen = screenNotifier()
    const setup = await start('script', { notifier: screen.notifier, isWindowFocused: () => false })
    writeFileSync(join(setup.testHome.home, 'script.json'), JSON.stringify(LINES))
    const sessionId = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })).sessionId
    const turn = setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })
    await setup.sink.next('badge', (badge) => badge.count === 2)
    expect([...screen.onScreen.values()]).toEqual(['Hostile needs your approval'])
    expect(must(await setup.handlers.listPendingPermissions(undefined))).toHaveLength(1)

    if (how === 'the session is closed') must(await setup.handlers.closeSession({ sessionId }))
    else if (how === 'the agent is stopped') must(await setup.handlers.stopAgent({ agentId: 'hostile' }))
    else must(await setup.handlers.removeAgentDefinition({ agentId: 'hostile' }))
    await turn
    tally.inputs += LINES.length

    expect(must(await setup.handlers.listPendingPermissions(undefined))).toEqual([])
    expect(screen.badges.at(-1)).toBe(0)
    expect([...screen.onScreen.values()]).toEqual([])
    const left = must(await setup.handlers.getSnapshot(undefined)).sessions.flatMap((s) => Object.values(s.elicitations).filter((e) => e.status === 'pending'))
    expect(left).toEqual([])
    if (how === 'the session is closed') {
      // The agent heard both end (it was still running): the permission cancelled, the form cancelled.
      const seen = (setup.reports().find((r) => r.seen)?.seen ?? []) as { id: number; result?: { outcome?: { outcome?: string }; action?: string } }[]
      expect(seen.map((a) => [a.id, a.result?.outcome?.outcome ?? a.result?.action]).sort()).toEqual([
        [1, 'cancelled'],
        [2, 'cancel'],
      ])
    }
  })
}
