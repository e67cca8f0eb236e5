import { expect } from 'vitest'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import type { Entry, MessageEntry, SessionAction, SessionState, ToolCallEntry } from '../../../common/session/types'

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

export function session(protocolVersion: 1 | 2 = 1): SessionState {
  return createSessionState({ sessionId: 's1', agentId: 'a1', protocolVersion, cwd: '/work' })
}

/**
 * Applies actions the way every test should: the input state and actions are deep-frozen, and the input must
 * serialise identically afterwards (the reducer never mutates what it is given).
 */
export function apply(state: SessionState, ...actions: SessionAction[]): SessionState {
  const before = JSON.stringify(state)
  deepFreeze(state)
  deepFreeze(actions)
  const next = applyActions(state, actions)
  expect(JSON.stringify(state)).toBe(before)
  expect(next.seq).toBe(state.seq + 1)
  return next
}

/** Applies `session/update` payloads as one `updates` action. */
export function updates(state: SessionState, ...list: Record<string, unknown>[]): SessionState {
  return apply(state, { type: 'updates', updates: list as { sessionUpdate: string }[] })
}

/** Applies each update in its own batch (the per-batch copy-on-write path). */
export function eachUpdate(state: SessionState, ...list: Record<string, unknown>[]): SessionState {
  return list.reduce((s, u) => updates(s, u), state)
}

export const text = (t: string) => ({ type: 'text', text: t })

export function messages(state: SessionState): MessageEntry[] {
  return state.entries.filter((e): e is MessageEntry => e.kind === 'user_message' || e.kind === 'agent_message' || e.kind === 'agent_thought')
}

export function tool(state: SessionState, toolCallId: string): ToolCallEntry {
  const found = state.entries.filter((e): e is ToolCallEntry => e.kind === 'tool_call' && e.toolCallId === toolCallId)
  expect(found).toHaveLength(1)
  return found[0]!
}

/** A compact view of entries for table assertions: kind plus message text or tool id. */
export function summary(entries: readonly Entry[]): string[] {
  return entries.map((e) => {
    switch (e.kind) {
      case 'user_message':
      case 'agent_message':
      case 'agent_thought':
        return `${e.kind}:${e.content.map((b) => ('text' in b && typeof b.text === 'string' ? b.text : `[${b.type}]`)).join('|')}`
      case 'tool_call':
        return `tool_call:${e.toolCallId}`
      case 'unknown':
        return `unknown:${e.sessionUpdate}`
      case 'permission':
        return `permission:${e.requestId}`
      case 'elicitation':
        return `elicitation:${e.elicitationId}`
      case 'compaction':
        return `compaction:${e.compactionId}`
      case 'turn_error':
        return `turn_error:${e.message}`
      case 'turn_stop':
        return `turn_stop:${e.reason}`
    }
  })
}

/** A v1 command whose terminal the agent runs itself and shows through the `_meta` terminal extension, as codex-acp sends it. */
export const agentTerminalCall = {
  sessionUpdate: 'tool_call',
  toolCallId: 'call_1',
  kind: 'execute',
  title: 'ls -la',
  status: 'in_progress',
  content: [{ type: 'terminal', terminalId: 'call_1' }],
  rawInput: { command: 'ls -la', cwd: '/w' },
  _meta: { terminal_info: { terminal_id: 'call_1', cwd: '/w' } },
}
