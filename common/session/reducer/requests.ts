/**
 * Permission and elicitation requests as entries on the transcript (their answering stays in main).
 */
import type { ElicitationEntry, ElicitationView, PermissionEntry, PermissionRequestView, ToolCallEntry } from '../types'
import type { Draft } from './draft'
import { isObject, isString } from './draft'
import { ensureToolCall, findToolCall, patchToolCall } from './tool-calls'

export function permissionToolCallId(request: PermissionRequestView): string | null {
  if (isString(request.toolCallId)) return request.toolCallId
  const subject = request.subject
  if (subject?.type === 'tool_call') return subject.toolCallId
  if (subject?.type === 'command' && isString(subject.toolCallId)) return subject.toolCallId
  return null
}

const isEmpty = (value: unknown): boolean => (Array.isArray(value) ? value.length === 0 : isObject(value) && Object.keys(value).length === 0)

/**
 * An empty content list or input in a request does not take away what the card shows of the call being asked about:
 * claude-agent-acp (0.101.0) asks to leave plan mode with the call as it first was (`content: []`, `rawInput: {}`)
 * just after its update gave the call the plan, and the person was asked "Approve Plan" with the plan gone.
 */
function keepWhatTheCardShows(current: ToolCallEntry, patch: Record<string, unknown>): void {
  if (isEmpty(patch.content) && current.content.length > 0) delete patch.content
  if (isEmpty(patch.rawInput) && current.rawInput !== undefined && !isEmpty(current.rawInput)) delete patch.rawInput
}

export function applyPermissionRequested(d: Draft, request: PermissionRequestView, toolCallPatch: unknown): void {
  if (!isObject(request) || !isString(request.requestId)) return
  d.mutRecord('permissions')[request.requestId] = request
  const toolCallId = permissionToolCallId(request)
  if (toolCallId === null) {
    if (d.find('permission', request.requestId) < 0) {
      const entry: PermissionEntry = { kind: 'permission', id: `permission:${request.requestId}`, requestId: request.requestId }
      d.push(entry)
    }
    return
  }
  // Agents commonly skip the tool_call before asking (G2): create it. The patch is the tool call's own data;
  // the request's title/description are prompt copy and never written into the tool call (G3).
  const i = ensureToolCall(d, toolCallId)
  if (isObject(toolCallPatch)) {
    const { toolCallId: _id, sessionUpdate: _kind, ...patch } = toolCallPatch
    keepWhatTheCardShows(d.s.entries[i] as ToolCallEntry, patch)
    patchToolCall(d, i, patch)
  }
  const t = d.mutEntry<ToolCallEntry>(i)
  // What the request showed stays with the card, whatever later updates replace its content with.
  if (isObject(toolCallPatch) && Array.isArray(toolCallPatch.content)) {
    const diffs = t.content.filter((c) => c.type === 'diff')
    if (diffs.length > 0) t.askedDiffs = d.own(diffs)
  }
  if (!t.permissionIds.includes(request.requestId)) d.mutArray<string>(t, 'permissionIds').push(request.requestId)
}

export function applyPermissionResolved(
  d: Draft,
  requestId: string,
  resolution: NonNullable<PermissionRequestView['resolution']>,
  status: PermissionRequestView['status'],
): void {
  const current = d.s.permissions[requestId]
  if (!current) return
  d.mutRecord('permissions')[requestId] = { ...current, status, resolution }
  const toolCallId = permissionToolCallId(current)
  const by = resolution?.by
  if (toolCallId === null || (by !== 'rule' && by !== 'auto-approve' && by !== 'person')) return
  // Only a chosen option decides the tool call; a dismissal (no option) is told by the request's own note.
  if (!isString(resolution.optionId)) return
  const i = findToolCall(d, toolCallId)
  if (i < 0) return
  const option = current.options.find((o) => o.optionId === resolution.optionId)
  const optionKind = resolution.optionKind ?? option?.kind
  const decidedBy: NonNullable<ToolCallEntry['decidedBy']> = {
    kind: by,
    label: resolution.note ?? option?.name ?? (by === 'rule' ? 'rule' : by === 'auto-approve' ? 'auto-approve' : resolution.optionId),
  }
  if (optionKind !== undefined) decidedBy.optionKind = optionKind
  d.mutEntry<ToolCallEntry>(i).decidedBy = decidedBy
}

export function applyElicitationRequested(d: Draft, elicitation: ElicitationView): void {
  if (!isObject(elicitation) || !isString(elicitation.elicitationRequestId)) return
  const id = elicitation.elicitationRequestId
  d.mutRecord('elicitations')[id] = elicitation
  if (isString(elicitation.toolCallId)) {
    const t = d.mutEntry<ToolCallEntry>(ensureToolCall(d, elicitation.toolCallId))
    if (!t.elicitationIds.includes(id)) d.mutArray<string>(t, 'elicitationIds').push(id)
    return
  }
  // Request-scoped elicitations (no session) belong to the app store, not to a session's timeline.
  if (elicitation.sessionId !== null && d.find('elicitation', id) < 0) {
    const entry: ElicitationEntry = { kind: 'elicitation', id: `elicitation:${id}`, elicitationId: id }
    d.push(entry)
  }
}
