/**
 * What the agent reads back from `terminal/output`: the terminal's stream as plain text (Zed too answers with
 * its terminal's text, not the bytes). The raw stream goes in chunk by chunk, split anywhere, even inside an
 * escape sequence; the session's terminal view keeps the raw stream. In the text:
 * - escape sequences are gone: CSI (colours, cursor moves, modes such as `ESC[?1h`), OSC, DCS, SOS, PM and APC
 *   strings up to BEL or ST, and two-character escapes (`ESC =`), in their 7-bit and C1 forms;
 * - CRLF (and the PTY's CRCRLF for a program's own CRLF) is LF;
 * - a lone CR returns to the start of the line: what follows replaces the line, so a progress bar reads as its
 *   last state. Cursor to column 1 (`ESC[G`) is such a return; erasing the line (`ESC[2K`, or `ESC[K` at its
 *   start) empties it; a backspace takes back the character before it;
 * - other control characters are dropped, tab kept.
 * Other cursor movement is not followed: a full-screen program reads as the text it wrote, in order.
 * At most `limit` UTF-8 bytes are kept, dropped from the start at a character boundary (checklist G29), and
 * `truncated` says once any was.
 */
import { OutputBuffer } from './output-buffer'

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

export class TerminalText {
  /** Finished lines (each with its LF). */
  private readonly done: OutputBuffer
  /** The line being written: a return may still replace it. */
  private line = ''
  private lineBytes = 0
  /** A CR (or its like) came and nothing since: the next character starts the line again. */
  private returned = false
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
    let finished = ''
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
        finished += this.line + '\n'
        this.line = ''
        this.lineBytes = 0
        this.returned = false
      } else if (code === 0x0d) this.returned = true
      else if (code === 0x09) this.write('\t')
      else if (code === 0x08) this.backspace()
      else if (code === ESC) this.state = 'escape'
      else if (code === C1_CSI) this.startCsi()
      else if (C1_STRINGS.has(code)) this.state = 'string'
    }
    if (finished) this.done.append(finished)
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

  /** The few CSI sequences that change which text a line ends up with. */
  private endCsi(final: string): void {
    const params = this.csiParams
    if ((final === 'G' || final === '`') && /^[01]?$/.test(params)) this.returned = true
    else if (final === 'K' && (params === '2' || (this.returned && /^0?$/.test(params)))) {
      this.line = ''
      this.lineBytes = 0
    }
  }

  private write(text: string): void {
    if (this.returned) {
      this.line = ''
      this.lineBytes = 0
      this.returned = false
    }
    this.line += text
    this.lineBytes += Buffer.byteLength(text, 'utf8')
  }

  private backspace(): void {
    if (this.returned || this.line === '') return
    const last = this.line.codePointAt(this.line.length - 2)
    const width = last !== undefined && last > 0xffff ? 2 : 1
    const removed = this.line.slice(-width)
    this.line = this.line.slice(0, -width)
    this.lineBytes -= Buffer.byteLength(removed, 'utf8')
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
    const bytes = Buffer.from(this.line, 'utf8')
    let cut = bytes.length - this.limit
    while (cut < bytes.length && (bytes[cut]! & 0xc0) === 0x80) cut++
    this.line = bytes.subarray(cut).toString('utf8')
    this.lineBytes = bytes.length - cut
    this.dropped = true
  }
}
