/**
 * The session header's usage meter (H16): its words, its `meter` role and value text, and costs in money or
 * in other units. Rendered to static markup in Node; the e2e test shows it in the header.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { UsageView } from '../../../common/session/types'
import { UsageMeter } from '../../../renderer/components/session/UsageMeter'
import { fillOf, formatCost, formatTokens, usageText } from '../../../renderer/components/session/usage-format'

const render = (usage: UsageView | null) => renderToStaticMarkup(<UsageMeter usage={usage} locale="en-US" />)
const textOf = (html: string) => html.replace(/<[^>]+>/g, '')

describe('usage words', () => {
  it.each([
    [0, '0'],
    [950, '950'],
    [4_200, '4.2k'],
    [10_000, '10k'],
    [48_000, '48k'],
    [200_000, '200k'],
    [999_999, '1M'],
    [1_250_000, '1.3M'],
    [2_000_000_000, '2B'],
  ])('%d tokens read as %s', (n, text) => {
    expect(formatTokens(n)).toBe(text)
  })

  it('money is formatted for its currency; other units are a number and the unit', () => {
    expect(formatCost({ amount: 0.42, currency: 'USD' }, 'en-US')).toBe('$0.42')
    expect(formatCost({ amount: 12, currency: 'eur' }, 'en-US')).toBe('€12.00')
    expect(formatCost({ amount: 0.0042, currency: 'USD' }, 'en-US')).toBe('$0.0042')
    expect(formatCost({ amount: 3, currency: 'credits' }, 'en-US')).toBe('3 credits')
    expect(formatCost({ amount: 1234.5, currency: 'credits' }, 'en-US')).toBe('1,234.5 credits')
    // A well-formed code Intl has no symbol for is shown with its code.
    expect(formatCost({ amount: 1, currency: 'XYZ' }, 'en-US')).toMatch(/XYZ\s?1\.00/)
    // The agent's unit shows its hidden characters as markers: an override turned the header's text after it round (hostile14).
    expect(formatCost({ amount: 3, currency: '\u202Estiderc' }, 'en-US')).toBe('3 ⟨U+202E⟩stiderc')
  })

  it('the fill is bounded, and unknown without a window size', () => {
    expect(fillOf({ used: 50, size: 200 })).toBe(0.25)
    expect(fillOf({ used: 500, size: 200 })).toBe(1)
    expect(fillOf({ used: 5, size: 0 })).toBeNull()
    expect(fillOf({ used: 5, size: null })).toBeNull()
    expect(usageText({ used: 48_000, size: 200_000 })).toBe('48k / 200k tokens')
    expect(usageText({ used: 48_000, size: null })).toBe('48k tokens')
  })
})

describe('UsageMeter', () => {
  it('shows nothing until the agent sends usage', () => {
    expect(render(null)).toBe('')
  })

  it('is a meter with a name and a value text, and shows the cost', () => {
    const html = render({ used: 48_000, size: 200_000, cost: { amount: 0.42, currency: 'USD' } })
    expect(html).toContain('role="meter"')
    expect(html).toContain('aria-label="Context window"')
    expect(html).toContain('aria-valuemin="0"')
    expect(html).toContain('aria-valuemax="200000"')
    expect(html).toContain('aria-valuenow="48000"')
    expect(html).toContain('aria-valuetext="48k of 200k tokens, 24 percent"')
    expect(html).toContain('width:24.0%')
    expect(textOf(html)).toBe('48k / 200k tokens$0.42')
    expect(html).toContain('aria-label="Cost so far: $0.42"')
  })

  it('credits are not money; no cost, no cost badge', () => {
    expect(textOf(render({ used: 1, size: 10, cost: { amount: 3, currency: 'credits' } }))).toContain('3 credits')
    expect(render({ used: 1, size: 10, cost: null })).not.toContain('usage-cost')
  })

  it('without a window size: the count, no meter role and no bar', () => {
    const html = render({ used: 48_000, size: null })
    expect(html).not.toContain('role="meter"')
    expect(html).not.toContain('usage-bar')
    expect(textOf(html)).toBe('48k tokens')
  })

  it('an overfull window reads as full and keeps the value inside the range', () => {
    const html = render({ used: 250_000, size: 200_000 })
    expect(html).toContain('aria-valuenow="200000"')
    expect(html).toContain('usage-full')
    expect(html).toContain('width:100.0%')
  })
})
