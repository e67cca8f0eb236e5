import { memo, useState } from 'react'
import type { PlanView } from '../../../common/session/types'
import { Icon } from '../common/icons'
import { JsonView } from '../common/JsonView'

const STATUS_MARK: Record<string, string> = { completed: '✓', in_progress: '◐', pending: '○' }

function PlanList({ plan }: { plan: PlanView }) {
  if (plan.type !== 'items' && plan.entries.length === 0) return <JsonView value={plan.raw} label="Plan" />
  return (
    <ul className="plan-list" role="list">
      {plan.entries.map((item, i) => {
        const status = STATUS_MARK[item.status] ? item.status : 'pending'
        return (
          <li key={i} className={`plan-item plan-${status}`}>
            <span className="plan-check" role="img" aria-label={item.status.replace('_', ' ')}>
              {STATUS_MARK[status]}
            </span>
            <span className="plan-text">{item.content}</span>
            <span className={`badge badge-priority-${item.priority}`}>
              {item.priority}
              <span className="sr-only"> priority</span>
            </span>
          </li>
        )
      })}
    </ul>
  )
}

/** The agent's plan(s) as a checklist above the composer (v1 one plan, v2 several). */
export const PlanPanel = memo(function PlanPanel({ plans }: { plans: PlanView[] }) {
  const [open, setOpen] = useState(true)
  const all = plans.flatMap((p) => p.entries)
  if (plans.length === 0) return null
  const done = all.filter((e) => e.status === 'completed').length
  return (
    <section className="plan-panel" aria-label="Plan">
      <button type="button" className="plan-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        <Icon name="chevron" size={14} className={open ? 'rotate-90' : undefined} />
        <span>Plan</span>
        <span className="muted">
          {done}/{all.length} done
        </span>
      </button>
      {open && (
        <div className="plan-body">
          {plans.map((plan) => (
            <div key={plan.planId} className="plan">
              {plans.length > 1 && <h3 className="plan-heading">{plan.planId || 'Plan'}</h3>}
              <PlanList plan={plan} />
            </div>
          ))}
        </div>
      )}
    </section>
  )
})
