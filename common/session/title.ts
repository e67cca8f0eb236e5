/**
 * The name a session is listed under when the person gave it none: the agent's title, else the text of the first
 * prompt. Main stores it with the history; the renderer names open sessions the same way before that write lands.
 */
import type { SessionState } from './types'

/** The last part of a folder's path, with either separator. */
export const folderName = (path: string): string => path.replace(/[\\/]+$/, '').split(/[\\/]/).pop() || path

/** What a session without a title is called, everywhere it is named: after its folder. */
export const untitledName = (cwd: string): string => `Session in ${folderName(cwd)}`

/** `text` with lone surrogates and NUL replaced by U+FFFD (what SQLite, JSON and the DOM all keep as they are). */
export function cleanText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\u0000/g, '\uFFFD')
}

/**
 * Titles by state: states are immutable, and one state is asked more than once (the renderer names every open
 * session on each store update; the history recorder twice per write).
 */
const titles = new WeakMap<object, string | null>()

/** The agent's title (first 512 characters), else the first prompt's text on one line (first 120), else null. */
export function derivedTitle(state: Pick<SessionState, 'title' | 'entries'>): string | null {
  let title = titles.get(state)
  if (title === undefined) {
    title = computeTitle(state)
    titles.set(state, title)
  }
  return title
}

/**
 * Bidi embeddings, overrides and isolates, and direction marks: in a title they only serve to make it read as
 * something else ("Fix login \u202Efdp.exe" shows as "Fix login exe.pdf") and to reorder the UI drawn after it.
 * Right-to-left text itself needs none of them.
 */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/** A title as it is listed: clean text without bidi controls. */
export const titleText = (text: string): string => cleanText(text).replace(BIDI_CONTROLS, '')

function computeTitle(state: Pick<SessionState, 'title' | 'entries'>): string | null {
  if (state.title) return titleText(state.title.slice(0, 512))
  const first = state.entries.find((e) => e.kind === 'user_message')
  if (!first || first.kind !== 'user_message') return null
  const parts: string[] = []
  for (const block of first.content) {
    const text = (block as { text?: unknown }).text
    if (typeof text === 'string') parts.push(text.slice(0, 4096))
  }
  const text = parts.join(' ').replace(/\s+/g, ' ').trim()
  return text ? titleText(text.slice(0, 120)) : null
}
