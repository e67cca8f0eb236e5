import { memo, useState, useSyncExternalStore } from 'react'
import type { PlanView } from '../../../common/session/types'
import { Icon } from '../common/icons'
import { JsonView } from '../common/JsonView'
import { useSeams } from '../common/seams'
import { Markdown } from '../markdown/Markdown'
import { VisibleText } from '../permissions/VisibleText'

/** v1 statuses plus v2's `cancelled` (H26); any other status is open-ended: shown by its name, never as pending. */
const STATUS_MARK: Record<string, string> = { completed: '✓', in_progress: '◐', pending: '○', cancelled: '⊘' }

/** Steps drawn at first (a plan of 10,000 steps drawn at once holds the page for over a second); "Show all" draws the rest. */
export const PLAN_SHOWN_ENTRIES = 200

/** A plan's steps as a checklist (the panel's, and a tool card's whose call wrote the todo list). */
export function PlanList({ plan }: { plan: PlanView }) {
  const [all, setAll] = useState(false)
  const { onOpenLink } = useSeams()
  if (plan.markdown !== undefined) return <Markdown source={plan.markdown} onOpenLink={onOpenLink} />
  if (plan.type !== 'items' && plan.entries.length === 0) return <JsonView value={plan.raw} label="Plan" />
  const shown = all ? plan.entries : plan.entries.slice(0, PLAN_SHOWN_ENTRIES)
  // A priority every step shares (claude-agent-acp sends "medium" for each) tells nothing: it is shown only where steps differ.
  const priorities = new Set(plan.entries.map((e) => e.priority))
  return (
    <>
    <ul className="plan-list" role="list">
      {shown.map((item, i) => {
        const known = Object.prototype.hasOwnProperty.call(STATUS_MARK, item.status)
        const label = item.status.replaceAll('_', ' ').trim()
        return (
          <li key={i} className={`plan-item plan-${known ? item.status : 'other'}`}>
            <span className="plan-check" role="img" aria-label={label} title={label}>
              {known ? STATUS_MARK[item.status] : '•'}
            </span>
            <span className="plan-text">
              <VisibleText text={item.content} prose />
            </span>
            {item.status === 'cancelled' && <span className="badge plan-status">cancelled</span>}
            {!known && <span className="badge plan-status">{label.slice(0, 40)}</span>}
            {priorities.size > 1 && (
              <span className={`badge badge-priority-${item.priority}`}>
                {item.priority}
                <span className="sr-only"> priority</span>
              </span>
            )}
          </li>
        )
      })}
    </ul>
    {shown.length < plan.entries.length && (
      <button type="button" className="link-button" onClick={() => setAll(true)}>
        Show all {plan.entries.length.toLocaleString('en')} steps
      </button>
    )}
    </>
  )
}

/**
 * A window shorter than this (a laptop's 800 px) opens with the plan folded to its one line: five steps took about 140 px
 * of the transcript's height, under a header and above the composer.
 */
export const SHORT_WINDOW_QUERY = '(max-height: 900px)'

/** One query for the page: React reads it at every render of the plan (each plan update of a stream), and a new one each time cost a style lookup. */
let shortWindow: MediaQueryList | null = null
const shortWindowQuery = (): MediaQueryList => (shortWindow ??= window.matchMedia(SHORT_WINDOW_QUERY))

function subscribeShortWindow(onChange: () => void): () => void {
  const query = shortWindowQuery()
  query.addEventListener('change', onChange)
  return () => query.removeEventListener('change', onChange)
}
const isShortWindow = () => shortWindowQuery().matches

/**
 * The agent's plan(s) as a checklist above the composer (v1 one plan, v2 several). Folded, it is one line: how many steps
 * are done and the step under way. Open or folded as the person last chose, else as the window's height suggests.
 */
export const PlanPanel = memo(function PlanPanel({ plans: sent }: { plans: PlanView[] }) {
  const [chosen, setChosen] = useState<boolean | null>(null)
  const short = useSyncExternalStore(subscribeShortWindow, isShortWindow, () => false)
  const open = chosen ?? !short
  // A plan of no steps is one the agent cleared (each update is the whole plan): not a panel reading "0/0 done" over nothing.
  const plans = sent.filter((p) => p.type !== 'items' || p.entries.length > 0)
  const all = plans.flatMap((p) => p.entries)
  if (plans.length === 0) return null
  const done = all.filter((e) => e.status === 'completed').length
  const current = all.find((e) => e.status === 'in_progress') ?? all.find((e) => e.status === 'pending')
  // A plan in Markdown (Codex's proposed plan) has no steps to count: folded, its first line stands for it.
  const firstLine = current ? undefined : plans.find((p) => p.markdown !== undefined)?.markdown?.match(/^\s*#*\s*(\S.*)$/m)?.[1]
  return (
    <section className="plan-panel" aria-label="Plan">
      <button type="button" className="plan-toggle" aria-expanded={open} onClick={() => setChosen(!open)}>
        <Icon name="chevron" size={14} className={open ? 'rotate-90' : undefined} />
        <span>Plan</span>
        {all.length > 0 && (
          <span className="muted plan-done">
            {done}/{all.length} done
          </span>
        )}
        {!open && (current || firstLine) && <span className="plan-current">{current ? current.content : firstLine}</span>}
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
