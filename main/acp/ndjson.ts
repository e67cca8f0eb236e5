/**
 * Newline-delimited JSON framing for vscode-jsonrpc (ACP's stdio transport). vscode-jsonrpc's stock
 * reader expects LSP `Content-Length` headers; ACP writes one JSON object per `\n`-terminated line.
 *
 * Checklist A3–A11: split on byte 0x0A before decoding, strip `\r`, skip blank lines, flush the last
 * unterminated line at EOF, bound the line size (skip, never buffer unboundedly, but answer or fail what
 * the line's first bytes say it was), report garbage and keep going, answer batches and non-objects with
 * one `-32600` (`id:null`).
 */
import type { Readable, Writable } from 'node:stream'
import { AbstractMessageReader, AbstractMessageWriter, ErrorCodes } from 'vscode-jsonrpc/node.js'
import type { DataCallback, Disposable, Message, MessageReader, MessageWriter } from 'vscode-jsonrpc/node.js'
import { Emitter } from '../base/event'
import { formatBytes } from '../base/format-bytes'
import type { JsonRpcId, TransportProblem, WireTrace } from './types'

export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024
/** Bytes Bosun lets wait for an agent that does not read its stdin before it calls the agent unresponsive. */
export const DEFAULT_MAX_QUEUED_BYTES = 32 * 1024 * 1024
/**
 * Messages handed to vscode-jsonrpc's queue and not yet processed (it takes one per event-loop turn) before
 * the reader stops reading the agent's output: past it the pipe fills and the agent waits, instead of main's
 * memory growing with a flood of requests or notifications.
 */
export const DEFAULT_MAX_BACKLOG = 4096
/**
 * The agent's requests Bosun holds at once, read and not answered yet: past it, a request is refused at once. They are
 * the ones queued (up to {@link DEFAULT_MAX_BACKLOG} messages, answered at main's pace) and the ones handled that wait
 * (a question for the person, a `terminal/wait_for_exit`): real agents have a few of those (Bosun's own bounds allow
 * some hundreds per session), while one that sends a million `terminal/wait_for_exit` would have main keep a million.
 */
export const DEFAULT_MAX_REQUESTS_IN_FLIGHT = 2 * DEFAULT_MAX_BACKLOG
/**
 * The longest request id Bosun keeps (a string, or a number's text as written): real ids are numbers or UUIDs, and
 * every request in flight keeps its id, so 8,192 requests with ids of a megabyte would hold 8 GB.
 */
export const MAX_REQUEST_ID_CHARS = 1024
const PREVIEW_CHARS = 120
/** What the reader keeps of an over-long line: enough to find its top-level `id` and `method` ({@link scanLineHead}). */
export const OVERSIZED_HEAD_BYTES = 8 * 1024
const NEWLINE = 0x0a
const CARRIAGE_RETURN = 0x0d
const OPEN_BRACE = 0x7b
const ESCAPE = 0x1b

/**
 * The protocol inspector's view of the wire. Costs one property read per message when nobody listens.
 */
export class WireTap {
  private readonly emitter = new Emitter<WireTrace>()
  readonly onDidTrace = this.emitter.event

  get active(): boolean {
    return this.emitter.listenerCount > 0
  }

  /** `time`: when the message was read or written (default now). */
  emit(direction: WireTrace['direction'], message: unknown, bytes: number, text?: string, time = Date.now()): void {
    this.emitter.fire(text === undefined ? { direction, time, message, bytes } : { direction, time, message, bytes, text })
  }

  dispose(): void {
    this.emitter.dispose()
  }
}

/** Ids of our requests still waiting for a response, with their methods; the reader drops responses to anything else (B15). */
export class PendingIds {
  private readonly ids = new Map<JsonRpcId, string>()
  /** Requests Bosun withdrew, whose answer is still to come: it is taken (and frees vscode-jsonrpc's place) without a word. */
  private readonly withdrawn = new Set<JsonRpcId>()
  private readonly settledEmitter = new Emitter<JsonRpcId>()
  /** Each of Bosun's requests once answered, failed in the agent's place or withdrawn: what was scoped to it is over (G12). */
  readonly onDidSettle = this.settledEmitter.event
  add(id: JsonRpcId, method = ''): void {
    this.ids.set(id, method)
  }
  /** True when the id was pending (and is now answered), or withdrawn and now answered. */
  settle(id: JsonRpcId): boolean {
    if (!this.ids.delete(id)) return this.withdrawn.delete(id)
    this.settledEmitter.fire(id)
    return true
  }
  /** Bosun withdrew its request `id` (`$/cancel_request`): it is no longer pending, though its answer may still come. */
  withdraw(id: JsonRpcId): void {
    if (!this.ids.delete(id)) return
    this.withdrawn.add(id)
    this.settledEmitter.fire(id)
  }
  /** Whether Bosun's request `id` still waits for the agent's answer (`7` and `"7"` differ). */
  has(id: JsonRpcId): boolean {
    return this.ids.has(id)
  }
  dispose(): void {
    this.settledEmitter.dispose()
  }
  /** The method of a pending request. */
  method(id: JsonRpcId): string | undefined {
    return this.ids.get(id)
  }
  /** The pending requests, oldest first. */
  entries(): IterableIterator<[JsonRpcId, string]> {
    return this.ids.entries()
  }
  get size(): number {
    return this.ids.size
  }
}

/**
 * Agent requests in flight, each under an id of Bosun's own while vscode-jsonrpc holds it. vscode-jsonrpc keys its
 * queue and its cancellation tokens by `String(id)`, so the agent's `7` and `"7"` (two ids, B3) would share one place
 * and one of them would never be answered. The reader hands each request on under a fresh number; the writer puts
 * the agent's id back on the answer, which frees it.
 */
export class IncomingRequestIds {
  private nextId = 0
  /** Bosun's id → the agent's. */
  private readonly originals = new Map<number, JsonRpcId>()
  /** The agent's ids in flight (a Set keeps `7` and `"7"` apart). */
  private readonly inFlight = new Set<JsonRpcId>()
  /** Bosun's id → the agent's id as it wrote it, for a number JSON.parse does not keep exactly ({@link rawNumberId}). */
  private readonly rawTexts = new Map<number, string>()
  /** Those ids in flight, as written (`9007199254740993` and `9007199254740992` read as one number but are two ids). */
  private readonly rawInFlight = new Set<string>()

  /**
   * Bosun's id for the agent's request `id`, or undefined while an earlier request of that id waits for its answer.
   * `raw`: the id's text on the wire when the number read is not exactly it; the answer carries that text.
   */
  admit(id: JsonRpcId, raw?: string): number | undefined {
    if (raw === undefined ? this.inFlight.has(id) : this.rawInFlight.has(raw)) return undefined
    const internal = this.nextId++
    if (raw === undefined) this.inFlight.add(id)
    else {
      this.rawInFlight.add(raw)
      this.rawTexts.set(internal, raw)
    }
    this.originals.set(internal, id)
    return internal
  }

  /** The id text the answer to `internal` must carry, when the agent's id is a number JSON cannot write back as it came. */
  rawText(internal: JsonRpcId): string | undefined {
    return typeof internal === 'number' ? this.rawTexts.get(internal) : undefined
  }

  /** The agent's id of a request handed on as `internal`. */
  original(internal: JsonRpcId): JsonRpcId | undefined {
    return typeof internal === 'number' ? this.originals.get(internal) : undefined
  }

  /** The answer to `internal` is being written: the agent's id, free again from now on. */
  settle(internal: JsonRpcId): JsonRpcId | undefined {
    const original = this.original(internal)
    if (original === undefined) return undefined
    this.originals.delete(internal as number)
    const raw = this.rawTexts.get(internal as number)
    if (raw === undefined) this.inFlight.delete(original)
    else {
      this.rawTexts.delete(internal as number)
      this.rawInFlight.delete(raw)
    }
    return original
  }

  get size(): number {
    return this.originals.size
  }
}

export interface NdjsonReaderOptions {
  maxMessageBytes?: number
  /** Strip terminal escape sequences (ANSI CSI, OSC titles) that precede `{` on a line (A8). Default true. */
  stripEscapes?: boolean
  onProblem?: (problem: TransportProblem) => void
  /**
   * Writes a protocol-level reply (the `-32600` for batches and non-objects), under the agent's own id as given;
   * `rawId`: that id's text on the wire, when the number read is not exactly it ({@link rawNumberId}).
   */
  reply?: (message: Message, rawId?: string) => void
  /**
   * When set, each request is handed on under an id of Bosun's own (the writer given the same object puts the
   * agent's back), and a request whose id is still in flight is answered `-32600`.
   */
  incomingIds?: IncomingRequestIds
  /** When set, responses whose id is not pending are reported and dropped. */
  pendingIds?: PendingIds
  tap?: WireTap
  /**
   * Sees every notification first; returning true consumes it. The connection handles `session/update`
   * here, synchronously, instead of through vscode-jsonrpc's one-message-per-tick queue (the hot path).
   */
  fastPath?: (message: { method: string; params?: unknown }) => boolean
  /** Sees every message handed to vscode-jsonrpc's queue, in wire order, just before it is queued. */
  onQueued?: (message: Message) => void
  /** Whether an incoming request's numeric id must be an integer (v2, checklist B7). Read per request. */
  integerIds?: () => boolean
  /** Default {@link DEFAULT_MAX_BACKLOG}. The owner calls {@link NdjsonMessageReader.processed} as the queue takes each message. */
  maxBacklog?: number
  /** With {@link incomingIds}: how many of the agent's requests may wait for Bosun's answer at once. Default {@link DEFAULT_MAX_REQUESTS_IN_FLIGHT}. */
  maxRequestsInFlight?: number
}

/** A vscode-jsonrpc {@link MessageReader} over a byte stream of NDJSON lines. */
export class NdjsonMessageReader extends AbstractMessageReader implements MessageReader {
  private readonly maxBytes: number
  private readonly stripEscapes: boolean
  private callback: DataCallback | undefined
  /** Bytes of the current unterminated line, across chunks. */
  private partial: Buffer[] = []
  private partialBytes = 0
  /** True while skipping the rest of an oversized line. */
  private discarding = false
  private ended = false
  private subscription: Disposable | undefined
  /** Messages handed on and not yet {@link processed}. */
  private backlog = 0
  private readonly maxBacklog: number
  /** The stream is paused because the backlog reached {@link maxBacklog}. */
  private paused = false

  constructor(private readonly readable: Readable, private readonly options: NdjsonReaderOptions = {}) {
    super()
    this.maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES
    this.stripEscapes = options.stripEscapes ?? true
    this.maxBacklog = options.maxBacklog ?? DEFAULT_MAX_BACKLOG
  }

  /** Messages handed on and not yet processed. */
  get pendingMessages(): number {
    return this.backlog
  }

  /** Whether reading is paused until the queue drains. */
  get isPaused(): boolean {
    return this.paused
  }

  /**
   * Bytes of a JSON object the agent began on its output and has not ended with a newline yet (0 when none): an agent
   * that writes its messages without `\n` (or with `\r` alone) is never heard, and this is what says why.
   */
  get unterminatedJsonBytes(): number {
    if (this.discarding || this.partialBytes === 0) return 0
    const first = this.partial[0]!
    let i = 0
    while (i < first.length && (first[i] === 0x20 || first[i] === 0x09 || first[i] === CARRIAGE_RETURN)) i++
    return first[i] === OPEN_BRACE ? this.partialBytes : 0
  }

  /** The queue took one message: reading resumes once a quarter of the bound is left. */
  processed(): void {
    if (this.backlog > 0) this.backlog--
    if (this.paused && this.backlog <= this.maxBacklog / 4 && this.subscription) {
      this.paused = false
      this.readable.resume()
    }
  }

  /**
   * Hands on a message that did not come from the agent: the answer to one of our requests that could not be sent,
   * delivered like the agent's own (asynchronously, after what was read before it).
   */
  deliver(message: Message): void {
    queueMicrotask(() => {
      if (!this.callback) return
      this.backlog++
      this.callback(message)
    })
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback
    const onData = (chunk: Buffer | string) => {
      this.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk)
      if (this.backlog >= this.maxBacklog && !this.paused) {
        this.paused = true
        this.readable.pause()
      }
    }
    const onEnd = () => this.end()
    const onError = (error: Error) => this.fireError(error)
    this.readable.on('data', onData)
    this.readable.on('end', onEnd)
    this.readable.on('close', onEnd)
    this.readable.on('error', onError)
    return (this.subscription = {
      dispose: () => {
        this.callback = undefined
        this.readable.off('data', onData)
        this.readable.off('end', onEnd)
        this.readable.off('close', onEnd)
        this.readable.off('error', onError)
      },
    })
  }

  override dispose(): void {
    this.subscription?.dispose()
    this.subscription = undefined
    super.dispose()
  }

  /** When the chunk being read arrived: every line in it was read then (the tap's time; one clock read per chunk, not per line). */
  private readAt = 0

  /** Feeds raw bytes (exposed for tests and the benchmark). */
  push(chunk: Buffer): void {
    this.readAt = Date.now()
    let start = 0
    const length = chunk.length
    while (start < length) {
      const newline = chunk.indexOf(NEWLINE, start)
      if (newline === -1) {
        this.keepPartial(chunk, start, length)
        return
      }
      if (this.discarding) {
        this.discarding = false
      } else if (this.partialBytes > 0) {
        const total = this.partialBytes + (newline - start)
        if (total > this.maxBytes) this.handleOversized(headOf([...this.partial, chunk.subarray(start, newline)]), total)
        else {
          this.partial.push(chunk.subarray(start, newline))
          const line = Buffer.concat(this.partial, total)
          this.partial = []
          this.partialBytes = 0
          this.handleLine(line, 0, line.length)
        }
        this.partial = []
        this.partialBytes = 0
      } else if (newline - start > this.maxBytes) {
        this.handleOversized(headOf([chunk.subarray(start, newline)]), newline - start)
      } else {
        this.handleLine(chunk, start, newline)
      }
      start = newline + 1
    }
  }

  /** End of input: flush a final unterminated line (A7), then report the close. */
  end(): void {
    if (this.ended) return
    this.ended = true
    if (!this.discarding && this.partialBytes > 0) {
      const line = Buffer.concat(this.partial, this.partialBytes)
      this.partial = []
      this.partialBytes = 0
      this.readAt = Date.now()
      this.handleLine(line, 0, line.length)
    }
    this.fireClose()
  }

  private keepPartial(chunk: Buffer, start: number, end: number): void {
    if (this.discarding) return
    const size = end - start
    if (this.partialBytes + size > this.maxBytes) {
      // Too long already: drop what we hold (but its first bytes) and skip up to the next newline.
      this.handleOversized(headOf([...this.partial, chunk.subarray(start, end)]), this.partialBytes + size, true)
      this.partial = []
      this.partialBytes = 0
      this.discarding = true
      return
    }
    // Copy: the stream may reuse its chunk buffers.
    this.partial.push(Buffer.from(chunk.subarray(start, end)))
    this.partialBytes += size
  }

  /**
   * A line past the limit is skipped, never parsed; its first bytes say what it was, so nobody waits for it forever: a
   * request is answered `-32600`, a response fails the request of ours it answers, through {@link deliver}.
   */
  private handleOversized(head: Buffer, bytes: number, atLeast = false): void {
    const size = `${atLeast ? 'more than ' : ''}${bytes} bytes`
    const skipped = `Skipped a line of ${size} (limit ${this.maxBytes})`
    let text = head.toString('utf8').trimStart()
    if (this.stripEscapes && text.charCodeAt(0) === ESCAPE) text = stripLeadingEscapes(text)
    const line = scanLineHead(text)
    const report = (message: string) => this.options.onProblem?.({ kind: 'oversized-line', message: `${skipped}: ${message}`, preview: preview(text) })
    const id = typeof line.id === 'string' || typeof line.id === 'number' ? line.id : undefined
    if (line.method !== undefined && line.method !== null) {
      const what = typeof line.method === 'string' ? `a ${printable(line.method, 80)} message` : 'a message with a method that is not a string'
      if (id === undefined && line.id === undefined) {
        report(`${what} with no id in its first ${head.length} bytes: a notification, lost, or a request Bosun cannot answer`)
        return
      }
      report(`${what} with id ${printable(JSON.stringify(line.id), 80)}, answered with an error`)
      const message = `Invalid Request: message too large (${size}; Bosun reads lines of at most ${this.maxBytes} bytes)`
      // An id Bosun does not take (null or not a scalar; v2: a fraction) is answered as dispatch does: with id null (B7).
      const fractional = typeof id === 'number' && (!Number.isFinite(id) || (!Number.isInteger(id) && this.options.integerIds?.() === true))
      this.options.reply?.({ jsonrpc: '2.0', id: id === undefined || fractional ? null : id, error: { code: -32600, message } } as Message)
      return
    }
    const pending = this.options.pendingIds
    if (line.response && id !== undefined) {
      const method = pending?.method(id)
      if (pending && !pending.settle(id)) {
        report(`a response for unknown id ${printable(JSON.stringify(id), 80)}`)
        return
      }
      this.failOversizedResponse(id, method, size, report)
      return
    }
    if (line.response && id === undefined && line.id === undefined && pending?.size === 1) {
      // A response whose id comes after its result: with one request of ours waiting, it can only answer that one.
      const [only, method] = pending.entries().next().value!
      pending.settle(only)
      this.failOversizedResponse(only, method, size, report)
      return
    }
    const kind = line.response ? (line.id === null ? 'an error response with id null' : 'a response without an id in its first bytes') : 'a message that cannot be told apart'
    report(`${kind}${pending && pending.size > 0 ? `; ${waitingRequests(pending)}, one of them may never be answered` : ''}`)
  }

  /** One of our requests was answered with a line too large to read: it fails with a clear error, as if the agent sent it. */
  private failOversizedResponse(id: JsonRpcId, requestMethod: string | undefined, size: string, report: (message: string) => void): void {
    const method = requestMethod || 'a request'
    report(`the answer to ${method} (id ${JSON.stringify(id)}), which fails`)
    this.deliver({
      jsonrpc: '2.0',
      id,
      error: { code: ErrorCodes.MessageReadError, message: `The agent's answer to ${method} was too large to read (${size}; Bosun reads lines of at most ${this.maxBytes} bytes)` },
    } as Message)
  }

  private handleLine(buffer: Buffer, start: number, end: number): void {
    if (end > start && buffer[end - 1] === CARRIAGE_RETURN) end--
    if (end === start) return
    let text = buffer.toString('utf8', start, end)
    if (buffer[start] !== OPEN_BRACE) {
      // Rare path: whitespace, terminal escapes before `{`, or garbage.
      text = text.trim()
      if (text.length === 0) return
      if (this.stripEscapes && text.charCodeAt(0) === ESCAPE) text = stripLeadingEscapes(text)
    }
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      this.options.onProblem?.({ kind: 'non-json-line', message: 'Skipped a line that is not JSON', preview: preview(text), line: text })
      if (this.options.tap?.active) this.options.tap.emit('in', text, end - start, undefined, this.readAt)
      return
    }
    if (this.options.tap?.active) this.options.tap.emit('in', value, end - start, text, this.readAt)
    this.dispatch(value, text)
  }

  private dispatch(value: unknown, text: string): void {
    if (typeof value !== 'object' || value === null) {
      this.rejectEnvelope('invalid-message', 'Skipped a JSON value that is not an object', 'Invalid Request: not a JSON-RPC object', text)
      return
    }
    if (Array.isArray(value)) {
      this.rejectEnvelope('batch-rejected', 'Rejected a JSON-RPC batch', 'JSON-RPC batches are not supported', text)
      return
    }
    const message = value as { method?: unknown; id?: unknown; params?: unknown; result?: unknown; error?: unknown }
    if (typeof message.method === 'string') {
      if (message.id === undefined) {
        if (this.options.fastPath?.(message as { method: string; params?: unknown })) return
      } else if (typeof message.id !== 'string' && typeof message.id !== 'number') {
        this.rejectEnvelope('invalid-message', 'Rejected a request with an invalid id', 'Invalid Request: id must be a string or a number', text)
        return
      } else if (typeof message.id === 'number' && !Number.isFinite(message.id)) {
        // `1e400` reads as Infinity, which JSON writes as null: the answer could never carry the agent's id (B3).
        this.rejectEnvelope('invalid-message', 'Rejected a request whose id is a number too large to answer under', 'Invalid Request: id must be a finite number', text)
        return
      } else if (typeof message.id === 'number' && !Number.isInteger(message.id) && this.options.integerIds?.()) {
        this.rejectEnvelope('invalid-message', 'Rejected a request with a fractional id', 'Invalid Request: a numeric id must be an integer', text)
        return
      } else if (typeof message.id === 'string' && message.id.length > MAX_REQUEST_ID_CHARS) {
        this.rejectEnvelope('invalid-message', `Rejected a request whose id is longer than ${MAX_REQUEST_ID_CHARS} characters`, `Invalid Request: an id of more than ${MAX_REQUEST_ID_CHARS} characters`, text)
        return
      } else if (this.options.incomingIds) {
        const raw = rawNumberId(message.id, text)
        if (raw !== undefined && raw.length > MAX_REQUEST_ID_CHARS) {
          this.rejectEnvelope('invalid-message', `Rejected a request whose id is a number of more than ${MAX_REQUEST_ID_CHARS} characters`, `Invalid Request: an id of more than ${MAX_REQUEST_ID_CHARS} characters`, text)
          return
        }
        const limit = this.options.maxRequestsInFlight ?? DEFAULT_MAX_REQUESTS_IN_FLIGHT
        if (this.options.incomingIds.size >= limit) {
          // Answered at once, so main holds nothing for it: the agent may ask again once some of its requests are answered.
          this.report('invalid-message', `Refused a request: ${limit} of the agent's requests are still waiting for Bosun's answer`, text)
          this.options.reply?.({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: `Too many requests at once: Bosun is still answering ${limit} of this agent's requests` } } as Message, raw)
          return
        }
        const internal = this.options.incomingIds.admit(message.id, raw)
        if (internal === undefined) {
          // The agent reused the id of a request still waiting for our answer: that answer stays the earlier one's.
          this.report('invalid-message', `Rejected a request whose id ${printable(raw ?? JSON.stringify(message.id), 80)} is still in use by an earlier one`, text)
          this.options.reply?.({ jsonrpc: '2.0', id: message.id, error: { code: -32600, message: 'Invalid Request: the id of a request still in progress' } } as Message, raw)
          return
        }
        // A copy: the inspector was handed the message as read.
        value = { ...message, id: internal }
      }
    } else if (message.method !== undefined && message.method !== null && 'id' in message) {
      // `{"id":3,"method":5}`: a request with a method that is not a string, not a response to our request 3 (a
      // `"method": null` beside a result is taken for the response it looks like).
      const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null
      this.report('invalid-message', 'Rejected a request whose method is not a string', text)
      this.options.reply?.({ jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid Request: method must be a string' } } as Message)
      return
    } else if ('id' in message) {
      // A response to one of ours (B2).
      const id = message.id
      if (typeof id !== 'string' && typeof id !== 'number') {
        this.report('invalid-message', 'The agent answered with id null (it could not read one of our messages)', text)
        return
      }
      if (this.options.pendingIds && !this.options.pendingIds.settle(id)) {
        // The id as a preview: it is the agent's, of any length (a 1 MB one was logged whole).
        this.report('unknown-response-id', `Ignored a response for unknown id ${printable(JSON.stringify(id), 80)}`, text)
        return
      }
      // B2/B13: a response must carry a result or a well-formed error; otherwise fail that request.
      const error = message.error as { code?: unknown; message?: unknown } | undefined
      if (error !== undefined ? typeof error !== 'object' || error === null || !Number.isInteger(error.code) || typeof error.message !== 'string' : message.result === undefined) {
        this.report('invalid-message', 'The agent sent a malformed response', text)
        message.error = { code: -32603, message: 'The agent sent a malformed response', data: { error: message.error } }
        delete message.result
      }
    } else {
      this.report('invalid-message', 'Skipped a message that is neither a request, a notification nor a response', text)
      return
    }
    this.options.onQueued?.(value as Message)
    if (this.callback) {
      this.backlog++
      this.callback(value as Message)
    }
  }

  private report(kind: TransportProblem['kind'], message: string, text: string): void {
    this.options.onProblem?.({ kind, message, preview: preview(text) })
  }

  private rejectEnvelope(kind: TransportProblem['kind'], problem: string, replyMessage: string, text: string): void {
    this.report(kind, problem, text)
    this.options.reply?.({ jsonrpc: '2.0', id: null, error: { code: -32600, message: replyMessage } } as Message)
  }
}

export interface NdjsonWriterOptions {
  tap?: WireTap
  pendingIds?: PendingIds
  /** The reader's: an answer to a request it handed on under Bosun's own id goes out under the agent's. */
  incomingIds?: IncomingRequestIds
  /**
   * How many bytes may wait in the pipe's buffer. Past it, messages wait in the writer (in order) until the
   * agent has read enough; when twice as many bytes wait there, or the agent reads nothing for
   * {@link stallMs}, it has stopped reading: {@link onUnresponsive} is called once and every write fails.
   * A single message larger than this is never sent (see {@link onRequestNotSent}). Default
   * {@link DEFAULT_MAX_QUEUED_BYTES}.
   */
  maxQueuedBytes?: number
  /** How long messages may wait without the agent reading any of what is queued. Default {@link DEFAULT_STALL_MS}. */
  stallMs?: number
  /** The agent stopped reading its input: `queuedBytes` wait unread. Called once. */
  onUnresponsive?: (queuedBytes: number) => void
  /**
   * One of our requests could not be sent (too large, the input closed, the agent not reading): the owner answers
   * it with `error` in the agent's place. The write itself then succeeds: vscode-jsonrpc rethrows a failed
   * request write from a promise nobody handles, which would end a Node process. Without it the write rejects.
   */
  onRequestNotSent?: (id: JsonRpcId, error: Error) => void
  /** Something was not sent as it was (an answer too large, replaced by an error; a notification dropped). */
  onProblem?: (problem: TransportProblem) => void
}

/** How long queued messages may wait with the agent reading nothing of them before it is called unresponsive. */
export const DEFAULT_STALL_MS = 15_000
/**
 * How many times the pipe's bound may wait in the writer besides: room for a few large answers asked for at once (file
 * reads), while an agent that asks and never reads is stopped before main holds much more.
 */
const HELD_BOUNDS = 2

/** Thrown (as a rejection) by writes to an agent that stopped reading its input. */
export class AgentUnresponsiveError extends Error {
  constructor(readonly queuedBytes: number) {
    super(`The agent is not reading its input (${Math.round(queuedBytes / 1024)} KB waiting)`)
    this.name = 'AgentUnresponsiveError'
  }
}

/** A message larger than the whole outgoing queue: it is never sent. */
export class MessageTooLargeError extends Error {
  constructor(readonly bytes: number, readonly maxBytes: number) {
    super(`The message is too large to send to the agent (${formatBytes(bytes)}; at most ${formatBytes(maxBytes)})`)
    this.name = 'MessageTooLargeError'
  }
}

interface Held {
  text: string
  requestId: JsonRpcId | undefined
  /** The request's method, for {@link PendingIds}. */
  method: string | undefined
  resolve: () => void
  reject: (error: Error) => void
}

/** The id and method of a request (not a notification, not a response). */
function requestOf(msg: Message): { id: JsonRpcId; method: string } | undefined {
  const record = msg as { method?: unknown; id?: unknown }
  return typeof record.method === 'string' && (typeof record.id === 'number' || typeof record.id === 'string') ? { id: record.id, method: record.method } : undefined
}

/** The id a response answers (not a request, not a notification). */
function answeredIdOf(msg: Message): JsonRpcId | undefined {
  const record = msg as { method?: unknown; id?: unknown }
  return record.method === undefined && (typeof record.id === 'number' || typeof record.id === 'string') ? record.id : undefined
}

/**
 * A vscode-jsonrpc {@link MessageWriter}: `JSON.stringify(msg) + "\n"`, one write per message, in order.
 * The outgoing queue is bounded: Node buffers what the pipe cannot take, and an agent that never reads would grow
 * that buffer without limit. Past {@link NdjsonWriterOptions.maxQueuedBytes}, messages wait here for the agent to
 * read (an agent that asked for three large files at once is slow, not gone); an agent that reads nothing for
 * {@link NdjsonWriterOptions.stallMs}, or lets three times the bound pile up, is unresponsive and every write fails.
 */
export class NdjsonMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private closed = false
  private unresponsive: AgentUnresponsiveError | undefined
  private readonly maxQueuedBytes: number
  private readonly stallMs: number
  /** Messages waiting for room in the pipe's buffer, in order. */
  private held: Held[] = []
  private heldBytes = 0
  /** Bumped each time the pipe takes a message: what the stall timer looks at. */
  private flushes = 0
  private stallTimer: ReturnType<typeof setTimeout> | undefined
  /** Handlers waiting for room before they make a large answer ({@link whenRoom}). */
  private roomWaiters: (() => void)[] = []
  private readonly onStreamClose = () => {
    this.closed = true
    this.failHeld(new Error('The agent input is closed'))
    this.wakeRoomWaiters(true)
    this.fireClose()
  }
  private readonly onStreamError = (error: Error) => this.fireError(error)

  constructor(private readonly writable: Writable, private readonly options: NdjsonWriterOptions = {}) {
    super()
    this.maxQueuedBytes = options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES
    this.stallMs = options.stallMs ?? DEFAULT_STALL_MS
    writable.once('close', this.onStreamClose)
    writable.on('error', this.onStreamError)
  }

  override dispose(): void {
    this.writable.off('close', this.onStreamClose)
    this.writable.off('error', this.onStreamError)
    // An EPIPE from a dead agent after we let go must not become an uncaught 'error' event.
    if (this.writable.listenerCount('error') === 0) this.writable.on('error', () => {})
    this.failHeld(new Error('The agent input is closed'))
    this.wakeRoomWaiters(true)
    super.dispose()
  }

  /**
   * Resolves once at most half the bound waits for the agent (at once when that is so already), or when nothing more
   * can be sent: a handler about to make a large answer (a file's text) waits here, so an agent that asks for many
   * files at once gets them as fast as it reads them, and main holds a few answers, not all of them.
   */
  whenRoom(): Promise<void> {
    if (this.hasRoom()) return Promise.resolve()
    return new Promise((resolve) => this.roomWaiters.push(resolve))
  }

  private hasRoom(): boolean {
    return this.closed || this.unresponsive !== undefined || this.queuedBytes <= this.maxQueuedBytes / 2
  }

  private wakeRoomWaiters(all = false): void {
    if (this.roomWaiters.length === 0 || (!all && !this.hasRoom())) return
    const waiters = this.roomWaiters
    this.roomWaiters = []
    for (const wake of waiters) wake()
  }

  write(msg: Message): Promise<void> {
    const answered = answeredIdOf(msg)
    const rawId = answered === undefined ? undefined : this.options.incomingIds?.rawText(answered)
    const original = answered === undefined ? undefined : this.options.incomingIds?.settle(answered)
    return this.writeReply(original === undefined ? msg : ({ ...msg, id: original } as Message), rawId)
  }

  /**
   * Writes `msg` with the id it carries: a reply the reader makes itself, under the agent's own id (or null). `rawId`:
   * the text that id had on the wire, written in its place (a number JSON.parse rounded, B3).
   */
  writeReply(msg: Message, rawId?: string): Promise<void> {
    const request = requestOf(msg)
    const requestId = request?.id
    if (this.closed || this.writable.destroyed || this.writable.writableEnded) return this.notSent(requestId, new Error('The agent input is closed'))
    if (this.unresponsive) return this.notSent(requestId, this.unresponsive)
    let text = rawId === undefined ? JSON.stringify(msg) : withIdText(msg, rawId)
    // text.length ≤ its byte length: a cheap lower bound, exact for ASCII.
    if (text.length + 1 > this.maxQueuedBytes) {
      const tooLarge = new MessageTooLargeError(text.length + 1, this.maxQueuedBytes)
      if (requestId !== undefined) return this.notSent(requestId, tooLarge)
      const response = msg as { id?: unknown; method?: unknown; result?: unknown }
      if (response.method === undefined && response.result !== undefined) {
        // Our answer to one of the agent's requests: the agent gets an error in its place, and its request an end.
        this.options.onProblem?.({ kind: 'message-too-large', message: `Bosun's answer was too large to send (${formatBytes(text.length + 1)}): the agent got an error instead` })
        const refusal = { jsonrpc: '2.0', id: response.id, error: { code: -32603, message: `Bosun's answer is too large to send (${formatBytes(text.length + 1)}; at most ${formatBytes(this.maxQueuedBytes)})` } } as Message
        text = rawId === undefined ? JSON.stringify(refusal) : withIdText(refusal, rawId)
      } else {
        this.options.onProblem?.({ kind: 'message-too-large', message: `A message too large to send (${formatBytes(text.length + 1)}) was dropped` })
        return Promise.resolve()
      }
    }
    if (this.held.length > 0 || this.writable.writableLength + text.length + 1 > this.maxQueuedBytes) return this.hold(text, requestId, request?.method)
    return this.send(text, requestId, request?.method, msg)
  }

  /** A write that did not happen: a request's caller is answered by the owner, anything else rejects. */
  private notSent(requestId: JsonRpcId | undefined, error: Error): Promise<void> {
    if (requestId !== undefined && this.options.onRequestNotSent) {
      this.options.onRequestNotSent(requestId, error)
      return Promise.resolve()
    }
    return Promise.reject(error)
  }

  private send(text: string, requestId: JsonRpcId | undefined, method: string | undefined, msg?: Message): Promise<void> {
    if (requestId !== undefined) this.options.pendingIds?.add(requestId, method)
    if (this.options.tap?.active) this.options.tap.emit('out', msg ?? JSON.parse(text), Buffer.byteLength(text) + 1)
    // Node keeps the order of write() calls, and each message is a single call, so lines never interleave (A5).
    return new Promise((resolve, reject) => {
      this.writable.write(text + '\n', (error) => {
        this.flushes++
        if (error) {
          if (requestId !== undefined) this.options.pendingIds?.settle(requestId)
          this.notSent(requestId, error).then(resolve, reject)
        } else resolve()
        if (this.held.length > 0) this.release()
        this.wakeRoomWaiters()
      })
    })
  }

  private hold(text: string, requestId: JsonRpcId | undefined, method: string | undefined): Promise<void> {
    const bytes = text.length + 1
    if (this.heldBytes + bytes > HELD_BOUNDS * this.maxQueuedBytes) {
      // Twice as much again waits behind a full pipe: the agent asks far faster than it reads, or does not read.
      this.stopResponding()
      return this.notSent(requestId, this.unresponsive!)
    }
    return new Promise<void>((resolve, reject) => {
      this.held.push({ text, requestId, method, resolve, reject })
      this.heldBytes += bytes
      this.watchStall()
    })
  }

  /** Sends what waits, in order, while the pipe's buffer has room (an empty buffer always takes the next one). */
  private release(): void {
    while (this.held.length > 0 && !this.unresponsive && !this.closed) {
      const next = this.held[0]!
      const queued = this.writable.writableLength
      if (queued > 0 && queued + next.text.length + 1 > this.maxQueuedBytes) return
      this.held.shift()
      this.heldBytes -= next.text.length + 1
      this.send(next.text, next.requestId, next.method).then(next.resolve, next.reject)
    }
    if (this.held.length === 0) this.clearStall()
  }

  /** While messages wait: the agent must read something every {@link stallMs}. */
  private watchStall(): void {
    if (this.stallTimer !== undefined) return
    const seen = this.flushes
    this.stallTimer = setTimeout(() => {
      this.stallTimer = undefined
      if (this.held.length === 0) return
      if (this.flushes === seen) this.stopResponding()
      else this.watchStall()
    }, this.stallMs)
    this.stallTimer.unref?.()
  }

  private clearStall(): void {
    if (this.stallTimer !== undefined) clearTimeout(this.stallTimer)
    this.stallTimer = undefined
  }

  private stopResponding(): void {
    if (this.unresponsive) return
    const queued = this.writable.writableLength + this.heldBytes
    this.unresponsive = new AgentUnresponsiveError(queued)
    this.options.onUnresponsive?.(queued)
    this.failHeld(this.unresponsive)
    this.wakeRoomWaiters(true)
  }

  private failHeld(error: Error): void {
    this.clearStall()
    const held = this.held
    this.held = []
    this.heldBytes = 0
    for (const message of held) this.notSent(message.requestId, error).then(message.resolve, message.reject)
  }

  /** Bytes waiting for the agent to read them (in the pipe's buffer and here). */
  get queuedBytes(): number {
    return this.writable.writableLength + this.heldBytes
  }

  end(): void {}
}

/**
 * The text of a request's numeric `id` as the agent wrote it, when the number JSON.parse made of it is not exactly it:
 * an integer past 2^53 (`9007199254740993` reads as …992) or a fraction that rounds. Undefined for the ids agents use
 * (strings, safe integers), which JSON writes back as they came. Scans the line only for those rare ids.
 */
export function rawNumberId(id: JsonRpcId, line: string): string | undefined {
  if (typeof id !== 'number' || Number.isSafeInteger(id)) return undefined
  const raw = scanLineHead(line, true).idText
  if (raw === undefined || raw === JSON.stringify(id)) return undefined
  // Only a JSON number, as scanned: nothing else may go into the answer unquoted.
  return /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(raw) ? raw : undefined
}

/** `msg` as JSON with `idText` as its id, written as it is (a JSON number the agent sent). */
function withIdText(msg: Message, idText: string): string {
  const { jsonrpc: _jsonrpc, id: _id, ...rest } = msg as { jsonrpc?: unknown; id?: unknown }
  const body = JSON.stringify(rest)
  return `{"jsonrpc":"2.0","id":${idText}${body === '{}' ? '}' : `,${body.slice(1)}`}`
}

/** The first {@link OVERSIZED_HEAD_BYTES} of a line held in `parts`. */
function headOf(parts: Buffer[]): Buffer {
  const kept: Buffer[] = []
  let bytes = 0
  for (const part of parts) {
    if (bytes >= OVERSIZED_HEAD_BYTES) break
    const taken = part.subarray(0, OVERSIZED_HEAD_BYTES - bytes)
    kept.push(taken)
    bytes += taken.length
  }
  return Buffer.concat(kept, bytes)
}

/** `session/prompt (id 3), session/list (id 4)` … for a problem report, the first few. */
function waitingRequests(pending: PendingIds): string {
  const shown = [...pending.entries()].slice(0, 5).map(([id, method]) => `${method || 'a request'} (id ${JSON.stringify(id)})`)
  return `${pending.size === 1 ? '1 request of Bosun\'s is' : `${pending.size} requests of Bosun's are`} still waiting (${shown.join(', ')}${pending.size > 5 ? ', …' : ''})`
}

/** What the first bytes of a line say about it, from its top-level keys; `undefined` where they do not say. */
export interface LineHead {
  /** `id`: a string or number as given, `null` for null or any other value. */
  id?: JsonRpcId | null
  /** With `withIdText`: the text of the last top-level `id` value, as written (what JSON.parse keeps of duplicate keys). */
  idText?: string
  /** `method`, when it is a scalar (a string, or whatever else the agent put there). */
  method?: unknown
  /** A top-level `result` or `error` key came first. */
  response: boolean
}

/**
 * Reads the top-level keys of a JSON object from its first bytes (an over-long line's head), without parsing the rest:
 * string-, nesting- and escape-aware, it stops where the text ends. Only `id` and `method` values are decoded.
 */
export function scanLineHead(text: string, withIdText = false): LineHead {
  const head: LineHead = { response: false }
  let i = skipSpace(text, 0)
  if (text[i] !== '{') return head
  i++
  for (;;) {
    i = skipSpace(text, i)
    if (text[i] !== '"') return head
    const keyEnd = stringEnd(text, i)
    if (keyEnd < 0) return head
    let key: unknown
    try {
      key = JSON.parse(text.slice(i, keyEnd))
    } catch {
      return head
    }
    i = skipSpace(text, keyEnd)
    if (text[i] !== ':') return head
    i = skipSpace(text, i + 1)
    if (key === 'result' || key === 'error') head.response = true
    const end = valueEnd(text, i)
    if (end < 0) return head
    if (key === 'id' || key === 'method') {
      let value: unknown
      try {
        value = JSON.parse(text.slice(i, end))
      } catch {
        return head
      }
      if (key === 'method') head.method = value
      else {
        head.id = typeof value === 'string' || typeof value === 'number' ? value : null
        if (withIdText) head.idText = text.slice(i, end)
      }
    }
    i = skipSpace(text, end)
    if (text[i] !== ',') return head
    i++
  }
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++
  return i
}

/** The index after the string that opens at `i`, or -1 when the text ends inside it. */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j)
    if (c === 0x5c) j++
    else if (c === 0x22) return j + 1
  }
  return -1
}

/** The index after the JSON value that starts at `i`, or -1 when the text ends before it does. */
function valueEnd(text: string, i: number): number {
  const first = text[i]
  if (first === undefined) return -1
  if (first === '"') return stringEnd(text, i)
  if (first === '{' || first === '[') {
    let depth = 0
    for (let j = i; j < text.length; j++) {
      const c = text[j]
      if (c === '"') {
        j = stringEnd(text, j) - 1
        if (j < 0) return -1
      } else if (c === '{' || c === '[') depth++
      else if (c === '}' || c === ']') {
        depth--
        if (depth === 0) return j + 1
      }
    }
    return -1
  }
  // A number, true, false or null: it ends at a delimiter (at the end of the text it may go on).
  for (let j = i; j < text.length; j++) if (',}] \t\n\r'.includes(text[j]!)) return j
  return -1
}

/** `text` with control characters replaced, cut at `chars` (with `…`): safe for logs and the UI. */
export function printable(text: string, chars: number): string {
  // Keep it printable: the preview ends up in logs and the UI.
  // eslint-disable-next-line no-control-regex
  const clean = text.slice(0, chars + 1).replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '�')
  return clean.length > chars ? clean.slice(0, chars) + '…' : clean
}

function preview(text: string): string {
  return printable(text, PREVIEW_CHARS)
}

// CSI (`ESC [ … final`), OSC (`ESC ] … BEL|ST`) and two-byte escapes, repeated, at the start of a line.
// eslint-disable-next-line no-control-regex
const LEADING_ESCAPES = /^(?:\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_])+/

export function stripLeadingEscapes(text: string): string {
  return text.replace(LEADING_ESCAPES, '').trimStart()
}
