/**
 * A long session's batches may wait in main before they are applied (main/sessions/lazy-state.ts): whoever reads the
 * session (a snapshot, the state, the history's write) sees every batch sent to the windows applied, and main's
 * state is the one the window reaches applying those batches.
 */
import { describe, expect, it } from 'vitest'
import { applyActions } from '../../../common/session/reducer'
import type { EventPayload } from '../../../common/contract'
import type { SessionState } from '../../../common/session/types'
import { SessionsService, type SessionHistoryHooks } from '../../../main/sessions/sessions-service'
import { APPLIED_AT_ONCE_BELOW } from '../../../main/sessions/lazy-state'
import { createLogger } from '../../../main/base/log'
import { ok } from '../../../main/base/errors'
import { fakeAgentConnection } from '../../support/fake-agent-connection'
import { RecordingSink } from '../../support/recording-sink'

async function longSession() {
  const { connection, send } = fakeAgentConnection()
  const sink = new RecordingSink()
  const changed: { state: SessionState; current: (() => SessionState) | undefined }[] = []
  const history: SessionHistoryHooks = { created: () => undefined, changed: (state, current) => changed.push({ state, current }), closed: () => undefined, isTaken: () => false }
  // Every action is a batch of its own: the clock moves on by more than the batch interval at each reading.
  let now = 0
  const scheduler = { setTimeout: () => undefined, clearTimeout: () => undefined, now: () => (now += 100) }
  const service = new SessionsService({ connect: async () => ok({ connection, protocolVersion: 1 as const }) }, sink, createLogger('test', () => undefined), { scheduler, history })
  service.attachConnection('a', connection)
  const created = await service.newSession('a', '/w')
  if (!created.ok) throw new Error(created.error.message)
  const sessionId = created.value.sessionId
  const added = (sink.events.find((e) => e.name === 'sessionAdded')!.payload as EventPayload<'sessionAdded'>).session
  /** What a window reaches from the session it was given and the batches it was sent since. */
  const windowState = () =>
    sink.events
      .filter((e) => e.name === 'sessionActions')
      .map((e) => e.payload as EventPayload<'sessionActions'>)
      .reduce((state, batch) => {
        expect(batch.seq).toBe(state.seq + 1)
        return applyActions(state, batch.actions)
      }, added)
  return { service, sessionId, send, changed, windowState }
}

const toolCall = (i: number) => ({ sessionUpdate: 'tool_call', toolCallId: `t${i}`, title: `Tool ${i}` })

describe('a long session in main', () => {
  it('is read with every batch sent applied: the state, a snapshot, what the history writes, as the window has it', async () => {
    const { service, sessionId, send, changed, windowState } = await longSession()
    const count = APPLIED_AT_ONCE_BELOW + 300
    for (let i = 0; i < count; i++) {
      send(toolCall(i))
      if (i % 50 === 0) send({ sessionUpdate: 'notice', severity: 'info', title: `notice ${i}` })
    }
    const last = changed.at(-1)!
    // The last batches wait: the history is handed the state as applied so far and a way to read the newest.
    expect(last.state.entries.length).toBeLessThan(count)
    const newest = last.current!()
    expect(newest.entries).toHaveLength(count)
    const expected = windowState()
    expect(newest).toEqual(expected)
    expect(service.state(sessionId)).toEqual(expected)
    expect(service.snapshot()).toEqual([expected])
  })

  it('goes on from what was read: later batches follow the same seq', async () => {
    const { service, sessionId, send, windowState } = await longSession()
    for (let i = 0; i < APPLIED_AT_ONCE_BELOW + 50; i++) send(toolCall(i))
    expect(service.state(sessionId)!.entries).toHaveLength(APPLIED_AT_ONCE_BELOW + 50)
    for (let i = 0; i < 30; i++) send({ ...toolCall(i), sessionUpdate: 'tool_call_update', status: 'completed' })
    expect(service.state(sessionId)).toEqual(windowState())
  })
})
