/**
 * The protocol inspector: per agent, a bounded ring of the last N JSON-RPC messages in both directions,
 * redacted, with request/response latency.
 *
 * The wire tap fires on the connection's hot path, so {@link AgentInspector.record} only queues the
 * trace; classification, redaction, truncation and the `inspectorMessages` event happen in a batch at
 * most every {@link InspectorOptions.batchMs} (≤ 10 events/s per agent), or when someone reads.
 */
import type { AcpClientConnection, WireTrace } from '../acp/types'
import type { Scheduler } from '../agents/scheduler'
import type { IDisposable } from '../base/lifecycle'
import { RingBuffer } from '../base/ring-buffer'
import type { InspectorMessage } from '../../common/contract/agent-tools'
import { redactStructure, type SecretSet } from './redaction'

export interface InspectorOptions {
  /** Messages kept per agent. Default 2,000. */
  capacity?: number
  /** A message whose redacted JSON is longer than this is kept as a preview. Default 32 Ki characters. */
  maxMessageChars?: number
  /** Above this wire size a message is not even serialized: only its envelope is kept. Default 4 MiB. */
  maxSerializeBytes?: number
  /** Batch interval of the events. Default 100 ms. */
  batchMs?: number
  /** Messages per event at most (the rest follow in the next batch). Default 500. */
  maxBatch?: number
  /** Requests remembered for latency matching. Default 10,000. */
  maxPendingRequests?: number
}

export const TRUNCATED_KEY = '«truncated»'
const PREVIEW_CHARS = 4_096

type Origin = 'check' | undefined

interface QueuedTrace {
  trace: WireTrace
  origin: Origin
  /** Which connection: ids are per connection, so latency is matched within one. */
  connection: number
}

interface OpenRequest {
  time: number
  method: string
  sessionId?: string
}

/** The messages of one agent (all its connections, including connection checks). */
export class AgentInspector {
  private readonly ring: RingBuffer<InspectorMessage>
  private queue: QueuedTrace[] = []
  private queueDropped = 0
  /** Drained by a read (list/export) but not yet carried by an event: the next batch announces them. */
  private pendingAnnouncement: InspectorMessage[] = []
  private seq = 0
  private readonly open = new Map<string, OpenRequest>()
  private readonly maxMessageChars: number
  private readonly maxSerializeBytes: number
  private readonly maxPending: number

  constructor(
    readonly agentId: string,
    private readonly secrets: SecretSet,
    options: InspectorOptions = {},
  ) {
    this.ring = new RingBuffer(options.capacity ?? 2_000)
    this.maxMessageChars = options.maxMessageChars ?? 32 * 1024
    this.maxSerializeBytes = options.maxSerializeBytes ?? 4 * 1024 * 1024
    this.maxPending = options.maxPendingRequests ?? 10_000
  }

  /** Hot path: queue only. The queue is bounded by the ring's capacity (older traces would be evicted anyway). */
  record(trace: WireTrace, connection: number, origin?: 'check'): void {
    if (this.queue.length >= this.ring.capacity) {
      this.queue.shift()
      this.queueDropped++
    }
    this.queue.push({ trace, origin, connection })
  }

  get hasQueued(): boolean {
    return this.queue.length > 0
  }

  /** Processes the queue into the ring; returns the new messages (oldest first). */
  drain(): InspectorMessage[] {
    const queued = this.queue
    this.queue = []
    const out: InspectorMessage[] = []
    for (const item of queued) {
      const message = this.toMessage(item)
      this.ring.push(message)
      out.push(message)
    }
    return out
  }

  /** Messages evicted so far (from the ring or before they reached it). */
  get dropped(): number {
    return this.ring.dropped + this.queueDropped
  }

  list(filter: { method?: string; sessionId?: string; limit?: number } = {}): InspectorMessage[] {
    this.drainSilently()
    let messages = this.ring.toArray()
    if (filter.method !== undefined) messages = messages.filter((m) => m.method === filter.method)
    if (filter.sessionId !== undefined) messages = messages.filter((m) => m.sessionId === filter.sessionId)
    if (filter.limit !== undefined && messages.length > filter.limit) messages = messages.slice(-filter.limit)
    return messages
  }

  private drainSilently(): void {
    if (this.queue.length > 0) this.pendingAnnouncement.push(...this.drain())
  }

  /** What a read drained but no event has carried yet, plus the queue. */
  takeAnnouncement(): InspectorMessage[] {
    const earlier = this.pendingAnnouncement
    this.pendingAnnouncement = []
    return earlier.length > 0 ? [...earlier, ...this.drain()] : this.drain()
  }

  clear(): void {
    this.queue = []
    this.pendingAnnouncement = []
    this.ring.clear()
    this.open.clear()
  }

  private toMessage({ trace, origin, connection }: QueuedTrace): InspectorMessage {
    const raw = trace.message
    const base = { seq: ++this.seq, time: trace.time, direction: trace.direction, bytes: trace.bytes }
    const extra = origin ? { origin } : {}
    if (!isRecord(raw)) {
      // A line that was not JSON (kept as text by the reader), or a non-object value.
      const text = typeof raw === 'string' ? raw : safeStringify(raw)
      return { ...base, kind: 'invalid', message: this.truncate(this.secrets.redactText(text)), ...extra }
    }

    const id = isId(raw.id) ? raw.id : undefined
    const method = typeof raw.method === 'string' ? raw.method : undefined
    let kind: InspectorMessage['kind']
    let requestMethod: string | undefined
    let latencyMs: number | undefined
    let sessionId = sessionIdOf(raw.params)

    if (method !== undefined) {
      kind = id !== undefined && id !== null ? 'request' : 'notification'
      if (kind === 'request') this.remember(connection, trace.direction, id!, { time: trace.time, method, ...(sessionId ? { sessionId } : {}) })
    } else if (id !== undefined && ('result' in raw || 'error' in raw)) {
      kind = 'error' in raw && raw.error !== undefined ? 'error' : 'response'
      // The request went the other way on the same connection.
      const request = id === null ? undefined : this.settle(connection, trace.direction === 'in' ? 'out' : 'in', id)
      if (request) {
        requestMethod = request.method
        latencyMs = Math.max(0, trace.time - request.time)
        sessionId ??= request.sessionId
      }
      sessionId ??= sessionIdOf(raw.result)
    } else {
      kind = 'invalid'
    }

    const shownMethod = method ?? requestMethod
    const message = this.redactBody(raw, trace.bytes, { kind, ...(shownMethod ? { method: shownMethod } : {}) })
    return {
      ...base,
      kind,
      ...(shownMethod !== undefined ? { method: this.secrets.redactText(shownMethod) } : {}),
      ...(id !== undefined ? { id: typeof id === 'string' ? this.secrets.redactText(id) : id } : {}),
      ...(sessionId !== undefined ? { sessionId: this.secrets.redactText(sessionId) } : {}),
      ...(latencyMs !== undefined ? { latencyMs } : {}),
      message,
      ...extra,
    }
  }

  /** Structural redaction, serialization, secret values, then truncation — in that order, so a cut never splits a secret. */
  private redactBody(raw: Record<string, unknown>, bytes: number, context: Parameters<typeof redactStructure>[1]): unknown {
    if (bytes > this.maxSerializeBytes) {
      return { [TRUNCATED_KEY]: true, bytes, preview: this.secrets.redactText(envelopePreview(raw)) }
    }
    const json = this.secrets.redactJson(safeStringify(redactStructure(raw, context)))
    if (json.length > this.maxMessageChars) return { [TRUNCATED_KEY]: true, bytes, preview: json.slice(0, PREVIEW_CHARS) }
    try {
      return JSON.parse(json) as unknown
    } catch {
      // A secret value that matched across JSON structure: keep the (redacted) text rather than guess.
      return json
    }
  }

  private truncate(text: string): string {
    return text.length > this.maxMessageChars ? `${text.slice(0, PREVIEW_CHARS)}… ${TRUNCATED_KEY}` : text
  }

  private key(connection: number, direction: string, id: string | number): string {
    // typeof keeps 7 and "7" apart (they are different ids, B3).
    return `${connection}:${direction}:${typeof id}:${id}`
  }

  private remember(connection: number, direction: string, id: string | number, request: OpenRequest): void {
    if (this.open.size >= this.maxPending) {
      const oldest = this.open.keys().next().value
      if (oldest !== undefined) this.open.delete(oldest)
    }
    this.open.set(this.key(connection, direction, id), request)
  }

  private settle(connection: number, direction: string, id: string | number): OpenRequest | undefined {
    const key = this.key(connection, direction, id)
    const request = this.open.get(key)
    if (request) this.open.delete(key)
    return request
  }
}

export interface InspectorSink {
  (agentId: string, messages: InspectorMessage[]): void
}

/**
 * Every agent's inspector, fed from their connections, and the batching of the `inspectorMessages`
 * events (one timer per agent with news, at most one event per `batchMs`).
 */
export class InspectorHub implements IDisposable {
  private readonly inspectors = new Map<string, AgentInspector>()
  private readonly timers = new Map<string, IDisposable>()
  private nextConnection = 0
  private readonly batchMs: number
  private readonly maxBatch: number
  private disposed = false

  constructor(
    private readonly secrets: SecretSet,
    private readonly sink: InspectorSink,
    private readonly scheduler: Scheduler,
    private readonly options: InspectorOptions = {},
  ) {
    this.batchMs = options.batchMs ?? 100
    this.maxBatch = options.maxBatch ?? 500
  }

  inspector(agentId: string): AgentInspector {
    let inspector = this.inspectors.get(agentId)
    if (!inspector) {
      inspector = new AgentInspector(agentId, this.secrets, this.options)
      this.inspectors.set(agentId, inspector)
    }
    return inspector
  }

  /** Records every message of `connection` until it closes (or the returned disposable is disposed). */
  attach(agentId: string, connection: AcpClientConnection, origin?: 'check'): IDisposable {
    const inspector = this.inspector(agentId)
    const id = ++this.nextConnection
    const trace = connection.onDidTrace((t) => {
      if (this.disposed) return
      inspector.record(t, id, origin)
      this.schedule(agentId)
    })
    const close = connection.onDidClose(() => {
      // Messages traced before the close still get processed; only the subscription ends.
      trace.dispose()
      close.dispose()
    })
    return {
      dispose: () => {
        trace.dispose()
        close.dispose()
      },
    }
  }

  /** Drops an agent's messages (its definition was removed). */
  forget(agentId: string): void {
    this.timers.get(agentId)?.dispose()
    this.timers.delete(agentId)
    this.inspectors.delete(agentId)
  }

  /** Emits what is queued for every agent now (tests, export). */
  flush(): void {
    for (const agentId of [...this.timers.keys()]) this.emitBatch(agentId)
  }

  private schedule(agentId: string): void {
    if (this.timers.has(agentId)) return
    this.timers.set(
      agentId,
      this.scheduler.setTimeout(() => this.emitBatch(agentId), this.batchMs),
    )
  }

  private emitBatch(agentId: string): void {
    this.timers.get(agentId)?.dispose()
    this.timers.delete(agentId)
    const inspector = this.inspectors.get(agentId)
    if (!inspector || this.disposed) return
    const messages = inspector.takeAnnouncement()
    if (messages.length === 0) return
    // A flood: the newest `maxBatch` are announced; the ring (and listInspectorMessages) has the rest.
    const batch = messages.length > this.maxBatch ? messages.slice(-this.maxBatch) : messages
    this.sink(agentId, batch)
  }

  dispose(): void {
    this.disposed = true
    for (const timer of this.timers.values()) timer.dispose()
    this.timers.clear()
    this.inspectors.clear()
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isId(value: unknown): value is string | number | null {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))
}

function sessionIdOf(value: unknown): string | undefined {
  return isRecord(value) && typeof value.sessionId === 'string' ? value.sessionId : undefined
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

/** The top-level keys of a huge message, without its (huge) values. */
function envelopePreview(raw: Record<string, unknown>): string {
  const parts: string[] = []
  for (const key of ['jsonrpc', 'id', 'method']) if (key in raw) parts.push(`"${key}":${safeStringify(raw[key]).slice(0, 200)}`)
  for (const key of Object.keys(raw)) if (!['jsonrpc', 'id', 'method'].includes(key)) parts.push(`"${key}":…`)
  return `{${parts.join(',')}}`
}
