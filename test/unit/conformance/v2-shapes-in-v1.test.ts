/**
 * Liberal in what Bosun accepts: a v1 session applies the v2 update kinds that mean the same in either version (whole
 * messages, streamed tool call content, plans by id), as newer v1 agents send them; before, each was a generic
 * "unknown update" row and its text or plan never showed. The v2 kinds whose v1 meaning differs stay unknown there.
 */
import { describe, expect, it } from 'vitest'
import { session, summary, text, tool, updates } from '../state/helpers'

const item = (t: string) => ({ type: 'content', content: text(t) })

describe('v2 shapes in a v1 session', () => {
  it('agent_message, agent_thought and user_message are upserts by messageId, and their chunks append', () => {
    let s = updates(
      session(1),
      { sessionUpdate: 'user_message', messageId: 'u1', content: [text('Hi')] },
      { sessionUpdate: 'agent_thought', messageId: 't1', content: [text('Thinking')] },
      { sessionUpdate: 'agent_message', messageId: 'a1', content: [text('A')] },
      { sessionUpdate: 'agent_message_chunk', messageId: 'a1', content: text('B') },
    )
    expect(summary(s.entries)).toEqual(['user_message:Hi', 'agent_thought:Thinking', 'agent_message:AB'])
    s = updates(s, { sessionUpdate: 'agent_message', messageId: 'a1', content: [text('C')] })
    expect(summary(s.entries)).toEqual(['user_message:Hi', 'agent_thought:Thinking', 'agent_message:C'])
  })

  it('tool_call_content_chunk creates or appends to the tool call; the next chunk without an id is a new message', () => {
    let s = updates(
      session(1),
      { sessionUpdate: 'agent_message_chunk', content: text('Reading') },
      { sessionUpdate: 'tool_call', toolCallId: 't', title: 'Read', status: 'in_progress' },
      { sessionUpdate: 'agent_message_chunk', content: text('Still reading') },
      { sessionUpdate: 'tool_call_content_chunk', toolCallId: 't', content: item('x') },
      { sessionUpdate: 'tool_call_content_chunk', toolCallId: 't', content: item('y') },
      { sessionUpdate: 'agent_message_chunk', content: text('Done') },
    )
    expect(tool(s, 't')).toMatchObject({ title: 'Read', content: [item('x'), item('y')] })
    expect(summary(s.entries)).toEqual(['agent_message:Reading', 'tool_call:t', 'agent_message:Still reading', 'agent_message:Done'])
    s = updates(s, { sessionUpdate: 'tool_call_content_chunk', toolCallId: 'new', content: item('z') })
    expect(tool(s, 'new').content).toEqual([item('z')])
  })

  it('plan_update keeps its plan beside the v1 plan, and replaces it by planId', () => {
    const entry = (content: string) => ({ content, priority: 'high', status: 'pending' })
    let s = updates(
      session(1),
      { sessionUpdate: 'plan', entries: [entry('v1 step')] },
      { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p', entries: [entry('one'), entry('two')] } },
    )
    expect(s.plans.map((p) => [p.planId, p.entries.map((e) => e.content)])).toEqual([
      ['', ['v1 step']],
      ['p', ['one', 'two']],
    ])
    s = updates(s, { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p', entries: [entry('three')] } })
    expect(s.plans.map((p) => p.entries.map((e) => e.content))).toEqual([['v1 step'], ['three']])
    expect(s.entries).toEqual([])
  })

  it('state_update (a v1 turn ends at its answer), agent terminals (a v1 session’s are Bosun’s) and subagents stay unknown', () => {
    const s = updates(
      session(1),
      { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' },
      { sessionUpdate: 'terminal_update', terminalId: 'term', output: { data: 'aGk=' } },
      { sessionUpdate: 'terminal_output_chunk', terminalId: 'term', data: 'aGk=' },
      { sessionUpdate: 'subagent_update', sessionId: 'child', title: 'Child' },
    )
    expect(summary(s.entries)).toEqual(['unknown:state_update', 'unknown:terminal_update', 'unknown:terminal_output_chunk', 'unknown:subagent_update'])
    expect(s.terminals).toEqual({})
    expect(s.turn.completedTurns).toBe(0)
  })
})
