/**
 * The session's mode and config selects (under the composer) when the agent's current value is not among what it lists: the
 * select shows that value, marked, instead of its first option (which a browser would show as selected), and a
 * current mode with no modes listed is shown read-only. Rendered to static markup; the look is in
 * session-options.browser.test.ts.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { ConfigOptionView } from '../../../common/session/types'
import { ConfigOptions, ModeSelect, ModelSelect, SessionOptions } from '../../../renderer/components/session/SessionOptions'

const noop = () => undefined
const modes = [
  { id: 'default', name: 'Default' },
  { id: 'plan', name: 'Plan' },
]
/** The options of the select in `html`, in order, with the one React marks selected. */
function options(html: string): { value: string; text: string; selected: boolean }[] {
  return [...html.matchAll(/<option([^>]*)>([^<]*)<\/option>/g)].map(([, attrs, text]) => ({
    value: /value="([^"]*)"/.exec(attrs!)?.[1] ?? '',
    text: text!,
    selected: /selected=""/.test(attrs!),
  }))
}
const select = (id: string, currentValue: unknown, values = ['low', 'high']): ConfigOptionView => ({
  id,
  name: id,
  type: 'select',
  currentValue,
  options: values.map((value) => ({ value, name: value.toUpperCase() })),
  raw: {},
})

describe('mode select', () => {
  it('shows a current mode the agent does not list by its id, marked and selected (not the first mode)', () => {
    const html = renderToStaticMarkup(<ModeSelect modes={{ currentModeId: 'bypassPermissions', availableModes: modes }} onChange={noop} />)
    expect(options(html)).toEqual([
      { value: 'bypassPermissions', text: 'bypassPermissions (not listed by the agent)', selected: true },
      { value: 'default', text: 'Default', selected: false },
      { value: 'plan', text: 'Plan', selected: false },
    ])
  })

  it('a listed current mode is selected as before, with no extra option', () => {
    const html = renderToStaticMarkup(<ModeSelect modes={{ currentModeId: 'plan', availableModes: modes }} onChange={noop} />)
    expect(options(html)).toEqual([
      { value: 'default', text: 'Default', selected: false },
      { value: 'plan', text: 'Plan', selected: true },
    ])
    expect(html).not.toContain('not listed')
  })

  it('a current mode with no modes listed is shown read-only; with neither, nothing is shown', () => {
    const html = renderToStaticMarkup(<ModeSelect modes={{ currentModeId: 'architect', availableModes: [] }} onChange={noop} />)
    expect(html).not.toContain('<select')
    expect(html).toContain('role="group" aria-label="Mode"')
    expect(html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim()).toBe('Mode architect')
    expect(renderToStaticMarkup(<ModeSelect modes={{ currentModeId: null, availableModes: [] }} onChange={noop} />)).toBe('')
  })
})

describe('model select (v1 session models)', () => {
  const models = [
    { id: 'gemini-2.5-pro', name: 'Gemini 2.5 Pro', description: 'Most capable' },
    { id: 'gemini-2.5-flash', name: 'Gemini 2.5 Flash' },
  ]

  it('lists the models by name with the current one selected; one the agent does not list is shown as itself, marked', () => {
    const html = renderToStaticMarkup(<ModelSelect models={{ currentModelId: 'gemini-2.5-flash', availableModels: models }} onChange={noop} />)
    expect(html).toContain('aria-label="Model"')
    expect(options(html)).toEqual([
      { value: 'gemini-2.5-pro', text: 'Gemini 2.5 Pro', selected: false },
      { value: 'gemini-2.5-flash', text: 'Gemini 2.5 Flash', selected: true },
    ])
    const unlisted = renderToStaticMarkup(<ModelSelect models={{ currentModelId: 'auto', availableModels: models }} onChange={noop} />)
    expect(options(unlisted)[0]).toEqual({ value: 'auto', text: 'auto (not listed by the agent)', selected: true })
    expect(unlisted).toContain('select-unlisted')
  })

  it("sits beside Mode among the session's options, only when the session has models", () => {
    const header = (extra: object) =>
      renderToStaticMarkup(
        <SessionOptions modes={{ currentModeId: 'default', availableModes: modes }} configOptions={[]} onSetMode={noop} onSetConfigOption={noop} {...extra} />,
      )
    const html = header({ models: { currentModelId: 'gemini-2.5-pro', availableModels: models }, onSetModel: noop })
    const labels = [...html.matchAll(/<select[^>]*aria-label="([^"]+)"/g)].map((m) => m[1])
    expect(labels).toEqual(['Mode', 'Model'])
    expect(header({ models: null, onSetModel: noop })).not.toContain('aria-label="Model"')
  })
})

describe('config option select', () => {
  it('shows a current value that is not among the options, marked and selected', () => {
    const html = renderToStaticMarkup(<ConfigOptions options={[select('effort', 'extreme')]} onChange={noop} />)
    expect(options(html)).toEqual([
      { value: 'extreme', text: 'extreme (not listed by the agent)', selected: true },
      { value: 'low', text: 'LOW', selected: false },
      { value: 'high', text: 'HIGH', selected: false },
    ])
  })

  it('a listed value (grouped too) is selected as before; no value at all is a dash', () => {
    const grouped: ConfigOptionView = { ...select('model', 'opus'), options: [{ value: 'sonnet', name: 'Sonnet', group: 'Claude' }, { value: 'opus', name: 'Opus', group: 'Claude' }] }
    expect(options(renderToStaticMarkup(<ConfigOptions options={[grouped]} onChange={noop} />))).toEqual([
      { value: 'sonnet', text: 'Sonnet', selected: false },
      { value: 'opus', text: 'Opus', selected: true },
    ])
    expect(options(renderToStaticMarkup(<ConfigOptions options={[select('effort', null)]} onChange={noop} />))[0]).toEqual({ value: '', text: '—', selected: true })
  })
})

describe('names the agent gives its modes and options', () => {
  it('show their hidden and direction-changing characters as markers (hostile14)', () => {
    // Before: a mode "Ask first\u202E" drew as "Ask first", and an option's override turned its label round.
    const mode = renderToStaticMarkup(<ModeSelect modes={{ currentModeId: 'x', availableModes: [{ id: 'x', name: 'Ask first\u202E' }] }} onChange={noop} />)
    expect(options(mode).map((o) => o.text)).toEqual(['Ask first⟨U+202E⟩'])
    const config = renderToStaticMarkup(
      <ConfigOptions options={[{ ...select('Model\u200b', 'low'), options: [{ value: 'low', name: 'Lo\u202Ew' }] }, { id: 'b', name: 'Sa\u202Efe', type: 'boolean', currentValue: false, options: [], raw: {} }]} onChange={noop} />,
    )
    expect(config).not.toMatch(/[\u202e\u200b]/)
    expect(config).toContain('Model⟨U+200B⟩')
    expect(config).toContain('Lo⟨U+202E⟩w')
    expect(config).toContain('Sa⟨U+202E⟩fe')
  })
})
