import { describe, expect, it, vi } from 'vitest'
import { DisposableStore, toDisposable } from '../../../main/base/lifecycle'
import { Emitter, once } from '../../../main/base/event'
import { RingBuffer, TextTail } from '../../../main/base/ring-buffer'

describe('DisposableStore', () => {
  it('disposes every item once, even when one throws', () => {
    const store = new DisposableStore()
    const a = vi.fn()
    const b = vi.fn()
    store.add(toDisposable(a))
    store.add(toDisposable(() => { throw new Error('boom') }))
    store.add(toDisposable(b))
    expect(() => store.dispose()).toThrow('boom')
    store.dispose()
    expect(a).toHaveBeenCalledTimes(1)
    expect(b).toHaveBeenCalledTimes(1)
  })

  it('disposes items added after it was disposed', () => {
    const store = new DisposableStore()
    store.dispose()
    const fn = vi.fn()
    store.add(toDisposable(fn))
    expect(fn).toHaveBeenCalledTimes(1)
    expect(store.size).toBe(0)
  })
})

describe('Emitter', () => {
  it('delivers to listeners until they unsubscribe', async () => {
    const emitter = new Emitter<number>()
    const seen: number[] = []
    const sub = emitter.event((n) => seen.push(n))
    emitter.fire(1)
    sub.dispose()
    emitter.fire(2)
    expect(seen).toEqual([1])
    expect(emitter.listenerCount).toBe(0)
    const next = once(emitter.event, (n) => n > 5)
    emitter.fire(3)
    emitter.fire(7)
    await expect(next).resolves.toBe(7)
  })
})

describe('RingBuffer and TextTail', () => {
  it('keeps the last items', () => {
    const ring = new RingBuffer<number>(3)
    for (let i = 1; i <= 5; i++) ring.push(i)
    expect(ring.toArray()).toEqual([3, 4, 5])
    expect(ring.dropped).toBe(2)
  })

  it('keeps the tail of a text stream, cut at a line boundary', () => {
    const tail = new TextTail(20)
    tail.append('first line that is long\nsecond\n')
    tail.append('third\n')
    expect(tail.toString()).toBe('second\nthird\n')
    expect(tail.lastLines(1)).toBe('third')
  })
})
