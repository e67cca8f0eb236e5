/**
 * Updates a later update of the same batch replaces whole, left out before the batch is applied and sent: the
 * session the reducer builds from the batch is the same (tested against the batch as it came), while main's reducer,
 * the socket or IPC and the page handle each replaced thing once per batch instead of once per update. An agent that
 * re-sends its whole plan at every step sends most of a flood's bytes as plans (ACP H11: each replaces the last).
 *
 * What is left out, by the reducer's rules (common/session/reducer):
 * - v1 `plan` (H11): every plan before a later plan with an `entries` array, which replaces it. A v1 plan also marks
 *   "work reported" (the next chunk without a `messageId` starts a message): where a chunk without one comes before
 *   the next plan, or anything but updates does, the plan stays as `{sessionUpdate:'plan'}` (no entries: the reducer
 *   applies only that mark), so the chunk still starts its message.
 * - v2 `plan_update` (H26): one before a later valid `plan_update` of the same `planId` with no valid one of another
 *   id between them (that one would move the plan in the list, or push it out past MAX_PLANS).
 * - `available_commands_update` (H12, both): every one before a later one with a list, which replaces it.
 * Everything else keeps its order and identity. In v1, `plan_update` is an unknown kind (kept as an entry) and in v2
 * `plan` is: each version's rules apply only to its own kind.
 */
import type { ProtocolVersion, SessionAction } from '../../common/session/types'

/** The kinds {@link dropSuperseded} may leave out: a batch with fewer than two of them has nothing to leave out. */
export function mayBeSuperseded(kind: unknown): boolean {
  return kind === 'plan' || kind === 'plan_update' || kind === 'available_commands_update'
}

type Update = Record<string, unknown>

const isObject = (value: unknown): value is Update => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A v1 chunk the reducer adds to the last message only when no work was reported since: one without a `messageId`. */
function isChunkWithoutId(update: Update): boolean {
  const kind = update.sessionUpdate
  return (kind === 'agent_message_chunk' || kind === 'agent_thought_chunk' || kind === 'user_message_chunk') && typeof update.messageId !== 'string'
}

/** The `planId` of a v2 `plan_update` the reducer applies (replacing that plan), or undefined for one it ignores. */
function appliedPlanId(update: Update): string | undefined {
  const plan = update.plan
  if (!isObject(plan) || typeof plan.planId !== 'string' || typeof plan.type !== 'string') return undefined
  if (plan.type === 'items' && !Array.isArray(plan.entries)) return undefined
  return plan.planId
}

/**
 * `actions` without the updates a later one of the batch replaces (see the module's comment), in the same order.
 * Returns `actions` itself when nothing is left out; never mutates it or its updates. `dropped.whole` is set when an
 * update was left out whole (not kept as a mark): only then may two runs of text of one stream meet.
 */
export function dropSuperseded(actions: readonly SessionAction[], version: ProtocolVersion, dropped?: { whole: boolean }): SessionAction[] {
  const v2 = version === 2
  // Walking back from the end: what the rest of the batch holds after the current update.
  let planFollows = false
  /** v1: a chunk without a `messageId` (or a Bosun action) comes before the next plan: a left-out plan keeps its mark. */
  let markNeeded = false
  /** v2: the `planId` of the next applied `plan_update`. */
  let nextPlanId: string | undefined
  let commandsFollow = false
  let out: SessionAction[] | undefined
  for (let a = actions.length - 1; a >= 0; a--) {
    const action = actions[a]!
    if (action.type !== 'updates' || !Array.isArray(action.updates)) {
      markNeeded = true
      out?.push(action)
      continue
    }
    const updates = action.updates as unknown[]
    let kept: unknown[] | undefined
    for (let i = updates.length - 1; i >= 0; i--) {
      const update = updates[i]
      let replacement: unknown = update
      if (isObject(update)) {
        const kind = update.sessionUpdate
        if (kind === 'available_commands_update') {
          if (commandsFollow) replacement = undefined
          else if (Array.isArray(update.availableCommands)) commandsFollow = true
        } else if (v2) {
          if (kind === 'plan_update') {
            const planId = appliedPlanId(update)
            if (nextPlanId !== undefined && isObject(update.plan) && update.plan.planId === nextPlanId) replacement = undefined
            else if (planId !== undefined) nextPlanId = planId
          }
        } else if (kind === 'plan') {
          if (planFollows) replacement = markNeeded ? { sessionUpdate: 'plan' } : undefined
          else if (Array.isArray(update.entries)) planFollows = true
          // This plan (or its mark) reports work for what comes before it; a plan left out whole needed none.
          markNeeded = false
        } else if (isChunkWithoutId(update)) markNeeded = true
      }
      if (replacement !== update) kept ??= updates.slice(i + 1).reverse()
      if (kept !== undefined && replacement !== undefined) kept.push(replacement)
      else if (replacement === undefined && dropped) dropped.whole = true
    }
    if (kept !== undefined) {
      out ??= actions.slice(a + 1).reverse()
      if (kept.length > 0) out.push({ type: 'updates', updates: kept.reverse() as never })
    } else out?.push(action)
  }
  return out === undefined ? (actions as SessionAction[]) : out.reverse()
}
