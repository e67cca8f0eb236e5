import { describe, expect, it } from 'vitest'
import { dropUtf8Head, utf8Length } from '../../../common/terminal/utf8'
import { seededRandom } from '../../support/seeded-random'

/** Characters of every UTF-8 width, and lone surrogates (encoded as U+FFFD, three bytes). */
const PIECES = ['a', '\n', 'é', 'ß', '✓', '中', '😀', '\ud83d', '\ude00', '\u0000', '\u07ff', '\u0800', '\uffff']

describe('UTF-8 byte counts without Buffer (common/terminal/utf8)', () => {
  it('counts what Buffer counts, for random strings of every width', () => {
    const random = seededRandom(29)
    for (let n = 0; n < 500; n++) {
      let text = ''
      const length = random(40)
      for (let i = 0; i < length; i++) text += PIECES[random(PIECES.length)]
      expect(utf8Length(text)).toBe(Buffer.byteLength(text, 'utf8'))
      const cut = random(Buffer.byteLength(text, 'utf8') + 2)
      const { rest, dropped } = dropUtf8Head(text, cut)
      // A whole number of characters went, at least `cut` bytes of them (all when fewer were there).
      expect(dropped).toBe(Buffer.byteLength(text, 'utf8') - Buffer.byteLength(rest, 'utf8'))
      expect(dropped).toBeGreaterThanOrEqual(Math.min(cut, Buffer.byteLength(text, 'utf8')))
      expect(text.endsWith(rest)).toBe(true)
      expect(dropped - cut).toBeLessThan(4)
    }
  })
})
