/**
 * The presets of issue 6 item 2: each well-known agent's usual launch command and the variable its API key
 * goes in. A preset only fills the form, so these values are what a person gets by picking it.
 */
import { describe, expect, it } from 'vitest'
import { AGENT_PRESETS, findPreset } from '../../../main/config/presets'
import { validateDraft } from '../../../main/config/validate'

const expected = [
  { id: 'claude', name: 'Claude', command: 'npx', args: ['-y', '@agentclientprotocol/claude-agent-acp'], env: {}, secretEnv: ['ANTHROPIC_API_KEY'] },
  { id: 'codex', name: 'Codex', command: 'npx', args: ['-y', '@agentclientprotocol/codex-acp'], env: {}, secretEnv: ['OPENAI_API_KEY'] },
  { id: 'gemini', name: 'Gemini CLI', command: 'gemini', args: ['--acp'], env: {}, secretEnv: ['GEMINI_API_KEY'] },
  // goose picks its provider from GOOSE_PROVIDER; the key is that provider's own variable.
  { id: 'goose', name: 'goose', command: 'goose', args: ['acp'], env: { GOOSE_PROVIDER: 'anthropic' }, secretEnv: ['ANTHROPIC_API_KEY'] },
  { id: 'opencode', name: 'OpenCode', command: 'opencode', args: ['acp'], env: {}, secretEnv: ['ANTHROPIC_API_KEY'] },
  { id: 'qwen', name: 'Qwen Code', command: 'qwen', args: ['--acp'], env: {}, secretEnv: ['OPENAI_API_KEY'] },
  { id: 'kilo', name: 'Kilo Code', command: 'kilo', args: ['acp'], env: {}, secretEnv: ['KILO_API_KEY'] },
  { id: 'copilot', name: 'GitHub Copilot', command: 'copilot', args: ['--acp'], env: {}, secretEnv: ['COPILOT_GITHUB_TOKEN'] },
  { id: 'custom', name: 'Custom', command: '', args: [], env: {}, secretEnv: [] },
]

describe('agent presets', () => {
  it('lists the eight well-known agents and Custom, in this order', () => {
    expect(AGENT_PRESETS.map((p) => p.id)).toEqual(expected.map((p) => p.id))
  })

  it.each(expected)('$name: launch command and key variable', (want) => {
    const preset = findPreset(want.id)
    expect(preset).toBeDefined()
    expect({ id: preset!.id, name: preset!.name, command: preset!.command, args: preset!.args, env: preset!.env, secretEnv: preset!.secretEnv }).toEqual(want)
    expect(preset!.description.length).toBeGreaterThan(0)
  })

  it('every preset with a command is a valid draft apart from whether the program is installed', async () => {
    for (const preset of AGENT_PRESETS.filter((p) => p.command)) {
      const { errors, argv } = await validateDraft(
        {
          name: preset.name,
          command: preset.command,
          argsText: preset.args.join(' '),
          env: Object.entries(preset.env).map(([name, value]) => ({ name, value })),
          secretEnv: preset.secretEnv,
          defaultCwd: '',
        },
        // An empty PATH: "not found" is the only error a preset may have.
        { existing: [], env: { PATH: '' } },
      )
      expect(argv, preset.id).toEqual(preset.args)
      expect(Object.keys(errors), preset.id).toEqual(['command'])
      expect(errors.command, preset.id).toBe(`${preset.command} was not found on PATH`)
    }
  })

  it('findPreset of an unknown id is undefined', () => {
    expect(findPreset('nope')).toBeUndefined()
  })
})
