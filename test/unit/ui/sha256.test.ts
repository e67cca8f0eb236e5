import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../common/sha256'

describe('sha256Hex (the renderer’s name for an image it asks main to save)', () => {
  it('matches Node’s SHA-256 across the padding boundaries and for non-ASCII text', () => {
    const texts = ['', 'abc', 'é€😀', 'lone \ud800 surrogate', 'trailing \udc00 and \ud83d', 'ß'.repeat(40), ...[55, 56, 63, 64, 65, 119, 120, 1000, 100_000].map((n) => 'x'.repeat(n))]
    for (const text of texts) expect(sha256Hex(text), `${text.length} characters`).toBe(createHash('sha256').update(text, 'utf8').digest('hex'))
  })
})
