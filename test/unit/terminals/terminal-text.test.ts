import { describe, expect, it } from 'vitest'
import { ROW_CHARS, TerminalText } from '../../../common/terminal/terminal-text'

/** The text an agent reads after `chunks`, and whether it says truncated. */
function read(chunks: string[], limit = 1024 * 1024): { text: string; truncated: boolean } {
  const text = new TerminalText(limit)
  for (const chunk of chunks) text.append(chunk)
  return { text: text.text(), truncated: text.truncated }
}

const plain = (raw: string) => read([raw]).text

describe('TerminalText: what the agent reads from terminal/output', () => {
  it('turns the PTY’s CRLF (and CRCRLF) into LF', () => {
    expect(plain('hi\r\nthere\r\n')).toBe('hi\nthere\n')
    expect(plain('own crlf\r\r\nnext')).toBe('own crlf\nnext')
  })

  it('drops colours, modes and two-character escapes, 7-bit and C1', () => {
    expect(plain('\x1b[?1h\x1b=\x1b[1;31mred\x1b[m plain\x1b[0m\r\n\x1b[?1l\x1b>')).toBe('red plain\n')
    expect(plain('\u009b32mgreen\u009b0m')).toBe('green')
    expect(plain('\x1b(Bcharset\x1b7saved\x1b8')).toBe('charsetsaved')
  })

  it('drops OSC, DCS and APC strings up to BEL or ST, hyperlinks keeping their text', () => {
    expect(plain('\x1b]0;window title\x07after')).toBe('after')
    expect(plain('\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\ done')).toBe('link done')
    expect(plain('\x1bPq#0;2;0;0;0\x1b\\\x1b_apc\u009cend')).toBe('end')
    // An ESC inside a string ends it and starts a sequence of its own.
    expect(plain('\x1b]0;title\x1b[31mred')).toBe('red')
  })

  it('reads the same whatever the chunks split, inside a sequence or between CR and LF', () => {
    const raw = 'a\x1b[1;31mb\x1b]8;;u\x1b\\c\r\nprogress 1%\rprogress 100%\r\n\x1b[2K\x1b[Gdone\r\n'
    const whole = plain(raw)
    expect(whole).toBe('abc\nprogress 100%\ndone\n')
    expect(read([...raw]).text).toBe(whole)
    for (let i = 1; i < raw.length; i++) expect(read([raw.slice(0, i), raw.slice(i)]).text).toBe(whole)
  })

  it('a lone CR returns to the start of the line: what follows writes over it, as on a terminal (a progress bar reads as its last frame)', () => {
    expect(plain('Downloading 10%\rDownloading 55%\rDownloaded     \r\nnext\n')).toBe('Downloaded     \nnext\n')
    // A shorter frame leaves the end of a longer one, as the screen did.
    expect(plain('Downloading 10%\rDone\n')).toBe('Doneloading 10%\n')
    // Nothing written after the return yet: the line stays.
    expect(plain('waiting\r')).toBe('waiting')
    // Cursor to column 1, and erasing the line, as Node's readline and spinners do.
    expect(plain('| working\x1b[2K\x1b[1G/ working\x1b[2K\x1b[G- done\n')).toBe('- done\n')
    expect(plain('long old text\r\x1b[K\n')).toBe('\n')
    expect(plain('kept\x1b[K\n')).toBe('kept\n')
    // To a column, and erasing to the cursor or from it.
    expect(plain('abcdef\x1b[3GX\n')).toBe('abXdef\n')
    expect(plain('abcdef\x1b[3G\x1b[1K\n')).toBe('   def\n')
    expect(plain('abcdef\x1b[3G\x1b[K\n')).toBe('ab\n')
    expect(plain('ab\x1b[6Gc\n')).toBe('ab   c\n')
    expect(plain('text\x1b[2Kmore\n')).toBe('    more\n')
  })

  it('a line wider than a row wraps: a return goes back to the start of its last row, and what wrapped stays', () => {
    const long = 'a'.repeat(ROW_CHARS * 2 + 10)
    expect(plain(long + '\rZ\n')).toBe('a'.repeat(ROW_CHARS * 2) + 'Z' + 'a'.repeat(9) + '\n')
    // Split anywhere, it reads the same; a surrogate pair is never cut at a row's edge.
    const emoji = 'x' + '😀'.repeat(ROW_CHARS)
    expect(read([...emoji]).text).toBe(emoji)
    expect(plain(emoji + '\r!')).toBe(read([emoji, '\r', '!']).text)
    expect(plain(emoji + '\r!')).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/)
  })

  it('a backspace moves back one character, which the next one writes over; other controls go, tabs stay', () => {
    expect(plain('ab\bc\n')).toBe('ac\n')
    expect(plain('abc\b\bX\n')).toBe('aXc\n')
    // Past the line's end (a column move), it moves back among the blanks, as the cursor does.
    expect(plain('ab\x1b[6G\bc\n')).toBe('ab  c\n')
    expect(plain('_\bx bold\n')).toBe('x bold\n')
    expect(plain('😀\b!')).toBe('!')
    expect(plain('\x07a\tb\x00\x7f\u0085c')).toBe('a\tbc')
  })

  it('keeps the tail of the text within outputByteLimit, at a character boundary', () => {
    expect(read(['αβγδεζηθ'], 5)).toEqual({ text: 'ηθ', truncated: true })
    expect(read(['line one\r\n', 'line two\r\n'], 9)).toEqual({ text: 'line two\n', truncated: true })
  })

  it('counts the limit on the text, not on the escapes around it', () => {
    expect(read(['\x1b[31mabcd\x1b[0m\r\n'], 5)).toEqual({ text: 'abcd\n', truncated: false })
  })

  it('an endless line is bounded too, and stays truncated once anything was dropped', () => {
    const text = new TerminalText(10)
    text.append('done\n')
    text.append('x'.repeat(100))
    expect(text.text()).toBe('x'.repeat(10))
    expect(text.truncated).toBe(true)
    text.append('\r\x1b[Kok\n')
    expect(text.text()).toBe('ok\n')
    expect(text.truncated).toBe(true)
  })
})
