import { describe, expect, it } from 'vitest'
import { SessionGrowth, TERMINAL_OUTPUT_COUNTED_BYTES, TRACKED_BYTES } from '../../../main/sessions/session-growth'
import { estimateJsonBytes } from '../../../main/sessions/estimate-json'

/** What `update` counts, with the batcher's estimate of it. */
const count = (growth: SessionGrowth, update: Record<string, unknown>) => growth.update(update, estimateJsonBytes(update))

describe('SessionGrowth', () => {
  it('counts a replacing field by how far it outgrows the largest before it, per tool call and per field', () => {
    const growth = new SessionGrowth()
    const text = 'o'.repeat(4 * TRACKED_BYTES)
    const first = count(growth, { sessionUpdate: 'tool_call_update', toolCallId: 'a', content: [{ type: 'content', content: { type: 'text', text } }] })
    expect(first).toBeGreaterThan(text.length)
    // The same content again: only the update's own keys count.
    expect(count(growth, { sessionUpdate: 'tool_call_update', toolCallId: 'a', content: [{ type: 'content', content: { type: 'text', text } }] })).toBeLessThan(100)
    // 1,000 characters more: those count.
    const longer = count(growth, { sessionUpdate: 'tool_call_update', toolCallId: 'a', content: [{ type: 'content', content: { type: 'text', text: text + 'x'.repeat(1_000) } }] })
    expect(longer).toBeGreaterThanOrEqual(1_000)
    expect(longer).toBeLessThan(1_100)
    // Another field of the same call, and the same content on another call, are held besides it: they count whole.
    expect(count(growth, { sessionUpdate: 'tool_call_update', toolCallId: 'a', rawOutput: { output: text } })).toBeGreaterThan(text.length)
    expect(count(growth, { sessionUpdate: 'tool_call', toolCallId: 'b', content: [{ type: 'content', content: { type: 'text', text } }] })).toBeGreaterThan(text.length)
  })

  it('counts what adds whole: text, a field that merges (_meta), unknown kinds, small values', () => {
    const growth = new SessionGrowth()
    const big = 'z'.repeat(4 * TRACKED_BYTES)
    for (let i = 0; i < 3; i++) {
      expect(count(growth, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: big } })).toBeGreaterThan(big.length)
      expect(count(growth, { sessionUpdate: 'tool_call_update', toolCallId: 'a', _meta: { note: big } })).toBeGreaterThan(big.length)
      expect(count(growth, { sessionUpdate: '_vendor_log', text: big })).toBeGreaterThan(big.length)
      expect(count(growth, { sessionUpdate: 'plan', entries: [{ content: 'small', priority: 'low', status: 'pending' }] })).toBeGreaterThan(0)
    }
  })

  it('counts the kinds that say what the session is now by what they outgrow', () => {
    const growth = new SessionGrowth()
    const plan = (n: number) => ({ sessionUpdate: 'plan', entries: Array.from({ length: n }, (_, i) => ({ content: `step ${i} of the work to do`, priority: 'medium', status: 'pending' })) })
    const whole = count(growth, plan(50))
    expect(whole).toBeGreaterThan(TRACKED_BYTES)
    expect(count(growth, plan(50))).toBe(0)
    expect(count(growth, plan(30))).toBe(0)
    expect(count(growth, plan(60))).toBeGreaterThan(0)
  })

  it('counts a terminal’s output, in chunks of any size, up to what the session keeps of it', () => {
    const growth = new SessionGrowth()
    const chunk = { sessionUpdate: 'terminal_output_chunk', terminalId: 't', data: 'eQp5Cnk='.repeat(40) }
    const bytes = estimateJsonBytes(chunk)
    expect(bytes).toBeLessThan(TRACKED_BYTES)
    let counted = 0
    const chunks = Math.ceil((2 * TERMINAL_OUTPUT_COUNTED_BYTES) / bytes)
    for (let i = 0; i < chunks; i++) counted += growth.update(chunk, bytes)
    expect(counted).toBe(TERMINAL_OUTPUT_COUNTED_BYTES)
    // Bosun's own terminals the same, each on its own; another terminal counts from nothing.
    expect(growth.clientTerminal({ sessionUpdate: 'terminal_output_chunk', terminalId: 't' }, bytes)).toBe(0)
    expect(growth.clientTerminal({ sessionUpdate: 'terminal_output_chunk', terminalId: 'u' }, bytes)).toBe(bytes)
    expect(growth.clientTerminal({ sessionUpdate: 'terminal_update', terminalId: 't' }, 300)).toBe(300)
  })

  it('counts a card’s output sent in place of what it showed (a terminal that floods) with the terminal’s output', () => {
    const growth = new SessionGrowth()
    const snapshot = { sessionUpdate: 'terminal_update', terminalId: 't', output: { data: 'eQp5Cnk='.repeat(1_000) } }
    const bytes = estimateJsonBytes(snapshot)
    let counted = 0
    for (let i = 0; i < Math.ceil((2 * TERMINAL_OUTPUT_COUNTED_BYTES) / bytes); i++) counted += growth.clientTerminal(snapshot, bytes)
    expect(counted).toBe(TERMINAL_OUTPUT_COUNTED_BYTES)
    // The agent's own (v2) terminal the same.
    const agents = new SessionGrowth()
    counted = 0
    for (let i = 0; i < Math.ceil((2 * TERMINAL_OUTPUT_COUNTED_BYTES) / bytes); i++) counted += agents.update({ ...snapshot, terminalId: 'a' }, bytes)
    expect(counted).toBe(TERMINAL_OUTPUT_COUNTED_BYTES)
  })
})
