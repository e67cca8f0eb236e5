/** A sessions service over a real connection to a v2 agent the test scripts message by message (`acpPeer`). */
import { afterEach } from 'vitest'
import type { SessionUpdateNotification } from '../../../main/acp/types'
import { once } from '../../../main/base/event'
import { ok } from '../../../main/base/errors'
import { createLogger } from '../../../main/base/log'
import { SessionsService } from '../../../main/sessions/sessions-service'
import { RecordingSink } from '../../support/recording-sink'
import { acpPeer, type Json } from '../../support/acp-peer'

/**
 * Call at the top of a file: `start(options)` initializes a v2 agent on the other end of a real connection and attaches it
 * to a new service (both disposed after each test); `open(acpId)` answers the service's `session/new` with that id.
 */
export function v2Peer() {
  const disposables: { dispose(): void }[] = []
  afterEach(() => {
    for (const d of disposables.splice(0)) d.dispose()
  })
  return async function start(options: ConstructorParameters<typeof SessionsService>[3] = {}) {
    const { connection, next, send } = acpPeer({ clientInfo: { name: 'bosun', version: '0' } })
    const initialized = connection.initialize()
    const init = await next()
    send({ id: init.id, result: { protocolVersion: 2, info: { name: 'a', version: '1' }, capabilities: { session: {} } } })
    await initialized
    const service = new SessionsService({ connect: async () => ok({ connection, protocolVersion: 2 as const }) }, new RecordingSink(), createLogger('test', () => undefined), options)
    disposables.push(service, { dispose: () => connection.close() })
    service.attachConnection('a', connection)
    /** A new session the agent calls `acpId`: Bosun's id for it. */
    const open = async (acpId: string): Promise<string> => {
      const created = service.newSession('a', '/w')
      const request = await next()
      send({ id: request.id, result: { sessionId: acpId } })
      const result = await created
      if (!result.ok) throw new Error(result.error.message)
      return result.value.sessionId
    }
    /** Sends a `session/update` for `acpSessionId` and resolves once the service has been handed it. */
    const update = async (acpSessionId: string, body: Json) => {
      const seen = once(connection.onDidReceiveUpdate, (u: SessionUpdateNotification) => u.sessionId === acpSessionId && JSON.stringify(u.update) === JSON.stringify(body))
      send({ method: 'session/update', params: { sessionId: acpSessionId, update: body } })
      await seen
    }
    return { service, connection, next, send, open, update }
  }
}
