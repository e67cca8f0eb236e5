import { describe, expect, it } from 'vitest'
import { applyActions } from '../../../common/session/reducer'
import type { SessionState, ToolCallEntry } from '../../../common/session/types'
import { must, servicesPerTest } from '../../support/services'
import { isGone } from '../agents/helpers'

const startServices = servicesPerTest()
const start = (v2: boolean) => startServices([{ id: 'scripted', name: 'Scripted', scenario: 'basic', v2 }])

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
    // It answered ("About to crash") before it died: the message was sent (the composer does not offer it again).
    if (!result.ok) expect(result.error.data).toEqual({ answered: true })
    const crashed = await sink.next('agentStatus', (view) => view.status === 'restarting' || view.status === 'crashed' || view.status === 'failed')
    expect(crashed.error?.stderrTail ?? '').toContain('out of cheese')
    // Restart brings it back and a new session works.
    must(await handlers.restartAgent({ agentId: 'scripted' }))
    const again = must(await handlers.newSession({ agentId: 'scripted', cwd: workspace }))
    expect(must(await handlers.prompt({ sessionId: again.sessionId, prompt: [{ type: 'text', text: 'diff' }] })).stopReason).toBe('end_turn')
  })
})

describe('an agent edited while it runs', () => {
  it('says it runs the definition it started with until it restarts, and a restart applies the change', async () => {
    const { sink, handlers, workspace } = await startServices([{ id: 'scripted', name: 'Scripted', scenario: 'basic' }])
    must(await handlers.newSession({ agentId: 'scripted', cwd: workspace }))
    const ready = await sink.next('agentStatus', (view) => view.status === 'ready')
    expect(ready.definitionChanged).toBeUndefined()
    const def = must(await handlers.listAgentDefinitions(undefined)).agents.find((a) => a.id === 'scripted')!
    const draft = { id: def.id, name: def.name, command: def.command, argsText: def.argsText, secretEnv: def.secretEnv, defaultCwd: def.defaultCwd ?? '' }
    const env = Object.entries(def.env).map(([name, value]) => ({ name, value }))

    // A change to what runs: the running process is not restarted under its sessions, and says it runs the earlier one.
    must(await handlers.saveAgentDefinition({ draft: { ...draft, env: [...env, { name: 'EXTRA_SETTING', value: 'on' }] } }))
    const changed = await sink.next('agentStatus', (view) => view.definitionChanged === true)
    expect(changed).toMatchObject({ agentId: 'scripted', status: 'ready', pid: ready.pid, definitionChanges: ['1 changed environment variable'] })
    // Each change is named (the page says which ones a restart applies).
    must(await handlers.saveAgentDefinition({ draft: { ...draft, argsText: `${draft.argsText} --extra`, env: [...env, { name: 'EXTRA_SETTING', value: 'on' }, { name: 'MORE', value: '1' }] } }))
    expect(await sink.next('agentStatus', (view) => view.definitionChanges?.length === 2)).toMatchObject({ definitionChanges: ['the new arguments', '2 changed environment variables'] })
    must(await handlers.saveAgentDefinition({ draft: { ...draft, env: [...env, { name: 'EXTRA_SETTING', value: 'on' }] } }))
    await sink.next('agentStatus', (view) => view.definitionChanges?.length === 1)
    expect(must(await handlers.getSnapshot(undefined)).agents[0]).toMatchObject({ definitionChanged: true })

    // Restarted, it runs the saved definition.
    must(await handlers.restartAgent({ agentId: 'scripted' }))
    const restarted = must(await handlers.getSnapshot(undefined)).agents[0]!
    expect(restarted.status).toBe('ready')
    expect(restarted.pid).not.toBe(ready.pid)
    expect(restarted.definitionChanged).toBeUndefined()

    // A change to the name only runs nothing different.
    must(await handlers.saveAgentDefinition({ draft: { ...draft, name: 'Scripted, renamed', env: [...env, { name: 'EXTRA_SETTING', value: 'on' }] } }))
    expect(must(await handlers.getSnapshot(undefined)).agents[0]!.definitionChanged).toBeUndefined()
  })

  it('says so too when a key of the running agent is replaced or removed: the agent has the earlier value until it restarts', async () => {
    // A wrong API key corrected on the Agents page: the running agent kept the wrong one, its turns kept failing, and
    // nothing said a restart was needed (the definition's names were the same, only the keychain's value changed).
    const { sink, handlers, workspace } = await startServices([{ id: 'scripted', name: 'Scripted', scenario: 'basic' }])
    const def = must(await handlers.listAgentDefinitions(undefined)).agents.find((a) => a.id === 'scripted')!
    const env = Object.entries(def.env).map(([name, value]) => ({ name, value }))
    const draft = { id: def.id, name: def.name, command: def.command, argsText: def.argsText, env, secretEnv: [...def.secretEnv, 'SCRIPTED_API_KEY'], defaultCwd: def.defaultCwd ?? '' }
    must(await handlers.saveAgentDefinition({ draft, secrets: { SCRIPTED_API_KEY: 'sk-wrong' } }))
    must(await handlers.newSession({ agentId: 'scripted', cwd: workspace }))
    const ready = await sink.next('agentStatus', (view) => view.status === 'ready')
    expect(ready.definitionChanged).toBeUndefined()

    must(await handlers.saveAgentDefinition({ draft, secrets: { SCRIPTED_API_KEY: 'sk-right' } }))
    expect(await sink.next('agentStatus', (view) => view.definitionChanged === true)).toMatchObject({ agentId: 'scripted', pid: ready.pid, definitionChanges: ['the key values you changed'] })
    expect(must(await handlers.getSnapshot(undefined)).agents[0]).toMatchObject({ definitionChanged: true })

    must(await handlers.restartAgent({ agentId: 'scripted' }))
    expect(must(await handlers.getSnapshot(undefined)).agents[0]!.definitionChanged).toBeUndefined()
    // Saved again without a new value: nothing changed.
    must(await handlers.saveAgentDefinition({ draft }))
    expect(must(await handlers.getSnapshot(undefined)).agents[0]!.definitionChanged).toBeUndefined()

    must(await handlers.deleteAgentSecret({ agentId: 'scripted', name: 'SCRIPTED_API_KEY' }))
    expect(must(await handlers.getSnapshot(undefined)).agents[0]).toMatchObject({ definitionChanged: true })
  })
})

describe('an agent removed while its session is open', () => {
  it('is gone from the window’s agents: its host stopping sends no status that would list it again', async () => {
    const { sink, handlers, workspace } = await startServices([{ id: 'scripted', name: 'Scripted', scenario: 'basic' }])
    const { sessionId } = must(await handlers.newSession({ agentId: 'scripted', cwd: workspace }))
    const ready = await sink.next('agentStatus', (view) => view.status === 'ready')
    const before = sink.of('agentStatus').length
    must(await handlers.removeAgentDefinition({ agentId: 'scripted' }))
    await sink.next('agentDefinitionsChanged', (list) => list.agents.length === 0)
    expect(must(await handlers.getSnapshot(undefined)).agents).toEqual([])
    // The host stops after the removal: its session hears the agent went (the host says "stopped" in that same step),
    // then its process ends, the last thing the host does. Nothing said "stopped" for an agent that no longer exists.
    await sink.next('sessionActions', (batch) => batch.sessionId === sessionId && batch.actions.some((action) => action.type === 'agent_gone'))
    await expect.poll(() => isGone(ready.pid!)).toBe(true)
    expect(sink.of('agentStatus').slice(before)).toEqual([])
  })
})

describe('sessions of two agents that use the same session ids', () => {
  it('keeps them apart: Bosun ids differ, updates and permission requests reach the right session', async () => {
    const { sink, handlers, workspace } = await startServices([
      { id: 'alpha', name: 'Alpha', scenario: 'basic' },
      { id: 'beta', name: 'Beta', scenario: 'basic', v2: true },
    ])
    const a = must(await handlers.newSession({ agentId: 'alpha', cwd: workspace }))
    const b = must(await handlers.newSession({ agentId: 'beta', cwd: workspace }))
    expect(a.sessionId).not.toBe(b.sessionId)
    const sessionsOf = async () => must(await handlers.getSnapshot(undefined)).sessions
    // Both agents numbered their first session the same way.
    expect((await sessionsOf()).map((s) => s.acpSessionId)).toEqual(['sess-1', 'sess-1'])

    expect(must(await handlers.prompt({ sessionId: a.sessionId, prompt: [{ type: 'text', text: 'diff' }] })).stopReason).toBe('end_turn')
    const afterA = await sessionsOf()
    expect(afterA.find((s) => s.sessionId === a.sessionId)!.entries.some((e) => e.kind === 'tool_call')).toBe(true)
    expect(afterA.find((s) => s.sessionId === b.sessionId)!.entries).toEqual([])

    const turn = handlers.prompt({ sessionId: b.sessionId, prompt: [{ type: 'text', text: 'permission' }] })
    await sink.next('sessionActions', (batch) => batch.actions.some((action) => action.type === 'permission_requested'))
    const pending = must(await handlers.listPendingPermissions(undefined))
    expect(pending).toEqual([expect.objectContaining({ agentId: 'beta', sessionId: b.sessionId })])
    must(await handlers.respondPermission({ requestId: pending[0]!.requestId, optionId: 'allow-once' }))
    expect(must(await turn).stopReason).toBe('end_turn')
    const afterB = await sessionsOf()
    expect(afterB.find((s) => s.sessionId === b.sessionId)!.entries.some((e) => e.kind === 'tool_call' && e.toolCallId === 'call-perm')).toBe(true)
    expect(afterB.find((s) => s.sessionId === a.sessionId)!.entries.some((e) => e.kind === 'tool_call' && e.toolCallId === 'call-perm')).toBe(false)
  })

  it('gives a restarted agent’s reused session id a new Bosun id and does not resume the old session into it', async () => {
    const { handlers, workspace } = await startServices([{ id: 'alpha', name: 'Alpha', scenario: 'basic' }])
    const first = must(await handlers.newSession({ agentId: 'alpha', cwd: workspace }))
    must(await handlers.restartAgent({ agentId: 'alpha' }))
    const second = must(await handlers.newSession({ agentId: 'alpha', cwd: workspace }))
    expect(second.sessionId).not.toBe(first.sessionId)
    const old = await handlers.prompt({ sessionId: first.sessionId, prompt: [{ type: 'text', text: 'diff' }] })
    expect(old.ok).toBe(false)
    if (!old.ok) expect(old.error.message).toContain('newer session')
    expect(must(await handlers.prompt({ sessionId: second.sessionId, prompt: [{ type: 'text', text: 'diff' }] })).stopReason).toBe('end_turn')
  })
})
