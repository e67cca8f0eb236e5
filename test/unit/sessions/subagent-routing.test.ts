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

describe('v2 subagent sessions of an agent that went away', () => {
  it('go with its process: the next process may give their ids to its own subagents, which then belong to the session announcing them', async () => {
    const { service, s1, s2, update } = await twoSessions()
    await update('s1', { sessionUpdate: 'subagent_update', sessionId: 'child' })
    expect(service.resolve('a', 'child')).toBe(s1)
    service.agentDisconnected('a', undefined)
    // A permission request naming it would have been asked in s1 (and ruled in s1's folder).
    expect(service.resolve('a', 'child')).toBeUndefined()
    expect(service.resolve('a', 's2')).toBe(s2)
  })
})

describe('what a v2 agent sends before it answers session/new', () => {
  /** `session/new` asked and not yet answered: `answer` gives it the agent's id (or an error). */
  async function asking() {
    const peer = await start()
    const created = peer.service.newSession('a', '/w')
    const request = await peer.next()
    const early = async (acpSessionId: string, body: Record<string, unknown>) => {
      await peer.update(acpSessionId, body)
    }
    return {
      ...peer,
      early,
      answer: async (acpId: string) => {
        peer.send({ id: request.id, result: { sessionId: acpId } })
        const result = await created
        if (!result.ok) throw new Error(result.error.message)
        return result.value.sessionId
      },
      refuse: async () => {
        peer.send({ id: request.id, error: { code: -32603, message: 'no' } })
        return created
      },
    }
  }
  const toolIds = (state: { entries: { kind: string }[] }) => state.entries.filter((e): e is ToolCallEntry => e.kind === 'tool_call').map((e) => e.toolCallId)

  it('a subagent announced before the answer is routed to the session: what it sent meanwhile and what it sends after', async () => {
    const { service, early, answer, update } = await asking()
    await early('s1', { sessionUpdate: 'subagent_update', sessionId: 'child', title: 'Helper' })
    await early('child', { sessionUpdate: 'tool_call_update', toolCallId: 'c1', title: 'ls', status: 'in_progress' })
    await early('child', { sessionUpdate: 'state_update', state: 'running' })
    const s1 = await answer('s1')
    expect(service.resolve('a', 'child')).toBe(s1)
    await update('child', { sessionUpdate: 'tool_call_update', toolCallId: 'c2', title: 'cat' })
    const state = service.state(s1)!
    expect(toolIds(state)).toEqual(['subagent:child', 'c1', 'c2'])
    // Marked as the subagent's, as a call routed after the answer is; the child's state stays its own.
    expect(state.entries.find((e) => e.kind === 'tool_call' && (e as ToolCallEntry).toolCallId === 'c1')).toMatchObject({ subagent: expect.stringContaining('Helper') })
    expect(state.turn.state).toBe('idle')
  })

  it('what the session and its subagent sent before the answer applies in the order it came, as it would have after the answer', async () => {
    const { service, early, answer } = await asking()
    // Before the announcement: not routed (after the answer it would have been dropped too).
    await early('child', { sessionUpdate: 'tool_call_update', toolCallId: 'c0', title: 'too soon' })
    await early('s1', { sessionUpdate: 'subagent_update', sessionId: 'child', title: 'Helper' })
    await early('child', { sessionUpdate: 'tool_call_update', toolCallId: 'c1', title: 'ls' })
    await early('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'p1', title: 'own call' })
    await early('child', { sessionUpdate: 'subagent_update', sessionId: 'grandchild', title: 'Helper of the helper' })
    await early('grandchild', { sessionUpdate: 'tool_call_update', toolCallId: 'g1', title: 'cat' })
    await early('child', { sessionUpdate: 'tool_call_update', toolCallId: 'c2', title: 'grep' })
    const s1 = await answer('s1')
    expect(toolIds(service.state(s1)!)).toEqual(['subagent:child', 'c1', 'p1', 'g1', 'c2'])
  })

  it('the session’s own updates sent before the answer apply (available commands, a title)', async () => {
    const { service, early, answer } = await asking()
    await early('s1', { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'review', description: 'Review' }] })
    await early('s1', { sessionUpdate: 'session_info_update', title: 'Early title' })
    const s1 = await answer('s1')
    expect(service.state(s1)!.availableCommands).toMatchObject([{ name: 'review' }])
    expect(service.state(s1)!.title).toBe('Early title')
  })

  it('a session/new that fails drops what was held for it: a later session the agent gives the same id starts clean', async () => {
    const peer = await asking()
    await peer.early('s1', { sessionUpdate: 'subagent_update', sessionId: 'child', title: 'Helper' })
    await peer.early('s1', { sessionUpdate: 'session_info_update', title: 'Held' })
    expect(await peer.refuse()).toMatchObject({ ok: false })
    const s1 = await peer.open('s1')
    expect(peer.service.state(s1)!.title).toBeNull()
    expect(toolIds(peer.service.state(s1)!)).toEqual([])
    expect(peer.service.resolve('a', 'child')).toBeUndefined()
  })
})
