import { describe, expect, it } from 'vitest'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decodeUtf8, isWritable, lineWindow } from '../../../main/fs/text-files'

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

describe('isWritable', () => {
  it('a file without a write bit is read-only for root too (access(W_OK) passes every file for root)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bosun-writable-'))
    try {
      const file = join(dir, 'ro.txt')
      writeFileSync(file, 'x')
      chmodSync(file, 0o444)
      expect(await isWritable(file, 0o444, 0)).toBe(false)
      chmodSync(file, 0o644)
      expect(await isWritable(file, 0o644, 0)).toBe(true)
      // The process's own uid: a file with its write bit is writable to its owner.
      expect(await isWritable(file, 0o644)).toBe(true)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
