import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { AgentDefinitionView, AgentPresetView } from '../../../common/contract/agents'
import { AgentEditor, type AgentEditorProps } from '../../../renderer/components/agents/AgentEditor'
import { unlabelledControls } from '../../support/static-a11y'

const presets: AgentPresetView[] = [
  { id: 'claude', name: 'Claude', description: 'Claude via npx', command: 'npx', args: ['-y', 'x'], argsText: '-y x', env: {}, secretEnv: ['ANTHROPIC_API_KEY'] },
]
const agent: AgentDefinitionView = {
  id: 'c-1',
  name: 'Claude',
  command: 'npx',
  args: ['-y', 'x'],
  argsText: '-y x',
  env: { LOG: 'debug' },
  secretEnv: ['ANTHROPIC_API_KEY', 'UNSET_KEY'],
  secretsSet: { ANTHROPIC_API_KEY: true, UNSET_KEY: false },
}
const props = (over: Partial<AgentEditorProps> = {}): AgentEditorProps => ({
  presets,
  keychain: { available: true },
  validate: async () => ({ errors: {}, argv: [] }),
  onSave: async () => ({ ok: true }),
  onCancel: () => undefined,
  onRemove: () => undefined,
  onDeleteSecret: () => undefined,
  ...over,
})

describe('AgentEditor (static render)', () => {
  it('labels every control when adding an agent, with a preset picker', () => {
    const html = renderToStaticMarkup(<AgentEditor {...props()} />)
    expect(html).toContain('aria-label="Add agent"')
    expect(html).toContain('Start from')
    expect(html).toContain('<option value="claude">Claude</option>')
    expect(html).not.toContain('keychain is not available')
    expect(unlabelledControls(html)).toEqual([])
  })

  it("shows the chosen preset's description with its code spans, not literal backticks", () => {
    const qwen: AgentPresetView = { id: 'qwen', name: 'Qwen Code', description: 'Set `OPENAI_BASE_URL` too.', command: 'qwen', args: ['--acp'], argsText: '--acp', env: {}, secretEnv: ['OPENAI_API_KEY'] }
    const html = renderToStaticMarkup(<AgentEditor {...props({ presets: [...presets, qwen], initialPresetId: 'qwen' })} />)
    expect(html).toContain('Set <code class="code-span">OPENAI_BASE_URL</code> too.')
    expect(html).not.toContain('`')
  })

  it('shows secrets as set / not set, never a value, and offers replace / unset / remove', () => {
    const html = renderToStaticMarkup(<AgentEditor {...props({ agent })} />)
    expect(html).toContain('aria-label="Edit Claude"')
    expect(html).not.toContain('Start from')
    expect(html).toContain('aria-label="ANTHROPIC_API_KEY is set"')
    expect(html).toContain('aria-label="UNSET_KEY is not set"')
    expect(html).toContain('aria-label="Replace ANTHROPIC_API_KEY"')
    expect(html).toContain('aria-label="Unset ANTHROPIC_API_KEY"')
    expect(html).toContain('aria-label="Set UNSET_KEY"')
    expect(html).toContain('aria-label="Remove secret UNSET_KEY"')
    expect(html).not.toContain('type="password"')
    expect(html).toContain('Remove…')
    expect(unlabelledControls(html)).toEqual([])
  })

  it('without a keychain, says what happens to each secret and offers only Remove (no Set, Replace, Unset or value field)', () => {
    const html = renderToStaticMarkup(<AgentEditor {...props({ agent, keychain: { available: false, message: 'no Secret Service' } })} />)
    expect(html).toContain('role="alert"')
    expect(html).toContain('The system keychain is not available.')
    expect(html).toContain('sign in to the agent its own way instead')
    expect(html).toContain('no Secret Service')
    expect(html).toContain('aria-label="ANTHROPIC_API_KEY is set; it cannot be changed without the keychain"')
    expect(html).toContain('aria-label="UNSET_KEY is not set; the agent starts without it"')
    for (const action of ['Replace ANTHROPIC_API_KEY', 'Unset ANTHROPIC_API_KEY', 'Set UNSET_KEY']) expect(html).not.toContain(`aria-label="${action}"`)
    expect(html).toContain('aria-label="Remove secret UNSET_KEY"')
    expect(html).not.toContain('type="password"')
  })

  it('without a keychain, a preset’s secret rows offer no value field and no Cancel', () => {
    const html = renderToStaticMarkup(<AgentEditor {...props({ initialPresetId: 'claude', keychain: { available: false } })} />)
    expect(html).toContain('aria-label="ANTHROPIC_API_KEY is not set; the agent starts without it"')
    expect(html).not.toContain('type="password"')
    expect(html).not.toContain('Leave ANTHROPIC_API_KEY unset')
    expect(html).toContain('aria-label="Remove secret ANTHROPIC_API_KEY"')
  })

  it('a preset’s secret row being typed backs out as "Leave unset", not a second "Cancel" beside the form’s', () => {
    const html = renderToStaticMarkup(<AgentEditor {...props({ initialPresetId: 'claude' })} />)
    expect(html).toContain('aria-label="Leave ANTHROPIC_API_KEY unset">Leave unset</button>')
    // The form's own Cancel is the only one.
    expect(html.match(/>Cancel<\/button>/g)).toHaveLength(1)
  })
})
