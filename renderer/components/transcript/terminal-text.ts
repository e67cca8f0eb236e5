/**
 * Terminal output made safe to show as plain text: ANSI/VT escape sequences (CSI, OSC, DCS, single-char
 * escapes) are removed, CRLF becomes LF, a lone CR becomes LF, and other control characters (C0 except
 * tab/newline, DEL, C1) are dropped so nothing can move the cursor, retitle the window or hide text.
 */
// eslint-disable-next-line no-control-regex
const OSC_LIKE = /\x1b[\]PX^_][\s\S]*?(?:\x07|\x1b\\|$)/g
// eslint-disable-next-line no-control-regex
const CSI = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]/g
// eslint-disable-next-line no-control-regex
const TWO_CHAR = /\x1b[ -/]*[0-~]?/g
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g

/** The text without its escape sequences (colours, cursor moves, titles); its line breaks and carriage returns kept. */
export function withoutEscapes(text: string): string {
  return text.replace(OSC_LIKE, '').replace(CSI, '').replace(TWO_CHAR, '')
}

export function neutraliseEscapes(text: string): string {
  return withoutEscapes(text)
    .replace(/\r\n/g, '\n')
    .replace(/\r/g, '\n')
    .replace(CONTROL, '')
}
