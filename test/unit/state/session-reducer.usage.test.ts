/**
 * `usage_update` (checklist H16), v1 and v2: what the session keeps for the usage meter, and that nothing an
 * agent sends there can break the session or grow it without bound.
 */
import { describe, expect, it } from 'vitest'
import { MAX_USAGE_VALUE } from '../../../common/session/reducer/metadata'
import { session, updates } from './helpers'

const usage = (fields: Record<string, unknown>) => ({ sessionUpdate: 'usage_update', ...fields })

describe('usage_update (H16)', () => {
  it.each([1, 2] as const)('v%i: used and size replace, cost is kept until the next one', (version) => {
    let s = updates(session(version), usage({ used: 48_000, size: 200_000, cost: { amount: 0.42, currency: 'USD' } }))
    expect(s.usage).toEqual({ used: 48_000, size: 200_000, cost: { amount: 0.42, currency: 'USD' } })
    s = updates(s, usage({ used: 52_000, size: 200_000 }))
    expect(s.usage).toEqual({ used: 52_000, size: 200_000, cost: { amount: 0.42, currency: 'USD' } })
    s = updates(s, usage({ used: 1_000, size: 200_000, cost: { amount: 3, currency: 'credits' } }))
    expect(s.usage).toEqual({ used: 1_000, size: 200_000, cost: { amount: 3, currency: 'credits' } })
  })

  it('cost null clears in v2, and means "omitted" in v1', () => {
    const first = usage({ used: 10, size: 100, cost: { amount: 1.5, currency: 'EUR' } })
    const cleared = usage({ used: 20, size: 100, cost: null })
    expect(updates(updates(session(2), first), cleared).usage?.cost).toBeNull()
    expect(updates(updates(session(1), first), cleared).usage?.cost).toEqual({ amount: 1.5, currency: 'EUR' })
  })

  it('numbers given as strings are read; fractions of tokens are rounded', () => {
    const s = updates(session(1), usage({ used: '48000', size: ' 200000 ', cost: { amount: '0.42', currency: 'USD' } }))
    expect(s.usage).toEqual({ used: 48_000, size: 200_000, cost: { amount: 0.42, currency: 'USD' } })
    expect(updates(s, usage({ used: 12.6, size: 100.2 })).usage).toMatchObject({ used: 13, size: 100 })
  })

  it('a missing size is shown as unknown until one comes, and a later missing size keeps the last', () => {
    let s = updates(session(2), usage({ used: 500 }))
    expect(s.usage).toEqual({ used: 500, size: null, cost: null })
    s = updates(s, usage({ used: 600, size: 1000 }))
    s = updates(s, usage({ used: 700 }))
    expect(s.usage).toEqual({ used: 700, size: 1000, cost: null })
  })

  it.each([
    ['negative', -5],
    ['absurd', MAX_USAGE_VALUE * 10],
    ['not a number', 'lots'],
    ['NaN as a string', 'NaN'],
    ['an empty string', ''],
    ['infinite', Infinity],
    ['an object', { n: 1 }],
    ['null', null],
  ])('a %s count keeps the last good value', (_what, bad) => {
    let s = updates(session(2), usage({ used: 10, size: 100 }))
    s = updates(s, usage({ used: bad, size: bad }))
    expect(s.usage).toEqual({ used: 10, size: 100, cost: null })
  })

  it('an update with no usable count before any other is ignored', () => {
    expect(updates(session(1), usage({ used: -1, size: 100 })).usage).toBeNull()
    expect(updates(session(1), usage({ size: 100, cost: { amount: 1, currency: 'USD' } })).usage).toBeNull()
  })

  it('a malformed cost keeps the last cost; a currency is trimmed and bounded', () => {
    let s = updates(session(2), usage({ used: 1, size: 2, cost: { amount: 0.5, currency: ' USD ' } }))
    expect(s.usage?.cost).toEqual({ amount: 0.5, currency: 'USD' })
    for (const cost of [{ amount: 'x', currency: 'USD' }, { amount: 1 }, { amount: 1, currency: '' }, { amount: 1, currency: 'C'.repeat(33) }, 'free', []]) {
      s = updates(s, usage({ used: 1, size: 2, cost }))
      expect(s.usage?.cost).toEqual({ amount: 0.5, currency: 'USD' })
    }
  })

  it('unknown extra fields are kept (copied, replaced by each update) and bounded', () => {
    const meta = { vendor: { cached: 1200 } }
    let s = updates(session(2), usage({ used: 1, size: 2, _meta: meta, inputTokens: 900 }))
    expect(s.usage?.extra).toEqual({ _meta: meta, inputTokens: 900 })
    // A copy: the state shares nothing with the agent's message.
    expect(s.usage?.extra?._meta).not.toBe(meta)
    s = updates(s, usage({ used: 1, size: 2 }))
    expect(s.usage?.extra).toBeUndefined()
    // Too big or too many: dropped whole, the counts still apply.
    s = updates(s, usage({ used: 3, size: 4, blob: 'x'.repeat(10_000) }))
    expect(s.usage).toEqual({ used: 3, size: 4, cost: null })
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i]))
    s = updates(s, usage({ used: 5, size: 6, ...many }))
    expect(s.usage).toEqual({ used: 5, size: 6, cost: null })
  })

  it('the usage survives JSON (history, snapshots) as plain data', () => {
    const s = updates(session(2), usage({ used: 1, size: 2, cost: { amount: 0.1, currency: 'USD' }, note: 'x' }))
    expect(JSON.parse(JSON.stringify(s.usage))).toEqual(s.usage)
  })
})
