import { describe, expect, it } from 'vitest'
import { OutputBuffer } from '../../../common/terminal/output-buffer'

describe('OutputBuffer (G29)', () => {
  it('keeps everything under the limit, untruncated', () => {
    const buffer = new OutputBuffer(10)
    buffer.append('abc')
    buffer.append('def')
    expect(buffer.text()).toBe('abcdef')
    expect(buffer.truncated).toBe(false)
  })

  it('drops from the start at a character boundary, staying valid UTF-8 and within the limit', () => {
    const buffer = new OutputBuffer(10)
    // 2-byte Greek letters, in chunks that do not line up with the limit.
    for (const chunk of ['αβγ', 'δεζη', 'θικ']) buffer.append(chunk)
    const text = buffer.text()
    expect(buffer.truncated).toBe(true)
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(10)
    expect(text).toBe('ζηθικ')
    expect(Buffer.from(text).toString('utf8')).toBe(text)
  })

  it('cuts inside a 4-byte character by dropping it whole', () => {
    const buffer = new OutputBuffer(5)
    buffer.append('a😀b😀')
    // 1 + 4 + 1 + 4 = 10 bytes; keeping 5 would start inside the first emoji.
    expect(buffer.text()).toBe('b😀')
    expect(buffer.byteLength).toBe(5)
  })

  it('a limit of 0 keeps nothing', () => {
    const buffer = new OutputBuffer(0)
    buffer.append('x')
    expect(buffer.text()).toBe('')
    expect(buffer.truncated).toBe(true)
  })
})
