import { TerminalText } from '../../../common/terminal/terminal-text'

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

/**
 * A command's output as a terminal leaves it on screen: escape sequences (colours, cursor moves, titles) removed, and
 * a carriage return writing the line again over what it had, so a progress bar reads as its last frame; CRLF stays one
 * line end. Other control characters but tab are dropped. For output an agent sends as text (claude-agent-acp's Bash
 * result, in a code fence), where they showed as "␛[01;34mbin␛[0m" and as every frame of the bar. The same reading
 * as what an agent gets back from `terminal/output` ({@link TerminalText}).
 */
export function asATerminalLeavesIt(text: string): string {
  const terminal = new TerminalText(Number.MAX_SAFE_INTEGER)
  terminal.append(text)
  return terminal.text()
}
