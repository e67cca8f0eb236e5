/**
 * Which of main's session actions count as news from the agent, for stall detection (issue 14 §5): the
 * renderer notes when it applied the last one per session (`AppState.lastActivityAt`), and the session screen
 * says how long the agent has been silent while a turn runs. The reducer stays pure: no clock in it.
 */
import type { SessionAction } from '../../common/session/types'
import { isStopOverdueNotice } from '../../common/session/stop-watchdog'

/**
 * Whether `action` restarts the silence: anything the agent sent (updates, its requests, its turn's end, the
 * output of a terminal it runs), and the moments Bosun starts waiting on it again (a prompt sent, a permission
 * or question answered, Stop). Bosun's own bookkeeping (auto-approve, a dismissed notice, the Stop watchdog's
 * notice) says nothing about the agent.
 */
export function restartsSilence(action: SessionAction): boolean {
  switch (action.type) {
    case 'updates':
      return Array.isArray(action.updates) && action.updates.some((u) => !isStopWatchdogNotice(u))
    case 'set_auto_approve':
    case 'dismiss_notice':
    case 'cannot_continue':
      return false
    default:
      return true
  }
}

function isStopWatchdogNotice(update: unknown): boolean {
  return typeof update === 'object' && update !== null && (update as { sessionUpdate?: unknown }).sessionUpdate === 'notice' && isStopOverdueNotice(update as { title?: unknown; fromBosun?: unknown })
}
