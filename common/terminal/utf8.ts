/**
 * UTF-8 byte counts of JavaScript strings without Node's `Buffer` or the DOM's `TextEncoder`, so the terminal text
 * (what an agent reads from `terminal/output`, and what a card shows) is the same code in every process. A lone
 * surrogate counts as the three bytes of U+FFFD it is encoded as.
 */

// eslint-disable-next-line no-control-regex
const NOT_ASCII = /[^\x00-\x7f]/

/** Bytes `text` takes in UTF-8. */
export function utf8Length(text: string): number {
  if (!NOT_ASCII.test(text)) return text.length
  let bytes = 0
  for (let i = 0; i < text.length; ) {
    const size = charBytes(text, i)
    bytes += size
    i += size === 4 ? 2 : 1
  }
  return bytes
}

/**
 * `text` without its first `bytes` UTF-8 bytes, cut at the first character boundary at or after them (a character
 * is never split, so a few more bytes than asked may go). Returns what is left and how many bytes went.
 */
export function dropUtf8Head(text: string, bytes: number): { rest: string; dropped: number } {
  let dropped = 0
  let i = 0
  while (i < text.length && dropped < bytes) {
    const size = charBytes(text, i)
    dropped += size
    i += size === 4 ? 2 : 1
  }
  return { rest: text.slice(i), dropped }
}

/** UTF-8 bytes of the character at `i`: 4 only for a surrogate pair, which takes two units. */
function charBytes(text: string, i: number): number {
  const code = text.charCodeAt(i)
  if (code < 0x80) return 1
  if (code < 0x800) return 2
  return code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1)) ? 4 : 3
}

export function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}
