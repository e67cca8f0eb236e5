import { describe, expect, it } from 'vitest'
import { contentWithWrite, MAX_TOOL_CONTENT_ITEMS, MAX_TOOL_DIFF_CHARS, readsWithRead } from '../../../main/fs/file-system-handlers'
import { MAX_FILES_READ } from '../../../common/session/reducer/tool-calls'
import type { FileRead } from '../../../common/session/types'

const diff = (path: string, oldText: string | null, newText: string) => ({ type: 'diff' as const, path, oldText, newText })
type Item = { type: string; path?: string; oldText?: string | null; newText?: string; content?: { text: string } }

it('a file written again in one tool call shows one diff, from before its first write to after its last, after the others', () => {
  let content: unknown[] = [{ type: 'content', content: { type: 'text', text: 'the agent’s own' } }]
  content = contentWithWrite(content, diff('/a', 'a0', 'a1'))
  content = contentWithWrite(content, diff('/b', null, 'b1'))
  content = contentWithWrite(content, diff('/a', 'a1', 'a2'))
  expect(content).toEqual([{ type: 'content', content: { type: 'text', text: 'the agent’s own' } }, diff('/b', null, 'b1'), diff('/a', 'a0', 'a2')])
})

it('past the item bound the oldest give way to one note that keeps counting across writes', () => {
  let content: unknown[] = []
  for (let i = 0; i < MAX_TOOL_CONTENT_ITEMS + 8; i++) content = contentWithWrite(content, diff(`/f${i}`, null, `${i}`))
  let items = content as Item[]
  expect(items).toHaveLength(MAX_TOOL_CONTENT_ITEMS)
  expect(items[0]!.content!.text).toMatch(/^9 earlier items are not shown here/)
  expect(items.at(-1)).toEqual(diff(`/f${MAX_TOOL_CONTENT_ITEMS + 7}`, null, `${MAX_TOOL_CONTENT_ITEMS + 7}`))
  content = contentWithWrite(content, diff('/one-more', null, 'x'))
  items = content as Item[]
  expect(items).toHaveLength(MAX_TOOL_CONTENT_ITEMS)
  expect(items[0]!.content!.text).toMatch(/^10 earlier items are not shown here/)
})

it('past the diff text bound the oldest diffs give way, the newest always stays', () => {
  const big = 'x'.repeat(MAX_TOOL_DIFF_CHARS / 3)
  let content: unknown[] = []
  for (let i = 0; i < 5; i++) content = contentWithWrite(content, diff(`/big${i}`, null, big))
  const items = content as Item[]
  const diffs = items.filter((item) => item.type === 'diff')
  expect(diffs.map((d) => d.path)).toEqual(['/big2', '/big3', '/big4'])
  expect(items[0]!.content!.text).toMatch(/^2 earlier items are not shown here/)
  // One write larger than the whole bound is still shown (it was already cut to a note if too large for a diff).
  const huge = contentWithWrite([], diff('/huge', null, 'y'.repeat(MAX_TOOL_DIFF_CHARS + 1))) as Item[]
  expect(huge).toHaveLength(1)
})

describe('readsWithRead', () => {
  const read = (path: string, line: number | null = null): FileRead => ({ path, line, limit: null, lines: 3, times: 1 })

  it('counts the same window read again once more, moved last, and keeps the last MAX_FILES_READ reads of a call', () => {
    let reads = readsWithRead([], read('/w/a'))
    reads = readsWithRead(reads, read('/w/b'))
    reads = readsWithRead(reads, read('/w/a'))
    expect(reads).toEqual([read('/w/b'), { ...read('/w/a'), times: 2 }])
    // Another window of the same file is another read.
    expect(readsWithRead(reads, read('/w/a', 5))).toHaveLength(3)
    for (let i = 0; i < 100; i++) reads = readsWithRead(reads, read(`/w/f${i}`))
    expect(reads).toHaveLength(MAX_FILES_READ)
    expect(reads.at(-1)!.path).toBe('/w/f99')
  })
})
