import { createContext, useContext, useMemo, useState } from 'react'
import type { BosunApi, CallResult } from '../../../common/contract'
import { canCancelToolCall, itemHandle } from '../../../common/session/background'
import type { ToolCallEntry } from '../../../common/session/types'

/** What a session's tool calls can ask of main, which checks again: v2 `tool_call/cancel` (E15). */
export interface ToolCallActions {
  /** Resolves once main answered (failures are reported by the session screen; the agent's refusal is noted on the card). */
  cancel(toolCallId: string): Promise<void>
}

/** Provided by the session screen for a v2 session; absent (v1, dev fixtures, history), no Cancel is offered. */
export const ToolCallActionsContext = createContext<ToolCallActions | null>(null)

const FINAL = new Set(['completed', 'failed', 'cancelled'])

/**
 * Cancel for one tool call, offered only while its latest update advertises `capabilities.cancel` and its status is
 * not final. After a click it says "Cancelling…" until the agent answers and, once it accepted, until a final status
 * arrives (the only confirmation, E15) or main's deadline for it passes (then Cancel is offered again while advertised).
 */
export function CancelToolCallButton({ entry, label }: { entry: ToolCallEntry; label: string }) {
  const actions = useContext(ToolCallActionsContext)
  const [asking, setAsking] = useState(false)
  if (!actions || FINAL.has(entry.status)) return null
  const cancelling = asking || entry.cancel === 'requested'
  if (!cancelling && !canCancelToolCall(entry)) return null
  return (
    <button
      type="button"
      className="button button-small button-secondary tool-cancel"
      disabled={cancelling}
      aria-label={cancelling ? `Cancelling ${label}` : `Cancel ${label}`}
      title={cancelling ? 'The agent is stopping this tool call' : 'Stop this tool call only (the turn goes on)'}
      onClick={() => {
        setAsking(true)
        void actions.cancel(entry.toolCallId).finally(() => setAsking(false))
      }}
    >
      {cancelling ? 'Cancelling…' : 'Cancel'}
    </button>
  )
}

/** The card's quiet line about a cancel that did not go as asked, if any. */
export function toolCallCancelNote(entry: ToolCallEntry): string | null {
  if (entry.cancel === 'refused') return 'The agent could not cancel this: it had already finished, or could no longer be stopped.'
  if (entry.cancel === 'unconfirmed' && !FINAL.has(entry.status)) return 'The agent accepted the cancel but has not reported this stopped; it may still be running.'
  return null
}

/**
 * The session screen's {@link ToolCallActions}: only for a v2 session with a host that has the call. The agent's
 * -32602 comes back as `accepted: false` and is noted on the card by main, so only failures are reported.
 */
export function useToolCallActions(
  cancelToolCall: BosunApi['cancelToolCall'] | undefined,
  sessionId: string,
  v2: boolean,
  report: (what: string) => (result: CallResult<unknown>) => void,
): ToolCallActions | null {
  return useMemo(() => {
    if (!cancelToolCall || !v2) return null
    return { cancel: (toolCallId) => cancelToolCall({ sessionId, toolCallId: itemHandle(toolCallId) }).then(report('Cancelling the tool call')) }
  }, [cancelToolCall, sessionId, v2, report])
}
