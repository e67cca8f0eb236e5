/** Tool kinds that have an icon; anything else (including future kinds) shows as `other`. */
export const KNOWN_TOOL_KINDS = ['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other'] as const
export type KnownToolKind = (typeof KNOWN_TOOL_KINDS)[number]

export function toolKindOf(kind: unknown): KnownToolKind {
  return typeof kind === 'string' && (KNOWN_TOOL_KINDS as readonly string[]).includes(kind) ? (kind as KnownToolKind) : 'other'
}

export const TOOL_KIND_LABEL: Record<KnownToolKind, string> = {
  read: 'Read',
  edit: 'Edit',
  delete: 'Delete',
  move: 'Move',
  search: 'Search',
  execute: 'Run',
  think: 'Think',
  fetch: 'Fetch',
  switch_mode: 'Switch mode',
  other: 'Tool',
}

export type StatusBadge = 'pending' | 'in_progress' | 'completed' | 'failed' | 'cancelled' | 'paused'

/** Wire status → badge. Unknown statuses are shown as in progress (never as done). */
export function statusBadgeOf(status: unknown): StatusBadge {
  switch (status) {
    case 'pending':
    case 'in_progress':
    case 'completed':
    case 'failed':
    case 'paused':
      return status
    case 'cancelled':
    case 'canceled':
      return 'cancelled'
    default:
      return 'in_progress'
  }
}

export const STATUS_LABEL: Record<StatusBadge, string> = {
  pending: 'Pending',
  in_progress: 'In progress',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
  paused: 'Paused',
}
