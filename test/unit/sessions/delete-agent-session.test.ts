/**
 * `session/delete` for a session deleted from the history (E10): only to a running agent (it is never started for it)
 * that advertises it, and never for an id a session open here now holds.
 */
import { describe, expect, it } from 'vitest'
import type { AcpClientConnection } from '../../../main/acp/types'
import { createLogger } from '../../../main/base/log'
import { ok } from '../../../main/base/errors'
import { SessionsService } from '../../../main/sessions/sessions-service'
import { fakeAgentConnection } from '../../support/fake-agent-connection'
import { RecordingSink } from '../../support/recording-sink'

function setup(options: { running: boolean; deleteSession: boolean }) {
  const deleted: string[] = []
  let connects = 0
  const { connection } = fakeAgentConnection({
    handshake: { protocolVersion: 2, capabilities: { deleteSession: options.deleteSession } },
    deleteSession: async (sessionId: string) => {
      deleted.push(sessionId)
    },
  })
  const service = new SessionsService(
    {
      connect: async () => {
        connects++
        return ok({ connection, protocolVersion: 2 as const })
      },
      running: () => (options.running ? connection : undefined),
    },
    new RecordingSink(),
    createLogger('test', () => undefined),
  )
  service.attachConnection('a', connection as AcpClientConnection)
  return { service, deleted, connects: () => connects }
}

describe('deleting the agent’s copy of a session', () => {
  it('is asked of a running agent that advertises it', async () => {
    const { service, deleted } = setup({ running: true, deleteSession: true })
    expect(await service.deleteAgentSession('a', 'old-7')).toEqual({ ok: true, value: { sent: true } })
    expect(deleted).toEqual(['old-7'])
    service.dispose()
  })

  it('is not asked of an agent that does not advertise it, nor of one that is not running (which is not started for it)', async () => {
    for (const options of [
      { running: true, deleteSession: false },
      { running: false, deleteSession: true },
    ]) {
      const { service, deleted, connects } = setup(options)
      expect(await service.deleteAgentSession('a', 'old-7')).toEqual({ ok: true, value: { sent: false } })
      expect(deleted).toEqual([])
      expect(connects()).toBe(0)
      service.dispose()
    }
  })

  it('is not asked for an id a session open here holds now (an agent that numbered a new session the same)', async () => {
    const { service, deleted } = setup({ running: true, deleteSession: true })
    const created = await service.newSession('a', '/w')
    expect(created.ok).toBe(true)
    expect(await service.deleteAgentSession('a', 's1')).toEqual({ ok: true, value: { sent: false } })
    expect(deleted).toEqual([])
    service.dispose()
  })
})
