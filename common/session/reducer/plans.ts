/**
 * Plans: v1 `plan` (whole list) and v2 `plan_update` (several plans by id).
 */
import type { PlanEntryView, PlanView } from '../types'
import { boundedMeta, isObject, isString } from './draft'
import type { Draft, Update } from './draft'


export function parsePlanEntries(value: unknown): PlanEntryView[] | null {
  if (!Array.isArray(value)) return null
  const out: PlanEntryView[] = []
  for (const item of value) {
    if (!isObject(item) || !isString(item.content)) continue
    const entry: PlanEntryView = {
      content: item.content,
      priority: isString(item.priority) ? item.priority : 'medium',
      status: isString(item.status) ? item.status : 'pending',
    }
    const meta = boundedMeta(item._meta)
    if (meta) entry._meta = meta
    out.push(entry)
  }
  return out
}

/** v1 `plan`: replaces the single plan (H11). */
export function applyPlanV1(d: Draft, u: Update): void {
  const entries = parsePlanEntries(u.entries)
  if (!entries) return
  const view: PlanView = { planId: '', type: 'items', entries }
  // The v1 Plan's fields are the update's: its `_meta` is the plan's (I1).
  const meta = boundedMeta(u._meta)
  if (meta) view._meta = meta
  d.s.plans = [view]
}

/** v2 `plan_update`: replaces that plan; unknown plan types are kept generically (H26). */
export function applyPlanUpdate(d: Draft, u: Update): void {
  const plan = u.plan
  if (!isObject(plan) || !isString(plan.planId) || !isString(plan.type)) return
  let view: PlanView
  if (plan.type === 'items') {
    const entries = parsePlanEntries(plan.entries)
    if (!entries) return
    view = { planId: plan.planId, type: 'items', entries }
    const meta = boundedMeta(plan._meta)
    if (meta) view._meta = meta
  } else {
    view = { planId: plan.planId, type: plan.type, entries: [], raw: plan }
  }
  const updateMeta = boundedMeta(u._meta)
  if (updateMeta) view.updateMeta = updateMeta
  const plans = d.s.plans.slice()
  const at = plans.findIndex((p) => p.planId === view.planId)
  if (at >= 0) plans[at] = view
  else plans.push(view)
  d.s.plans = plans
}
