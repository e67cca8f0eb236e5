import { describe, expect, it } from 'vitest'
import { applyActions, createSessionState } from '../../../common/session/reducer'

describe('client_terminal action', () => {
  it('shows a Bosun-run terminal in a v1 session (where agent-sent terminal_update stays unknown)', () => {
    const base = createSessionState({ sessionId: 's', acpSessionId: 's', agentId: 'a', protocolVersion: 1, cwd: '/p' })
    const state = applyActions(base, [
      { type: 'client_terminal', update: { sessionUpdate: 'terminal_update', terminalId: 't1', command: 'ls', cwd: '/p' } },
      { type: 'client_terminal', update: { sessionUpdate: 'terminal_output_chunk', terminalId: 't1', data: Buffer.from('héllo\r\n').toString('base64') } },
      { type: 'client_terminal', update: { sessionUpdate: 'terminal_update', terminalId: 't1', exitStatus: { exitCode: 0, signal: null } } },
      { type: 'updates', updates: [{ sessionUpdate: 'terminal_update', terminalId: 'forged', command: 'x' }] },
    ])
    expect(state.terminals.t1).toMatchObject({ command: 'ls', output: 'héllo\r\n', exitStatus: { exitCode: 0, signal: null } })
    expect(state.terminals.forged).toBeUndefined()
    expect(state.entries.at(-1)).toMatchObject({ kind: 'unknown', sessionUpdate: 'terminal_update' })
  })
})
