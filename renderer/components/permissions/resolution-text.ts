import type { PermissionRequestView, ToolCallEntry } from '../../../common/session/types'

/**
 * "Allowed" or "Rejected" for the four ACP option kinds only; `null` for any other kind (`_defer`, "Ask me
 * later", seed-era `allow`): Bosun never says an unknown option allowed or rejected anything (checklist G4).
 */
export function decisionVerb(kind: string | undefined): 'Allowed' | 'Rejected' | null {
  if (kind === 'allow_once' || kind === 'allow_always') return 'Allowed'
  if (kind === 'reject_once' || kind === 'reject_always') return 'Rejected'
  return null
}

/** A tool card's footer: "Allowed by rule …", "Rejected by you (Reject)", "You chose “Ask me later”". */
export function decidedByText(decidedBy: NonNullable<ToolCallEntry['decidedBy']>): string {
  const verb = decisionVerb(decidedBy.optionKind)
  switch (decidedBy.kind) {
    case 'rule':
      return `${verb ?? 'Answered'} by rule ${decidedBy.label}`
    case 'auto-approve':
      // Auto-approve only ever picks `allow_once`.
      return `${verb ?? 'Allowed'} by auto-approve${decidedBy.label ? ` (${decidedBy.label})` : ''}`
    default:
      if (verb === null) return decidedBy.label ? `You chose “${decidedBy.label}”` : 'You chose an option'
      return `${verb} by you${decidedBy.label ? ` (${decidedBy.label})` : ''}`
  }
}

/** How an answered request ended, in words ("Allowed by rule “…”.", "You chose “Allow”.", "The agent is gone…"). */
export function describeResolution(request: PermissionRequestView): string {
  const r = request.resolution
  if (!r) return request.status
  const option = r.optionId ? request.options.find((o) => o.optionId === r.optionId) : undefined
  switch (r.by) {
    case 'person':
      return option ? `You chose “${option.name}”.` : 'You dismissed this request.'
    case 'rule': {
      // The note names the rule (quoted): "Allowed by rule “Always allow execute `npm test` …”".
      const verb = decisionVerb(r.optionKind ?? option?.kind) ?? 'Answered'
      return r.note ? `${verb} by rule ${r.note}.` : option ? `Answered “${option.name}” by a remembered rule.` : 'Answered by a remembered rule.'
    }
    case 'auto-approve':
      return option ? `Answered “${option.name}” by auto-approve.` : 'Answered by auto-approve.'
    case 'cancel':
      return r.note ?? 'Cancelled.'
    case 'agent-cancel':
      return r.note ?? 'The agent withdrew the request.'
    case 'agent-exit':
      return r.note ?? 'The agent is gone; this request can no longer be answered.'
    default:
      return r.note ?? request.status
  }
}

/**
 * Whether a finished request's outcome is already told by the tool card's "Allowed by …" footer (an option
 * was chosen). The others (dismissed, cancelled with the turn, withdrawn, the agent gone) get their own note.
 */
export function isDecidedByOption(request: PermissionRequestView): boolean {
  return request.status !== 'pending' && typeof request.resolution?.optionId === 'string'
}

/**
 * The note a tool card shows for a request that ended without a chosen option: the person's dismissal as
 * is, anything else marked as not answered ("Request not answered. The agent exited.").
 */
export function describeUnanswered(request: PermissionRequestView): string {
  const text = describeResolution(request)
  return request.resolution?.by === 'person' ? text : `Request not answered. ${text}`
}
