/**
 * Updates and requests an agent sends for a session before Bosun knows it (its `session/new|load|resume` not answered
 * yet): held per connection, within bounds, and handed to the session once it is known.
 */
import type { SessionUpdateNotification } from '../acp/types'
import { formatBytes } from '../base/format-bytes'

/** Updates held for sessions still being created, per connection; past it they are dropped (and counted). */
export const MAX_EARLY_UPDATES = 5_000
/** Their estimated size, per connection: each update is bounded, but 5,000 bounded updates can still be gigabytes. */
export const MAX_EARLY_BYTES = 16 * 1024 * 1024

export interface EarlyBuffer {
  inFlight: number
  /**
   * By the agent's session id: the updates, their arrival numbers (one count for all sessions, so a session's and its
   * subagents' updates are applied in the order they came), and their estimated JSON size (counted once, as they arrive).
   */
  updates: Map<string, { list: SessionUpdateNotification['update'][]; arrivals: number[]; bytes: number }>
  /** Updates held so far, all sessions together: the next one's arrival number. */
  arrived: number
  /** Updates held in all lists. */
  count: number
  /** Their estimated JSON size. */
  bytes: number
  /** Dropped over the bound, by the agent's session id. */
  dropped: Map<string, number>
  /** Sessions reattached by a v1 `session/load`: their replay is already in the transcript, only its facts are kept. */
  factsOnly: Set<string>
  /** Agent requests naming a session not known yet, woken when the last session call is over ({@link sessionForRequest}). */
  waiters: (() => void)[]
}

/**
 * Agent requests one connection may have waiting for a `session/new|load|resume` to be answered (a request naming a
 * session Bosun does not know yet); past it they are answered -32002 at once.
 */
export const MAX_EARLY_REQUESTS = 64
/**
 * How long such a request waits. An agent that sends it and answers `session/new` at once has it served when the
 * answer comes; one that waits for it before answering would otherwise wait as long as the call may take (minutes):
 * it gets -32002 after this, as it did at once before requests waited.
 */
export const DEFAULT_EARLY_REQUEST_WAIT_MS = 5_000

/** A session's early updates, taken out of the buffer (and its bounds). */
export function takeEarly(early: EarlyBuffer, acpSessionId: string): { list: SessionUpdateNotification['update'][]; arrivals: number[] } {
  const waiting = early.updates.get(acpSessionId)
  if (!waiting) return { list: [], arrivals: [] }
  early.updates.delete(acpSessionId)
  early.count -= waiting.list.length
  early.bytes -= waiting.bytes
  return waiting
}

/** How many updates the early buffer had no room for: said the same way for a new session and a reattached one. */
export function droppedNotice(count: number): SessionUpdateNotification['update'] {
  return {
    sessionUpdate: 'notice',
    severity: 'warning',
    title: 'Some early updates were dropped',
    description: `The agent sent ${count} more updates than Bosun keeps before it answers for the session (${MAX_EARLY_UPDATES} updates, ${formatBytes(MAX_EARLY_BYTES)}).`,
  }
}
