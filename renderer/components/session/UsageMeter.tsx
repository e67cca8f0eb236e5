import { memo } from 'react'
import type { UsageView } from '../../../common/session/types'
import { fillOf, formatCost, usageText, usageValueText } from './usage-format'
import './session.css'

/** "48k / 200k tokens", its unit in a span of its own: a narrow window drops the word (session.css), the tooltip keeps it. */
function UsageWords({ text }: { text: string }) {
  const unit = ' tokens'
  if (!text.endsWith(unit)) return text
  return (
    <>
      {text.slice(0, -unit.length)}
      <span className="usage-unit">{unit}</span>
    </>
  )
}

/**
 * The session header's usage meter, from the agent's last `usage_update` (H16): how full the context window
 * is ("48k / 200k tokens" over a thin bar, a `meter` for assistive technology) and the session's cost so far
 * when the agent gives one. Nothing until the agent sends usage.
 */
export const UsageMeter = memo(function UsageMeter({ usage, locale }: { usage: UsageView | null; locale?: string }) {
  if (!usage) return null
  const fill = fillOf(usage)
  const cost = usage.cost ? formatCost(usage.cost, locale) : null
  const level = fill === null ? '' : fill >= 0.9 ? ' usage-full' : fill >= 0.75 ? ' usage-high' : ''
  return (
    <div className={`usage-meter${level}`} title={cost ? `Context: ${usageValueText(usage)}. Cost so far: ${cost}` : `Context: ${usageValueText(usage)}`}>
      {fill === null ? (
        <span className="usage-context" aria-label={`Context: ${usageValueText(usage)}`}>
          {usageText(usage)}
        </span>
      ) : (
        <div
          className="usage-context"
          role="meter"
          aria-label="Context window"
          aria-valuemin={0}
          aria-valuemax={usage.size!}
          aria-valuenow={Math.min(usage.used, usage.size!)}
          aria-valuetext={usageValueText(usage)}
        >
          <span className="usage-text" aria-hidden="true">
            <UsageWords text={usageText(usage)} />
          </span>
          <span className="usage-bar" aria-hidden="true">
            <span className="usage-bar-fill" style={{ width: `${(fill * 100).toFixed(1)}%` }} />
          </span>
        </div>
      )}
      {cost && (
        <span className="usage-cost" aria-label={`Cost so far: ${cost}`}>
          {cost}
        </span>
      )}
    </div>
  )
})
