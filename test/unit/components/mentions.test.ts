import { describe, expect, it } from 'vitest'
import { fuzzyPaths, mentionQuery } from '../../../renderer/components/composer/mentions'

describe('mentionQuery', () => {
  it('finds @query at the caret after whitespace or at the start', () => {
    expect(mentionQuery('look at @src/ap')).toEqual({ query: 'src/ap', start: 8 })
    expect(mentionQuery('@')).toEqual({ query: '', start: 0 })
    expect(mentionQuery('mail me@example')).toBeNull()
    expect(mentionQuery('@done and more')).toBeNull()
  })
})

describe('fuzzyPaths', () => {
  const paths = ['README.md', 'src/', 'src/app.ts', 'src/components/AppShell.tsx', 'test/app.test.ts', 'docs/apple.md']
  it('ranks file-name matches and prefixes first, skips non-matches', () => {
    expect(fuzzyPaths(paths, 'app')[0]).toBe('src/app.ts')
    expect(fuzzyPaths(paths, 'apsh')).toEqual(['src/components/AppShell.tsx'])
    expect(fuzzyPaths(paths, 'zzz')).toEqual([])
  })
  it('an empty query lists the first entries up to the limit', () => {
    expect(fuzzyPaths(paths, '', 2)).toEqual(['README.md', 'src/'])
  })
  it('stays fast on a large folder', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => `pkg${i % 50}/src/module${i}/file${i}.ts`)
    expect(fuzzyPaths(many, 'file1999')[0]).toBe('pkg49/src/module1999/file1999.ts')
  })
})
