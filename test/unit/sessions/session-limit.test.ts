/**
 * A session's limit on what it takes from its agent (`maxSessionBytes`): past it the turn is cancelled,
 * updates that replace what the session shows still apply, anything that would grow it is dropped, and
 * the session says why it cannot go on.
 */
import { describe, expect, it } from 'vitest'
import type { AcpClientConnection, SessionUpdateNotification } from '../../../main/acp/types'
import { Emitter } from '../../../main/base/event'
import { createLogger } from '../../../main/base/log'
import { ok } from '../../../main/base/errors'
import { SessionsService } from '../../../main/sessions/sessions-service'
import { RecordingSink } from '../../support/recording-sink'

function fakeAgent() {
  const updates = new Emitter<SessionUpdateNotification>()
  const cancels: string[] = []
  let endTurn: (stopReason: string) => void = () => undefined
  const connection = {
    newSession: async () => ({ sessionId: 's1' }),
    prompt: () => new Promise<{ stopReason: string }>((resolve) => (endTurn = (stopReason) => resolve({ stopReason }))),
    cancel: (id: string) => cancels.push(id),
    onDidReceiveUpdate: updates.event,
    onDidClose: new Emitter<never>().event,
  } as unknown as AcpClientConnection
  return { connection, cancels, send: (update: Record<string, unknown>) => updates.fire({ sessionId: 's1', update } as SessionUpdateNotification), end: (reason: string) => endTurn(reason) }
}

/** A session on the fake agent with `maxSessionBytes`, and its first turn running. */
async function promptedSession(maxSessionBytes: number) {
  const agent = fakeAgent()
  const service = new SessionsService({ connect: async () => ok({ connection: agent.connection, protocolVersion: 1 as const }) }, new RecordingSink(), createLogger('test', () => undefined), { maxSessionBytes })
  service.attachConnection('a', agent.connection)
  const created = await service.newSession('a', '/w')
  if (!created.ok) throw new Error(created.error.message)
  const { sessionId } = created.value
  return { agent, service, sessionId, turn: service.prompt(sessionId, [{ type: 'text', text: 'go' }]) }
}

const chunk = (text: string) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } })

describe('a session past its limit', () => {
  it('cancels the turn, keeps what came before, drops what would grow it, and refuses new prompts', async () => {
    const { agent, service, sessionId, turn } = await promptedSession(64 * 1024)
    const text = 'x'.repeat(1024)
    for (let i = 0; i < 100; i++) agent.send(chunk(text))
    // The limit is checked as batches apply (each ~128 KiB at most, or when state is read).
    service.state(sessionId)
    expect(agent.cancels).toEqual(['s1'])
    agent.send(chunk('after the limit'))
    agent.send({ sessionUpdate: 'tool_call', toolCallId: 'late', title: 'Late', status: 'pending' })
    agent.send({ sessionUpdate: 'usage_update', used: 5, size: 100 })
    agent.end('cancelled')
    expect(await turn).toEqual({ ok: true, value: { stopReason: 'cancelled' } })
    const state = service.state(sessionId)!
    const kept = JSON.stringify(state.entries)
    expect(kept).toContain(text)
    expect(kept).not.toContain('after the limit')
    expect(state.entries.some((e) => e.kind === 'tool_call')).toBe(false)
    expect(state.usage).toMatchObject({ used: 5, size: 100 })
    expect(state.cannotContinue?.reason).toMatch(/reached Bosun's limit of 64 KiB of agent output/)
    expect(state.notices.map((n) => n.title)).toEqual([expect.stringMatching(/^This session reached its limit/)])
    const again = await service.prompt(sessionId, [{ type: 'text', text: 'more' }])
    expect(again.ok).toBe(false)
    service.dispose()
  })

  it('counts the output of the terminals Bosun runs for the agent, and shows none of it once full', async () => {
    const { agent, service, sessionId, turn } = await promptedSession(64 * 1024)
    const output = (text: string) => ({ type: 'client_terminal' as const, update: { sessionUpdate: 'terminal_output_chunk' as const, terminalId: 't1', data: Buffer.from(text).toString('base64') } })
    service.push(sessionId, { type: 'client_terminal', update: { sessionUpdate: 'terminal_update', terminalId: 't1', command: 'yes' } })
    for (let i = 0; i < 80; i++) service.push(sessionId, output('y\n'.repeat(512)))
    service.state(sessionId)
    expect(agent.cancels).toEqual(['s1'])
    service.push(sessionId, output('after the limit'))
    agent.end('cancelled')
    await turn
    const state = service.state(sessionId)!
    expect(state.cannotContinue?.reason).toMatch(/limit of 64 KiB/)
    expect(JSON.stringify(state)).toContain('y\\ny\\ny')
    expect(JSON.stringify(state)).not.toContain('after the limit')
    service.dispose()
  })

  it('keeps no more of what Bosun did for the agent once full: the reads and writes of a tool call are not added to its card', async () => {
    const { agent, service, sessionId, turn } = await promptedSession(64 * 1024)
    agent.send({ sessionUpdate: 'tool_call', toolCallId: 'edit', title: 'Edit', kind: 'edit', status: 'in_progress' })
    const read = (line: number) => ({ type: 'file_read' as const, toolCallId: 'edit', filesRead: [{ path: '/w/a.ts', line, limit: 5, lines: 5, times: 1 }] })
    const written = (text: string) => ({ type: 'file_written' as const, toolCallId: 'edit', writtenDiffs: [{ type: 'diff' as const, path: '/w/a.ts', oldText: null, newText: text }] })
    service.push(sessionId, read(1))
    service.push(sessionId, written('before the limit'))
    const card = () => service.state(sessionId)!.entries.find((e) => e.kind === 'tool_call') as { filesRead?: { line?: number }[]; writtenDiffs?: unknown[] } | undefined
    expect(card()?.filesRead).toHaveLength(1)
    for (let i = 0; i < 100; i++) agent.send(chunk('x'.repeat(1024)))
    service.state(sessionId)
    expect(agent.cancels).toEqual(['s1'])
    service.push(sessionId, read(40))
    service.push(sessionId, written('after the limit'))
    agent.end('cancelled')
    await turn
    expect(card()?.filesRead?.map((r) => r.line)).toEqual([1])
    expect(JSON.stringify(card()?.writtenDiffs)).toContain('before the limit')
    expect(JSON.stringify(service.state(sessionId))).not.toContain('after the limit')
    service.dispose()
  })

  it('counts what only replaces what the session holds by what it adds: a tool call’s content sent whole again and again, a plan, a terminal’s output past its kept tail', async () => {
    // 6 MiB: above what one terminal counts at most (4 MiB: its kept 2 Mi characters, in base64), far below what arrives (26 MiB).
    const { agent, service, sessionId, turn } = await promptedSession(6 * 1024 * 1024)
    const content = (text: string) => [{ type: 'content', content: { type: 'text', text } }]
    const output = 'a line of test output\n'.repeat(400)
    agent.send({ sessionUpdate: 'tool_call', toolCallId: 'run', title: 'npm test', kind: 'execute', status: 'in_progress' })
    // An agent streaming a command's output as the call's whole content: 9 KiB, 1,000 times (9 MiB arrive; one copy is held).
    for (let i = 0; i < 1_000; i++) agent.send({ sessionUpdate: 'tool_call_update', toolCallId: 'run', content: content(output + String(i)) })
    const plan = (i: number) => ({ sessionUpdate: 'plan', entries: Array.from({ length: 40 }, (_, n) => ({ content: `step ${n} of the work, revised ${i} times`, priority: 'medium', status: 'pending' })) })
    for (let i = 0; i < 3_000; i++) agent.send(plan(i))
    // A terminal Bosun runs for the agent prints 8 MiB: the session keeps its newest 2 Mi characters.
    const block = Buffer.from('y\n'.repeat(32 * 1024)).toString('base64')
    service.push(sessionId, { type: 'client_terminal', update: { sessionUpdate: 'terminal_update', terminalId: 't1', command: 'yes' } })
    for (let i = 0; i < 128; i++) service.push(sessionId, { type: 'client_terminal', update: { sessionUpdate: 'terminal_output_chunk', terminalId: 't1', data: block } })
    service.state(sessionId)
    expect(agent.cancels).toEqual([])
    agent.send({ sessionUpdate: 'tool_call_update', toolCallId: 'run', status: 'completed' })
    agent.end('end_turn')
    await turn
    const state = service.state(sessionId)!
    expect(state.cannotContinue ?? null).toBeNull()
    const call = state.entries.find((e) => e.kind === 'tool_call') as { content: { type: string; content?: { text?: string } }[] }
    expect(call.content.map((c) => c.content?.text)).toEqual([`${output}999`])
    service.dispose()
  })

  it('still counts what replaces and grows: a tool call whose content the agent sends whole, longer each time, fills the session', async () => {
    const { agent, service, sessionId, turn } = await promptedSession(256 * 1024)
    agent.send({ sessionUpdate: 'tool_call', toolCallId: 'run', title: 'npm test', kind: 'execute', status: 'in_progress' })
    const line = 'a line of test output\n'
    for (let i = 1; i <= 400; i++) agent.send({ sessionUpdate: 'tool_call_update', toolCallId: 'run', content: [{ type: 'content', content: { type: 'text', text: line.repeat(i * 32) } }] })
    service.state(sessionId)
    expect(agent.cancels).toEqual(['s1'])
    agent.end('cancelled')
    await turn
    expect(service.state(sessionId)!.cannotContinue?.reason).toMatch(/limit of 256 KiB/)
    service.dispose()
  })

  it('leaves a session under its limit alone', async () => {
    const { agent, service, sessionId, turn } = await promptedSession(1024 * 1024)
    for (let i = 0; i < 100; i++) agent.send(chunk('x'.repeat(1024)))
    service.state(sessionId)
    agent.end('end_turn')
    await turn
    expect(agent.cancels).toEqual([])
    expect(service.state(sessionId)!.cannotContinue ?? null).toBeNull()
    service.dispose()
  })

  it('counts what it keeps of a tool call’s _meta: a result the agent copies there on every report (claude-agent-acp v1) is not kept, and not counted', async () => {
    const { agent, service, sessionId, turn } = await promptedSession(1024 * 1024)
    const result = 'r'.repeat(20 * 1024)
    for (let i = 0; i < 100; i++) {
      agent.send({ sessionUpdate: 'tool_call_update', toolCallId: `t${i % 5}`, status: 'in_progress', _meta: { claudeCode: { toolResponse: result }, small: i } })
    }
    service.state(sessionId)
    agent.end('end_turn')
    await turn
    // 100 reports of 20 KiB each arrived (about 2 MiB): none of it is kept, so the 1 MiB session is far from full.
    expect(agent.cancels).toEqual([])
    const state = service.state(sessionId)!
    expect(state.cannotContinue ?? null).toBeNull()
    expect(state.entries.filter((e) => e.kind === 'tool_call').map((e) => (e as { _meta?: unknown })._meta)).toEqual(Array.from({ length: 5 }, (_, i) => ({ small: 95 + i })))
    service.dispose()
  })

  it('cuts only what it does not keep: a command’s output the agent streams in _meta (terminal_output, over 8 KiB a report) still reaches its terminal', async () => {
    const { agent, service, sessionId, turn } = await promptedSession(16 * 1024 * 1024)
    const lines = 'a line of build output\n'.repeat(1000)
    agent.send({ sessionUpdate: 'tool_call', toolCallId: 'run', title: 'npm install', kind: 'execute', status: 'in_progress', rawInput: { command: 'npm install' }, _meta: { terminal_info: { terminal_id: 'run' } } })
    agent.send({ sessionUpdate: 'tool_call_update', toolCallId: 'run', _meta: { terminal_output: { terminal_id: 'run', data: lines } } })
    agent.send({ sessionUpdate: 'tool_call_update', toolCallId: 'run', status: 'completed', _meta: { terminal_exit: { terminal_id: 'run', exit_code: 0 } } })
    agent.end('end_turn')
    await turn
    const terminal = service.state(sessionId)!.terminals.run
    expect(terminal?.output).toBe(lines)
    expect(terminal?.exitStatus).toEqual({ exitCode: 0, signal: null })
    service.dispose()
  })

  it('keeps the end of a command’s output that comes in one report over the bound on a string (codex-acp: a megabyte at once), marking where it starts', async () => {
    const { agent, service, sessionId, turn } = await promptedSession(16 * 1024 * 1024)
    let lines = ''
    for (let n = 18_000; lines.length <= 1024 * 1024 + 30; n++) lines += `row ${n} of a very long output\n`
    agent.send({ sessionUpdate: 'tool_call', toolCallId: 'call_1', title: 'seq', kind: 'execute', status: 'in_progress', rawInput: { command: 'seq' }, _meta: { terminal_info: { terminal_id: 'call_1' } } })
    agent.send({ sessionUpdate: 'tool_call_update', toolCallId: 'call_1', _meta: { terminal_output: { terminal_id: 'call_1', data: lines } } })
    agent.send({ sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'completed', _meta: { terminal_exit: { terminal_id: 'call_1', exit_code: 0 } } })
    agent.end('end_turn')
    await turn
    const output = service.state(sessionId)!.terminals.call_1!.output
    expect(output.endsWith(lines.slice(-100_000))).toBe(true)
    expect(output.length).toBeLessThanOrEqual(1024 * 1024)
    expect(output).toMatch(/^…\[truncated by Bosun\] \(\d+ earlier characters\)\nrow \d+ of a very long output\n/)
    service.dispose()
  })
})
