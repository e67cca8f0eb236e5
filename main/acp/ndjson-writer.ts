/**
 * The writing half of the NDJSON transport (`ndjson.ts` reads): one JSON line per message, in order, with the
 * outgoing queue bounded so an agent that stops reading cannot grow main's memory.
 */
import type { Writable } from 'node:stream'
import { AbstractMessageWriter } from 'vscode-jsonrpc/node.js'
import type { Message, MessageWriter } from 'vscode-jsonrpc/node.js'
import { formatBytes } from '../base/format-bytes'
import type { InputStall, JsonRpcId, TransportProblem } from './types'
import type { WireTap } from './ndjson'
import type { IncomingRequestIds, PendingIds } from './request-ids'

/** Bytes Bosun lets wait for an agent that does not read its stdin before it calls the agent unresponsive. */
export const DEFAULT_MAX_QUEUED_BYTES = 32 * 1024 * 1024

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
  /** How long bytes may wait in the pipe's buffer, none of them read, before {@link onInputStall}. Default {@link DEFAULT_INPUT_STALL_MS}. */
  inputStallMs?: number
  /**
   * The agent read none of its input for {@link inputStallMs} while bytes of Bosun's waited for it (the pipe is full,
   * so a message now waits behind them): how many bytes wait and for how long; `null` once it reads again. Ends nothing.
   */
  onInputStall?: (stall: InputStall | null) => void
}

/**
 * How long the agent may read none of its input while Bosun's bytes wait in the pipe's buffer before it is said. Bytes
 * wait there only when the pipe itself is full (64 KiB on Linux) and the agent has left them there.
 */
export const DEFAULT_INPUT_STALL_MS = 5_000

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
  private readonly inputStallMs: number
  /** Watches the bytes in the pipe's buffer ({@link watchInput}). */
  private inputTimer: ReturnType<typeof setTimeout> | undefined
  private inputStalled = false
  /** Handlers waiting for room before they make a large answer ({@link whenRoom}). */
  private roomWaiters: (() => void)[] = []
  private readonly onStreamClose = () => {
    this.closed = true
    this.clearInputWatch()
    this.failHeld(new Error('The agent input is closed'))
    this.wakeRoomWaiters(true)
    this.fireClose()
  }
  private readonly onStreamError = (error: Error) => this.fireError(error)

  constructor(private readonly writable: Writable, private readonly options: NdjsonWriterOptions = {}) {
    super()
    this.maxQueuedBytes = options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES
    this.stallMs = options.stallMs ?? DEFAULT_STALL_MS
    this.inputStallMs = options.inputStallMs ?? DEFAULT_INPUT_STALL_MS
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
    this.clearInputWatch()
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
        this.inputRead()
        if (error) {
          if (requestId !== undefined) this.options.pendingIds?.settle(requestId)
          this.notSent(requestId, error).then(resolve, reject)
        } else resolve()
        if (this.held.length > 0) this.release()
        this.wakeRoomWaiters()
      })
      // Still in Node's buffer: the pipe is full, and the agent must read to take it.
      if (this.writable.writableLength > 0) this.watchInput()
    })
  }

  /**
   * While bytes wait in the pipe's buffer: the agent must read some every {@link inputStallMs}, or it is said
   * ({@link NdjsonWriterOptions.onInputStall}). Nothing fails: an agent busy for a while reads on later.
   */
  private watchInput(): void {
    if (this.inputTimer !== undefined || this.inputStalled || this.closed) return
    const seen = this.flushes
    this.inputTimer = setTimeout(() => {
      this.inputTimer = undefined
      if (this.closed || this.writable.writableLength === 0) return
      if (this.flushes !== seen) {
        this.watchInput()
        return
      }
      this.inputStalled = true
      this.options.onInputStall?.({ waitingBytes: this.queuedBytes, unreadMs: this.inputStallMs })
    }, this.inputStallMs)
    this.inputTimer.unref?.()
  }

  /** The pipe took a message: the agent reads again (said once it had been said stalled). */
  private inputRead(): void {
    if (this.inputStalled) {
      this.inputStalled = false
      this.options.onInputStall?.(null)
    }
    // Counted from this read: the agent has inputStallMs again to take the next bytes.
    this.clearInputWatch()
    if (this.writable.writableLength > 0) this.watchInput()
  }

  private clearInputWatch(): void {
    if (this.inputTimer !== undefined) clearTimeout(this.inputTimer)
    this.inputTimer = undefined
  }

  /** What the agent left unread for {@link NdjsonWriterOptions.inputStallMs} and more; `null` while it reads. */
  get inputStall(): InputStall | null {
    return this.inputStalled && !this.closed ? { waitingBytes: this.queuedBytes, unreadMs: this.inputStallMs } : null
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

/** `msg` as JSON with `idText` as its id, written as it is (a JSON number the agent sent). */
function withIdText(msg: Message, idText: string): string {
  const { jsonrpc: _jsonrpc, id: _id, ...rest } = msg as { jsonrpc?: unknown; id?: unknown }
  const body = JSON.stringify(rest)
  return `{"jsonrpc":"2.0","id":${idText}${body === '{}' ? '}' : `,${body.slice(1)}`}`
}
