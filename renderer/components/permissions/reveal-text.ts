/**
 * Makes invisible and direction-changing characters visible. Agent strings are untrusted (checklist J9):
 * a command like `ls \u202E;rm -rf ~` can look harmless when rendered. Pure, so it is unit-tested in Node.
 */

import { HIDDEN_BEYOND_C0_CLASS } from '../../../common/hidden-characters'

export type TextSegment = { kind: 'text'; value: string } | { kind: 'control'; value: string; code: string; label: string }

const NAMES: Record<number, string> = {
  0x00: 'NULL',
  0x07: 'BELL',
  0x08: 'BACKSPACE',
  0x09: 'TAB',
  0x0a: 'LINE FEED',
  0x0b: 'VERTICAL TAB',
  0x0c: 'FORM FEED',
  0x0d: 'CARRIAGE RETURN',
  0x1b: 'ESCAPE',
  0x7f: 'DELETE',
  0xad: 'SOFT HYPHEN',
  0x061c: 'ARABIC LETTER MARK',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x2028: 'LINE SEPARATOR',
  0x2029: 'PARAGRAPH SEPARATOR',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
}

/** Short visible markers for the common ones; the rest show their code point. */
const MARKERS: Record<number, string> = { 0x09: '⇥', 0x0a: '⏎', 0x0d: '␍', 0x1b: '␛', 0x00: '␀' }

/** {@link HIDDEN_BEYOND_C0_CLASS} (shared with main's notifications) and the C0 controls. (Each listed character is matched alone, combining ones included: that is the point.) */
const HIDDEN = new RegExp(`[\u0000-\u001f${HIDDEN_BEYOND_C0_CLASS}]`, 'u')
const HIDDEN_BEYOND_C0 = new RegExp(`[${HIDDEN_BEYOND_C0_CLASS}]`, 'gu')

/** Code units as `\uXXXX` escapes (two for a character beyond the BMP). */
const escapeUnits = (char: string): string =>
  Array.from({ length: char.length }, (_, i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`).join('')

/**
 * `text` with the hidden characters other than C0 controls written as `\uXXXX` escapes: for JSON text, where
 * JSON.stringify escapes C0 itself (and its own line breaks must stay), so the result is still valid JSON.
 */
export function escapeHiddenBeyondC0(text: string): string {
  return text.replace(HIDDEN_BEYOND_C0, escapeUnits)
}

/** Characters that draw as blank space; in a command, a long run of them (or of line feeds) can push its end out of sight. */
const BLANK_CLASS = '[ \u00a0\u2000-\u200a\u202f\u205f\u3000]'
const BLANK = new RegExp(BLANK_CLASS, 'u')
/** Runs at least this long are shown collapsed in commands (`collapseRuns`). */
export const BLANK_RUN = 16
export const NEWLINE_RUN = 3
/**
 * In prose, line feeds are layout, but this many in a row, blank lines between them, are padding: an agent's 10,000
 * empty lines in an approval's description pushed its command and options a page's height out of sight. The run shows
 * as one marker with its count, on a line of its own.
 */
export const PROSE_NEWLINE_RUN = 4
/** Line feeds with nothing but blanks and tabs between them: blank lines, however they are spelled. */
const PADDING = new RegExp(`${BLANK_CLASS}{${BLANK_RUN},}|\n(?:(?:${BLANK_CLASS}|\t)*\n){${NEWLINE_RUN - 1},}`, 'u')

/** Whether a command is padded: a run of blank characters or line feeds long enough to hide what follows. */
export function isPadded(text: string): boolean {
  return PADDING.test(text)
}

/**
 * The blank lines from a line feed at `start`: up to the last line feed reached through line feeds, blanks and tabs
 * alone (`end`, past it), and how many line feeds that is.
 */
function blankLinesAt(chars: readonly string[], start: number): { end: number; feeds: number } {
  let end = start
  let feeds = 0
  for (let j = start; j < chars.length && (chars[j] === '\n' || chars[j] === '\t' || BLANK.test(chars[j]!)); j++) {
    if (chars[j] !== '\n') continue
    feeds++
    end = j + 1
  }
  return { end, feeds }
}

export function isHiddenCharacter(char: string): boolean {
  return HIDDEN.test(char)
}

const HIDDEN_IN_CODE = new RegExp(`[\u0000-\u0008\u000b-\u001f${HIDDEN_BEYOND_C0_CLASS}]`, 'u')

/** Whether code (a diff's line, a file's text) hides characters: as {@link hasHiddenCharacters}, but tabs and line feeds are layout. */
export function hasHiddenCharactersInCode(text: string): boolean {
  return HIDDEN_IN_CODE.test(text)
}

export function hasHiddenCharacters(text: string): boolean {
  for (const char of text) if (isHiddenCharacter(char) && char !== '\n') return true
  return false
}

const codePoint = (char: string): string => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`

/**
 * Splits text into plain runs and visible markers. `keepNewlines`: a line feed is shown as a marker
 * followed by a real line break (multi-line commands stay readable, and a hidden second line is obvious).
 * `prose`: line feeds, CR LF and tabs are kept as plain layout (explanatory text, never commands or paths);
 * every other hidden character is still shown as a marker.
 */
export function revealControlChars(text: string, options: { keepNewlines?: boolean; prose?: boolean; collapseRuns?: boolean; /** Tabs are layout (a line of code). */ tabs?: boolean } = {}): TextSegment[] {
  const segments: TextSegment[] = []
  let run = ''
  const flush = () => {
    if (run !== '') segments.push({ kind: 'text', value: run })
    run = ''
  }
  const source = options.prose ? text.replace(/\r\n?/g, '\n') : text
  const chars = Array.from(source)
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!
    if ((options.collapseRuns || options.prose) && char === '\n') {
      // Blank lines (line feeds, blanks between them or not) padding a command or prose: the run shows as one marker with
      // its count, so what follows stays in view. In prose the marker stands on a line of its own.
      const { end, feeds } = blankLinesAt(chars, i)
      if (feeds >= (options.collapseRuns ? NEWLINE_RUN : PROSE_NEWLINE_RUN)) {
        if (!options.collapseRuns) run += '\n'
        flush()
        const value = chars.slice(i, end).join('')
        segments.push({ kind: 'control', value, code: `⏎×${feeds}`, label: `${feeds} LINE FEEDS${value.length > feeds ? ' (blank lines)' : ''}` })
        if (options.keepNewlines || !options.collapseRuns) run += '\n'
        i = end - 1
        continue
      }
    }
    if (options.collapseRuns && BLANK.test(char)) {
      // A command padded with blanks: the run shows as one marker with its length, so what follows stays in view.
      let end = i
      while (end < chars.length && BLANK.test(chars[end]!)) end++
      if (end - i >= BLANK_RUN) {
        flush()
        const kinds = new Set(chars.slice(i, end).map(codePoint))
        const what = kinds.size === 1 && char === ' ' ? 'SPACES' : `BLANK CHARACTERS (${[...kinds].join(', ')})`
        segments.push({ kind: 'control', value: chars.slice(i, end).join(''), code: `␣×${end - i}`, label: `${end - i} ${what}` })
        i = end - 1
        continue
      }
    }
    // Prose (a permission's description): line breaks and tabs are layout, not hidden characters.
    if (!isHiddenCharacter(char) || (options.prose && (char === '\n' || char === '\t')) || (options.tabs && char === '\t')) {
      run += char
      continue
    }
    flush()
    const cp = char.codePointAt(0)!
    const code = codePoint(char)
    const name = NAMES[cp] ?? (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ? 'CONTROL CHARACTER' : 'INVISIBLE CHARACTER')
    // The same hidden character many times over (50,000 zero-width spaces) is one marker with its count, not 50,000.
    let same = i + 1
    // Line feeds too, where each is not also a line break (one line of text: the inbox, a tooltip, an option).
    while (same < chars.length && chars[same] === char && (char !== '\n' || !options.keepNewlines)) same++
    if (same - i > 3) {
      segments.push({ kind: 'control', value: chars.slice(i, same).join(''), code: `${MARKERS[cp] ?? code}×${same - i}`, label: `${same - i} × ${code} ${name}` })
      i = same - 1
      continue
    }
    segments.push({ kind: 'control', value: char, code: MARKERS[cp] ?? code, label: `${code} ${name}` })
    if (char === '\n' && options.keepNewlines) run += '\n'
  }
  flush()
  return segments
}

/** Plain-text rendering with markers as `⟨U+202E⟩` (for titles/aria labels where markup is not possible). `prose`: as in {@link revealControlChars}. */
export function revealAsText(text: string, options: { prose?: boolean } = {}): string {
  return revealControlChars(text, options)
    .map((s) => (s.kind === 'text' ? s.value : `⟨${s.code}⟩`))
    .join('')
}
