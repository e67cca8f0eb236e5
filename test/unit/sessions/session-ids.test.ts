import { describe, expect, it } from 'vitest'
import type { AcpClientConnection } from '../../../main/acp/types'
import { Emitter } from '../../../main/base/event'
import { createLogger } from '../../../main/base/log'
import { ok } from '../../../main/base/errors'
import { SessionsService } from '../../../main/sessions/sessions-service'
import { RecordingSink } from '../../support/recording-sink'

/** A connection whose agent answers session/new with the ids given, in order. */
function fakeConnection(ids: string[]): AcpClientConnection {
  const updates = new Emitter<never>()
  const closed = new Emitter<never>()
  return {
    newSession: async () => ({ sessionId: ids.shift()! }),
    onDidReceiveUpdate: updates.event,
    onDidClose: closed.event,
  } as unknown as AcpClientConnection
}

describe('Bosun session ids', () => {
  it('stay unique when a restarted agent reuses an id, even one that looks like Bosun’s own suffix', async () => {
    // The agent hands out an id ending in "#2" (what Bosun would add to a reused "sess-1")…
    let connection = fakeConnection(['sess-1', 'sess-1#2'])
    const service = new SessionsService(
      { connect: async () => ok({ connection, protocolVersion: 1 as const }) },
      new RecordingSink(),
      createLogger('test', () => undefined),
    )
    const first = await service.newSession('a', '/w')
    const second = await service.newSession('a', '/w')
    service.agentDisconnected('a', undefined)
    // …then its new process numbers from the start again.
    connection = fakeConnection(['sess-1'])
    const third = await service.newSession('a', '/w')
    const ids = [first, second, third].map((r) => (r.ok ? r.value.sessionId : r.error.message))
    expect(ids).toEqual(['a/sess-1', 'a/sess-1#2', 'a/sess-1#3'])
    expect(service.snapshot().map((s) => s.acpSessionId)).toEqual(['sess-1', 'sess-1#2', 'sess-1'])
    expect(service.resolve('a', 'sess-1')).toBe('a/sess-1#3')
    expect(service.resolve('a', 'sess-1#2')).toBe('a/sess-1#2')
    expect(service.resolve('b', 'sess-1')).toBeUndefined()
    service.dispose()
  })
})
