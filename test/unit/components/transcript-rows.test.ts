import { describe, expect, it } from 'vitest'
import type { Range } from '@tanstack/react-virtual'
import type { Entry } from '../../../common/session/types'
import { estimateEntrySize, rowsToRender } from '../../../renderer/components/transcript/Transcript'

const range = (startIndex: number, endIndex: number, count: number, overscan = 2): Range => ({ startIndex, endIndex, count, overscan })
const contiguous = (rows: number[]) => rows.every((row, i) => i === 0 || row === rows[i - 1]! + 1)

describe('rowsToRender', () => {
  it('is the virtualizer range and overscan when not following', () => {
    expect(rowsToRender(range(10, 14, 100), false)).toEqual([8, 9, 10, 11, 12, 13, 14, 15, 16])
  })

  it('renders the end while following, even before the view has scrolled there', () => {
    // The view still shows rows 10–14 of a transcript that just grew to 100 entries.
    const rows = rowsToRender(range(10, 14, 100), true)
    expect(rows[rows.length - 1]).toBe(99)
    expect(rows[0]).toBe(100 - 5 - 2)
    expect(contiguous(rows)).toBe(true)
  })

  it('stays contiguous when the range already reaches the end', () => {
    const rows = rowsToRender(range(90, 97, 100), true)
    expect(rows).toEqual([88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99])
    expect(rowsToRender(range(0, 0, 0), true)).toEqual([])
  })
})

describe('estimateEntrySize', () => {
  const message = (text: string): Entry => ({ kind: 'agent_message', id: 'm', content: [{ type: 'text', text }] })

  it('grows with the text and its lines, within a bound', () => {
    const one = estimateEntrySize(message('short'))
    const many = estimateEntrySize(message('line\n'.repeat(20)))
    expect(many).toBeGreaterThan(one)
    expect(estimateEntrySize(message('x'.repeat(10_000_000)))).toBeLessThanOrEqual(12 + 28 + 22 * 400)
    expect(estimateEntrySize(undefined)).toBeGreaterThan(0)
  })
})
