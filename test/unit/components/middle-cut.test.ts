import { afterEach, describe, expect, it, vi } from 'vitest'
import { middleCutParts } from '../../../renderer/components/common/MiddleCut'

describe('middleCutParts', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('keeps a short name whole and cuts a long one in two, the end its last third (6 to `tail` graphemes)', () => {
    expect(middleCutParts('short-name')).toEqual(['short-name', ''])
    expect(middleCutParts('frontend-application-service-v2')).toEqual(['frontend-application-', 'service-v2'])
    expect(middleCutParts('/project/src/components/file-1234.ts', 32)).toEqual(['/project/src/components/', 'file-1234.ts'])
  })

  it('never splits a grapheme: emoji, combining accents and CR LF stay whole', () => {
    const name = 'projet-e\u0301te\u0301-👩‍💻-final-version'
    const [head, end] = middleCutParts(name)
    expect(head + end).toBe(name)
    expect(end).toBe('l-version')
    const emoji = '👩‍💻'.repeat(20)
    const [emojiHead, emojiEnd] = middleCutParts(emoji)
    expect(emojiEnd).toBe('👩‍💻'.repeat(7))
    expect(emojiHead).toBe('👩‍💻'.repeat(13))
    const crlf = 'line-one\r\nline-two-and-more'
    const [crlfHead, crlfEnd] = middleCutParts(crlf)
    expect(crlfHead + crlfEnd).toBe(crlf)
    expect(crlfHead.endsWith('\r')).toBe(false)
  })

  it('leaves a right-to-left name whole', () => {
    expect(middleCutParts('פרויקט-חדש-גרסה-שתיים')).toEqual(['פרויקט-חדש-גרסה-שתיים', ''])
  })

  it('makes one segmenter for every cut, and none for plain ASCII (every tool card cuts its path: making one per cut was the page\'s costliest function in a flood)', () => {
    const made = vi.fn()
    const Native = Intl.Segmenter
    vi.stubGlobal('Intl', { ...Intl, Segmenter: class extends Native { constructor(...args: ConstructorParameters<typeof Intl.Segmenter>) { super(...args); made() } } })
    for (let i = 0; i < 50; i++) middleCutParts(`/project/src/file-${i}.ts`)
    expect(made).not.toHaveBeenCalled()
    for (let i = 0; i < 50; i++) expect(middleCutParts(`/projet/été/fichier-${i}.ts`).join('')).toBe(`/projet/été/fichier-${i}.ts`)
    expect(made.mock.calls.length).toBeLessThanOrEqual(1)
  })
})
