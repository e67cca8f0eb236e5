/**
 * Words and numbers of the usage meter (checklist H16), kept apart from React so they are tested as they are.
 */
import type { UsageView } from '../../../common/session/types'
import { revealAsText } from '../permissions/reveal-text'

/** 950 → "950", 4_200 → "4.2k", 48_000 → "48k", 1_250_000 → "1.3M". */
export function formatTokens(n: number): string {
  const abs = Math.abs(n)
  const scaled = (value: number, unit: string) => `${value < 10 ? trim(value.toFixed(1)) : Math.round(value).toString()}${unit}`
  if (abs < 1000) return Math.round(n).toString()
  if (abs < 999_500) return scaled(n / 1000, 'k')
  if (abs < 999_500_000) return scaled(n / 1e6, 'M')
  return scaled(n / 1e9, 'B')
}

const trim = (text: string) => (text.endsWith('.0') ? text.slice(0, -2) : text)

/** ISO 4217 codes have three letters; anything else ("credits") is a unit, not money. */
const CURRENCY_CODE = /^[A-Za-z]{3}$/

/**
 * A cost as the person reads it: money through `Intl.NumberFormat` ("$0.42", "0,42 €"), any other unit as
 * the number and the unit ("3 credits"). Small amounts keep enough digits not to read as zero.
 */
export function formatCost(cost: { amount: number; currency: string }, locale?: string): string {
  const small = cost.amount !== 0 && Math.abs(cost.amount) < 0.1
  if (CURRENCY_CODE.test(cost.currency)) {
    try {
      return new Intl.NumberFormat(locale, {
        style: 'currency',
        currency: cost.currency.toUpperCase(),
        minimumFractionDigits: 2,
        maximumFractionDigits: small ? 4 : 2,
      }).format(cost.amount)
    } catch {
      // Not a code this Intl knows: shown as a unit below.
    }
  }
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: small ? 4 : 2 }).format(cost.amount)
  // The agent's unit, in the session header: a right-to-left override in it turned the header's text after it round.
  return `${number} ${revealAsText(cost.currency)}`
}

/** How full the context window is, 0…1 (`null` when the size is unknown or zero). */
export function fillOf(usage: UsageView): number | null {
  if (usage.size === null || usage.size <= 0) return null
  return Math.min(1, Math.max(0, usage.used / usage.size))
}

/** "48k / 200k tokens", or "48k tokens" when the window size is unknown. */
export function usageText(usage: UsageView): string {
  return fillOf(usage) === null ? `${formatTokens(usage.used)} tokens` : `${formatTokens(usage.used)} / ${formatTokens(usage.size!)} tokens`
}

/** What a screen reader hears as the meter's value: "48k of 200k tokens, 24 percent". */
export function usageValueText(usage: UsageView): string {
  const fill = fillOf(usage)
  if (fill === null) return `${formatTokens(usage.used)} tokens used`
  return `${formatTokens(usage.used)} of ${formatTokens(usage.size!)} tokens, ${Math.round(fill * 100)} percent`
}
