import { describe, expect, it } from 'vitest'
import { neutraliseEscapes } from '../../../renderer/components/transcript/terminal-text'

describe('neutraliseEscapes', () => {
  it('removes SGR colours and cursor movement', () => {
    expect(neutraliseEscapes('\u001b[1;31merror\u001b[0m: x\u001b[2K\u001b[1A')).toBe('error: x')
  })

  it('removes OSC sequences (window title, hyperlinks) with BEL or ST terminators', () => {
    expect(neutraliseEscapes('a\u001b]0;pwned\u0007b')).toBe('ab')
    expect(neutraliseEscapes('\u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\')).toBe('link')
  })

  it('drops other control characters but keeps tabs and newlines; CR becomes a newline', () => {
    expect(neutraliseEscapes('a\tb\r\nc\rd\u0000\u0008\u007f\u0085e')).toBe('a\tb\nc\nde')
  })

  it('handles a truncated escape at the end', () => {
    expect(neutraliseEscapes('ok\u001b')).toBe('ok')
    expect(neutraliseEscapes('ok\u001b]0;unterminated')).toBe('ok')
  })
})
