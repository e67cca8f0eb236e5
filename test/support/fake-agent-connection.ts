/**
 * A stand-in for an agent's connection, enough for the sessions service in unit tests: `send` delivers a
 * `session/update` for the agent's session `s1`; `overrides` replace any method (a prompt that answers, a resume
 * that replays). `sessionsOn` makes a sessions service whose one agent `a` is that connection, attached.
 */
import type { AcpClientConnection, SessionUpdateNotification } from '../../main/acp/types'
import { Emitter } from '../../main/base/event'
import { createLogger } from '../../main/base/log'
import { ok } from '../../main/base/errors'
import { SessionsService } from '../../main/sessions/sessions-service'
import { RecordingSink } from './recording-sink'

export function fakeAgentConnection(overrides: Record<string, unknown> = {}): { connection: AcpClientConnection; send: (update: object) => void } {
  const updates = new Emitter<SessionUpdateNotification>()
  const connection = {
    newSession: async () => ({ sessionId: 's1' }),
    prompt: () => new Promise(() => undefined),
    cancel: () => undefined,
    onDidReceiveUpdate: updates.event,
    onDidClose: new Emitter<never>().event,
    ...overrides,
  } as unknown as AcpClientConnection
  return { connection, send: (update) => updates.fire({ sessionId: 's1', update } as SessionUpdateNotification) }
}

export function sessionsOn(connection: AcpClientConnection, options: ConstructorParameters<typeof SessionsService>[3] = {}): SessionsService {
  const service = new SessionsService({ connect: async () => ok({ connection, protocolVersion: 1 as const }) }, new RecordingSink(), createLogger('test', () => undefined), options)
  service.attachConnection('a', connection)
  return service
}
