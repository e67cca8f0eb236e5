import { HIDDEN_BEYOND_C0_CLASS } from '../../../common/hidden-characters'

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

/**
 * Keys mean the same thing with every agent (issue 10 §1): 1 = allow once, 2 = allow always, 3 = reject once,
 * 4 = reject always, whatever order the agent sent; a kind the agent did not offer leaves its key unused. Options
 * of other kinds (and second options of a known kind) follow in the agent's order on 5..9.
 */
const KIND_KEY: Record<string, number> = { allow_once: 1, allow_always: 2, reject_once: 3, reject_always: 4 }

export interface ArrangedOption<O> {
  option: O
  /** The option's index in the agent's list (buttons are keyed by it: option ids may repeat, G5). */
  index: number
  /** "1".."9", or null past nine. */
  key: string | null
}

/** The options in display order (allow once, allow always, reject once, reject always, then the rest), with their keys. */
export function arrangeOptions<O extends { kind: string }>(options: readonly O[]): ArrangedOption<O>[] {
  const known: ArrangedOption<O>[] = []
  const rest: ArrangedOption<O>[] = []
  const taken = new Set<number>()
  options.forEach((option, index) => {
    const slot = Object.prototype.hasOwnProperty.call(KIND_KEY, option.kind) ? KIND_KEY[option.kind]! : null
    if (slot !== null && !taken.has(slot)) {
      taken.add(slot)
      known.push({ option, index, key: String(slot) })
    } else rest.push({ option, index, key: null })
  })
  known.sort((a, b) => Number(a.key) - Number(b.key))
  rest.forEach((entry, i) => {
    entry.key = 5 + i <= 9 ? String(5 + i) : null
  })
  return [...known, ...rest]
}

/** The option a key selects, or null. Only plain digit keys count (no modifiers, no auto-repeat: a held key must not approve several prompts in a row). */
export function optionForKey<O extends { kind: string }>(
  event: { key: string; altKey?: boolean; ctrlKey?: boolean; metaKey?: boolean; repeat?: boolean },
  options: readonly O[],
): O | null {
  if (event.altKey || event.ctrlKey || event.metaKey || event.repeat) return null
  if (!/^[1-9]$/.test(event.key)) return null
  return arrangeOptions(options).find((entry) => entry.key === event.key)?.option ?? null
}

/**
 * What a key press inside a pending prompt does: answer with an option (by its kind's key), dismiss
 * (Escape → `null`), or nothing (`undefined`).
 */
export function promptKeyAction(
  event: { key: string; altKey?: boolean; ctrlKey?: boolean; metaKey?: boolean; repeat?: boolean },
  options: readonly { optionId: string; kind: string }[],
): string | null | undefined {
  if (event.key === 'Escape') return null
  return optionForKey(event, options)?.optionId ?? undefined
}

/** Option names are the agent's words: drawn at most this long (the whole name is the button's title). */
export const MAX_OPTION_NAME_CHARS = 80

const ALLOW_WORDS = /\b(allow|approve|accept|yes|proceed|run|always)\b|✓|✔/i
const REJECT_WORDS = /\b(reject|deny|decline|refuse|no|cancel|block|stop|never)\b|✕|✗|⊘|❌/i

/**
 * What the option really does, in words, when its name says otherwise ("✕ Reject" on an allow option): the kind decides
 * what Bosun answers, so a name that claims the opposite gets a visible correction. Null when the name agrees, or the
 * kind is not one of the four Bosun knows.
 */
export function contradictingName(kind: string, shown: string): string | null {
  const tone = optionAppearance(kind).tone
  if (tone === 'neutral') return null
  const name = lookalikeSkeleton(shown)
  if (tone === 'allow' && REJECT_WORDS.test(name) && !ALLOW_WORDS.test(name)) return kind === 'allow_always' ? 'allows, and remembers' : 'allows'
  if (tone === 'reject' && ALLOW_WORDS.test(name) && !REJECT_WORDS.test(name)) return kind === 'reject_always' ? 'rejects, and remembers' : 'rejects'
  return null
}

/**
 * Latin look-alikes among Cyrillic, Greek and Latin's own letters (Unicode's confusables for the letters of the words
 * above): "Rеject" with a Cyrillic е reads as Reject and no word test matched it.
 */
const LOOKALIKES: Record<string, string> = {
  а: 'a', в: 'b', с: 'c', ԁ: 'd', е: 'e', ё: 'e', һ: 'h', і: 'i', ї: 'i', ј: 'j', к: 'k', ӏ: 'l', м: 'm', о: 'o', р: 'p', ԛ: 'q', ѕ: 's', т: 't', у: 'y', х: 'x', ԝ: 'w', п: 'n',
  α: 'a', β: 'b', ε: 'e', η: 'n', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', γ: 'y',
  ı: 'i', ȷ: 'j', ɑ: 'a', ɡ: 'g', ɩ: 'i', ʏ: 'y', ℓ: 'l', օ: 'o', ս: 'u', ց: 'g', ո: 'n',
}
const HIDDEN = new RegExp(`[\\u0000-\\u001f${HIDDEN_BEYOND_C0_CLASS}]`, 'gu')

/**
 * The name as the word tests read it: compatibility forms folded (fullwidth, mathematical letters), accents and
 * hidden characters left out, and a look-alike letter read as the Latin one it imitates, only within a word that has
 * Latin letters too or is all look-alikes (a Russian "Разрешить" keeps its own letters).
 */
function lookalikeSkeleton(name: string): string {
  const folded = name.normalize('NFKD').replace(/\p{Mn}/gu, '').replace(HIDDEN, '')
  return folded.replace(/[\p{L}]+/gu, (word) => {
    const lower = word.toLowerCase()
    const mapped = Array.from(lower, (ch) => LOOKALIKES[ch] ?? ch).join('')
    const imitates = /[a-z]/.test(lower) || /^[a-z]+$/.test(mapped)
    return imitates ? mapped : word
  })
}
