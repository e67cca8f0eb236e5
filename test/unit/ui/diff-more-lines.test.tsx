/**
 * "Show all N lines" under a long diff counts the lines of the file it shows: the hunk headers (`@@ … @@`) and git's
 * header lines are rows of the card, not lines of the file.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { expect, it } from 'vitest'
import { DiffView } from '../../../renderer/components/transcript/DiffView'

const button = (html: string) => /<button[^>]*>([^<]*)<\/button>/.exec(html)?.[1]

it('counts the added, removed and unchanged lines of a long patch, not its hunk headers', () => {
  const hunk = (at: number, n: number) => [`@@ -${at},1 +${at},${n + 1} @@`, ' kept', ...Array.from({ length: n }, (_, i) => `+line ${at + i}`)]
  // Two hunks: 2 headers, 2 unchanged lines and 300 + 150 added ones; 454 rows after git's header is dropped.
  const text = ['diff --git a/f.ts b/f.ts', '--- a/f.ts', '+++ b/f.ts', ...hunk(1, 300), ...hunk(900, 150), ''].join('\n')
  const html = renderToStaticMarkup(<DiffView block={{ type: 'diff', changes: [{ operation: 'modify', path: '/w/f.ts' }], patch: { format: 'git_patch', text } }} />)
  expect(button(html)).toBe('Show all 452 lines')
})

it('counts the shown lines the same way while there are pages to come', () => {
  const oldText = Array.from({ length: 3000 }, (_, i) => `old ${i}`).join('\n')
  const newText = Array.from({ length: 3000 }, (_, i) => `new ${i}`).join('\n')
  // Too different to compare line by line: a note, one hunk header, 3,000 removed lines and 3,000 added; the first
  // page of 400 rows holds 398 of them.
  const html = renderToStaticMarkup(<DiffView block={{ type: 'diff', path: '/w/f.ts', oldText, newText }} />)
  expect(button(html)).toBe('Show 2,000 more lines (398 of 6,000 shown)')
})
