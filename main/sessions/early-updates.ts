/**
 * Updates and requests an agent sends for a session before Bosun knows it (its `session/new|load|resume` not answered
 * yet): held per connection, within bounds, and handed to the session once it is known.
 */
import type { AcpClientConnection, SessionUpdateNotification } from '../acp/types'
import { formatBytes } from '../base/format-bytes'
import type { Scheduler } from './action-batcher'
import { estimateJsonBytes } from './estimate-json'
import { SESSION_FACTS } from './session-growth'
import { SUBAGENT_KINDS, fromSubagent } from './subagents'
import { bosunNotice } from '../../common/session/stop-watchdog'

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
  return bosunNotice(
    'warning',
    'Some early updates were dropped',
    `The agent sent ${count} more updates than Bosun keeps before it answers for the session (${MAX_EARLY_UPDATES} updates, ${formatBytes(MAX_EARLY_BYTES)}).`,
  )
}

/** What of a session's record {@link EarlyUpdates.takeFor} reads. */
export interface EarlyTaker {
  readonly acpSessionId: string
  /** The subagents the session announced (grows while its early updates are taken). */
  readonly subagents?: readonly string[] | undefined
  /** Past its size bound: a subagent's updates are not taken. */
  readonly full?: unknown
}

/** The early buffers of every connection with a `session/new|load|resume` in flight. */
export class EarlyUpdates {
  private readonly buffers = new Map<AcpClientConnection, EarlyBuffer>()

  /** How many connections have a buffer (a session call in flight). */
  get size(): number {
    return this.buffers.size
  }

  /** The connection's buffer, while a session call is in flight on it. */
  get(connection: AcpClientConnection): EarlyBuffer | undefined {
    return this.buffers.get(connection)
  }

  /**
   * A `session/new|load|resume` starts on `connection`: its buffer (made for the first one) lives until the last of
   * those is over; each `begin` is paired with a {@link release}.
   */
  begin(connection: AcpClientConnection): EarlyBuffer {
    let buffer = this.buffers.get(connection)
    if (!buffer) {
      buffer = { inFlight: 0, updates: new Map(), arrived: 0, count: 0, bytes: 0, dropped: new Map(), factsOnly: new Set(), waiters: [] }
      this.buffers.set(connection, buffer)
    }
    buffer.inFlight++
    return buffer
  }

  /**
   * A session/new|load|resume is over: the last one out removes the buffer (what no session took is dropped). Not on
   * the connection's close: one that closed before the buffer was made never says so again, and would keep it for good.
   */
  release(connection: AcpClientConnection, early: EarlyBuffer): void {
    early.inFlight--
    if (early.inFlight > 0) return
    if (this.buffers.get(connection) === early) this.buffers.delete(connection)
    early.updates.clear()
    early.dropped.clear()
    early.count = 0
    early.bytes = 0
    for (const wake of early.waiters.splice(0)) wake()
  }

  /**
   * An update for a session Bosun does not know, held if a session call is in flight on `connection` (within the
   * bounds: past them it is counted as dropped, `firstDrop` told the first time). False: no call in flight, not held.
   */
  hold(connection: AcpClientConnection, acpSessionId: string, update: SessionUpdateNotification['update'], firstDrop: () => void): boolean {
    const early = this.buffers.get(connection)
    if (!early || early.inFlight === 0) return false
    if (early.factsOnly.has(acpSessionId) && !SESSION_FACTS.has(update.sessionUpdate)) return true
    const bytes = estimateJsonBytes(update)
    if (early.count >= MAX_EARLY_UPDATES || early.bytes + bytes > MAX_EARLY_BYTES) {
      const dropped = early.dropped.get(acpSessionId) ?? 0
      if (dropped === 0) firstDrop()
      // Bounded too: a flood of made-up session ids must not grow this map.
      if (dropped > 0 || early.dropped.size < 64) early.dropped.set(acpSessionId, dropped + 1)
      return true
    }
    early.count++
    early.bytes += bytes
    let waiting = early.updates.get(acpSessionId)
    if (!waiting) early.updates.set(acpSessionId, (waiting = { list: [], arrivals: [], bytes: 0 }))
    waiting.list.push(update)
    waiting.arrivals.push(early.arrived++)
    waiting.bytes += bytes
    return true
  }

  /**
   * Waits, for an agent request naming a session not known yet, until the session calls in flight on `connection`
   * are over (then `lookup` says which session it is), `waitMs` passed or `signal` aborted (undefined); null when
   * it cannot wait (no call in flight, {@link MAX_EARLY_REQUESTS} already waiting, aborted).
   */
  waitForAnswer<T>(connection: AcpClientConnection, signal: AbortSignal, scheduler: Scheduler, waitMs: number, lookup: () => T | undefined): Promise<T | undefined> | null {
    const early = this.buffers.get(connection)
    if (!early || early.inFlight === 0 || early.waiters.length >= MAX_EARLY_REQUESTS || signal.aborted) return null
    return new Promise((resolve) => {
      const done = (value: T | undefined) => {
        const at = early.waiters.indexOf(wake)
        if (at >= 0) early.waiters.splice(at, 1)
        scheduler.clearTimeout(timer)
        signal.removeEventListener('abort', gone)
        resolve(value)
      }
      const wake = () => done(lookup())
      const gone = () => done(undefined)
      const timer = scheduler.setTimeout(gone, waitMs)
      early.waiters.push(wake)
      signal.addEventListener('abort', gone, { once: true })
    })
  }

  /**
   * What the agent sent for a session before answering its `session/new|load|resume`, taken out of the early buffer:
   * its own updates, and what the subagents they announce sent (a subagent may be announced, and start, before the
   * answer: claude-agent-acp on v2). `adopt` is called for each `subagent_update` among them, as the live routing
   * adopts them, and the subagents' updates follow the session's own, as it would have routed them. `dropped`: how
   * many of all these the buffer had no room for.
   */
  takeFor(early: EarlyBuffer, record: EarlyTaker, adopt: (update: SessionUpdateNotification['update']) => void): { updates: SessionUpdateNotification['update'][]; dropped: number } {
    let dropped = 0
    const held: { arrival: number; update: SessionUpdateNotification['update']; child?: string }[] = []
    const take = (acpSessionId: string, child?: string) => {
      dropped += early.dropped.get(acpSessionId) ?? 0
      early.dropped.delete(acpSessionId)
      const { list, arrivals } = takeEarly(early, acpSessionId)
      for (let i = 0; i < list.length; i++) {
        const update = list[i]!
        if (update.sessionUpdate === 'subagent_update') adopt(update)
        held.push({ arrival: arrivals[i]!, update, ...(child !== undefined ? { child } : {}) })
      }
    }
    take(record.acpSessionId)
    // The list grows as subagents announce their own (they belong to the same parent); bounded by MAX_SUBAGENTS.
    // (Read after the session's own: `adopt` may have made the list.)
    const children = record.subagents ?? []
    for (let i = 0; i < children.length; i++) take(children[i]!, children[i]!)
    // In the order they came, as they would have been routed after the answer: a subagent's updates from its
    // announcement on (what it sent before was not yet this session's), after the session's own of the same moment.
    held.sort((a, b) => a.arrival - b.arrival)
    const adopted = new Set(children)
    const announced = new Set<string>()
    const updates: SessionUpdateNotification['update'][] = []
    for (const { update, child } of held) {
      if (child !== undefined && !announced.has(child)) continue
      if (update.sessionUpdate === 'subagent_update') {
        const named = (update as { sessionId?: unknown }).sessionId
        if (typeof named === 'string' && adopted.has(named)) announced.add(named)
      }
      if (child === undefined) updates.push(update)
      else if (SUBAGENT_KINDS.has(update.sessionUpdate) && !record.full) updates.push(fromSubagent(update, child))
    }
    return { updates, dropped }
  }

  /** Wakes every request still waiting and drops every buffer. */
  dispose(): void {
    for (const early of this.buffers.values()) for (const wake of early.waiters.splice(0)) wake()
    this.buffers.clear()
  }
}
