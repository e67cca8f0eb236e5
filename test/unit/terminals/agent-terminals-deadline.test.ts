/**
 * An accepted `terminal/cancel` whose exit status never comes: after main's deadline the terminal is no longer
 * shown as stopping, Cancel is offered again, and an exit that came in time, a second cancel or dispose leave
 * no stray timer. Real reducer, a fake connection, time moved by hand.
 */
import { describe, expect, it } from 'vitest'
import { AgentTerminals } from '../../../main/terminals/agent-terminals'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import { canCancelTerminal } from '../../../common/session/background'
import type { AcpClientConnection } from '../../../main/acp/types'
import type { SessionAction, SessionState } from '../../../common/session/types'
import { ManualScheduler } from '../agents/manual-scheduler'

function setup() {
  let state: SessionState = createSessionState({ sessionId: 's', agentId: 'a', protocolVersion: 2, cwd: '/w' })
  const push = (action: SessionAction) => {
    state = applyActions(state, [action])
  }
  push({ type: 'updates', updates: [{ sessionUpdate: 'terminal_update', terminalId: 'dev', command: 'npm run dev', capabilities: { cancel: {} } } as never] })
  const sent: unknown[] = []
  const connection = { cancelTerminal: async (acpSessionId: string, terminalId: string) => void sent.push({ acpSessionId, terminalId }) } as unknown as AcpClientConnection
  const scheduler = new ManualScheduler()
  const terminals = new AgentTerminals({ state: () => state, connectionOf: () => ({ connection, acpSessionId: 'acp-s' }), push: (_id, action) => push(action) }, undefined, scheduler, 10_000)
  const exit = () => push({ type: 'updates', updates: [{ sessionUpdate: 'terminal_update', terminalId: 'dev', exitStatus: { signal: 'SIGTERM' }, capabilities: null } as never] })
  return { terminals, scheduler, sent, exit, dev: () => state.terminals.dev!, push }
}

describe('AgentTerminals: the deadline for an accepted cancel', () => {
  it('an agent that accepts and never reports the exit: stopping ends at the deadline, Cancel is offered again', async () => {
    const t = setup()
    expect((await t.terminals.cancel('s', 'dev')).ok).toBe(true)
    expect(t.dev().cancelRequested).toBe(true)
    expect(t.scheduler.pending).toEqual([10_000])
    t.scheduler.advance(9_999)
    expect(t.dev().cancelRequested).toBe(true)
    t.scheduler.advance(1)
    expect(t.dev()).toMatchObject({ cancelUnconfirmed: true })
    expect(t.dev().cancelRequested).toBeUndefined()
    expect(canCancelTerminal(t.dev())).toBe(true)
    // Asked again: stopping again, one deadline, and the exit that finally comes wins.
    expect((await t.terminals.cancel('s', 'dev')).ok).toBe(true)
    expect(t.sent).toHaveLength(2)
    expect(t.dev()).toMatchObject({ cancelRequested: true })
    expect(t.dev().cancelUnconfirmed).toBeUndefined()
    expect(t.scheduler.pending).toEqual([10_000])
    t.exit()
    t.scheduler.advance(10_000)
    expect(t.dev()).toMatchObject({ cancelRequested: true, exitStatus: { signal: 'SIGTERM' } })
    expect(t.dev().cancelUnconfirmed).toBeUndefined()
  })

  it('the reducer ignores a late deadline once the exit arrived; dispose cancels what waits', async () => {
    const t = setup()
    await t.terminals.cancel('s', 'dev')
    t.exit()
    t.push({ type: 'terminal_cancel_unconfirmed', terminalId: 'dev' })
    expect(t.dev().cancelUnconfirmed).toBeUndefined()
    expect(t.dev().cancelRequested).toBe(true)
    t.terminals.dispose()
    expect(t.scheduler.pending).toEqual([])
  })
})
