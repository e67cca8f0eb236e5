import { describe, expect, it } from 'vitest'
import { isNewSessionKey, isSettingsKey, settingsShortcut, shortcutList } from '../../../renderer/components/common/shortcuts'
import { promptKeyAction } from '../../../renderer/components/permissions/option-style'
import { nextRegion, regionKey } from '../../../renderer/components/common/regions'

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

const keysFor = (list: ReturnType<typeof shortcutList>, what: string) => list.flatMap((g) => g.items).filter((i) => i.what.startsWith(what)).map((i) => i.keys)

describe('F6 between the window’s regions', () => {
  it('F6 goes forwards, Shift+F6 backwards; with Ctrl, Alt or ⌘ it is not the app’s', () => {
    expect(regionKey(key('F6'))).toBe('next')
    expect(regionKey(key('F6', { shift: true }))).toBe('previous')
    for (const mods of [{ ctrl: true }, { alt: true }, { meta: true }]) expect(regionKey(key('F6', mods))).toBeNull()
    expect(regionKey(key('F5'))).toBeNull()
  })

  it('goes round the regions shown, and from none starts at the first (or, backwards, the last)', () => {
    expect([0, 1, 2].map((i) => nextRegion(i, 3, 'next'))).toEqual([1, 2, 0])
    expect([0, 1, 2].map((i) => nextRegion(i, 3, 'previous'))).toEqual([2, 0, 1])
    expect(nextRegion(-1, 3, 'next')).toBe(0)
    expect(nextRegion(-1, 3, 'previous')).toBe(2)
    expect(nextRegion(-1, 0, 'next')).toBe(-1)
  })

  it('is in the list Settings shows', () => {
    expect(keysFor(shortcutList('browser', false), 'Move between the sidebar')).toEqual(['F6, Shift+F6'])
  })
})

describe('the list of shortcuts in Settings', () => {

  it('names the keys each host gives the page: the browser keeps Ctrl+N for itself', () => {
    expect(keysFor(shortcutList('browser', false), 'New session')).toEqual(['Ctrl+Shift+O'])
    expect(keysFor(shortcutList('electron', false), 'New session')).toEqual(['Ctrl+N', 'Ctrl+Shift+O'])
    expect(keysFor(shortcutList('electron', true), 'New session')).toEqual(['⌘N', '⌘⇧O'])
    expect(keysFor(shortcutList('browser', false), 'Open or close Settings')).toEqual([settingsShortcut(false).label])
  })

  it('the permission keys are the ones a prompt answers to', () => {
    const options = [
      { optionId: 'a', kind: 'allow_once' },
      { optionId: 'b', kind: 'allow_always' },
      { optionId: 'c', kind: 'reject_once' },
      { optionId: 'd', kind: 'reject_always' },
    ]
    const permission = shortcutList('browser', false).find((g) => g.group.startsWith('In a permission request'))!.items
    for (const [key, optionId] of [['1', 'a'], ['2', 'b'], ['3', 'c'], ['4', 'd']] as const) {
      expect(permission.some((i) => i.keys === key)).toBe(true)
      expect(promptKeyAction({ key }, options)).toBe(optionId)
    }
    expect(promptKeyAction({ key: 'Escape' }, options)).toBeNull()
  })

  it('words the permission keys as the rest of Bosun does (“always allow”, as Remembered decisions says; it said “Allow always”)', () => {
    const permission = shortcutList('browser', false).find((g) => g.group.startsWith('In a permission request'))!.items
    expect(permission.slice(0, 4).map((i) => i.what)).toEqual(['Allow once', 'Always allow', 'Reject once', 'Always reject'])
  })
})
