/**
 * Plans: v1 `plan` (whole list) and v2 `plan_update` (several plans by id).
 */
import type { PlanEntryView, PlanView } from '../types'
import { boundJson } from '../../bounded'
import { boundedMeta, cutText, isObject, isString } from './draft'
import type { Draft, Update } from './draft'
import { findToolCall } from './tool-calls'

/**
 * What a session keeps of its plans. Each update replaces a plan whole and is applied to a full session too, and a v2
 * agent names a new plan with any new `planId`: without a bound, plan updates with new ids grew the session forever.
 * Past {@link MAX_PLANS} the oldest plan goes; a plan keeps its first {@link MAX_PLAN_ENTRIES} steps.
 */
export const MAX_PLANS = 8
export const MAX_PLAN_ENTRIES = 1_000
/** A step is a line of the plan panel: a longer one is cut with `…`. */
export const MAX_PLAN_ENTRY_CHARS = 2_000
/** A `markdown` plan is drawn as Markdown: at most this much of its text. */
export const MAX_PLAN_MARKDOWN_CHARS = 64 * 1024
/** A plan of a type Bosun does not read is shown as JSON: at most this much of it. */
const RAW_PLAN_BOUNDS = { maxTotalChars: 64 * 1024 }


export function parsePlanEntries(value: unknown): PlanEntryView[] | null {
  if (!Array.isArray(value)) return null
  const out: PlanEntryView[] = []
  for (const item of value) {
    if (out.length >= MAX_PLAN_ENTRIES) break
    if (!isObject(item) || !isString(item.content)) continue
    const entry: PlanEntryView = {
      content: cutText(item.content, MAX_PLAN_ENTRY_CHARS),
      priority: isString(item.priority) ? cutText(item.priority, 64) : 'medium',
      status: isString(item.status) ? cutText(item.status, 64) : 'pending',
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

/**
 * v2 `plan_update`: replaces that plan; a `markdown` plan (Codex's proposed plan, in its Plan mode) keeps its text;
 * other plan types are kept generically (H26).
 */
export function applyPlanUpdate(d: Draft, u: Update): void {
  const plan = u.plan
  if (!isObject(plan) || !isString(plan.planId) || !isString(plan.type)) return
  let view: PlanView
  if (plan.type === 'items' || (plan.type === 'markdown' && isString(plan.content))) {
    const entries = plan.type === 'items' ? parsePlanEntries(plan.entries) : []
    if (!entries) return
    view = { planId: plan.planId, type: plan.type, entries }
    if (plan.type === 'markdown') view.markdown = cutText(plan.content as string, MAX_PLAN_MARKDOWN_CHARS)
    const meta = boundedMeta(plan._meta)
    if (meta) view._meta = meta
  } else {
    view = { planId: plan.planId, type: plan.type, entries: [], raw: boundJson(plan, RAW_PLAN_BOUNDS) }
  }
  const updateMeta = boundedMeta(u._meta)
  if (updateMeta) view.updateMeta = updateMeta
  const plans = d.s.plans.slice()
  const at = plans.findIndex((p) => p.planId === view.planId)
  if (at >= 0) plans[at] = view
  else plans.push(view)
  d.s.plans = plans.length > MAX_PLANS ? plans.slice(plans.length - MAX_PLANS) : plans
}

/** The tool OpenCode keeps its todo list with (its `todowrite`: `rawInput.todos`, `rawOutput.metadata.todos`). */
const TODO_WRITE_TITLE = 'todowrite'

/**
 * v1: OpenCode (1.18) sends its todo list only as its `todowrite` tool call, never as a `plan`: the list the call
 * writes is the session's plan, as the same list from Claude is. Called before the update is applied to the call: the
 * list this update carries (`rawInput.todos`, else `rawOutput.metadata.todos`) when the call is a `todowrite` (titled
 * so until now, or by this update: its last update retitles it "2 todos"), else undefined. Most updates carry no list,
 * and the call is not looked up for them. Any `plan` the agent sends replaces it as usual.
 */
export function todoWriteList(d: Draft, u: Update): unknown {
  const input = isObject(u.rawInput) ? u.rawInput.todos : undefined
  const output = isObject(u.rawOutput) && isObject(u.rawOutput.metadata) ? u.rawOutput.metadata.todos : undefined
  const todos = input ?? output
  if (todos === undefined) return undefined
  return u.title === TODO_WRITE_TITLE || isTodoWriteCall(d, u.toolCallId) ? todos : undefined
}

/** The list {@link todoWriteList} found, as the session's plan (when it reads as one). */
export function applyTodoWritePlan(d: Draft, todos: unknown): void {
  if (todos === undefined) return
  const entries = parsePlanEntries(todos)
  if (entries) d.s.plans = [{ planId: '', type: 'items', entries }]
}

/** Whether the tool call this update is about was, until now, titled as OpenCode's `todowrite`. */
function isTodoWriteCall(d: Draft, toolCallId: unknown): boolean {
  if (!isString(toolCallId)) return false
  const i = findToolCall(d, toolCallId)
  const entry = i >= 0 ? d.s.entries[i] : undefined
  return entry?.kind === 'tool_call' && entry.title === TODO_WRITE_TITLE
}
