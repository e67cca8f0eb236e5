/**
 * However a session closes (the close button, deleting it from the history while it is open, an open from the agent's
 * list that failed), what main kept for it goes with it: its auto-approve, its session-only rules, its requests. An
 * agent started again numbers its sessions from the start, so a later session may take the closed one's id.
 */
import { describe, expect, it } from 'vitest'
import { must, servicesPerTest } from '../../support/services'

const startServices = servicesPerTest()

describe('a session closed by deleting it from the history', () => {
  it('leaves no auto-approve behind: a later session the agent gives the same id asks the person', async () => {
    const { handlers, workspace, sink } = await startServices([{ id: 'agent', name: 'Agent', scenario: 'basic' }])
    const first = must(await handlers.newSession({ agentId: 'agent', cwd: workspace })).sessionId
    // The browser host's owner confirms turning it on.
    must(await handlers.setAutoApprove({ sessionId: first, value: true }))
    must(await handlers.historyDelete({ sessionId: first }))
    await sink.next('sessionRemoved', (e) => e.sessionId === first)

    must(await handlers.restartAgent({ agentId: 'agent' }))
    const second = must(await handlers.newSession({ agentId: 'agent', cwd: workspace })).sessionId
    expect(second).toBe(first)
    expect(must(await handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === second)?.autoApprove).toBe(false)

    const turn = handlers.prompt({ sessionId: second, prompt: [{ type: 'text', text: 'permission' }] })
    await sink.next('sessionActions', (e) => e.sessionId === second && e.actions.some((a) => a.type === 'permission_requested'))
    const pending = must(await handlers.listPendingPermissions(undefined))
    expect(pending.map((p) => p.sessionId)).toEqual([second])
    must(await handlers.respondPermission({ requestId: pending[0]!.requestId, optionId: 'reject-once' }))
    must(await turn)
  })
})
