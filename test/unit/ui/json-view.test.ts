import { describe, expect, it } from 'vitest'
import { toJsonText } from '../../../renderer/components/common/JsonView'

describe('toJsonText', () => {
  it('escapes bidi, zero-width and C1 characters so raw input cannot hide or reorder text (J9), and stays valid JSON', () => {
    const value = { command: 'ls \u202E;rm -rf ~', note: 'a\u200Bb\u0085c\u2066d', line: 'x\ny' }
    const text = toJsonText(value)
    expect(text).toContain('"ls \\u202e;rm -rf ~"')
    expect(text).toContain('"a\\u200bb\\u0085c\\u2066d"')
    expect(text).toContain('"x\\ny"')
    expect(text).not.toMatch(/[\u0085\u200b\u202e\u2066]/)
    expect(JSON.parse(text)).toEqual(value)
  })

  it('leaves ordinary text alone and tolerates cycles and bigints', () => {
    const cyclic: Record<string, unknown> = { name: 'naïve 漢字 😀', n: 10n }
    cyclic.self = cyclic
    expect(toJsonText(cyclic)).toBe('{\n  "name": "naïve 漢字 😀",\n  "n": "10n",\n  "self": "[circular]"\n}')
  })
})
