import { describe, expect, it } from 'vitest'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { changeText, diffModelOf, diffOrdinals, patchLines, unifiedDiffLines } from '../../../renderer/components/transcript/diff-model'
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

  it('an empty side starts at line 0, as diff and git write it (OpenCode writes a new file with oldText "")', () => {
    const created = diffModelOf({ type: 'diff', path: '/p/notes.md', oldText: '', newText: '# Notes\n\nFirst line.\n' })
    expect(created.kind === 'unified' && created.lines[0]).toEqual({ kind: 'hunk', text: '@@ -0,0 +1,3 @@' })
    expect(unifiedDiffLines('a\nb\n', '').lines[0]).toEqual({ kind: 'hunk', text: '@@ -1,2 +0,0 @@' })
  })

  describe("claude-agent-acp's Edit: the replaced snippet and its replacement, not the file", () => {
    const block = { type: 'diff', path: '/p/parser.ts', oldText: '  const tokens = lex(source)\n  return pass(tokens)', newText: '  const tokens = lex(source)\n  return secondPass(tokens)' }
    const rawInput = { file_path: '/p/parser.ts', old_string: block.oldText, new_string: block.newText }
    const numbers = (model: ReturnType<typeof diffModelOf>) => (model.kind === 'unified' ? model.lines.map((l) => [l.kind, l.oldNo ?? null, l.newNo ?? null, l.kind === 'hunk' ? l.text : '']) : [])

    it('numbers the snippet from the line its location gives for that path', () => {
      const model = diffModelOf(block, { rawInput, locations: [{ path: '/p/other.ts', line: 3 }, { path: '/p/parser.ts', line: 128 }] })
      expect(model.kind === 'unified' && model.numbered).toBe(true)
      expect(numbers(model)).toEqual([
        ['hunk', null, null, '@@ -128,2 +128,2 @@'],
        ['context', 128, 128, ''],
        ['del', 129, null, ''],
        ['add', null, 129, ''],
      ])
      // Without the tool's input, a diff that starts at the top of its text is the snippet the location places.
      expect(numbers(diffModelOf(block, { locations: [{ path: '/p/parser.ts', line: 128 }] }))[0]).toEqual(['hunk', null, null, '@@ -128,2 +128,2 @@'])
    })

    it('numbers each hunk of an edit of several places from its own location (replace_all: a diff and a location per hunk)', () => {
      // claude-agent-acp 0.101.0, Edit with replace_all in a 3,000-line file: three snippets, three locations in order.
      const hunk = (at: number) => {
        const lines = (name: string) => [`const line${at} = ${at}`, `export const ${name}_${at + 3} = 1`, `const line${at + 4} = ${at + 4}`].join('\n')
        return { type: 'diff', path: '/p/big.ts', oldText: lines('OLDNAME'), newText: lines('NEWNAME') }
      }
      const content = [hunk(9), { type: 'content' }, hunk(1009), hunk(2009)]
      const locations = [9, 1009, 2009].map((line) => ({ path: '/p/big.ts', line }))
      const rawInput = { file_path: '/p/big.ts', old_string: 'OLDNAME', new_string: 'NEWNAME', replace_all: true }
      const ordinals = diffOrdinals(content)
      expect(ordinals).toEqual([0, 0, 1, 2])
      const headers = content
        .map((block, i) => (block.type === 'diff' ? diffModelOf(block, { locations, rawInput, ordinal: ordinals[i] }) : null))
        .flatMap((model) => (model?.kind === 'unified' ? [model.lines.find((l) => l.kind === 'hunk')?.text] : []))
      expect(headers).toEqual(['@@ -9,3 +9,3 @@', '@@ -1009,3 +1009,3 @@', '@@ -2009,3 +2009,3 @@'])
      // A second diff of the path with only one location that gives a line is not numbered from the first one's.
      const second = diffModelOf(hunk(1009), { locations: locations.slice(0, 1), rawInput: { ...rawInput, old_string: hunk(1009).oldText }, ordinal: 1 })
      expect(second.kind === 'unified' && second.numbered).toBe(false)
    })

    it('numbers no line of a snippet nothing places (no location line, or one for another path)', () => {
      for (const locations of [[], [{ path: '/p/parser.ts' }], [{ path: '/p/parser.ts', line: 0 }], [{ path: '/p/other.ts', line: 9 }]]) {
        const model = diffModelOf(block, { rawInput, locations })
        expect(model.kind === 'unified' && model.numbered).toBe(false)
        expect(numbers(model)).toEqual([
          ['context', null, null, ''],
          ['del', null, null, ''],
          ['add', null, null, ''],
        ])
      }
      const html = renderToStaticMarkup(createElement(DiffView, { block, rawInput }))
      expect(html).toContain('excerpt')
      expect(html).not.toContain('diff-no')
      expect(html).not.toContain('@@')
    })

    it('keeps the numbers of a whole file (ACP\'s oldText), though a location gives the changed line', () => {
      const oldText = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n')
      const whole = { type: 'diff', path: '/p/a.ts', oldText, newText: oldText.replace('line 12', 'line twelve') }
      for (const context of [{}, { locations: [{ path: '/p/a.ts', line: 12 }] }, { rawInput: { file_path: '/p/a.ts', old_string: 'line 12', new_string: 'line twelve' } }]) {
        const model = diffModelOf(whole, context)
        expect(model.kind === 'unified' && model.numbered).toBe(true)
        expect(numbers(model)[0]).toEqual(['hunk', null, null, '@@ -9,7 +9,7 @@'])
      }
    })
  })

  it('treats a missing/null oldText as a new file', () => {
    const model = diffModelOf({ type: 'diff', path: '/p/new.ts', oldText: null, newText: 'x\ny\n' })
    expect(model.kind === 'unified' && model.isNewFile).toBe(true)
    expect(model.kind === 'unified' && model.lines.filter((l) => l.kind === 'add').map((l) => l.text)).toEqual(['x', 'y'])
  })

  it("shows a file codex-acp says it deleted as deleted (its `_meta.kind`), and an emptied file as changed", () => {
    const deleted = diffModelOf({ type: 'diff', path: '/p/old.txt', oldText: 'old\n', newText: '', _meta: { kind: 'delete' } })
    expect(deleted).toMatchObject({ kind: 'unified', isDeletedFile: true, isNewFile: false, removed: 1, added: 0 })
    expect(diffModelOf({ type: 'diff', path: '/p/old.txt', oldText: 'old\n', newText: '' })).toMatchObject({ isDeletedFile: false })
    expect(diffModelOf({ type: 'diff', path: '/p/a.txt', oldText: 'a\n', newText: 'b\n', _meta: { kind: 'delete' } })).toMatchObject({ isDeletedFile: false })
  })

  it('notes a missing final newline only where it says something: the ends differ, or a new file', () => {
    const notes = (oldText: string, newText: string) => unifiedDiffLines(oldText, newText).lines.filter((l) => l.kind === 'meta').length
    // claude-agent-acp's Edit: the replaced snippet and its replacement, neither ending with a newline.
    expect(notes('const value = 1;', 'const value = 2;')).toBe(0)
    expect(unifiedDiffLines('a', 'b').lines.map((l) => l.kind)).toEqual(['hunk', 'del', 'add'])
    // The change is the final newline itself, or the file is new: the note stays.
    expect(notes('a\n', 'a')).toBe(1)
    expect(notes('a', 'a\n')).toBe(1)
    expect(notes('', 'x')).toBe(1)
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
    expect(model.kind).toBe('changes')
    if (model.kind !== 'changes' || model.patch?.kind !== 'git') throw new Error('expected a parsed git patch')
    const { patch } = model
    expect(patch.added).toBe(1)
    expect(patch.removed).toBe(1)
    // One file: the change listed above names it, so git's header lines for it are not shown again.
    expect(patch.lines[0]).toEqual({ kind: 'hunk', text: '@@ -10,3 +10,3 @@ fn' })
    expect(patch.lines.find((l) => l.kind === 'del')).toEqual({ kind: 'del', text: 'old', oldNo: 11 })
    expect(patch.lines.find((l) => l.kind === 'add')).toEqual({ kind: 'add', text: 'new', newNo: 11 })
    expect(model.changes.map((c) => changeText(c, true))).toEqual(['modified /x.ts'])
  })

  it('keeps the file headers of a patch of several files (they say where each file starts) and a mode change of one', () => {
    const two = `${PATCH}${PATCH.replaceAll('x.ts', 'y.ts')}`
    const model = diffModelOf({ type: 'diff', changes: [{ operation: 'modify', path: '/x.ts' }, { operation: 'modify', path: '/y.ts' }], patch: { format: 'git_patch', text: two } })
    if (model.kind !== 'changes' || model.patch?.kind !== 'git') throw new Error('expected a parsed git patch')
    // The file headers are metadata, not removed/added lines.
    expect(model.patch.lines.slice(0, 4)).toEqual(PATCH.split('\n').slice(0, 4).map((text) => ({ kind: 'meta', text })))
    expect(model.patch.lines.filter((l) => l.text.startsWith('diff --git '))).toHaveLength(2)
    const mode = diffModelOf({ type: 'diff', changes: [{ operation: 'modify', path: '/x.ts' }], patch: { format: 'git_patch', text: PATCH.replace('index 1..2 100644', 'old mode 100644\nnew mode 100755\nindex 1..2') } })
    if (mode.kind !== 'changes' || mode.patch?.kind !== 'git') throw new Error('expected a parsed git patch')
    expect(mode.patch.lines.slice(0, 3).map((l) => l.text)).toEqual(['old mode 100644', 'new mode 100755', '@@ -10,3 +10,3 @@ fn'])
  })

  it("drops a new regular file's mode line (the change says it was created), not an executable's", () => {
    const created = (mode: string) =>
      diffModelOf({
        type: 'diff',
        changes: [{ operation: 'create', path: '/w/multi.txt' }],
        // codex-acp's v2 shape for a file its apply_patch adds.
        patch: { format: 'git_patch', text: `diff --git /w/multi.txt /w/multi.txt\nnew file mode ${mode}\n--- /dev/null\n+++ /w/multi.txt\n@@ -0,0 +1,2 @@\n+line one\n+line two\n` },
      })
    const regular = created('100644')
    if (regular.kind !== 'changes' || regular.patch?.kind !== 'git') throw new Error('expected a parsed git patch')
    expect(regular.patch.lines.map((l) => l.text)).toEqual(['@@ -0,0 +1,2 @@', 'line one', 'line two'])
    const executable = created('100755')
    if (executable.kind !== 'changes' || executable.patch?.kind !== 'git') throw new Error('expected a parsed git patch')
    expect(executable.patch.lines[0]).toEqual({ kind: 'meta', text: 'new file mode 100755' })
  })

  it('lists per-change operations when there is no patch, with binary changes called out', () => {
    const model = diffModelOf({
      type: 'diff',
      changes: [
        { operation: 'modify', path: '/logo.png', fileType: 'binary' },
        { operation: 'move', oldPath: '/a.md', path: '/b.md' },
        { operation: 'teleport', path: '/z' },
        { operation: 'modify', path: '/c.ts', fileType: 'text' },
        { operation: 'add', path: '/link', fileType: 'symlink' },
        { operation: 'copy', oldPath: '/d', path: '/e', fileType: '_sparse' },
      ],
      patch: null,
    })
    expect(model.kind).toBe('changes')
    if (model.kind !== 'changes') return
    expect(model.patch).toBeNull()
    expect(model.changes.map((c) => changeText(c))).toEqual([
      'modified /logo.png (binary)',
      'moved /a.md → /b.md',
      'teleport /z (unknown operation)',
      'modified /c.ts (no patch text)',
      'added /link (symlink)',
      'copied /d → /e (_sparse)',
    ])
  })

  it('lists every change (delete, move) with a git patch too, and shows the patch under them', () => {
    const block = {
      type: 'diff',
      changes: [
        { operation: 'modify', path: '/x.ts', fileType: 'text' },
        { operation: 'delete', path: '/gone' },
        { operation: 'move', oldPath: '/o', path: '/n' },
        { operation: 'add', path: '/img.png', fileType: 'binary' },
      ],
      patch: { format: 'git_patch', text: PATCH },
    }
    const model = diffModelOf(block)
    if (model.kind !== 'changes') throw new Error(`expected changes, got ${model.kind}`)
    expect(model.patch?.kind).toBe('git')
    expect(model.changes.map((c) => changeText(c, true))).toEqual(['modified /x.ts', 'deleted /gone', 'moved /o → /n', 'added /img.png (binary)'])
    const html = renderToStaticMarkup(createElement(DiffView, { block }))
    const text = html.replace(/<[^>]+>/g, '')
    expect(text).toContain('4 files changed')
    expect(text).toContain('deleted /gone')
    expect(text).toContain('moved /o → /n')
    expect(text).toContain('added /img.png (binary)')
    // The list comes first, the patch under it.
    expect(html.indexOf('aria-label="Changed files"')).toBeLessThan(html.indexOf('aria-label="Patch"'))
    expect(html).toContain('diff-line diff-del')
    expect(html).toContain('diff-line diff-add')
  })

  it('parses only git_patch: another format (or none) is shown as sent, never read as a git patch', () => {
    for (const format of ['_unified_v9', 'unified', 'GIT_PATCH', undefined]) {
      const block = { type: 'diff', changes: [{ operation: 'modify', path: '/x.ts' }], patch: { ...(format !== undefined ? { format } : {}), text: PATCH } }
      const model = diffModelOf(block)
      if (model.kind !== 'changes') throw new Error(`expected changes, got ${model.kind}`)
      expect(model.patch).toEqual({ kind: 'raw', format: format ?? '(none)', text: PATCH })
      const html = renderToStaticMarkup(createElement(DiffView, { block }))
      expect(html).not.toContain('diff-line')
      expect(html).toContain(`<pre class="diff-raw" tabindex="0" aria-label="Patch (${format ?? '(none)'})">`)
      // The text as sent, escaped by React (the "+++" / "-old" lines are plain text, not coloured lines).
      expect(html).toContain('-old\n+new')
      expect(html.replace(/<[^>]+>/g, '')).toContain('modified /x.ts')
    }
  })

  it('a patch with empty text counts as no patch', () => {
    const model = diffModelOf({ type: 'diff', changes: [{ operation: 'modify', path: '/x.ts' }], patch: { format: 'git_patch', text: '' } })
    expect(model.kind === 'changes' && model.patch).toBeNull()
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
    expect(v2.replace(/<[^>]+>/g, '')).toContain('modified /bin (binary)')
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
