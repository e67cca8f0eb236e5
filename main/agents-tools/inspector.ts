/**
 * The protocol inspector: per agent, a bounded ring of the last N JSON-RPC messages in both directions,
 * redacted, with request/response latency.
 *
 * The wire tap fires on the connection's hot path, so {@link AgentInspector.record} keeps only the raw
 * line (the text the reader decoded, or the object we sent) in a ring bounded by count and bytes. Parsing,
 * classification, redaction and truncation happen on demand: when someone reads (list, export) or while
 * an inspector view watches the agent (the hub's batches, at most every {@link InspectorOptions.batchMs}).
 * Nobody watching: a flood costs one ring slot per message and nothing else.
 */
import type { AcpClientConnection, WireTrace } from '../acp/types'
import type { Scheduler } from '../agents/scheduler'
import type { IDisposable } from '../base/lifecycle'
import type { InspectorMessage } from '../../common/contract/agent-tools'
import { redactStructure, type SecretSet } from './redaction'

export interface InspectorOptions {
  /** Messages kept per agent. Default 2,000. */
  capacity?: number
  /** Raw bytes kept per agent (the newest message is always kept, within {@link maxSerializeBytes}). Default 16 MiB. */
  maxRingBytes?: number
  /** A message whose redacted JSON is longer than this is kept as a preview. Default 32 Ki characters. */
  maxMessageChars?: number
  /** Above this wire size a message is not even kept: only its envelope is. Default 4 MiB. */
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

/** One message as the wire saw it, not yet looked at (assembled from the ring's slots when processed). */
interface RawEntry {
  seq: number
  time: number
  direction: WireTrace['direction']
  bytes: number
  /** Which connection: ids are per connection, so latency is matched within one. */
  connection: number
  origin: Origin
  /** The line as decoded (`in`), the object sent (`out`), or a not-JSON line (a string). */
  raw: unknown
  /** `raw` is a JSON text to parse (an `in` line), as opposed to a value or a not-JSON line. */
  isJsonText: boolean
  /** A message above maxSerializeBytes: its envelope, kept instead of the message. */
  envelope?: { fields: Record<string, unknown>; preview: string }
}

interface OpenRequest {
  time: number
  method: string
  sessionId?: string
}

/** The messages of one agent (all its connections, including connection checks). */
export class AgentInspector {
  /**
   * A circular buffer of `capacity` slots in parallel arrays (no object per message on the hot path);
   * `head` is the oldest live slot, `count` how many are live. The seq of the i-th live entry is
   * `seq - count + 1 + i` (one seq per record, evicted oldest first).
   */
  private readonly raws: unknown[]
  /** Per slot: time, bytes, connection, weight. */
  private readonly numbers: Float64Array
  /** Per slot: 1 = direction `out`, 2 = origin `check`, 4 = `raws` holds a JSON text to parse. */
  private readonly flags: Uint8Array
  /** Per slot, rare: the envelope of a message above maxSerializeBytes (its body is not kept). */
  private readonly envelopes: (RawEntry['envelope'] | undefined)[]
  /** Per slot: the processed message, once someone looked. */
  private readonly processed: (InspectorMessage | undefined)[]
  private head = 0
  private count = 0
  private ringBytes = 0
  private droppedCount = 0
  /** Every entry with a seq at most this one has been processed (or evicted unprocessed). */
  private processedSeq = 0
  /** Events have carried (or skipped) every message up to this seq. */
  private announcedSeq = 0
  private seq = 0
  private readonly open = new Map<string, OpenRequest>()
  readonly capacity: number
  private readonly maxRingBytes: number
  private readonly maxMessageChars: number
  private readonly maxSerializeBytes: number
  private readonly maxPending: number

  constructor(
    readonly agentId: string,
    private readonly secrets: SecretSet,
    options: InspectorOptions = {},
  ) {
    this.capacity = options.capacity ?? 2_000
    if (!Number.isInteger(this.capacity) || this.capacity <= 0) throw new RangeError('capacity must be a positive integer')
    this.maxRingBytes = options.maxRingBytes ?? 16 * 1024 * 1024
    this.maxMessageChars = options.maxMessageChars ?? 32 * 1024
    this.maxSerializeBytes = options.maxSerializeBytes ?? 4 * 1024 * 1024
    this.maxPending = options.maxPendingRequests ?? 10_000
    this.raws = new Array<unknown>(this.capacity).fill(undefined)
    this.numbers = new Float64Array(this.capacity * 4)
    this.flags = new Uint8Array(this.capacity)
    this.envelopes = new Array<RawEntry['envelope'] | undefined>(this.capacity).fill(undefined)
    this.processed = new Array<InspectorMessage | undefined>(this.capacity).fill(undefined)
  }

  /** Hot path: keep the raw line in the ring, evict what falls out. No parsing, no redaction, no allocation. */
  record(trace: WireTrace, connection: number, origin?: 'check'): void {
    if (this.count === this.capacity) this.evict()
    const slot = (this.head + this.count) % this.capacity
    this.seq++
    let flags = (trace.direction === 'out' ? 1 : 0) | (origin === 'check' ? 2 : 0)
    let weight: number
    if (trace.bytes > this.maxSerializeBytes) {
      // Not even kept: a flood of 64 MiB lines must not hold 2,000 of them. The envelope is all we show.
      this.envelopes[slot] = isRecord(trace.message) ? { fields: envelopeFields(trace.message), preview: envelopePreview(trace.message) } : { fields: {}, preview: '' }
      this.raws[slot] = undefined
      weight = 256
    } else if (typeof trace.text === 'string' && isRecord(trace.message)) {
      this.raws[slot] = trace.text
      flags |= 4
      weight = trace.text.length
    } else {
      this.raws[slot] = trace.message
      weight = typeof trace.message === 'string' ? trace.message.length : trace.bytes
    }
    this.flags[slot] = flags
    const at = slot * 4
    this.numbers[at] = trace.time
    this.numbers[at + 1] = trace.bytes
    this.numbers[at + 2] = connection
    this.numbers[at + 3] = weight
    this.count++
    this.ringBytes += weight
    while (this.ringBytes > this.maxRingBytes && this.count > 1) this.evict()
  }

  private evict(): void {
    const slot = this.head
    this.raws[slot] = undefined
    if (this.envelopes[slot] !== undefined) this.envelopes[slot] = undefined
    if (this.processed[slot] !== undefined) this.processed[slot] = undefined
    this.ringBytes -= this.numbers[slot * 4 + 3]!
    this.head = (this.head + 1) % this.capacity
    this.count--
    this.droppedCount++
  }

  /** The slots of the live entries with their seqs, oldest first. */
  private live(): { slot: number; seq: number }[] {
    const out: { slot: number; seq: number }[] = []
    const first = this.seq - this.count + 1
    for (let i = 0; i < this.count; i++) out.push({ slot: (this.head + i) % this.capacity, seq: first + i })
    return out
  }

  /** Whether messages arrived that no event carried yet. */
  get hasQueued(): boolean {
    return this.seq > this.announcedSeq
  }

  /** Messages evicted so far. */
  get dropped(): number {
    return this.droppedCount
  }

  /** Raw bytes (characters) held now: bounded by {@link InspectorOptions.maxRingBytes}. */
  get heldBytes(): number {
    return this.ringBytes
  }

  /** Processes what no event has carried yet and returns it (oldest first, at most `max`, the newest). */
  drain(max = Infinity): InspectorMessage[] {
    this.process()
    const out: InspectorMessage[] = []
    for (const { slot, seq } of this.live()) if (seq > this.announcedSeq) out.push(this.processed[slot]!)
    this.announcedSeq = this.seq
    return out.length > max ? out.slice(-max) : out
  }

  /** Nobody watches: what arrived so far will never be announced (and is not processed for it). */
  skipAnnouncements(): void {
    this.announcedSeq = this.seq
  }

  /** What a batch event carries (the same as {@link drain}). */
  takeAnnouncement(max?: number): InspectorMessage[] {
    return this.drain(max)
  }

  list(filter: { method?: string; sessionId?: string; limit?: number } = {}): InspectorMessage[] {
    this.process()
    let messages = this.live().map(({ slot }) => this.processed[slot]!)
    if (filter.method !== undefined) messages = messages.filter((m) => m.method === filter.method)
    if (filter.sessionId !== undefined) messages = messages.filter((m) => m.sessionId === filter.sessionId)
    if (filter.limit !== undefined && messages.length > filter.limit) messages = messages.slice(-filter.limit)
    return messages
  }

  clear(): void {
    // Cleared on purpose is not "dropped".
    const dropped = this.droppedCount
    while (this.count > 0) this.evict()
    this.droppedCount = dropped
    this.head = 0
    this.ringBytes = 0
    this.processedSeq = this.seq
    this.announcedSeq = this.seq
    this.open.clear()
  }

  /** Processes, in wire order, every entry still in the ring that was not processed yet. */
  private process(): void {
    if (this.processedSeq === this.seq) return
    for (const { slot, seq } of this.live()) {
      if (seq <= this.processedSeq) continue
      const at = slot * 4
      const flags = this.flags[slot]!
      const envelope = this.envelopes[slot]
      this.processed[slot] = this.toMessage({
        seq,
        time: this.numbers[at]!,
        direction: flags & 1 ? 'out' : 'in',
        bytes: this.numbers[at + 1]!,
        connection: this.numbers[at + 2]!,
        origin: flags & 2 ? 'check' : undefined,
        raw: this.raws[slot],
        isJsonText: (flags & 4) !== 0,
        ...(envelope ? { envelope } : {}),
      })
      // The processed form replaces the raw one (it is what we show; the raw text is not needed again).
      this.raws[slot] = undefined
    }
    this.processedSeq = this.seq
  }

  private toMessage(entry: RawEntry): InspectorMessage {
    const base = { seq: entry.seq, time: entry.time, direction: entry.direction, bytes: entry.bytes }
    const extra = entry.origin ? { origin: entry.origin } : {}
    let raw: unknown = entry.envelope ? entry.envelope.fields : entry.raw
    if (entry.isJsonText) {
      try {
        raw = JSON.parse(entry.raw as string) as unknown
      } catch {
        raw = entry.raw
      }
    }
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
    const { connection, direction, time } = entry

    if (method !== undefined) {
      kind = id !== undefined && id !== null ? 'request' : 'notification'
      if (kind === 'request') this.remember(connection, direction, id!, { time, method, ...(sessionId ? { sessionId } : {}) })
    } else if (id !== undefined && ('result' in raw || 'error' in raw)) {
      kind = 'error' in raw && raw.error !== undefined ? 'error' : 'response'
      // The request went the other way on the same connection.
      const request = id === null ? undefined : this.settle(connection, direction === 'in' ? 'out' : 'in', id)
      if (request) {
        requestMethod = request.method
        latencyMs = Math.max(0, time - request.time)
        sessionId ??= request.sessionId
      }
      sessionId ??= sessionIdOf(raw.result)
    } else {
      kind = 'invalid'
    }

    const shownMethod = method ?? requestMethod
    const message = entry.envelope
      ? { [TRUNCATED_KEY]: true, bytes: entry.bytes, preview: this.secrets.redactText(entry.envelope.preview) }
      : this.redactBody(raw, entry.bytes, { kind, ...(shownMethod ? { method: shownMethod } : {}) })
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
    /** Whether an inspector view watches the agent: only then are its messages processed as they come. */
    private readonly watching: (agentId: string) => boolean = () => true,
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
      if (this.watching(agentId)) this.schedule(agentId)
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
    for (const [agentId, inspector] of this.inspectors) if (this.timers.has(agentId) || inspector.hasQueued) this.emitBatch(agentId)
  }

  /** A view starts watching `agentId`: it lists what came before, so events carry only what follows. */
  startWatching(agentId: string): void {
    this.inspectors.get(agentId)?.skipAnnouncements()
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
    if (!this.watching(agentId)) {
      // Dropped, not held for a later watcher (who lists what it needs), and not processed for nobody.
      inspector.skipAnnouncements()
      return
    }
    // A flood: the newest `maxBatch` are announced; the ring (and listInspectorMessages) has the rest.
    const batch = inspector.takeAnnouncement(this.maxBatch)
    if (batch.length > 0) this.sink(agentId, batch)
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

/** What classification needs of a huge message: its id and method, whether it answers, its session. */
function envelopeFields(raw: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {}
  if ('id' in raw) fields.id = raw.id
  if (typeof raw.method === 'string') fields.method = raw.method
  const sessionId = sessionIdOf(raw.params)
  if (sessionId !== undefined) fields.params = { sessionId }
  if ('result' in raw) fields.result = sessionIdOf(raw.result) !== undefined ? { sessionId: sessionIdOf(raw.result) } : null
  if ('error' in raw) fields.error = raw.error === undefined ? undefined : {}
  return fields
}

/** The top-level keys of a huge message, without its (huge) values. */
function envelopePreview(raw: Record<string, unknown>): string {
  const parts: string[] = []
  for (const key of ['jsonrpc', 'id', 'method']) if (key in raw) parts.push(`"${key}":${safeStringify(raw[key]).slice(0, 200)}`)
  for (const key of Object.keys(raw)) if (!['jsonrpc', 'id', 'method'].includes(key)) parts.push(`"${key}":…`)
  return `{${parts.join(',')}}`
}
