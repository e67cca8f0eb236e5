/**
 * Bounds for anything Bosun keeps from an agent (session snapshots, permission and elicitation requests,
 * raw tool input/output). An agent's JSON may be nested thousands of levels deep or megabytes wide; what
 * Bosun keeps is a copy cut at fixed limits, with a visible marker where something was cut, so that one
 * session's content can never break serialisation, validation or rendering of another's.
 *
 * Environment-free and never recursive past {@link JsonBounds.maxDepth}, so it is safe on any input.
 */
import { setOwn } from './own-keys'

/** The text that replaces what was cut; the renderer shows it as it is. */
export const TRUNCATION_MARKER = '…[truncated by Bosun]'

export interface JsonBounds {
  /** Containers deeper than this become a marker string. */
  maxDepth: number
  /** Longest string kept (characters); longer ones are cut and end with the marker. */
  maxStringChars: number
  /** Most entries kept per array or object; the rest are replaced by one marker entry. */
  maxEntries: number
  /** Total characters budget (strings and keys) for the whole value; past it, values become markers. */
  maxTotalChars: number
}

/** `text` cut to `max` characters, with `…` where it was cut (an agent's text shown in one place: a title, a notice, an error). */
export const cutText = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}…` : text)

/** Generous for real agents (a big diff, a long file), small enough that no one value can hurt main. */
export const DEFAULT_JSON_BOUNDS: JsonBounds = {
  maxDepth: 48,
  maxStringChars: 1024 * 1024,
  maxEntries: 10_000,
  maxTotalChars: 4 * 1024 * 1024,
}

/** How many items of a list {@link boundJson} cut, from the marker it left as the list's last item; 0 for anything else. */
export function itemsCut(last: unknown): number {
  if (typeof last !== 'string' || !last.startsWith(TRUNCATION_MARKER)) return 0
  const more = /\((\d+) more items\)$/.exec(last)?.[1]
  return more ? Number(more) : 0
}

/** The marker for a cut container, saying what was cut. */
function marker(what: string): string {
  return `${TRUNCATION_MARKER} ${what}`
}

/**
 * `value` cut to `bounds`. Copy-on-write: when nothing exceeds the bounds the input itself is returned
 * (so calling it on every update costs one walk). Non-JSON leaves (functions, symbols, bigint) become
 * `null`; cycles are impossible in parsed JSON but are cut like depth anyway.
 */
export function boundJson<T>(value: T, bounds?: Partial<JsonBounds>): T {
  // Called on every update: the defaults are not copied.
  const b: JsonBounds = bounds ? { ...DEFAULT_JSON_BOUNDS, ...bounds } : DEFAULT_JSON_BOUNDS
  const state = { budget: b.maxTotalChars }
  return walk(value, 0, b, state) as T
}

/** True when {@link boundJson} would change nothing (for tests and assertions). */
export function isWithinBounds(value: unknown, bounds: Partial<JsonBounds> = {}): boolean {
  return boundJson(value, bounds) === value
}

/**
 * `fast`: an object is first checked whole by {@link fits} (no allocation); one that does not fit is walked with `fast`
 * off below it, so every value is looked at most twice whatever its depth (checking at every level of a value cut
 * deep down doubled the work per level: a 6,000-level input never finished).
 */
function walk(value: unknown, depth: number, b: JsonBounds, state: { budget: number }, fast = true): unknown {
  if (typeof value === 'string') {
    const allowed = Math.max(0, Math.min(b.maxStringChars, state.budget))
    if (value.length <= allowed) {
      state.budget -= value.length
      return value
    }
    state.budget -= allowed
    return value.slice(0, allowed) + `${TRUNCATION_MARKER} (${value.length - allowed} more characters)`
  }
  if (value === null || typeof value === 'number' || typeof value === 'boolean' || value === undefined) return value
  if (typeof value !== 'object') return null
  if (depth >= b.maxDepth) return marker(`(nested deeper than ${b.maxDepth} levels)`)
  if (state.budget <= 0) return marker('(size limit reached)')
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined
    let kept = Math.min(value.length, b.maxEntries)
    for (let i = 0; i < kept; i++) {
      if (state.budget <= 0) {
        // Out of budget: the rest goes as one marker.
        kept = i
        break
      }
      const item: unknown = value[i]
      const next = walk(item, depth + 1, b, state, fast)
      if (next !== item) (copy ??= value.slice(0, kept))[i] = next
    }
    if (kept < value.length) {
      copy = (copy ?? value).slice(0, kept)
      copy.push(marker(`(${value.length - kept} more items)`))
    }
    return copy ?? value
  }
  const record = value as Record<string, unknown>
  // Nearly every object is within the bounds: found so without the array of its keys made (one per object of every
  // update, the most of what main allocated for a flood after JSON.parse). Past a bound, walked again below.
  if (fast) {
    const before = state.budget
    if (fits(record, depth, b, state)) return value
    state.budget = before
  }
  const keys = Object.keys(record)
  let kept = Math.min(keys.length, b.maxEntries)
  let copy: Record<string, unknown> | undefined
  for (let i = 0; i < kept; i++) {
    if (state.budget <= 0) {
      kept = i
      if (copy) for (const key of keys.slice(i)) delete copy[key]
      break
    }
    const key = keys[i]!
    const item = record[key]
    let name = key
    if (key.length > 256) name = key.slice(0, 256) + TRUNCATION_MARKER
    state.budget -= Math.min(key.length, 256)
    const next = walk(item, depth + 1, b, state, false)
    if (next === item && name === key) continue
    copy ??= copyOf(record, keys, kept)
    if (name !== key) delete copy[key]
    setOwn(copy, name, next)
  }
  if (kept < keys.length) {
    copy ??= copyOf(record, keys, kept)
    setOwn(copy, TRUNCATION_MARKER, `(${keys.length - kept} more fields)`)
  }
  return copy ?? value
}

/**
 * Whether {@link walk} leaves `value` as it is, taking from the budget what walk would; when false the budget is
 * spent only in part. Recursive into itself only (never into walk), so it costs one look at each value.
 */
function fits(value: unknown, depth: number, b: JsonBounds, state: { budget: number }): boolean {
  if (typeof value === 'string') {
    if (value.length > Math.max(0, Math.min(b.maxStringChars, state.budget))) return false
    state.budget -= value.length
    return true
  }
  if (value === null || typeof value === 'number' || typeof value === 'boolean' || value === undefined) return true
  if (typeof value !== 'object' || depth >= b.maxDepth || state.budget <= 0) return false
  if (Array.isArray(value)) {
    if (value.length > b.maxEntries) return false
    for (const item of value as unknown[]) if (state.budget <= 0 || !fits(item, depth + 1, b, state)) return false
    return true
  }
  const record = value as Record<string, unknown>
  let count = 0
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue
    if (++count > b.maxEntries || state.budget <= 0 || key.length > 256) return false
    state.budget -= key.length
    if (!fits(record[key], depth + 1, b, state)) return false
  }
  return true
}

/** A null-prototype-free plain copy of the first `count` entries (a key `__proto__` stays an own field). */
function copyOf(record: Record<string, unknown>, keys: string[], count: number): Record<string, unknown> {
  const copy: Record<string, unknown> = {}
  for (let i = 0; i < count; i++) setOwn(copy, keys[i]!, record[keys[i]!])
  return copy
}

