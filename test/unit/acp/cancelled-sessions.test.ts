/**
 * What the connection keeps of a cancel (so that the agent's error for the cancelled prompt reads as "cancelled", F5)
 * lasts as long as that prompt: a long-lived agent without `session/close` does not collect one per cancelled session.
 */
import { describe, expect, it } from 'vitest'
import type { AcpClientConnection } from '../../../main/acp/types'
import { acpPeer, type Json } from '../../support/acp-peer'

async function initialized(version: 1 | 2) {
  const peer = acpPeer()
  const done = peer.connection.initialize()
  const request = await peer.next()
  peer.send({ id: request.id, result: { protocolVersion: version, ...(version === 2 ? { info: { name: 'a', version: '1' }, capabilities: { session: {} } } : {}) } })
  await done
  return peer
}

/** The sessions the connection remembers as cancelled (private: only its size is read). */
const remembered = (connection: AcpClientConnection) => (connection as unknown as { cancelledSessions: Set<string> }).cancelledSessions.size

const update = (sessionId: string, body: Json) => ({ method: 'session/update', params: { sessionId, update: body } })

describe('a cancel, remembered', () => {
  it('v1: until the cancelled prompt is answered (its error still reads as cancelled)', async () => {
    const { connection, next, send } = await initialized(1)
    for (const sessionId of ['s1', 's2', 's3']) {
      const turn = connection.prompt(sessionId, [{ type: 'text', text: 'hi' }])
      const request = await next()
      connection.cancel(sessionId)
      expect(await next()).toMatchObject({ method: 'session/cancel', params: { sessionId } })
      send({ id: request.id, error: { code: -32603, message: 'aborted' } })
      expect(await turn).toEqual({ stopReason: 'cancelled' })
    }
    expect(remembered(connection)).toBe(0)
  })

  it('v2: until the cancelled turn is over', async () => {
    const { connection, next, send } = await initialized(2)
    const turn = connection.prompt('s1', [{ type: 'text', text: 'hi' }])
    const request = await next()
    send({ id: request.id, result: { messageId: 'u1' } })
    connection.cancel('s1')
    await next()
    send(update('s1', { sessionUpdate: 'state_update', state: 'idle', stopReason: 'cancelled' }))
    expect(await turn).toMatchObject({ stopReason: 'cancelled' })
    expect(remembered(connection)).toBe(0)
  })

  it('v2: not at all for work the agent started itself (no prompt of Bosun’s to read it for); session/cancel still goes', async () => {
    const { connection, next } = await initialized(2)
    connection.cancel('s1')
    expect(await next()).toMatchObject({ method: 'session/cancel', params: { sessionId: 's1' } })
    expect(remembered(connection)).toBe(0)
  })
})
