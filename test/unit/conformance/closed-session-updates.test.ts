/**
 * E11: once Bosun closed a session (its `session/close` sent where the agent offers it), nothing the agent sends for
 * it afterwards is applied: late updates and the answer to the turn that ran are dropped, and no session comes back.
 */
import { describe, expect, it } from 'vitest'
import type { PromptOutcome } from '../../../main/acp/types'
import { Deferred } from '../../../main/base/deferred'
import { ok } from '../../../main/base/errors'
import { createLogger } from '../../../main/base/log'
import { SessionsService } from '../../../main/sessions/sessions-service'
import { fakeAgentConnection } from '../../support/fake-agent-connection'
import { RecordingSink } from '../../support/recording-sink'

describe('a closed session (E11)', () => {
  it('takes nothing the agent sends after the close', async () => {
    const turn = new Deferred<PromptOutcome>()
    const closed: string[] = []
    const { connection, send } = fakeAgentConnection({
      prompt: () => turn.promise,
      closeSession: async (id: string) => void closed.push(id),
      handshake: { protocolVersion: 2, capabilities: { closeSession: true } },
    })
    const sink = new RecordingSink()
    const service = new SessionsService({ connect: async () => ok({ connection, protocolVersion: 2 as const }) }, sink, createLogger('test', () => undefined))
    service.attachConnection('a', connection)
    const created = await service.newSession('a', '/w')
    if (!created.ok) throw new Error(created.error.message)
    const { sessionId } = created.value
    const prompt = service.prompt(sessionId, [{ type: 'text', text: 'hi' }])
    send({ sessionUpdate: 'agent_message_chunk', messageId: 'm', content: { type: 'text', text: 'before' } })
    await sink.next('sessionActions', (b) => b.sessionId === sessionId && JSON.stringify(b.actions).includes('before'))

    expect(service.closeSession(sessionId)).toMatchObject({ ok: true })
    expect(closed).toEqual(['s1'])
    const eventsAtClose = sink.events.length
    send({ sessionUpdate: 'agent_message_chunk', messageId: 'm', content: { type: 'text', text: 'after' } })
    send({ sessionUpdate: 'state_update', state: 'idle', stopReason: 'cancelled' })
    turn.resolve({ stopReason: 'cancelled' })
    await prompt
    expect(service.state(sessionId)).toBeUndefined()
    const later = sink.events.slice(eventsAtClose)
    expect(later.filter((e) => JSON.stringify(e.payload).includes(sessionId) && e.name !== 'sessionRemoved')).toEqual([])
    expect(JSON.stringify(later)).not.toContain('after')
    service.dispose()
  })
})
