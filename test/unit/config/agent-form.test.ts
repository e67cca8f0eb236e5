import { describe, expect, it } from 'vitest'
import type { AgentDefinitionView, AgentPresetView } from '../../../common/contract/agents'
import { applyPreset, formFromAgent, secretsToStore, toDraft } from '../../../renderer/components/agents/agent-form'

const presets: AgentPresetView[] = [
  { id: 'goose', name: 'goose', description: '', command: 'goose', args: ['acp'], argsText: 'acp', env: { GOOSE_PROVIDER: 'anthropic' }, secretEnv: ['ANTHROPIC_API_KEY'] },
  { id: 'custom', name: 'Custom', description: '', command: '', args: [], argsText: '', env: {}, secretEnv: [] },
]
const saved: AgentDefinitionView = {
  id: 'g-1',
  name: 'My goose',
  command: 'goose',
  args: ['acp', 'two words'],
  argsText: "acp 'two words'",
  env: { GOOSE_PROVIDER: 'openai' },
  secretEnv: ['OPENAI_API_KEY', 'EXTRA'],
  secretsSet: { OPENAI_API_KEY: true, EXTRA: false },
  defaultCwd: '/work',
  protocolVersion: 2,
  defaultMode: 'auto',
  presetId: 'goose',
}

describe('agent form state', () => {
  it('round-trips a saved agent into the draft main expects', () => {
    const form = formFromAgent(saved)
    expect(form.secrets.map((s) => [s.name, s.isSet, s.editing])).toEqual([
      ['OPENAI_API_KEY', true, false],
      ['EXTRA', false, false],
    ])
    expect(toDraft(form)).toEqual({
      id: 'g-1',
      name: 'My goose',
      command: 'goose',
      argsText: "acp 'two words'",
      env: [{ name: 'GOOSE_PROVIDER', value: 'openai' }],
      secretEnv: ['OPENAI_API_KEY', 'EXTRA'],
      defaultCwd: '/work',
      protocolVersion: 2,
      defaultMode: 'auto',
      presetId: 'goose',
    })
    expect(secretsToStore(form)).toEqual({})
  })

  it('fills a blank form from a preset, keeping a typed name and folder', () => {
    const blank = formFromAgent()
    const filled = applyPreset(blank, presets[0]!, presets)
    expect(toDraft(filled)).toMatchObject({ name: 'goose', command: 'goose', argsText: 'acp', env: [{ name: 'GOOSE_PROVIDER', value: 'anthropic' }], secretEnv: ['ANTHROPIC_API_KEY'], presetId: 'goose' })
    const typed = applyPreset({ ...blank, name: 'Work goose', defaultCwd: '/src' }, presets[0]!, presets)
    expect(typed.name).toBe('Work goose')
    expect(typed.defaultCwd).toBe('/src')
    // Switching presets replaces a preset's name but not a typed one.
    expect(applyPreset(filled, presets[1]!, presets).name).toBe('')
  })

  it('takes the preset’s protocol version (no second start for a known v1 agent) unless the person chose one', () => {
    const v1: AgentPresetView[] = [{ ...presets[0]!, protocolVersion: 1 }, presets[1]!]
    const filled = applyPreset(formFromAgent(), v1[0]!, v1)
    expect(toDraft(filled).protocolVersion).toBe(1)
    // To Custom: the preset's version goes with it.
    expect(toDraft(applyPreset(filled, v1[1]!, v1)).protocolVersion).toBeUndefined()
    // A version the person picked stays.
    expect(toDraft(applyPreset({ ...formFromAgent(), protocolVersion: '2' }, v1[0]!, v1)).protocolVersion).toBe(2)
  })

  it('sends only values typed into open password fields', () => {
    const form = applyPreset(formFromAgent(), presets[0]!, presets)
    form.secrets[0]!.newValue = 'sk-typed'
    form.secrets.push({ key: 'x', name: 'CLOSED', isSet: true, newValue: 'stale', editing: false })
    form.secrets.push({ key: 'y', name: '  ', isSet: false, newValue: 'nameless', editing: true })
    expect(secretsToStore(form)).toEqual({ ANTHROPIC_API_KEY: 'sk-typed' })
  })
})
