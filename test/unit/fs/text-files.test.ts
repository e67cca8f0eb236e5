import { describe, expect, it } from 'vitest'
import { decodeUtf8, lineWindow } from '../../../main/fs/text-files'

describe('lineWindow (G23)', () => {
  const text = 'a\nb\nc\n'
  it.each<[{ line?: number; limit?: number }, string]>([
    [{ line: 1, limit: 1 }, 'a\n'],
    [{ limit: 2 }, 'a\nb\n'],
    [{ line: 3 }, 'c\n'],
    [{ line: 9 }, ''],
    [{ line: 4 }, ''],
    [{ limit: 0 }, ''],
    [{ line: 0, limit: 1 }, 'a\n'],
    [{}, text],
    [{ line: 2, limit: 99 }, 'b\nc\n'],
  ])('%j', (window, expected) => {
    expect(lineWindow(text, window.line, window.limit)).toBe(expected)
  })

  it('keeps CRLF terminators and a last line without one', () => {
    expect(lineWindow('x\r\ny\r\nz', 2, 2)).toBe('y\r\nz')
  })
})

describe('decodeUtf8', () => {
  it('refuses NUL bytes and invalid sequences, keeps valid text', () => {
    expect(decodeUtf8(Buffer.from('héllo'))).toBe('héllo')
    expect(decodeUtf8(Buffer.from([0x61, 0x00]))).toBeUndefined()
    expect(decodeUtf8(Buffer.from([0xc3, 0x28]))).toBeUndefined()
  })
})
