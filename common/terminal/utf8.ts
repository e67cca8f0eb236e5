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
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4
      i++
    } else bytes += 3
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
    const code = text.charCodeAt(i)
    if (code < 0x80) dropped += 1
    else if (code < 0x800) dropped += 2
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      dropped += 4
      i++
    } else dropped += 3
    i++
  }
  return { rest: text.slice(i), dropped }
}

export function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}
