import { describe, expect, it } from 'vitest'
import { Virtualizer, type VirtualizerOptions } from '@tanstack/virtual-core'
import { placeAppendedRowsOnly } from '../../../renderer/components/transcript/append-only-rows'

type Options = VirtualizerOptions<HTMLElement, HTMLElement>

/** A virtualizer without a scroll element (placing rows needs none), its keys and estimates counted. */
function rows(count: number, keyOf: (index: number) => string = (index) => `row-${index}`) {
  const asked = { keys: 0, estimates: 0 }
  const options: Options = {
    count,
    getScrollElement: () => null,
    estimateSize: (index) => {
      asked.estimates++
      return 20 + (index % 7)
    },
    getItemKey: (index) => {
      asked.keys++
      return keyOf(index)
    },
    scrollToFn: () => {},
    observeElementRect: () => {},
    observeElementOffset: () => {},
  }
  const virtualizer = new Virtualizer(options)
  return { virtualizer, options, asked }
}

/** Every row's start and size, read the virtualizer's public way. */
const placed = (v: Virtualizer<HTMLElement, HTMLElement>) => {
  const total = v.getTotalSize()
  const list = v.measurementsCache
  const out: [number, number][] = []
  for (let i = 0; i < list.length; i++) out.push([list[i]!.start, list[i]!.size])
  return { total, rows: out }
}

describe('placeAppendedRowsOnly', () => {
  it('places only the new rows (and the last old one) when the count grows, where the virtualizer placed every row again', () => {
    const plain = rows(10_000)
    plain.virtualizer.getTotalSize()
    plain.virtualizer.setOptions({ ...plain.options, count: 10_100 })
    const before = plain.asked.keys
    plain.virtualizer.getTotalSize()
    // Without the change: every row's key again.
    expect(plain.asked.keys - before).toBeGreaterThanOrEqual(10_100)

    const appended = rows(10_000)
    expect(placeAppendedRowsOnly(appended.virtualizer)).toBe(true)
    appended.virtualizer.getTotalSize()
    appended.virtualizer.setOptions({ ...appended.options, count: 10_100 })
    const keysBefore = appended.asked.keys
    const estimatesBefore = appended.asked.estimates
    appended.virtualizer.getTotalSize()
    expect(appended.asked.keys - keysBefore).toBeLessThan(110)
    expect(appended.asked.estimates - estimatesBefore).toBe(101)
    expect(placed(appended.virtualizer)).toEqual(placed(plain.virtualizer))
  })

  it('keeps every row where a virtualizer placing them all puts them, through measurements and many appends', () => {
    const plain = rows(50)
    const appended = rows(50)
    placeAppendedRowsOnly(appended.virtualizer)
    for (let step = 1; step <= 40; step++) {
      for (const { virtualizer, options } of [plain, appended]) {
        virtualizer.getTotalSize()
        // A row measured (the virtualizer's own partial placing from it), then more rows.
        virtualizer.resizeItem(Math.max(0, virtualizer.options.count - 3), 30 + step)
        if (step % 5 === 0) virtualizer.resizeItem(step, 90 + step)
        virtualizer.setOptions({ ...options, count: 50 + step * 7 })
      }
      expect(placed(appended.virtualizer)).toEqual(placed(plain.virtualizer))
    }
  })

  it('drops the rows past a shorter count (a deferred render of an older state) without placing the others again', () => {
    const appended = rows(1_000)
    placeAppendedRowsOnly(appended.virtualizer)
    appended.virtualizer.getTotalSize()
    appended.virtualizer.setOptions({ ...appended.options, count: 900 })
    const before = appended.asked.keys
    expect(placed(appended.virtualizer)).toEqual(placed(rows(900).virtualizer))
    expect(appended.asked.keys - before).toBeLessThan(10)
    appended.virtualizer.setOptions({ ...appended.options, count: 1_000 })
    expect(placed(appended.virtualizer)).toEqual(placed(rows(1_000).virtualizer))
  })

  it('places every row when the old rows changed keys (another list)', () => {
    let list = 'a'
    const appended = rows(1_000, (index) => `${list}-${index}`)
    placeAppendedRowsOnly(appended.virtualizer)
    appended.virtualizer.getTotalSize()
    list = 'b'
    appended.virtualizer.setOptions({ ...appended.options, count: 1_010 })
    const before = appended.asked.keys
    appended.virtualizer.getTotalSize()
    expect(appended.asked.keys - before).toBeGreaterThanOrEqual(1_010)
    expect(appended.virtualizer.measurementsCache[5]!.key).toBe('b-5')
    list = 'c'
    appended.virtualizer.setOptions({ ...appended.options, count: 20 })
    appended.virtualizer.getTotalSize()
    expect(appended.virtualizer.measurementsCache[19]!.key).toBe('c-19')
  })

  it('leaves a virtualizer of another shape alone', () => {
    expect(placeAppendedRowsOnly({ getMeasurementOptions: () => ({}) })).toBe(false)
  })
})
