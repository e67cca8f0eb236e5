/**
 * A stored session back as a {@link SessionState}, read liberally: each entry and each session-wide field is
 * taken only when it has the right shape, so one damaged row never makes the session unreadable.
 */
import { applyActions, createSessionState, rebuildIndex } from '../../common/session/reducer'
import { MAX_MODELS } from '../../common/session/reducer/metadata'
import { FINISHED_TOOL_STATUSES } from '../../common/session/reducer/draft'
import type { Entry, SessionAction, SessionState, UnknownEntry } from '../../common/session/types'
import type { StoredSession } from './history-store'
import { decodeEntry } from './entry-codec'
import { CLOSED_MESSAGE, INTERRUPTED_MESSAGE } from '../../common/session/turn-stop'
import { cleanText } from '../../common/session/title'
import { isSubagentCardId, subagentCardId } from '../../common/session/reducer/tool-calls'

export { CLOSED_MESSAGE, INTERRUPTED_MESSAGE }

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function parseState(json: string): Record<string, unknown> {
  try {
    const value = JSON.parse(json) as unknown
    return isRecord(value) ? value : {}
  } catch {
    return {}
  }
}

/** Stored models, the items of the right shape only (the list was bounded when the agent sent it). */
function storedModels(value: unknown): SessionState['models'] {
  if (!isRecord(value) || !Array.isArray(value.availableModels)) return null
  const availableModels = value.availableModels
    .filter((m): m is Record<string, unknown> => isRecord(m) && typeof m.id === 'string' && typeof m.name === 'string')
    .slice(0, MAX_MODELS)
    .map((m) => ({ id: m.id as string, name: m.name as string, description: typeof m.description === 'string' ? m.description : null }))
  return { currentModelId: typeof value.currentModelId === 'string' ? value.currentModelId : null, availableModels }
}

/**
 * Unknown entries of these kinds were written before the reducer understood them (v2 subagents: each
 * `subagent_update` and `session_message` was a 'not understood' line). Their stored form is the update itself.
 */
const REREAD_KINDS = new Set(['subagent_update', 'session_message'])
/** At most this many stored updates are read again per session (each applies on what comes before it). */
const MAX_REREAD = 2_000

/** The reducer's batch function: {@link reread} takes it as a parameter so a test can count what each call is given. */
export type Reduce = (state: SessionState, actions: readonly SessionAction[]) => SessionState

/**
 * The entries with the updates the reducer now understands read again, in place (v2 only: both kinds are v2's). A
 * `subagent_update` for a subagent whose card is stored already (the session went on after they were understood) is
 * left as it is, as is anything the reducer would still not understand. `entries` itself when nothing changes.
 *
 * Each update is applied on what comes before it, but all either kind reads or changes there is the card of the one
 * subagent it names: it is applied to a state holding only that card (when there is one yet), and the card it gives
 * back (and whatever it adds) is put back in place. One small state each, so reading a session again costs in
 * proportion to its entries, not to its entries times the updates read again.
 */
export function reread(template: SessionState, entries: Entry[], reduce: Reduce = applyActions): Entry[] {
  if (template.protocolVersion !== 2) return entries
  const rereadable = (entry: Entry): entry is UnknownEntry =>
    entry.kind === 'unknown' && REREAD_KINDS.has(entry.sessionUpdate) && isRecord(entry.raw) && entry.raw.sessionUpdate === entry.sessionUpdate
  if (!entries.some(rereadable)) return entries
  const storedCards = new Set(entries.flatMap((e) => (e.kind === 'tool_call' && isSubagentCardId(e.toolCallId) ? [e.toolCallId] : [])))
  const out: Entry[] = []
  /** Where each subagent card so far is in `out` (the first one of its id: the one the reducer finds). */
  const cards = new Map<string, number>()
  const add = (entry: Entry): void => {
    if (entry.kind === 'tool_call' && isSubagentCardId(entry.toolCallId) && !cards.has(entry.toolCallId)) cards.set(entry.toolCallId, out.length)
    out.push(entry)
  }
  let left = MAX_REREAD
  let changed = false
  for (const entry of entries) {
    if (!rereadable(entry) || left === 0) {
      add(entry)
      continue
    }
    const update = entry.raw as Record<string, unknown>
    if (entry.sessionUpdate === 'subagent_update' && storedCards.has(subagentCardId(String(update.sessionId)))) {
      add(entry)
      continue
    }
    left--
    const at = cardAt(cards, template.acpSessionId, update)
    const before = at === undefined ? [] : [out[at]!]
    // The spread leaves the template's index behind: the reducer indexes the one card.
    const next = reduce({ ...template, entries: before }, [{ type: 'updates', updates: [update as never] }]).entries
    // Still not understood (a message about no announced subagent): the stored line stays, with its id.
    if (next.length === before.length + 1 && next[before.length]!.kind === 'unknown') {
      add(entry)
      continue
    }
    if (at !== undefined) out[at] = next[0]!
    for (const added of next.slice(before.length)) add(added)
    changed = true
  }
  return changed ? out : entries
}

/**
 * Where in `out` the card is that `update` names (as the reducer finds it: by its storable id), if there is one yet:
 * a `subagent_update`'s own session, a `session_message`'s other party.
 */
function cardAt(cards: ReadonlyMap<string, number>, ownSessionId: string, update: Record<string, unknown>): number | undefined {
  const child = update.sessionUpdate === 'subagent_update' ? update.sessionId : update.senderSessionId === ownSessionId ? update.recipientSessionId : update.senderSessionId
  return typeof child === 'string' ? cards.get(cleanText(subagentCardId(child))) : undefined
}

/**
 * The state as stored, and the actions that settle what was still running when Bosun stopped (empty when nothing was).
 * `asStored`: the same state with its entries as the rows hold them (the entries the reducer now understands are read
 * again in `state`), and `storedEnd` the position after the last row: a session opened to go on writes its entries
 * over those rows and removes the rows past its own.
 */
export function restoreSessionState(stored: StoredSession, now = Date.now()): { state: SessionState; settle: SessionAction[]; asStored: SessionState; storedEnd: number } {
  const { row } = stored
  const base = createSessionState({
    sessionId: row.sessionId,
    acpSessionId: row.acpSessionId,
    agentId: row.agentId,
    protocolVersion: row.protocolVersion,
    cwd: row.cwd,
  })
  const saved = parseState(row.state)
  const decoded = stored.entries.map(decodeEntry)
  const state: SessionState = { ...base, entries: reread(base, decoded) }
  if (typeof saved.title === 'string') state.title = saved.title
  if (typeof saved.updatedAt === 'string') state.updatedAt = saved.updatedAt
  if (isRecord(saved.infoMeta)) state.infoMeta = saved.infoMeta
  if (Array.isArray(saved.plans)) state.plans = saved.plans as SessionState['plans']
  if (Array.isArray(saved.availableCommands)) state.availableCommands = saved.availableCommands as SessionState['availableCommands']
  if (isRecord(saved.modes) && Array.isArray(saved.modes.availableModes)) state.modes = saved.modes as SessionState['modes']
  const models = storedModels(saved.models)
  if (models) state.models = models
  if (Array.isArray(saved.configOptions)) state.configOptions = saved.configOptions as SessionState['configOptions']
  if (isRecord(saved.usage) && typeof saved.usage.used === 'number' && (typeof saved.usage.size === 'number' || saved.usage.size === null)) state.usage = saved.usage as unknown as SessionState['usage']
  if (isRecord(saved.terminals)) state.terminals = saved.terminals as SessionState['terminals']
  if (isRecord(saved.permissions)) state.permissions = saved.permissions as SessionState['permissions']
  if (isRecord(saved.elicitations)) state.elicitations = saved.elicitations as SessionState['elicitations']
  if (isRecord(saved.turn) && typeof saved.turn.state === 'string') state.turn = { ...base.turn, ...(saved.turn as Partial<SessionState['turn']>) }
  // (Auto-approve is not restored: the permission broker asks in a reopened session until the person turns it on again,
  // with main's confirmation, and the switch shows what the broker does. Rows written before this still hold it.)
  // The folders the person added stay roots of the session (bounded, absolute paths only: the row may be damaged).
  if (Array.isArray(saved.additionalDirectories)) {
    const folders = saved.additionalDirectories.filter((f): f is string => typeof f === 'string' && /^(\/|[A-Za-z]:[\\/])/.test(f) && f.length <= 4096 && !f.includes('\0')).slice(0, 32)
    if (folders.length > 0) state.additionalDirectories = folders
  }
  // (Notices are not restored: a history written before they were left out may still hold them.)
  const asStored = state.entries === decoded ? state : { ...state, entries: decoded }
  rebuildIndex(state)

  const settle: SessionAction[] = []
  const running = row.turnState !== 'idle' || state.turn.state !== 'idle'
  // v2 background work of the process that ran it ended with it, nothing its terminals or tool calls offered holds any
  // more (E15, E16: a cancel is for the process that advertised it), and a terminal that never reported its exit is not
  // shown as running (or stopping) under an agent that is gone.
  const stale =
    Object.values(state.terminals).some((terminal) => terminal?.capabilities != null || (terminal != null && !terminal.exitStatus && !terminal.agentGone)) ||
    state.entries.some((entry) => entry.kind === 'tool_call' && entry.capabilities != null && !FINISHED_TOOL_STATUSES.has(entry.status))
  if (!running && ((state.turn.background?.length ?? 0) > 0 || stale)) settle.push({ type: 'agent_gone' })
  if (running) {
    settle.push({ type: 'agent_gone' })
    if (state.protocolVersion === 2) settle.push({ type: 'updates', updates: [{ sessionUpdate: 'state_update', state: 'idle' }] })
    settle.push({ type: 'turn_ended', stopReason: null, error: { message: INTERRUPTED_MESSAGE, byBosun: true } })
  }
  for (const request of Object.values(state.permissions)) {
    if (request?.status === 'pending') {
      settle.push({ type: 'permission_resolved', requestId: request.requestId, status: 'gone', resolution: { by: 'agent-exit', note: 'Bosun stopped', at: now } })
    }
  }
  for (const elicitation of Object.values(state.elicitations)) {
    if (elicitation?.status === 'pending') settle.push({ type: 'elicitation_resolved', elicitationRequestId: elicitation.elicitationRequestId, status: 'gone' })
  }
  return { state, settle, asStored, storedEnd: (stored.entries.at(-1)?.position ?? -1) + 1 }
}

/** Applies {@link restoreSessionState}'s settle actions (a no-op when there are none). */
export function settled(state: SessionState, settle: SessionAction[]): SessionState {
  return settle.length ? applyActions(state, settle) : state
}
