import { describe, expect, it } from 'vitest'
import { boundJson } from '../../../common/bounded'
import { diffModelOf } from '../../../renderer/components/transcript/diff-model'

const file = (lines: number, edit: (line: string, i: number) => string = (l) => l) =>
  Array.from({ length: lines }, (_, i) => edit(`line number ${i} of the file`, i)).join('\n') + '\n'

/** The diff block as main keeps it: each text cut at 1 MiB, with the marker. */
const kept = (oldText: string, newText: string) => boundJson({ type: 'diff', path: '/p/big.txt', oldText, newText }, { maxTotalChars: 64 * 1024 * 1024 })

describe('a v1 diff whose texts Bosun cut', () => {
  it('compares the whole lines both kept: no change is made up at the cut, and it says how far it compared', () => {
    const old = file(60_000)
    const model = diffModelOf(kept(old, old.replace('line number 5 ', 'LINE 5 ') + 'end\n'))
    expect(model.kind).toBe('unified')
    if (model.kind !== 'unified') return
    expect([model.added, model.removed]).toEqual([1, 1])
    expect(model.lines.filter((l) => l.kind === 'add' || l.kind === 'del').map((l) => l.text)).toEqual(['line number 5 of the file', 'LINE 5 of the file'])
    expect(model.cutAfterLines).toBeGreaterThan(30_000)
    expect(model.lines.some((l) => l.text.includes('truncated by Bosun'))).toBe(false)
  })

  it('one side cut, the other whole and longer: compared as far as the cut side goes', () => {
    const model = diffModelOf({ type: 'diff', path: '/p/a', oldText: 'a\nb\nc…[truncated by Bosun] (5 more characters)', newText: 'a\nB\nc\nd\ne\n' })
    if (model.kind !== 'unified') throw new Error(model.kind)
    expect(model.cutAfterLines).toBe(2)
    expect(model.lines.filter((l) => l.kind === 'add' || l.kind === 'del').map((l) => `${l.kind} ${l.text}`)).toEqual(['del b', 'add B'])
  })

  it('a text that only mentions the marker is not cut', () => {
    const model = diffModelOf({ type: 'diff', path: '/p/a', oldText: 'x …[truncated by Bosun] y\n', newText: 'z\n' })
    expect(model.kind === 'unified' && model.cutAfterLines).toBe(undefined)
  })
})
