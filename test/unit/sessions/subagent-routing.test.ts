/**
 * v2 subagent sessions through the real connection and the sessions service: which child sessions a session's
 * `subagent_update` routes to it, what of a child's updates reach the parent, and the bounds on both.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { SessionUpdateNotification } from '../../../main/acp/types'
import { once } from '../../../main/base/event'
import { ok } from '../../../main/base/errors'
import { createLogger } from '../../../main/base/log'
import { SessionsService } from '../../../main/sessions/sessions-service'
import type { ToolCallEntry } from '../../../common/session/types'
import { RecordingSink } from '../../support/recording-sink'
import { acpPeer, type Json } from '../../support/acp-peer'

const disposables: { dispose(): void }[] = []
afterEach(() => {
  for (const d of disposables.splice(0)) d.dispose()
})

/** A v2 agent with two sessions open, s1 and s2. */
async function twoSessions() {
  const { connection, next, send } = acpPeer({ clientInfo: { name: 'bosun', version: '0' } })
  const initialized = connection.initialize()
  const init = await next()
  send({ id: init.id, result: { protocolVersion: 2, info: { name: 'a', version: '1' }, capabilities: { session: {} } } })
  await initialized
  const service = new SessionsService({ connect: async () => ok({ connection, protocolVersion: 2 as const }) }, new RecordingSink(), createLogger('test', () => undefined))
  disposables.push(service, { dispose: () => connection.close() })
  service.attachConnection('a', connection)
  const ids: string[] = []
  for (const acpId of ['s1', 's2']) {
    const created = service.newSession('a', '/w')
    const request = await next()
    send({ id: request.id, result: { sessionId: acpId } })
    const result = await created
    if (!result.ok) throw new Error(result.error.message)
    ids.push(result.value.sessionId)
  }
  /** Sends a `session/update` for `acpSessionId` and resolves once the service has been handed it. */
  const update = async (acpSessionId: string, body: Json) => {
    const seen = once(connection.onDidReceiveUpdate, (u: SessionUpdateNotification) => u.sessionId === acpSessionId && JSON.stringify(u.update) === JSON.stringify(body))
    send({ method: 'session/update', params: { sessionId: acpSessionId, update: body } })
    await seen
  }
  const tools = (sessionId: string) => service.state(sessionId)!.entries.filter((e): e is ToolCallEntry => e.kind === 'tool_call').map((e) => e.toolCallId)
  return { service, s1: ids[0]!, s2: ids[1]!, update, tools }
}

describe('v2 subagent sessions', () => {
  it('a child is routed to the session that announced it: its tool calls, not its state; unannounced ids are dropped', async () => {
    const { service, s1, update, tools } = await twoSessions()
    await update('child', { sessionUpdate: 'tool_call_update', toolCallId: 'early', title: 'before the announcement' })
    expect(service.resolve('a', 'child')).toBeUndefined()
    await update('s1', { sessionUpdate: 'subagent_update', sessionId: 'child', title: 'Helper' })
    expect(service.resolve('a', 'child')).toBe(s1)
    await update('child', { sessionUpdate: 'tool_call_update', toolCallId: 'c1', title: 'ls', status: 'in_progress' })
    await update('child', { sessionUpdate: 'state_update', state: 'running' })
    await update('child', { sessionUpdate: 'usage_update', used: 5, size: 10 })
    expect(tools(s1)).toEqual(['subagent:child', 'c1'])
    expect(service.state(s1)!.turn.state).toBe('idle')
    expect(service.state(s1)!.usage).toBeNull()
  })

  it('a session cannot take another open session as its subagent', async () => {
    const { service, s1, s2, update, tools } = await twoSessions()
    await update('s1', { sessionUpdate: 'subagent_update', sessionId: 's2' })
    expect(service.resolve('a', 's2')).toBe(s2)
    await update('s2', { sessionUpdate: 'tool_call_update', toolCallId: 'own', title: 'mine' })
    expect(tools(s2)).toEqual(['own'])
    expect(tools(s1)).toEqual(['subagent:s2'])
  })

  it('a closed session lets its subagents go', async () => {
    const { service, s1, update } = await twoSessions()
    await update('s1', { sessionUpdate: 'subagent_update', sessionId: 'child' })
    expect(service.resolve('a', 'child')).toBe(s1)
    expect(service.closeSession(s1).ok).toBe(true)
    expect(service.resolve('a', 'child')).toBeUndefined()
  })
})
