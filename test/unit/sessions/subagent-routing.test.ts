/**
 * v2 subagent sessions through the real connection and the sessions service: which child sessions a session's
 * `subagent_update` routes to it, what of a child's updates reach the parent, and the bounds on both.
 */
import { describe, expect, it } from 'vitest'
import type { ToolCallEntry } from '../../../common/session/types'
import { v2Peer } from './v2-peer'

const start = v2Peer()

/** A v2 agent with two sessions open, s1 and s2. */
async function twoSessions() {
  const { service, open, update } = await start()
  const s1 = await open('s1')
  const s2 = await open('s2')
  const tools = (sessionId: string) => service.state(sessionId)!.entries.filter((e): e is ToolCallEntry => e.kind === 'tool_call').map((e) => e.toolCallId)
  return { service, s1, s2, update, tools }
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
