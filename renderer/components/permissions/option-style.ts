/**
 * How permission options look. Only the four ACP kinds get an icon and an allow/reject tone; any other
 * kind (v2 `_custom`, future values, seed-era `allow`/`deny`) is neutral and labelled by its name only
 * (checklist G4, K9): Bosun never infers allow or deny from an unknown kind.
 */
export type OptionTone = 'allow' | 'reject' | 'neutral'

export interface OptionAppearance {
  tone: OptionTone
  /** A decorative glyph (aria-hidden), or null. */
  icon: string | null
  /** Extra words for assistive tech, e.g. "remembered". */
  hint: string | null
}

const KNOWN: Record<string, OptionAppearance> = {
  allow_once: { tone: 'allow', icon: '✓', hint: null },
  allow_always: { tone: 'allow', icon: '✓✓', hint: 'remembered for next time' },
  reject_once: { tone: 'reject', icon: '✕', hint: null },
  reject_always: { tone: 'reject', icon: '⊘', hint: 'remembered for next time' },
}

export function optionAppearance(kind: string): OptionAppearance {
  return Object.prototype.hasOwnProperty.call(KNOWN, kind) ? KNOWN[kind]! : { tone: 'neutral', icon: null, hint: null }
}

/** The shortcut of the option at `index` (1..9), or null past nine. */
export function shortcutFor(index: number): string | null {
  return index < 9 ? String(index + 1) : null
}

/**
 * The option index a key selects, or null. Only plain digit keys 1..9 count (no modifiers, no auto-repeat:
 * a held key must not approve several prompts in a row).
 */
export function optionIndexForKey(event: { key: string; altKey?: boolean; ctrlKey?: boolean; metaKey?: boolean; repeat?: boolean }, count: number): number | null {
  if (event.altKey || event.ctrlKey || event.metaKey || event.repeat) return null
  if (!/^[1-9]$/.test(event.key)) return null
  const index = Number(event.key) - 1
  return index < count ? index : null
}

/**
 * What a key press inside a pending prompt does: answer with an option (1..9), dismiss (Escape → `null`),
 * or nothing (`undefined`).
 */
export function promptKeyAction(
  event: { key: string; altKey?: boolean; ctrlKey?: boolean; metaKey?: boolean; repeat?: boolean },
  options: readonly { optionId: string }[],
): string | null | undefined {
  if (event.key === 'Escape') return null
  const index = optionIndexForKey(event, options.length)
  return index === null ? undefined : options[index]!.optionId
}
