/**
 * What the agent reads back from `terminal/output`: the terminal's stream as plain text (Zed too answers with
 * its terminal's text, not the bytes). The raw stream goes in chunk by chunk, split anywhere, even inside an
 * escape sequence; the session's terminal view keeps the raw stream. In the text:
 * - escape sequences are gone: CSI (colours, cursor moves, modes such as `ESC[?1h`), OSC, DCS, SOS, PM and APC
 *   strings up to BEL or ST, and two-character escapes (`ESC =`), in their 7-bit and C1 forms;
 * - CRLF (and the PTY's CRCRLF for a program's own CRLF) is LF;
 * - a lone CR returns to the start of the line and what follows writes over what was there, as on a terminal: a
 *   progress bar reads as its last frame, and a shorter frame leaves the end of a longer one ("Done" over
 *   "Downloading 10%" reads "Doneloading 10%"). Cursor to a column (`ESC[nG`) moves along the line; erasing
 *   (`ESC[K` to the end of the line, `ESC[1K` to the cursor, `ESC[2K` all of it) blanks what the screen would; a
 *   backspace moves back one character, which the next one writes over;
 * - other control characters are dropped, tab kept.
 * Other cursor movement (up, down, to a row) is not followed: a full-screen program reads as the text it wrote, in
 * order. A line wraps at {@link ROW_CHARS} characters, as on a screen that wide: a return goes back to the start of
 * its last row, and what wrapped is final. So every edit costs at most a row, whatever the line's length.
 * The same class serves main (`terminal/output`, the export) and the renderer (command output an agent sends as
 * text): it counts UTF-8 bytes itself, without Node's `Buffer`.
 * At most `limit` UTF-8 bytes are kept, dropped from the start at a character boundary (checklist G29), and
 * `truncated` says once any was.
 */
import { OutputBuffer } from './output-buffer'
import { dropUtf8Head, isLowSurrogate, utf8Length } from './utf8'

type State = 'ground' | 'escape' | 'escapeIntermediate' | 'csi' | 'string' | 'stringEscape'

// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f-\x9f]/g
const ESC = 0x1b
/** C1 controls that open a string (DCS, SOS, OSC, PM, APC), and ST that closes one. */
const C1_STRINGS = new Set([0x90, 0x98, 0x9d, 0x9e, 0x9f])
const C1_CSI = 0x9b
const C1_ST = 0x9c
/** Parameter characters of one CSI kept to read it (the rest of a longer one is ignored). */
const MAX_CSI_PARAMS = 16
/** The widest row a return goes back over (UTF-16 units): wider than any screen, small enough to edit cheaply. */
export const ROW_CHARS = 1024

export class TerminalText {
  /** Finished lines (each with its LF). */
  private readonly done: OutputBuffer
  /** The row being written (at most ROW_CHARS once a write is over): a return may still write over it. */
  private line = ''
  private lineBytes = 0
  /** Where the next character goes in `line` (UTF-16 units); past its end, the gap is blanks. */
  private column = 0
  /** Text final since the last flush to `done`: finished lines, and rows a long line wrapped out of `line`. */
  private finished = ''
  private state: State = 'ground'
  private csiParams = ''
  private dropped = false

  constructor(readonly limit: number) {
    this.done = new OutputBuffer(limit)
  }

  get truncated(): boolean {
    return this.dropped || this.done.truncated
  }

  text(): string {
    return this.done.text() + this.line
  }

  append(raw: string): void {
    let i = 0
    while (i < raw.length) {
      if (this.state !== 'ground') {
        // Not consumed: the character ended the sequence and means something of its own.
        if (this.inSequence(raw.charCodeAt(i))) i++
        continue
      }
      CONTROL.lastIndex = i
      const control = CONTROL.exec(raw)
      const end = control ? control.index : raw.length
      if (end > i) this.write(raw.slice(i, end))
      if (!control) break
      i = end + 1
      const code = raw.charCodeAt(end)
      if (code === 0x0a || code === 0x0b || code === 0x0c) {
        this.finished += this.line + '\n'
        this.line = ''
        this.lineBytes = 0
        this.column = 0
      } else if (code === 0x0d) this.column = 0
      else if (code === 0x09) this.write('\t')
      else if (code === 0x08) this.backspace()
      else if (code === ESC) this.state = 'escape'
      else if (code === C1_CSI) this.startCsi()
      else if (C1_STRINGS.has(code)) this.state = 'string'
    }
    if (this.finished) {
      this.done.append(this.finished)
      this.finished = ''
    }
    this.fit()
  }

  /** One character inside an escape sequence; false when it ended the sequence without being part of it. */
  private inSequence(code: number): boolean {
    switch (this.state) {
      case 'escape':
        if (code === 0x5b) this.startCsi()
        else if (code === 0x5d || code === 0x50 || code === 0x58 || code === 0x5e || code === 0x5f) this.state = 'string'
        else if (code >= 0x20 && code <= 0x2f) this.state = 'escapeIntermediate'
        else if (code >= 0x30 && code <= 0x7e) this.state = 'ground'
        else if (code !== ESC) return this.abort()
        return true
      case 'escapeIntermediate':
        if (code >= 0x30 && code <= 0x7e) this.state = 'ground'
        else if (code === ESC) this.state = 'escape'
        else if (code < 0x20 || code > 0x2f) return this.abort()
        return true
      case 'csi':
        if (code >= 0x40 && code <= 0x7e) {
          this.state = 'ground'
          this.endCsi(String.fromCharCode(code))
        } else if (code >= 0x30 && code <= 0x3f) {
          if (this.csiParams.length < MAX_CSI_PARAMS) this.csiParams += String.fromCharCode(code)
        } else if (code === ESC) this.state = 'escape'
        else if (code < 0x20 || code > 0x2f) return this.abort()
        return true
      case 'string':
        if (code === 0x07 || code === C1_ST) this.state = 'ground'
        else if (code === ESC) this.state = 'stringEscape'
        return true
      case 'stringEscape':
        // ESC \ is ST; any other ESC ends the string and starts a sequence of its own.
        this.state = code === 0x5c ? 'ground' : 'escape'
        return code === 0x5c
      default:
        return false
    }
  }

  private abort(): false {
    this.state = 'ground'
    return false
  }

  private startCsi(): void {
    this.state = 'csi'
    this.csiParams = ''
  }

  /** The few CSI sequences that change which text a line ends up with: to a column, and erasing in the line. */
  private endCsi(final: string): void {
    const params = this.csiParams
    if (final === 'G' || final === '`') {
      const column = /^\d*$/.test(params) ? Math.max(1, Number(params || '1')) - 1 : 0
      this.column = Math.min(column, ROW_CHARS - 1)
      if (isLowSurrogate(this.line.charCodeAt(this.column))) this.column--
    } else if (final === 'K') {
      if (params === '' || params === '0') {
        if (this.column < this.line.length) this.replace(this.column, this.line.length, '')
      } else if (params === '1') {
        const end = Math.min(this.column + 1, this.line.length)
        this.replace(0, end, ' '.repeat(end))
      } else if (params === '2') {
        this.line = ''
        this.lineBytes = 0
      }
    }
  }

  private write(text: string): void {
    if (this.column >= this.line.length) {
      if (this.column > this.line.length) text = ' '.repeat(this.column - this.line.length) + text
      this.line += text
      this.lineBytes += utf8Length(text)
      this.column = this.line.length
    } else if (this.column === 0 && text.length >= this.line.length) {
      // A frame at least as long as the last (a progress bar's): it is the line.
      this.line = text
      this.lineBytes = utf8Length(text)
      this.column = text.length
    } else {
      let end = this.column + text.length
      if (isLowSurrogate(this.line.charCodeAt(end))) end++
      this.replace(this.column, Math.min(end, this.line.length), text)
      this.column += text.length
    }
    if (this.line.length > ROW_CHARS) this.wrap()
  }

  /** `line` with its units from `from` to `to` replaced by `text`; the byte count follows what changed only. */
  private replace(from: number, to: number, text: string): void {
    this.lineBytes += utf8Length(text) - utf8Length(this.line.slice(from, to))
    this.line = this.line.slice(0, from) + text + this.line.slice(to)
  }

  /** Full rows of a line longer than ROW_CHARS are final: they move to `finished`, the last row stays editable. */
  private wrap(): void {
    let cut = this.line.length - (this.line.length % ROW_CHARS || ROW_CHARS)
    if (isLowSurrogate(this.line.charCodeAt(cut))) cut--
    const rows = this.line.slice(0, cut)
    this.finished += rows
    this.line = this.line.slice(cut)
    this.lineBytes -= utf8Length(rows)
    this.column = Math.max(0, this.column - cut)
  }

  /** One column back (past the line's end too, into the blanks a column move left), never into half a surrogate pair. */
  private backspace(): void {
    if (this.column === 0) return
    this.column--
    if (this.column > 0 && isLowSurrogate(this.line.charCodeAt(this.column))) this.column--
  }

  /** Finished lines and the open one within `limit` bytes, oldest dropped first. */
  private fit(): void {
    const room = this.limit - this.lineBytes
    if (room >= 0) {
      if (this.done.byteLength > room) this.done.fitWithin(room)
      return
    }
    // The open line alone is over the limit: it keeps its tail, from a character's first byte.
    this.done.fitWithin(0)
    const { rest, dropped } = dropUtf8Head(this.line, this.lineBytes - this.limit)
    this.column = Math.max(0, this.column - (this.line.length - rest.length))
    this.line = rest
    this.lineBytes -= dropped
    this.dropped = true
  }
}

/**
 * Text as a terminal leaves it on screen: escape sequences (colours, cursor moves, titles) removed, a carriage return
 * writing the line again over what it had (a progress bar reads as its last frame), CRLF one line end, other control
 * characters but tab dropped. The same reading as what an agent gets back from `terminal/output`. Used for output an
 * agent sends as text (claude-agent-acp's Bash result) and for the stderr tail Bosun's errors quote.
 */
export function asATerminalLeavesIt(text: string): string {
  const terminal = new TerminalText(Number.MAX_SAFE_INTEGER)
  terminal.append(text)
  return terminal.text()
}
