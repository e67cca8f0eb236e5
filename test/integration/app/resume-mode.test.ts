/**
 * A session continued after a restart (opened from the history, or its agent restarted) keeps the mode the person
 * chose, when the agent resumes it in another one (codex-acp resumes every session in its default, "Auto review").
 */
import { describe, expect, it } from 'vitest'
import type { Scenario } from '../../agents/scenario'
import { must } from '../../support/must'
import { historyHarness, type Run } from '../history/restart'

const harness = historyHarness()

const mode = (currentValue: string) => ({
  id: 'mode',
  name: 'Mode',
  category: 'mode',
  type: 'select',
  currentValue,
  options: [
    { value: 'read-only', name: 'Read-only' },
    { value: 'workspace-write', name: 'Workspace access' },
    { value: 'agent', name: 'Auto review' },
  ],
})
const codexLike: Scenario = {
  session: { configOptions: [mode('agent'), { id: 'model', name: 'Model', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }, { value: 'b', name: 'B' }] }] },
  prompts: { default: [{ type: 'text', text: 'ok' }] },
}

async function stateOf(run: Run, sessionId: string) {
  return must(await run.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
}
const modeOf = async (run: Run, sessionId: string) => (await stateOf(run, sessionId)).configOptions.find((o) => o.id === 'mode')?.currentValue
async function configSets(run: Run) {
  return must(await run.handlers.listInspectorMessages({ agentId: 'codex' }))
    .messages.filter((m) => m.direction === 'out' && m.kind === 'request' && m.method === 'session/set_config_option')
    .map((m) => (m.message as { params: { configId: string; value: unknown } }).params)
    .map(({ configId, value }) => ({ configId, value }))
}

describe('the mode across a resume', () => {
  it('is set back to the one the person chose when the agent resumes the session in its default; other options are the agent\'s', async () => {
    const home = harness.home([{ id: 'codex', name: 'Codex', scenario: harness.scenario(codexLike) }])
    const first = await harness.start(home)
    const { sessionId } = must(await first.handlers.newSession({ agentId: 'codex', cwd: home.workspace }))
    must(await first.handlers.setConfigOption({ sessionId, configId: 'mode', value: 'workspace-write' }))
    must(await first.handlers.setConfigOption({ sessionId, configId: 'model', value: 'b' }))
    must(await first.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'hello' }] }))
    await harness.stop(first)

    const second = await harness.start(home)
    must(await second.handlers.historyOpen({ sessionId }))
    await second.sink.next('sessionAdded', (e) => e.session.sessionId === sessionId)
    expect(await modeOf(second, sessionId)).toBe('workspace-write')
    // The agent resumes it in "agent"; Bosun sets the person's mode back before the prompt goes.
    must(await second.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'again' }] }))
    expect(await modeOf(second, sessionId)).toBe('workspace-write')
    expect(await configSets(second)).toEqual([{ configId: 'mode', value: 'workspace-write' }])
    expect((await stateOf(second, sessionId)).configOptions.find((o) => o.id === 'model')?.currentValue).toBe('a')
  })

  it('sends nothing, and says nothing, when the agent resumed it in the mode and with the model it had', async () => {
    const home = harness.home([{ id: 'codex', name: 'Codex', scenario: harness.scenario(codexLike) }])
    const first = await harness.start(home)
    const { sessionId } = must(await first.handlers.newSession({ agentId: 'codex', cwd: home.workspace }))
    must(await first.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'hello' }] }))
    await harness.stop(first)
    const second = await harness.start(home)
    must(await second.handlers.historyOpen({ sessionId }))
    await second.sink.next('sessionAdded', (e) => e.session.sessionId === sessionId)
    must(await second.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'again' }] }))
    expect(await modeOf(second, sessionId)).toBe('agent')
    expect(await configSets(second)).toEqual([])
    expect((await stateOf(second, sessionId)).notices.filter((n) => n.title.includes('model'))).toEqual([])
  })

  it('leaves the model to the agent, and says so when the agent took the session back with another one than it showed (Gemini CLI loads every session in "Auto")', async () => {
    const geminiLike: Scenario = {
      session: {
        models: {
          currentModelId: 'auto',
          availableModels: [
            { modelId: 'auto', name: 'Auto' },
            { modelId: 'gemini-2.5-pro', name: 'gemini-2.5-pro' },
          ],
        },
      },
      prompts: { default: [{ type: 'text', text: 'ok' }] },
    }
    const home = harness.home([{ id: 'gemini', name: 'Gemini CLI', scenario: harness.scenario(geminiLike) }])
    const first = await harness.start(home)
    const { sessionId } = must(await first.handlers.newSession({ agentId: 'gemini', cwd: home.workspace }))
    must(await first.handlers.setModel({ sessionId, modelId: 'gemini-2.5-pro' }))
    must(await first.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'hello' }] }))
    await harness.stop(first)

    const second = await harness.start(home)
    must(await second.handlers.historyOpen({ sessionId }))
    await second.sink.next('sessionAdded', (e) => e.session.sessionId === sessionId)
    expect((await stateOf(second, sessionId)).models?.currentModelId).toBe('gemini-2.5-pro')
    must(await second.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'again' }] }))
    const state = await stateOf(second, sessionId)
    expect(state.models?.currentModelId).toBe('auto')
    expect(state.notices.map((n) => n.title)).toContain('The agent continued this session with the model “Auto”, not “gemini-2.5-pro”')
    // Nothing is set back: the model is the agent's.
    const sets = must(await second.handlers.listInspectorMessages({ agentId: 'gemini' })).messages.filter((m) => m.direction === 'out' && m.method === 'session/set_model')
    expect(sets).toEqual([])
  })
})
