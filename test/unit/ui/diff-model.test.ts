import { describe, expect, it } from 'vitest'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describeChange, diffModelOf, patchLines, unifiedDiffLines } from '../../../renderer/components/transcript/diff-model'
import { DiffView } from '../../../renderer/components/transcript/DiffView'

describe('v1 diff {path, oldText, newText}', () => {
  it('computes a unified diff with hunk headers, line numbers and counts', () => {
    const model = diffModelOf({ type: 'diff', path: '/p/a.ts', oldText: 'a\nb\nc\n', newText: 'a\nB\nc\nd\n' })
    expect(model.kind).toBe('unified')
    if (model.kind !== 'unified') return
    expect(model.isNewFile).toBe(false)
    expect(model.added).toBe(2)
    expect(model.removed).toBe(1)
    expect(model.lines[0]).toEqual({ kind: 'hunk', text: '@@ -1,3 +1,4 @@' })
    expect(model.lines.slice(1)).toEqual([
      { kind: 'context', text: 'a', oldNo: 1, newNo: 1 },
      { kind: 'del', text: 'b', oldNo: 2 },
      { kind: 'add', text: 'B', newNo: 2 },
      { kind: 'context', text: 'c', oldNo: 3, newNo: 3 },
      { kind: 'add', text: 'd', newNo: 4 },
    ])
  })

  it('treats a missing/null oldText as a new file', () => {
    const model = diffModelOf({ type: 'diff', path: '/p/new.ts', oldText: null, newText: 'x\ny\n' })
    expect(model.kind === 'unified' && model.isNewFile).toBe(true)
    expect(model.kind === 'unified' && model.lines.filter((l) => l.kind === 'add').map((l) => l.text)).toEqual(['x', 'y'])
  })

  it('keeps distant changes in separate hunks (3 lines of context)', () => {
    const old = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n')
    const next = old.replace('line 2\n', 'LINE 2\n').replace('line 25', 'LINE 25')
    expect(unifiedDiffLines(old, next).lines.filter((l) => l.kind === 'hunk')).toHaveLength(2)
  })
})

const PATCH = `diff --git a/x.ts b/x.ts
index 1..2 100644
--- a/x.ts
+++ b/x.ts
@@ -10,3 +10,3 @@ fn
 keep
-old
+new
 keep
`

describe('v2 diff {changes[], patch?}', () => {
  it('shows the git patch text with +/- lines and line numbers from the hunk header', () => {
    const model = diffModelOf({ type: 'diff', changes: [{ operation: 'modify', path: '/x.ts' }], patch: { format: 'git_patch', text: PATCH } })
    expect(model.kind).toBe('patch')
    if (model.kind !== 'patch') return
    expect(model.added).toBe(1)
    expect(model.removed).toBe(1)
    // The file headers are metadata, not removed/added lines.
    expect(model.lines.slice(0, 4).every((l) => l.kind === 'meta')).toBe(true)
    expect(model.lines.find((l) => l.kind === 'del')).toEqual({ kind: 'del', text: 'old', oldNo: 11 })
    expect(model.lines.find((l) => l.kind === 'add')).toEqual({ kind: 'add', text: 'new', newNo: 11 })
  })

  it('lists per-change operations when there is no patch, with binary changes called out', () => {
    const model = diffModelOf({
      type: 'diff',
      changes: [
        { operation: 'modify', path: '/logo.png', fileType: 'binary' },
        { operation: 'move', oldPath: '/a.md', path: '/b.md' },
        { operation: 'teleport', path: '/z' },
      ],
      patch: null,
    })
    expect(model.kind).toBe('changes')
    if (model.kind !== 'changes') return
    expect(model.changes.map(describeChange)).toEqual(['binary change', 'moved from /a.md', 'teleport (unknown operation)'])
  })

  it('falls back to a generic view for a malformed diff instead of throwing', () => {
    expect(diffModelOf({ type: 'diff', path: 3 }).kind).toBe('invalid')
    expect(patchLines('').lines).toEqual([{ kind: 'meta', text: '' }])
  })

  it('renders both shapes with add/del classes', () => {
    const v1 = renderToStaticMarkup(createElement(DiffView, { block: { type: 'diff', path: '/a', oldText: 'x\n', newText: 'y\n' } }))
    expect(v1).toContain('diff-line diff-del')
    expect(v1).toContain('diff-line diff-add')
    const v2 = renderToStaticMarkup(createElement(DiffView, { block: { type: 'diff', changes: [{ operation: 'modify', path: '/bin', fileType: 'binary' }] } }))
    expect(v2).toContain('binary change')
  })
})

it('two texts too different to compare line by line are shown whole, in linear time, instead of a search that holds the page', () => {
  const old = Array.from({ length: 50_000 }, (_, i) => `old line ${i}`).join('\n')
  const next = Array.from({ length: 50_000 }, (_, i) => `new line ${i}`).join('\n')
  // Before the bound this search did not return within minutes (the test's own timeout ends it).
  const diff = unifiedDiffLines(old, next)
  expect(diff.lines[0]).toMatchObject({ kind: 'meta', text: expect.stringContaining('Too different to compare line by line') })
  expect([diff.removed, diff.added]).toEqual([50_000, 50_000])
  expect(diff.lines.filter((l) => l.kind === 'del')[49_999]).toEqual({ kind: 'del', text: 'old line 49999', oldNo: 50_000 })
  // A small change is still a real diff.
  expect(unifiedDiffLines('a\nb\nc\n', 'a\nB\nc\n').lines.map((l) => l.kind)).toEqual(['hunk', 'context', 'del', 'add', 'context'])
})
