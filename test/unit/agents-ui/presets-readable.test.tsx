/**
 * Issue 15, readable presets: descriptions render their code spans (no literal backticks), and each preset
 * says what it needs before it is added.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { AgentPresetView } from '../../../common/contract/agents'
import { AGENT_PRESETS } from '../../../main/config/presets'
import { CodeText, codeParts } from '../../../renderer/components/agents/CodeText'
import { PresetPicker } from '../../../renderer/components/agents/PresetPicker'

const views: AgentPresetView[] = AGENT_PRESETS.map((p) => ({
  id: p.id,
  name: p.name,
  description: p.description,
  command: p.command,
  args: p.args,
  argsText: p.args.join(' '),
  env: p.env,
  secretEnv: p.secretEnv,
  needs: p.needs,
}))
const noop = () => undefined

describe('code spans', () => {
  it('splits text into plain and code parts; an unmatched backtick stays', () => {
    expect(codeParts('run `goose configure` once')).toEqual([
      { text: 'run ', code: false },
      { text: 'goose configure', code: true },
      { text: ' once', code: false },
    ])
    expect(codeParts('a ` b')).toEqual([{ text: 'a ` b', code: false }])
  })

  it('renders code as <code> and never interprets markup', () => {
    const html = renderToStaticMarkup(<CodeText text={'use `<b>x</b>` and <i>y</i>'} />)
    expect(html).toBe('use <code class="code-span">&lt;b&gt;x&lt;/b&gt;</code> and &lt;i&gt;y&lt;/i&gt;')
  })
})

describe('the preset picker', () => {
  const html = renderToStaticMarkup(<PresetPicker presets={views} onPick={noop} onCancel={noop} />)

  it('shows no literal backticks', () => {
    expect(html).not.toContain('`')
    expect(html).toContain('<code class="code-span">gemini</code>')
    expect(html).toContain('<code class="code-span">goose configure</code>')
  })

  it.each(AGENT_PRESETS.filter((p) => p.id !== 'custom').map((p) => [p.name, p.needs] as const))('%s says what it needs', (_name, needs) => {
    expect(needs.length).toBeGreaterThan(0)
    for (const need of needs) expect(html).toContain(renderToStaticMarkup(<CodeText text={need.text} />))
  })

  it('every known agent needs a runtime or an install, and a login or a key', () => {
    for (const preset of AGENT_PRESETS.filter((p) => p.id !== 'custom')) {
      expect(preset.needs.some((n) => n.kind === 'runtime' || n.kind === 'install')).toBe(true)
      expect(preset.needs.some((n) => n.kind === 'login' || n.kind === 'key')).toBe(true)
      expect(preset.protocolVersion).toBe(1)
    }
  })
})
