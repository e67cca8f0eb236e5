/**
 * v2 agent-owned terminals and background work, as main and the renderer both read them from a session's state:
 * whether a terminal (E16) or a tool call (E15) may be cancelled and what background work is still running (F10).
 */
import type { SessionState, TerminalView, ToolCallEntry } from './types'
import { showsTerminal, subagentCardId } from './reducer/tool-calls'
import { sha256Hex } from '../sha256'

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const FINISHED = new Set(['completed', 'failed', 'cancelled'])

/**
 * Whether Bosun may send `terminal/cancel` for this terminal: only while its latest `capabilities` advertise
 * `cancel` (an object, `{}` included) and it has not exited (E16 is a MUST NOT; a cancel of an exited terminal
 * is refused by the agent anyway).
 */
export function canCancelTerminal(terminal: TerminalView | undefined): boolean {
  if (!terminal || terminal.exitStatus) return false
  return isObject(terminal.capabilities) && isObject(terminal.capabilities.cancel)
}

/** The session's terminal `terminalId` (own keys only: `constructor` is an id like any other). */
export function terminalOf(terminals: Record<string, TerminalView>, terminalId: string): TerminalView | undefined {
  return Object.hasOwn(terminals, terminalId) ? terminals[terminalId] : undefined
}

/** The longest id of the agent's (a tool call's, a terminal's) that the window names as it is; the contract takes 2,048. */
export const MAX_QUOTED_ITEM_ID = 1_024
const HASHED_HANDLE = /^#[0-9a-f]{64}$/

/**
 * How the window names a tool call or terminal when it asks main to cancel it: the agent's id, or, over
 * {@link MAX_QUOTED_ITEM_ID} characters, `#` and the id's SHA-256. The agent may choose any length; a 3,000-character
 * id was refused by the contract, so the person's Cancel did nothing.
 */
export function itemHandle(id: string, hash: (text: string) => string = sha256Hex): string {
  return id.length <= MAX_QUOTED_ITEM_ID ? id : `#${hash(id)}`
}

/**
 * How main looks a hash handle up: `hash`, the same SHA-256 faster (Node's); `only`, the items worth hashing (those that
 * can be cancelled now): an agent's thousands of long ids are not all hashed at each click.
 */
export interface HandleLookup<T> {
  hash?: (text: string) => string
  only?: (item: T) => boolean
}

/** Whether the long `id` is the one the window named by the hash `handle` (see {@link itemHandle}). */
const hashNames = (id: string, handle: string, hash: ((text: string) => string) | undefined): boolean => id.length > MAX_QUOTED_ITEM_ID && itemHandle(id, hash) === handle

/** The terminal the window named by {@link itemHandle}. */
export function terminalByHandle(terminals: Record<string, TerminalView>, handle: string, lookup: HandleLookup<TerminalView> = {}): TerminalView | undefined {
  const quoted = terminalOf(terminals, handle)
  if (quoted || !HASHED_HANDLE.test(handle)) return quoted
  for (const id of Object.keys(terminals)) {
    const terminal = terminals[id]!
    if ((lookup.only?.(terminal) ?? true) && hashNames(id, handle, lookup.hash)) return terminal
  }
  return undefined
}

/**
 * Whether Bosun may send `tool_call/cancel` for this tool call: only while its latest `capabilities` advertise
 * `cancel` (an object, `{}` included) and its status is not final (E15 is a MUST NOT). A subagent's call, routed
 * here from the subagent's own session, is cancelled in that session (`subagentSessionId`).
 */
export function canCancelToolCall(entry: ToolCallEntry | undefined): boolean {
  if (!entry || FINISHED.has(entry.status)) return false
  return isObject(entry.capabilities) && isObject(entry.capabilities.cancel)
}

/** The session's tool call `toolCallId`, if any (searched from the end: a running call is a recent one). */
export function toolCallOf(state: Pick<SessionState, 'entries'>, toolCallId: string): ToolCallEntry | undefined {
  for (let i = state.entries.length - 1; i >= 0; i--) {
    const entry = state.entries[i]!
    if (entry.kind === 'tool_call' && entry.toolCallId === toolCallId) return entry
  }
  return undefined
}

/** The tool call the window named by {@link itemHandle}. */
export function toolCallByHandle(state: Pick<SessionState, 'entries'>, handle: string, lookup: HandleLookup<ToolCallEntry> = {}): ToolCallEntry | undefined {
  const quoted = toolCallOf(state, handle)
  if (quoted || !HASHED_HANDLE.test(handle)) return quoted
  for (let i = state.entries.length - 1; i >= 0; i--) {
    const entry = state.entries[i]!
    if (entry.kind === 'tool_call' && (lookup.only?.(entry) ?? true) && hashNames(entry.toolCallId, handle, lookup.hash)) return entry
  }
  return undefined
}

/** One item of the latest `background` list, joined with what the session knows of it. */
export type BackgroundItem =
  /** `bosunRuns`: a terminal Bosun runs for a v1 agent (`terminal/create`), which only Bosun can kill. */
  | { type: 'terminal'; key: string; terminalId: string | null; terminal?: TerminalView; running: boolean; bosunRuns?: true }
  | { type: 'tool_call'; key: string; toolCallId: string | null; toolCall?: ToolCallEntry; running: boolean }
  /** A v2 subagent session at work; `toolCall` is its card in the transcript (see reducer/subagents.ts), when it has one. */
  | { type: 'subagent'; key: string; sessionId: string | null; toolCall?: ToolCallEntry; running: boolean }
  /** Custom (`_…`) or future work: Bosun cannot tell what it is, so it counts as running (I4). */
  | { type: 'other'; key: string; kind: string; raw: Record<string, unknown>; running: true }

/**
 * The session's background work, from the latest `background` snapshot (`null` = not reported). A listed
 * terminal that already reported its `exitStatus`, or a listed tool call with a final status, is no longer
 * running: the agent reports those before the snapshot that drops them.
 */
export function backgroundWork(state: Pick<SessionState, 'turn' | 'terminals' | 'entries'>): BackgroundItem[] | null {
  const list = state.turn.background
  if (!Array.isArray(list)) return null
  const items: BackgroundItem[] = []
  let toolCalls: Map<string, ToolCallEntry> | undefined
  list.forEach((raw, i) => {
    if (!isObject(raw) || typeof raw.type !== 'string') return
    const key = `${i}`
    if (raw.type === 'terminal') {
      const terminalId = typeof raw.terminalId === 'string' ? raw.terminalId : null
      const terminal = terminalId !== null ? terminalOf(state.terminals, terminalId) : undefined
      items.push({ type: 'terminal', key, terminalId, ...(terminal ? { terminal } : {}), running: !terminal?.exitStatus })
    } else if (raw.type === 'tool_call' || raw.type === 'subagent') {
      const id = raw.type === 'tool_call' ? raw.toolCallId : raw.sessionId
      const ownId = typeof id === 'string' ? id : null
      if (ownId !== null && !toolCalls) {
        toolCalls = new Map()
        for (const entry of state.entries) if (entry.kind === 'tool_call') toolCalls.set(entry.toolCallId, entry)
      }
      const toolCall = ownId !== null ? toolCalls?.get(raw.type === 'tool_call' ? ownId : subagentCardId(ownId)) : undefined
      const running = !toolCall || !FINISHED.has(toolCall.status)
      if (raw.type === 'tool_call') items.push({ type: 'tool_call', key, toolCallId: ownId, ...(toolCall ? { toolCall } : {}), running })
      else items.push({ type: 'subagent', key, sessionId: ownId, ...(toolCall ? { toolCall } : {}), running })
    } else {
      items.push({ type: 'other', key, kind: raw.type, raw, running: true })
    }
  })
  return items
}

/**
 * The background items still running (empty when none is, or when the agent reports none), then, once the turn has
 * ended, the terminals still running that nothing in the transcript is at work on any more:
 * - v1: the terminals Bosun runs for the agent (`terminal/create`), such as a dev server the agent left running; only
 *   their own Kill stops them short of closing the session.
 * - v2: the agent's own terminals whose output kept coming after the person's Stop (`ranOnAfterStop`: codex-acp runs
 *   a command on after `session/cancel` and lists no background work), while a tool call still shows the terminal
 *   and has not finished. Bosun cannot kill those: only the agent can stop them.
 */
export function runningBackgroundWork(state: Pick<SessionState, 'turn' | 'terminals' | 'entries' | 'protocolVersion'>): BackgroundItem[] {
  const items = (backgroundWork(state) ?? []).filter((item) => item.running)
  if (state.turn.state !== 'idle') return items
  const listed = new Set(items.map((item) => (item.type === 'terminal' ? item.terminalId : null)))
  const v2 = state.protocolVersion === 2
  for (const terminalId of Object.keys(state.terminals)) {
    const terminal = state.terminals[terminalId]!
    if (terminal.agentRun === true || terminal.exitStatus || terminal.agentGone || listed.has(terminalId)) continue
    if (!v2) items.push({ type: 'terminal', key: `bosun:${terminalId}`, terminalId, terminal, running: true, bosunRuns: true })
    else if (terminal.ranOnAfterStop && shownByUnfinishedCall(state.entries, terminalId)) items.push({ type: 'terminal', key: `agent:${terminalId}`, terminalId, terminal, running: true })
  }
  return items
}

/**
 * Whether the latest tool call that shows the terminal has not finished as the agent reports it (a Stop's local
 * `cancelled` is not the agent's word): codex-acp reports the command it ran on as completed, its output as text in
 * place of the terminal, and never the terminal's exit status.
 */
function shownByUnfinishedCall(entries: SessionState['entries'], terminalId: string): boolean {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!
    if (entry.kind !== 'tool_call' || !showsTerminal(entry, terminalId)) continue
    return entry.status !== 'completed' && entry.status !== 'failed'
  }
  return false
}
