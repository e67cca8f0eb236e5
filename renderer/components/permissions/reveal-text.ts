/**
 * Makes invisible and direction-changing characters visible. Agent strings are untrusted (checklist J9):
 * a command like `ls \u202E;rm -rf ~` can look harmless when rendered. Pure, so it is unit-tested in Node.
 */

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

/** C1 controls, bidi embeddings/overrides/isolates/marks, zero-width and other invisible format characters. */
const BEYOND_C0 = '\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb'
/** The above and the C0 controls. */
const HIDDEN = new RegExp(`[\u0000-\u001f${BEYOND_C0}]`, 'u')
const HIDDEN_BEYOND_C0 = new RegExp(`[${BEYOND_C0}]`, 'gu')

/**
 * `text` with the hidden characters other than C0 controls written as `\uXXXX` escapes: for JSON text, where
 * JSON.stringify escapes C0 itself (and its own line breaks must stay), so the result is still valid JSON.
 */
export function escapeHiddenBeyondC0(text: string): string {
  return text.replace(HIDDEN_BEYOND_C0, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

export function isHiddenCharacter(char: string): boolean {
  return HIDDEN.test(char)
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
export function revealControlChars(text: string, options: { keepNewlines?: boolean; prose?: boolean } = {}): TextSegment[] {
  const segments: TextSegment[] = []
  let run = ''
  const flush = () => {
    if (run !== '') segments.push({ kind: 'text', value: run })
    run = ''
  }
  const source = options.prose ? text.replace(/\r\n?/g, '\n') : text
  for (const char of source) {
    // Prose (a permission's description): line breaks and tabs are layout, not hidden characters.
    if (!isHiddenCharacter(char) || (options.prose && (char === '\n' || char === '\t'))) {
      run += char
      continue
    }
    flush()
    const cp = char.codePointAt(0)!
    const code = codePoint(char)
    const name = NAMES[cp] ?? (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ? 'CONTROL CHARACTER' : 'INVISIBLE CHARACTER')
    segments.push({ kind: 'control', value: char, code: MARKERS[cp] ?? code, label: `${code} ${name}` })
    if (char === '\n' && options.keepNewlines) run += '\n'
  }
  flush()
  return segments
}

/** Plain-text rendering with markers as `⟨U+202E⟩` (for titles/aria labels where markup is not possible). */
export function revealAsText(text: string): string {
  return revealControlChars(text)
    .map((s) => (s.kind === 'text' ? s.value : `⟨${s.code}⟩`))
    .join('')
}
