/**
 * Newline-delimited JSON framing for vscode-jsonrpc (ACP's stdio transport). vscode-jsonrpc's stock
 * reader expects LSP `Content-Length` headers; ACP writes one JSON object per `\n`-terminated line.
 *
 * Checklist A3–A11: split on byte 0x0A before decoding, strip `\r`, skip blank lines, flush the last
 * unterminated line at EOF, bound the line size (skip, never buffer unboundedly, but answer or fail what
 * the line's first bytes say it was), report garbage and keep going, answer batches and non-objects with
 * one `-32600` (`id:null`).
 *
 * This file reads (and holds the wire tap and the transport's bounds); `ndjson-writer.ts` writes, `request-ids.ts`
 * keeps the ids in flight both ways, `line-head.ts` reads what a line's first bytes say.
 */
import type { Readable } from 'node:stream'
import { AbstractMessageReader, ErrorCodes } from 'vscode-jsonrpc/node.js'
import type { DataCallback, Disposable, Message, MessageReader } from 'vscode-jsonrpc/node.js'
import { Emitter } from '../base/event'
import type { JsonRpcId, TransportProblem, WireTrace } from './types'
import { rawNumberId, type IncomingRequestIds, type PendingIds } from './request-ids'
import { scanLineHead } from './line-head'

export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024
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
