/**
 * Whether main can vouch for a link the renderer asks it to open: the link must actually occur in what the
 * agent wrote in that session (messages, thoughts, tool calls, plans), as main holds it in its own session
 * state. A compromised renderer can ask for any address; main opens only the ones an agent showed the
 * person (and, for URL elicitations, only the one it offered: see `open-external.ts`).
 */
import type { SessionState } from '../../common/session/types'

/** How deep and how many strings the walk looks at (agent content is bounded by the session model already). */
const MAX_DEPTH = 24
const MAX_STRINGS = 500_000

/** Every string in the agent's part of the session: every entry except the person's own messages, and the plans. */
export function* agentStrings(state: SessionState): Generator<string> {
  let budget = MAX_STRINGS
  function* walk(value: unknown, depth: number): Generator<string> {
    if (budget <= 0 || depth > MAX_DEPTH) return
    if (typeof value === 'string') {
      budget--
      yield value
    } else if (Array.isArray(value)) {
      for (const item of value) yield* walk(item, depth + 1)
    } else if (value !== null && typeof value === 'object') {
      for (const item of Object.values(value)) yield* walk(item, depth + 1)
    }
  }
  for (const entry of state.entries) {
    if (entry.kind === 'user_message') continue
    yield* walk(entry, 0)
  }
  yield* walk(state.plans, 0)
}

/**
 * The spellings under which `url` can appear in Markdown source: as the renderer received it, with its
 * percent-escapes decoded (markdown-it encodes non-ASCII link targets), and without the `http://` that
 * linkify adds to a bare `www.` address.
 */
export function linkSpellings(url: string): string[] {
  const spellings = new Set([url])
  try {
    spellings.add(decodeURI(url))
  } catch {
    // Not valid percent-encoding: only the literal spelling counts.
  }
  for (const spelling of [...spellings]) {
    if (/^http:\/\/www\./i.test(spelling)) spellings.add(spelling.slice('http://'.length))
  }
  return [...spellings].filter((s) => s.length > 0)
}

/** Characters that continue a URL: a match followed by one of these is only the start of a longer link. */
const URL_CHAR = /[A-Za-z0-9\-_/#?%&=+@~$]/
/** Punctuation that ends a sentence after a link, unless the link goes on after it (`example.com`, `host:8080`). */
const TRAILING = /[.,;:!?*'"]/

/**
 * Whether `spelling` occurs in `text` as a whole link: not a truncation of a longer one (`https://good.example.co`
 * inside `https://good.example.com`, a host without its port), and not the tail of a longer word.
 */
export function occursAsWholeLink(text: string, spelling: string): boolean {
  for (let at = text.indexOf(spelling); at !== -1; at = text.indexOf(spelling, at + 1)) {
    const before = text[at - 1]
    if (before !== undefined && /[A-Za-z0-9.\-_/:@]/.test(before)) continue
    const after = text[at + spelling.length]
    const next = text[at + spelling.length + 1]
    if (after !== undefined && URL_CHAR.test(after)) continue
    if (after !== undefined && TRAILING.test(after) && next !== undefined && URL_CHAR.test(next)) continue
    return true
  }
  return false
}

/** True when the agent's content in `state` contains `url` as a whole link (in one of its {@link linkSpellings}). */
export function linkOccursIn(state: SessionState, url: string): boolean {
  const spellings = linkSpellings(url)
  for (const text of agentStrings(state)) {
    for (const spelling of spellings) if (occursAsWholeLink(text, spelling)) return true
  }
  return false
}
