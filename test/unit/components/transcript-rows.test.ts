import { describe, expect, it } from 'vitest'
import type { Range } from '@tanstack/react-virtual'
import type { Entry } from '../../../common/session/types'
import { estimateEntrySize, firstRowOfEnd, FOLLOW_OVERSCAN, rowsToRender } from '../../../renderer/components/transcript/Transcript'

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

  it('renders from the first row of the end\'s view, and only a few above it, when that row is known by size', () => {
    // A flood: the view still shows rows 10–14, and the end's view starts at row 97 of 100.
    const rows = rowsToRender(range(10, 14, 100, 6), true, 97)
    expect(rows).toEqual([95, 96, 97, 98, 99])
    expect(rows[0]).toBe(97 - FOLLOW_OVERSCAN)
    // Not the whole overscan above it, which the follow scroll leaves out of view.
    expect(rows.length).toBeLessThan(rowsToRender(range(10, 14, 100, 6), true).length)
    // A view that joins the end's keeps its rows until the follow scroll lands, without the overscan above them.
    expect(rowsToRender(range(90, 97, 100, 6), true, 97)).toEqual([90, 91, 92, 93, 94, 95, 96, 97, 98, 99])
    // At the end: the end's view and the few rows above it.
    expect(rowsToRender(range(96, 99, 100, 6), true, 97)).toEqual([95, 96, 97, 98, 99])
    // Out of bounds: still the last row.
    expect(rowsToRender(range(0, 3, 5), true, 50)).toEqual([0, 1, 2, 3, 4])
  })
})

describe('firstRowOfEnd', () => {
  // Rows of 100, 100, 300, 50, 50 px: they end at 100, 200, 500, 550, 600.
  const ends = [100, 200, 500, 550, 600]
  const endOf = (i: number) => ends[i]!

  it('is the first row that shows in a view scrolled to the end', () => {
    expect(firstRowOfEnd(5, endOf, 100)).toBe(3)
    expect(firstRowOfEnd(5, endOf, 150)).toBe(2)
    // The row that ends where the view starts does not show.
    expect(firstRowOfEnd(5, endOf, 400)).toBe(2)
    expect(firstRowOfEnd(5, endOf, 401)).toBe(1)
    expect(firstRowOfEnd(5, endOf, 10_000)).toBe(0)
    expect(firstRowOfEnd(0, endOf, 100)).toBe(0)
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
