/**
 * Replays recorded claude-agent-acp sessions (test/fixtures/transcripts, see its README) through the reducer,
 * the way Bosun's main process turns the wire into actions.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { applyActions } from '../../../common/session/reducer'
import type { PermissionRequestView, SessionAction, SessionState } from '../../../common/session/types'
import { deepFreeze, messages, session, summary, tool } from './helpers'

type Message = { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown> }

const dir = join(__dirname, '../../fixtures/transcripts')
const load = (name: string): Message[] =>
  readFileSync(join(dir, name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Message)

/** The actions main would dispatch for a transcript; each inner array is one batch. */
function toBatches(transcript: Message[], version: 1 | 2): SessionAction[][] {
  const batches: SessionAction[][] = []
  const prompt: SessionAction[] = [{ type: 'local_prompt', content: [{ type: 'text', text: 'prompt 1' }] }, { type: 'turn_started' }]
  // v1 recordings hold no session/new response: the prompt goes out first.
  if (version === 1) batches.push(prompt)
  for (const message of transcript) {
    if (message.method === 'session/update') {
      batches.push([{ type: 'updates', updates: [message.params!.update as { sessionUpdate: string }] }])
    } else if (message.method === 'session/request_permission') {
      const params = message.params!
      const subject = params.subject as { type: string; toolCall: Record<string, unknown> } | undefined
      const toolCall = (version === 2 ? subject?.toolCall : params.toolCall) as Record<string, unknown>
      const toolCallId = toolCall.toolCallId as string
      const requestId = `perm-${message.id}`
      const request: PermissionRequestView = {
        requestId,
        agentId: 'claude',
        agentName: 'Claude Agent',
        sessionId: 's1',
        title: (params.title as string | undefined) ?? (toolCall.title as string | undefined) ?? 'Permission requested',
        subject: { type: 'tool_call', toolCallId },
        toolCallId,
        options: params.options as PermissionRequestView['options'],
        createdAt: 1,
        status: 'pending',
      }
      batches.push([{ type: 'permission_requested', request, toolCallPatch: toolCall }])
      // The recording harness answered allow_once.
      batches.push([{ type: 'permission_resolved', requestId, status: 'answered', resolution: { by: 'person', optionId: 'allow-once', at: 2 } }])
    } else if (message.id === 2 && message.result) {
      const result = message.result as { configOptions?: unknown[]; modes?: unknown; availableCommands?: unknown[] }
      batches.push([{ type: 'session_configured', configOptions: result.configOptions, modes: result.modes, availableCommands: result.availableCommands }])
      batches.push(prompt)
    } else if (message.id === 3 && message.result) {
      // v2: the answer names the message the prompt was inserted as (F6).
      if (typeof message.result.messageId === 'string') batches.push([{ type: 'prompt_inserted', messageId: message.result.messageId }])
      batches.push([{ type: 'turn_ended', stopReason: (message.result.stopReason as string | undefined) ?? null }])
    }
  }
  return batches
}

function replay(name: string, version: 1 | 2): SessionState {
  const batches = deepFreeze(toBatches(load(name), version))
  const perBatch = batches.reduce((s, batch) => applyActions(s, batch), session(version))
  // Batching must not change the outcome: the same actions in one call give the same state.
  const oneBatch = applyActions(session(version), batches.flat())
  expect({ ...oneBatch, seq: 0 }).toEqual({ ...perBatch, seq: 0 })
  return perBatch
}

describe('recorded claude-agent-acp transcripts', () => {
  it('v2 Edit with permission: one user bubble, one tool row with the patched fields, turn completed once', () => {
    const s = replay('claude-agent-acp.v2.edit-with-permission.jsonl', 2)
    expect(summary(s.entries)).toEqual(['user_message:prompt 1', 'tool_call:toolu_edit'])
    expect(messages(s)[0]).toMatchObject({ local: true, messageId: '<id-1>' })
    expect(s.pendingEcho).toBeNull()

    const edit = tool(s, 'toolu_edit')
    expect(edit).toMatchObject({
      title: 'Edit src/app.ts',
      name: 'Edit',
      toolKind: 'edit',
      status: 'completed',
      locations: [{ line: 1, path: '<cwd>/src/app.ts' }],
      rawInput: { file_path: '<cwd>/src/app.ts', new_string: 'const value = 2;', old_string: 'const value = 1;' },
      rawOutput: 'The file <cwd>/src/app.ts has been updated successfully.',
      permissionIds: ['perm-0'],
      decidedBy: { kind: 'person', label: 'Yes', optionKind: 'allow_once' },
    })
    // The v2 diff came only with the permission's tool call patch, and later updates did not touch content.
    expect(edit.content).toEqual([
      expect.objectContaining({ type: 'diff', changes: [{ fileType: 'text', operation: 'modify', path: '<cwd>/src/app.ts' }] }),
    ])
    expect(Object.keys(edit._meta ?? {})).toEqual(['claudeCode'])
    expect((edit._meta!.claudeCode as Record<string, unknown>).toolResponse).toBeDefined()

    expect(s.permissions['perm-0']).toMatchObject({ title: 'Edit src/app.ts', status: 'answered' })
    expect(s.turn).toMatchObject({ state: 'idle', stopReason: 'end_turn', completedTurns: 1 })
    expect(s.configOptions.map((o) => [o.id, o.category, o.currentValue])).toEqual([
      ['mode', 'mode', 'default'],
      ['model', 'model', 'claude-sonnet-4-6'],
    ])
    expect(s.availableCommands).toEqual([expect.objectContaining({ name: 'mcp', hint: '[reconnect|enable|disable [<server>|all]]' })])
    expect(s.usage).toEqual({ used: 2, size: 200000, cost: { amount: 0, currency: 'USD' }, extra: { _meta: { '_claude/model': 'claude-sonnet-4-6' } } })
  })

  it('v2 Bash: terminal snapshot decoded, exit status kept, tool completed, agent reply merged', () => {
    const s = replay('claude-agent-acp.v2.bash-foreground.jsonl', 2)
    expect(summary(s.entries)).toEqual(['user_message:prompt 1', 'tool_call:toolu_bash', 'agent_message:Done.'])
    expect(tool(s, 'toolu_bash')).toMatchObject({
      title: 'ls -la',
      toolKind: 'execute',
      status: 'completed',
      content: [{ terminalId: 'toolu_bash', type: 'terminal' }],
      rawInput: { command: 'ls -la', description: 'List files' },
    })
    expect(s.terminals.toolu_bash).toEqual({ terminalId: 'toolu_bash', command: 'ls -la', output: 'a.ts\nb.ts', exitStatus: { exitCode: 0 } })
    expect(s.turn).toMatchObject({ state: 'idle', stopReason: 'end_turn', completedTurns: 1 })
  })

  it('v1 Edit with permission: tool_call then updates, permission patch, final diff, prompt response ends the turn', () => {
    const s = replay('claude-agent-acp.v1.edit-with-permission.jsonl', 1)
    expect(summary(s.entries)).toEqual(['user_message:prompt 1', 'tool_call:toolu_edit'])
    expect(tool(s, 'toolu_edit')).toMatchObject({
      title: 'Edit src/app.ts',
      toolKind: 'edit',
      status: 'completed',
      content: [{ newText: 'line 1\nconst value = 2;\nline 3', oldText: 'line 1\nconst value = 1;\nline 3', path: '<cwd>/src/app.ts', type: 'diff' }],
      locations: [{ line: 1, path: '<cwd>/src/app.ts' }],
      rawInput: { file_path: '<cwd>/src/app.ts' },
      permissionIds: ['perm-0'],
    })
    expect(s.turn).toMatchObject({ state: 'idle', stopReason: 'end_turn', completedTurns: 1 })
    expect(s.availableCommands).toEqual([expect.objectContaining({ name: 'mcp', hint: 'reconnect [server]' })])
  })
})
