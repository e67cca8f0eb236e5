/**
 * The unstable v1 session models API (Gemini CLI: `models` on `session/new`, `session/set_model`) through the
 * composition root, against the scripted agent: main sends only a model the agent listed, applies the agent's
 * success, hands back its error, and the models survive the history round trip (and a reattach's `session/load`).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Scenario } from '../../agents/scenario'
import { must } from '../../support/must'
import { historyHarness, type Run } from '../history/restart'

const harness = historyHarness()

const gemini = JSON.parse(readFileSync(join(__dirname, '../../fixtures/scenarios/session-models.json'), 'utf8')) as Scenario

async function stateOf(run: Run, sessionId: string) {
  return must(await run.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
}

async function setModelRequests(run: Run) {
  return must(await run.handlers.listInspectorMessages({ agentId: 'gemini' }))
    .messages.filter((m) => m.direction === 'out' && m.kind === 'request' && m.method === 'session/set_model')
    .map((m) => (m.message as { params: unknown }).params)
}

describe('session models (unstable v1 API)', () => {
  it('offers the listed models, sends only a listed one, and keeps the choice across a restart', async () => {
    const home = harness.home([{ id: 'gemini', name: 'Gemini', scenario: harness.scenario(gemini) }])
    const first = await harness.start(home)
    const { sessionId } = must(await first.handlers.newSession({ agentId: 'gemini', cwd: home.workspace }))
    const created = await stateOf(first, sessionId)
    expect(created.models?.currentModelId).toBe('gemini-2.5-pro')
    expect(created.models?.availableModels.map((m) => m.name)).toEqual(['Gemini 2.5 Pro', 'Gemini 2.5 Flash', 'Gemini 2.5 Flash Lite'])
    // Modes stay beside them.
    expect(created.modes?.currentModeId).toBe('default')

    // A model the agent did not list never reaches it.
    const unlisted = await first.handlers.setModel({ sessionId, modelId: 'gemini-ultra-max' })
    expect(unlisted).toEqual({ ok: false, error: expect.objectContaining({ kind: 'invalid-argument', message: expect.stringContaining('gemini-ultra-max') }) })
    expect(await setModelRequests(first)).toEqual([])

    must(await first.handlers.setModel({ sessionId, modelId: 'gemini-2.5-flash' }))
    expect(await setModelRequests(first)).toEqual([{ sessionId: created.acpSessionId, modelId: 'gemini-2.5-flash' }])
    expect((await stateOf(first, sessionId)).models?.currentModelId).toBe('gemini-2.5-flash')
    must(await first.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'hello' }] }))
    await harness.stop(first)

    // Stored with the session: opened from the history, the header has them before the agent starts.
    const second = await harness.start(home)
    must(await second.handlers.historyOpen({ sessionId }))
    const { session } = await second.sink.next('sessionAdded', (e) => e.session.sessionId === sessionId)
    expect(session.models?.currentModelId).toBe('gemini-2.5-flash')
    expect(session.models?.availableModels).toHaveLength(3)
    // Continued by session/load, whose answer (this agent's models afresh) is taken again.
    must(await second.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'again' }] }))
    expect((await stateOf(second, sessionId)).models?.availableModels.map((m) => m.id)).toEqual(['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite'])
    must(await second.handlers.setModel({ sessionId, modelId: 'gemini-2.5-flash-lite' }))
    expect((await stateOf(second, sessionId)).models?.currentModelId).toBe('gemini-2.5-flash-lite')
  })

  it("hands back the agent's refusal and leaves the model as it was", async () => {
    const refusing: Scenario = { ...gemini, session: { ...gemini.session, refuseChanges: { code: -32603, message: 'model not available on the free tier' } } }
    const home = harness.home([{ id: 'gemini', name: 'Gemini', scenario: harness.scenario(refusing) }])
    const run = await harness.start(home)
    const { sessionId } = must(await run.handlers.newSession({ agentId: 'gemini', cwd: home.workspace }))
    const refused = await run.handlers.setModel({ sessionId, modelId: 'gemini-2.5-flash' })
    expect(refused.ok).toBe(false)
    if (refused.ok) return
    expect(refused.error.message).toContain('model not available on the free tier')
    expect(await setModelRequests(run)).toHaveLength(1)
    expect((await stateOf(run, sessionId)).models?.currentModelId).toBe('gemini-2.5-pro')
  })

  it('a session without models refuses the call without asking the agent', async () => {
    const home = harness.home([{ id: 'gemini', name: 'Gemini', scenario: harness.scenario({ ...gemini, session: { modes: gemini.session!.modes! } }) }])
    const run = await harness.start(home)
    const { sessionId } = must(await run.handlers.newSession({ agentId: 'gemini', cwd: home.workspace }))
    expect((await stateOf(run, sessionId)).models).toBeNull()
    const result = await run.handlers.setModel({ sessionId, modelId: 'gemini-2.5-flash' })
    expect(result).toEqual({ ok: false, error: expect.objectContaining({ kind: 'invalid-argument' }) })
    expect(await setModelRequests(run)).toEqual([])
  })
})
