import { afterEach, describe, expect, it } from 'vitest'
import { createBosunServices } from '../../../main/app/create-services'
import type { BosunServices } from '../../../main/app/services'
import { applyActions } from '../../../renderer/state/session-reducer'
import type { SessionState, ToolCallEntry } from '../../../renderer/state/types'
import { createTestHome, type TestHome } from '../../support/bosun-home'
import { RecordingSink } from '../../support/recording-sink'

let services: BosunServices | undefined
let testHome: TestHome | undefined

afterEach(async () => {
  await services?.dispose()
  services = undefined
  testHome?.cleanup()
  testHome = undefined
})

async function start(v2: boolean) {
  testHome = createTestHome([{ id: 'scripted', name: 'Scripted', scenario: 'basic', v2 }])
  const sink = new RecordingSink()
  services = await createBosunServices({ home: testHome.home, host: 'web', appVersion: '0.0.0-test', events: sink })
  return { sink, handlers: services.handlers, workspace: testHome.workspace }
}

function must<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message)
  return result.value
}

describe.each([
  ['v1', false],
  ['v2', true],
])('composition root with the %s scripted agent', (_label, v2) => {
  it('lists the configured agent, runs a turn and streams batched actions the renderer can replay', async () => {
    const { sink, handlers, workspace } = await start(v2)
    const before = must(await handlers.getSnapshot(undefined))
    expect(before.agents).toEqual([expect.objectContaining({ agentId: 'scripted', name: 'Scripted', status: 'stopped' })])

    const { sessionId } = must(await handlers.newSession({ agentId: 'scripted', cwd: workspace }))
    const added = await sink.next('sessionAdded')
    expect(added.session.sessionId).toBe(sessionId)
    expect(added.session.protocolVersion).toBe(v2 ? 2 : 1)
    await sink.next('agentStatus', (view) => view.status === 'ready')

    const { stopReason } = must(await handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'diff' }] }))
    expect(stopReason).toBe('end_turn')

    // The renderer's copy, rebuilt from sessionAdded + every batch, equals main's snapshot.
    let replica: SessionState = added.session
    for (const batch of sink.of('sessionActions').filter((b) => b.sessionId === sessionId)) {
      if (batch.seq <= replica.seq) continue
      replica = applyActions(replica, batch.actions)
      expect(replica.seq).toBe(batch.seq)
    }
    const snapshot = must(await handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
    expect(replica.entries).toEqual(snapshot.entries)
    const tool = snapshot.entries.find((e): e is ToolCallEntry => e.kind === 'tool_call')
    expect(tool).toMatchObject({ toolCallId: 'call-diff', title: 'Edit src/app.ts', status: 'completed' })
    expect(tool!.content[0]).toMatchObject({ type: 'diff' })
    expect(snapshot.entries[0]).toMatchObject({ kind: 'user_message', local: true })
    expect(snapshot.turn.state).toBe('idle')
    // Batching: far fewer batches than updates.
    expect(sink.of('sessionActions').length).toBeLessThan(10)
  })

  it('cancels a running turn and answers as cancelled', async () => {
    const { handlers, workspace, sink } = await start(v2)
    const { sessionId } = must(await handlers.newSession({ agentId: 'scripted', cwd: workspace }))
    const turn = handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'slow' }] })
    // The turn is running once the agent's first text arrived.
    await sink.next('sessionActions', (batch) =>
      batch.actions.some((a) => a.type === 'updates' && a.updates.some((u) => u.sessionUpdate === 'agent_message_chunk')),
    )
    must(await handlers.cancel({ sessionId }))
    expect(must(await turn).stopReason).toBe('cancelled')
  })

  it('reports an agent crash mid-turn as a failure with the stderr tail and keeps the app usable', async () => {
    const { sink, handlers, workspace } = await start(v2)
    const { sessionId } = must(await handlers.newSession({ agentId: 'scripted', cwd: workspace }))
    const result = await handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'crash' }] })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.kind).toBe('agent-exited')
    const crashed = await sink.next('agentStatus', (view) => view.status === 'restarting' || view.status === 'crashed' || view.status === 'failed')
    expect(crashed.error?.stderrTail ?? '').toContain('out of cheese')
    // Restart brings it back and a new session works.
    must(await handlers.restartAgent({ agentId: 'scripted' }))
    const again = must(await handlers.newSession({ agentId: 'scripted', cwd: workspace }))
    expect(must(await handlers.prompt({ sessionId: again.sessionId, prompt: [{ type: 'text', text: 'diff' }] })).stopReason).toBe('end_turn')
  })
})
