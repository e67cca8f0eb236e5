import { describe, expect, it } from 'vitest'
import { isNewSessionKey, isSettingsKey } from '../../../renderer/components/common/shortcuts'

/** A keydown as the page hears it (node has no KeyboardEvent; only these fields are read). */
const key = (k: string, mods: { ctrl?: boolean; meta?: boolean; shift?: boolean; alt?: boolean } = {}) =>
  ({ key: k, ctrlKey: !!mods.ctrl, metaKey: !!mods.meta, shiftKey: !!mods.shift, altKey: !!mods.alt }) as KeyboardEvent

describe('the app’s shortcut keys', () => {
  it('Settings is Ctrl+, or ⌘+, and nothing else', () => {
    expect(isSettingsKey(key(',', { ctrl: true }))).toBe(true)
    expect(isSettingsKey(key(',', { meta: true }))).toBe(true)
    expect(isSettingsKey(key(','))).toBe(false)
    expect(isSettingsKey(key(',', { ctrl: true, shift: true }))).toBe(false)
    expect(isSettingsKey(key(',', { ctrl: true, alt: true }))).toBe(false)
    expect(isSettingsKey(key(',', { ctrl: true, meta: true }))).toBe(false)
    expect(isSettingsKey(key('.', { ctrl: true }))).toBe(false)
  })

  it('New session is Ctrl/⌘+N or Ctrl/⌘+Shift+O; neither is Settings', () => {
    for (const event of [key('n', { ctrl: true }), key('N', { meta: true }), key('O', { ctrl: true, shift: true })]) {
      expect(isNewSessionKey(event)).toBe(true)
      expect(isSettingsKey(event)).toBe(false)
    }
    expect(isNewSessionKey(key('o', { ctrl: true }))).toBe(false)
    expect(isNewSessionKey(key('n', { ctrl: true, alt: true }))).toBe(false)
    expect(isNewSessionKey(key(',', { ctrl: true }))).toBe(false)
  })
})
