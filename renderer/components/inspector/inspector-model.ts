/**
 * The protocol inspector's pure parts (no React, no DOM): the bounded list of messages kept in the
 * renderer, filtering by method and session, and the words and numbers each table cell shows.
 */
import type { InspectorMessage } from '../../screens/agents/agent-tools-api'

/** How many messages the renderer keeps per agent (main keeps its own ring; this bounds the page). */
export const INSPECTOR_LIMIT = 2000

/** The session filter value meaning "messages that belong to no session" (initialize, authenticate, …). */
export const NO_SESSION = '\u0000none'

export interface InspectorFilter {
  /** Case-insensitive part of the method name; '' = any. */
  method: string
  /** A session id, {@link NO_SESSION}, or '' = any. */
  sessionId: string
}

export interface InspectorBuffer {
  messages: readonly InspectorMessage[]
  /** How many older messages were let go (by main's ring before we listed, or by this buffer since). */
  dropped: number
}

/**
 * Adds `incoming` after the buffer's messages, skipping ones already held (by `seq`, so a live batch that
 * overlaps the initial list is harmless) and keeping only the last `limit`. Returns `buffer` itself when
 * nothing is new.
 */
export function appendMessages(buffer: InspectorBuffer, incoming: readonly InspectorMessage[], limit = INSPECTOR_LIMIT): InspectorBuffer {
  const current = buffer.messages
  const last = current.length > 0 ? current[current.length - 1]!.seq : -Infinity
  const fresh = incoming.filter((m) => m.seq > last).sort((a, b) => a.seq - b.seq)
  if (fresh.length === 0) return buffer
  const merged = current.concat(fresh)
  const over = Math.max(0, merged.length - limit)
  return { messages: over > 0 ? merged.slice(over) : merged, dropped: buffer.dropped + over }
}

export function filterMessages(messages: readonly InspectorMessage[], filter: InspectorFilter): InspectorMessage[] {
  const method = filter.method.trim().toLowerCase()
  return messages.filter((m) => {
    if (method && !(m.method ?? '').toLowerCase().includes(method)) return false
    if (filter.sessionId === NO_SESSION) return m.sessionId === undefined
    if (filter.sessionId) return m.sessionId === filter.sessionId
    return true
  })
}

/** The sessions seen in `messages`, in first-seen order (for the session select). */
export function sessionIdsOf(messages: readonly InspectorMessage[]): string[] {
  const seen = new Set<string>()
  for (const m of messages) if (m.sessionId !== undefined) seen.add(m.sessionId)
  return [...seen]
}

/** Arrow and words for a direction: `out` is Bosun → agent. */
export function directionOf(direction: InspectorMessage['direction']): { arrow: string; label: string } {
  return direction === 'out' ? { arrow: '→', label: 'Sent to the agent' } : { arrow: '←', label: 'Received from the agent' }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

export function formatLatency(ms: number | undefined): string {
  if (ms === undefined) return ''
  if (ms < 1000) return `${Math.round(ms)} ms`
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** Local wall-clock time with milliseconds, e.g. `14:03:07.042`. */
export function formatTime(epochMs: number): string {
  const d = new Date(epochMs)
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`
}

/** A short name for the row: the method, or for a response the method of its request when known. */
export function methodLabel(message: InspectorMessage): string {
  if (message.method) return message.method
  if (message.kind === 'invalid') return '(not JSON-RPC)'
  return ''
}

