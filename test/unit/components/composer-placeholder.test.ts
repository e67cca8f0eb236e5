/**
 * The message box's placeholder: the longest wording that fits, and for an agent name too long for any of them, the
 * name cut with an ellipsis ("Message Claude Code Enter…"), never a bare "Message" that no longer says whose box it is.
 */
import { describe, expect, it } from 'vitest'
import { composerPlaceholder } from '../../../renderer/components/composer/placeholder'

/** Fits when at most `max` characters long (a box measured in characters). */
const upTo = (max: number) => (text: string) => Array.from(text).length <= max

describe('composerPlaceholder', () => {
  const name = 'Claude Code Enterprise Edition for the Platform Infrastructure Team (staging build)'

  it('takes the longest wording that fits', () => {
    expect(composerPlaceholder('Codex', { files: true, fits: upTo(200) })).toBe('Message Codex (/ for commands, @ for files, Shift+Enter for a new line)')
    expect(composerPlaceholder('Codex', { files: true, fits: upTo(50) })).toBe('Message Codex (/ for commands, @ for files)')
    expect(composerPlaceholder('Codex', { files: false, fits: upTo(13) })).toBe('Message Codex')
  })

  it('cuts a name too long for the box, keeping as much of it as fits, with no space before the ellipsis', () => {
    expect(composerPlaceholder(name, { files: true, fits: upTo(40) })).toBe('Message Claude Code Enterprise Edition…')
    expect(composerPlaceholder(name, { files: true, fits: upTo(20) })).toBe('Message Claude Code…')
    for (const max of [13, 30, 60, 90]) {
      const text = composerPlaceholder(name, { files: true, fits: upTo(max) })
      expect(Array.from(text).length).toBeLessThanOrEqual(max)
      expect(text).toMatch(/^Message Clau.*…$/)
      expect(text).not.toMatch(/\s…$/)
    }
  })

  it('says only "Message" when not even a few letters of the name fit', () => {
    expect(composerPlaceholder(name, { files: true, fits: upTo(11) })).toBe('Message')
  })
})
