/**
 * The client end of one ACP connection (v1 and v2), built on vscode-jsonrpc over NDJSON: {@link AcpClientConnection}
 * as the composition of its parts, each in a file of its own:
 * - the NDJSON reader and writer (./ndjson, ./ndjson-writer): the bounds on lines, requests in flight and queued bytes;
 * - the handshake (./version-negotiation): version negotiation and what each version is told Bosun serves;
 * - the agent's requests and notifications (./incoming-requests): the handlers permissions/elicitation/fs/terminals
 *   register, `$/cancel_request`, the answers owed at close;
 * - the turns of Bosun's prompts (./prompt-turns): v1 prompt response, v2 ack and idle `state_update`;
 * - the session calls' shapes and answers (./session-calls), sign-in (./sign-in), the problem log (./problem-log).
 * What stays here: the wiring, Bosun's own requests in flight, closing, and the hot path (a `session/update` from the
 * reader's fast path straight to the update listeners).
 */
import {
  CancellationTokenSource,
  ErrorCodes,
  ResponseError,
  createMessageConnection,
  type CancellationToken,
  type Message,
  type MessageConnection,
  type RequestMessage,
} from 'vscode-jsonrpc/node.js'
import { Deferred } from '../base/deferred'
import { BosunError, RpcError } from '../base/errors'
import { Emitter } from '../base/event'
import { formatBytes } from '../base/format-bytes'
import type { IDisposable } from '../base/lifecycle'
import { agentError, isRecord, notRunning, previewOf, withdrawn } from './agent-errors'
import type { AcpConnectionOptions } from './connection-options'
import { IncomingRequests } from './incoming-requests'
import { NdjsonMessageReader, WireTap } from './ndjson'
import { NdjsonMessageWriter } from './ndjson-writer'
import { ProblemLog, toRpcLogger } from './problem-log'
import { PromptTurns } from './prompt-turns'
import { IncomingRequestIds, PendingIds } from './request-ids'
import { MAX_SESSION_ID_CHARS, configOptionParams, newSessionOutcome, newSessionParams, resumeCall, resumedOutcome, sessionList } from './session-calls'
import { canSignIn, loginCall, logoutMethod } from './sign-in'
import { negotiateVersion } from './version-negotiation'
import type {
  AcpClientConnection,
  AgentHandshake,
  AgentSessionInfo,
  ClientHandlerRegistry,
  InputStall,
  JsonRpcId,
  NewSessionOutcome,
  PromptHooks,
  PromptOutcome,
  ProtocolVersion,
  SessionUpdateNotification,
  TransportProblem,
  WireTrace,
} from './types'
import { RESOURCE_NOT_FOUND } from './types'

export { AGENT_ERROR_BOUNDS } from './agent-errors'
export { MAX_SESSION_ID_CHARS } from './session-calls'
export type { AcpConnectionOptions, ClientCapabilityFlags } from './connection-options'

/** How long a closed connection keeps its transport for the answers its handlers owe the agent (see `close`). */
const ANSWER_GRACE_MS = 1_000

/** Resolves once every promise settled, or after `ms`, whichever comes first (the timer is cleared either way). */
function settledWithin(promises: readonly Promise<unknown>[], ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))
  // A macrotask after they settle: vscode-jsonrpc hands each answer to the writer in a callback of its own.
  const settled = Promise.allSettled(promises).then(() => new Promise<void>((resolve) => setImmediate(resolve)))
  return Promise.race([settled, late]).finally(() => clearTimeout(timer))
}

export function createAcpConnection(options: AcpConnectionOptions): AcpClientConnection {
  return new AcpConnection(options)
}

class AcpConnection implements AcpClientConnection {
  private readonly updateEmitter = new Emitter<SessionUpdateNotification>()
  private readonly closeEmitter = new Emitter<{ error?: Error }>()
  private readonly inputStallEmitter = new Emitter<InputStall | null>()
  private readonly tap = new WireTap()
  private readonly problems: ProblemLog
  private readonly pendingIds = new PendingIds()
  readonly onDidSettleRequest: (listener: (id: JsonRpcId) => void) => IDisposable = this.pendingIds.onDidSettle
  /** Agent requests in flight, under Bosun's own ids inside vscode-jsonrpc (see {@link IncomingRequestIds}). */
  private readonly incomingIds = new IncomingRequestIds()
  readonly unterminatedOutput: () => number
  private readonly rpc: MessageConnection
  /** Our requests in flight: rejected with the close error (vscode-jsonrpc's own rejection would be untyped). */
  private readonly pending = new Set<{ reject(reason: unknown): void }>()
  /** The agent's requests and notifications but `session/update`: their handlers, signals and answers owed. */
  private readonly requests: IncomingRequests
  /** Set by {@link close}: the answers it gave (see {@link answersWritten}) are handed to the writer. */
  private answersOut: Promise<void> | undefined
  private readonly turns: PromptTurns
  /** Written by {@link turns} (see `PromptTurnsHost.cancelledSessions`); held here, where its size is read from outside. */
  private readonly cancelledSessions = new Set<string>()
  /** v1: whether the initialize the agent answered advertised `session.configOptions.boolean`. */
  private booleansAdvertised = false
  /** Agent requests and `session/update`s handed to vscode-jsonrpc's queue and not yet handled (wire order, see fastPath). */
  private queued = 0
  private version: ProtocolVersion = 2
  private handshakeValue: AgentHandshake | undefined
  private closeFired = false
  private closedError: Error | undefined
  private disposed = false
  private ended = false
  /** The agent's output ended (its stdout; {@link ended} is set when either stream closes). */
  private outputEnded = false
  /** Messages read and not yet handled by vscode-jsonrpc's queue (the reader's backlog). */
  private readonly readBacklog: () => number
  /** {@link whenOutputRead} callers. */
  private outputWaiters: (() => void)[] = []

  readonly onDidReceiveUpdate = this.updateEmitter.event
  readonly onDidReportProblem: (listener: (value: TransportProblem) => void) => IDisposable
  readonly onDidTrace: (listener: (value: WireTrace) => void) => IDisposable = this.tap.onDidTrace
  readonly onDidClose = this.closeEmitter.event
  readonly onDidChangeInputStall = this.inputStallEmitter.event
  readonly inputStall: () => InputStall | null
  readonly handlers: ClientHandlerRegistry

  constructor(private readonly options: AcpConnectionOptions) {
    this.problems = new ProblemLog(options.logger, options.redact)
    this.onDidReportProblem = this.problems.onDidReport
    this.turns = new PromptTurns({
      logger: options.logger,
      pending: this.pending,
      cancelledSessions: this.cancelledSessions,
      release: (held) => {
        if (!this.disposed) this.updateEmitter.fire(held)
      },
    })
    // Set below: a request the writer could not send is answered through the reader, as if the agent had refused it.
    let answerLocally: (message: Message) => void = () => undefined
    const writer = new NdjsonMessageWriter(options.output, {
      tap: this.tap,
      pendingIds: this.pendingIds,
      incomingIds: this.incomingIds,
      ...(options.maxQueuedBytes !== undefined ? { maxQueuedBytes: options.maxQueuedBytes } : {}),
      ...(options.writeStallMs !== undefined ? { stallMs: options.writeStallMs } : {}),
      ...(options.inputStallMs !== undefined ? { inputStallMs: options.inputStallMs } : {}),
      onInputStall: (stall) => {
        if (stall) options.logger?.warn(`the agent read none of its input for ${stall.unreadMs} ms (${formatBytes(stall.waitingBytes)} waiting)`)
        if (!this.disposed) this.inputStallEmitter.fire(stall)
      },
      onUnresponsive: (queued) =>
        this.problems.report({ kind: 'unresponsive', message: `The agent stopped reading its input (${Math.round(queued / 1024)} KB waiting)` }),
      onRequestNotSent: (id, error) => answerLocally({ jsonrpc: '2.0', id, error: { code: ErrorCodes.MessageWriteError, message: error.message } } as Message),
      onProblem: (problem) => this.problems.report(problem),
    })
    const reader = new NdjsonMessageReader(options.input, {
      maxMessageBytes: options.maxMessageBytes,
      ...(options.maxRequestsInFlight !== undefined ? { maxRequestsInFlight: options.maxRequestsInFlight } : {}),
      onProblem: (problem) => this.problems.report(problem),
      reply: (message, rawId) => void writer.writeReply(message, rawId).catch(() => undefined),
      pendingIds: this.pendingIds,
      incomingIds: this.incomingIds,
      tap: this.tap,
      fastPath: (message) => this.fastPath(message),
      onQueued: (message) => {
        if (!('method' in message)) return
        // Each request has an id of its own in vscode-jsonrpc's queue, so each reaches handleRequest once.
        if ('id' in message || message.method === 'session/update') this.queued++
      },
      // v1 takes any JSON number as an id (be liberal); v2 wants integers (B7). While initialize is in flight the
      // version is the one offered: a v2 agent asking something before it answers is held to v2 too.
      integerIds: () => this.version === 2,
    })
    answerLocally = (message) => reader.deliver(message)
    this.unterminatedOutput = () => reader.unterminatedJsonBytes
    this.readBacklog = () => reader.pendingMessages
    reader.onClose(() => {
      this.outputEnded = true
      this.checkOutputRead()
    })
    this.inputStall = () => writer.inputStall
    const requests = new IncomingRequests({
      logger: options.logger,
      admitRequest: options.admitRequest,
      version: () => this.version,
      answerRoom: () => writer.whenRoom(),
      report: (problem) => this.problems.report(problem),
      incomingIds: this.incomingIds,
    })
    this.requests = requests
    this.handlers = requests.handlers
    // A send that fails once the connection closed is one it expected (an answer to an agent that exited): quiet.
    this.rpc = createMessageConnection(reader, writer, toRpcLogger(options.logger, () => this.disposed || this.ended), {
      // vscode-jsonrpc takes one queued message per turn: the reader stops reading while too many wait.
      messageStrategy: {
        handleMessage: (message, next) => {
          reader.processed()
          try {
            next(message)
          } finally {
            this.checkOutputRead()
          }
        },
      },
      cancellationStrategy: {
        // We need the request id for ACP's `$/cancel_request`, which vscode-jsonrpc does not speak.
        receiver: {
          kind: 'request',
          createCancellationTokenSource: (message: RequestMessage) => requests.createCancellationTokenSource(message),
        },
        // A request Bosun withdraws (a login the person cancelled) is cancelled with ACP's `$/cancel_request`.
        sender: {
          sendCancellation: (connection, id) => {
            // Over for Bosun from now on: what was scoped to it (a form asked during a login) is withdrawn at once,
            // not when the agent answers, which it may never do.
            this.pendingIds.withdraw(id as JsonRpcId)
            return connection.sendNotification('$/cancel_request', { requestId: id })
          },
          cleanup: () => undefined,
        },
      },
    })
    this.rpc.onRequest((method, params, token) => this.handleRequest(method, params, token))
    this.rpc.onNotification((method, params) => this.handleNotification(method, params))
    this.rpc.onClose(() => {
      // The agent's output ended. Requests in flight stay pending until the owner calls close(error)
      // with the typed reason (exit code, stderr tail); new ones fail at once.
      this.ended = true
      this.fireClose(undefined)
    })
    this.rpc.onError(([error]) => options.logger?.debug('transport error', error))
    this.rpc.listen()
  }

  get handshake(): AgentHandshake | undefined {
    return this.handshakeValue
  }

  // ---- client → agent ----------------------------------------------------------------------

  /** See {@link negotiateVersion}. */
  async initialize(options: { preferredVersion?: ProtocolVersion } = {}): Promise<AgentHandshake> {
    const peer = { request: (method: string, params: unknown) => this.request(method, params), setVersion: (version: ProtocolVersion) => void (this.version = version) }
    const negotiated = await negotiateVersion(peer, this.options, options.preferredVersion)
    this.booleansAdvertised = negotiated.booleansAdvertised
    this.requests.refuse(negotiated.unadvertisedPrefixes)
    this.handshakeValue = negotiated.handshake
    return this.handshakeValue
  }

  async newSession(params: { cwd: string; mcpServers?: unknown[]; additionalDirectories?: string[] }): Promise<NewSessionOutcome> {
    this.requireSessions('session/new')
    return newSessionOutcome(await this.request('session/new', newSessionParams(this.version, params)))
  }

  prompt(sessionId: string, prompt: unknown[], hooks?: PromptHooks): Promise<PromptOutcome> {
    try {
      this.requireSessions('session/prompt')
    } catch (error) {
      return Promise.reject(error)
    }
    const sent = () => this.request('session/prompt', { sessionId, prompt })
    return this.turns.track(sessionId, () => (this.version === 1 ? this.turns.runV1(sessionId, sent()) : this.turns.runV2(sessionId, sent, hooks)))
  }

  cancel(sessionId: string): void {
    if (this.handshakeValue?.capabilities.sessions === false) return
    this.turns.cancelled(sessionId)
    this.notify('session/cancel', { sessionId })
  }

  async setMode(sessionId: string, modeId: string): Promise<void> {
    this.requireSessions('session/set_mode')
    if (this.version === 2) {
      throw new BosunError({ kind: 'invalid-argument', message: 'ACP v2 has no session modes; use the mode config option' })
    }
    await this.request('session/set_mode', { sessionId, modeId })
  }

  /** Not in the published schema any more (config options of category `model` replaced it); Gemini CLI still takes it. */
  async setModel(sessionId: string, modelId: string): Promise<void> {
    this.requireSessions('session/set_model')
    if (this.version === 2) {
      throw new BosunError({ kind: 'invalid-argument', message: 'ACP v2 has no session models; use the model config option' })
    }
    await this.request('session/set_model', { sessionId, modelId })
  }

  async setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<unknown[] | undefined> {
    this.requireSessions('session/set_config_option')
    const wire = configOptionParams(this.version, this.booleansAdvertised, { sessionId, configId, value })
    const result = await this.request('session/set_config_option', wire)
    return isRecord(result) && Array.isArray(result.configOptions) ? result.configOptions : undefined
  }

  async resumeSession(params: { sessionId: string; cwd: string; replay?: boolean; mcpServers?: unknown[]; additionalDirectories?: string[] }): Promise<NewSessionOutcome> {
    this.requireSessions(this.version === 2 ? 'session/resume' : 'session/load')
    const { method, wire } = resumeCall(this.version, this.handshakeValue?.capabilities, params)
    return resumedOutcome(method, await this.request(method, wire), params.sessionId)
  }

  /**
   * v2 `terminal/cancel` (E16). The caller must have checked that the terminal currently advertises
   * `capabilities.cancel`; the answer means "accepted", the terminal's `exitStatus` confirms it.
   */
  async cancelTerminal(sessionId: string, terminalId: string): Promise<void> {
    if (this.version !== 2) throw new BosunError({ kind: 'invalid-argument', message: 'terminal/cancel is an ACP v2 method; this agent speaks v1' })
    this.requireSessions('terminal/cancel')
    await this.request('terminal/cancel', { sessionId, terminalId })
  }

  /**
   * v2 `tool_call/cancel` (E15). The caller must have checked that the tool call currently advertises
   * `capabilities.cancel` and is not final; the answer means "accepted", a final status confirms it.
   */
  async cancelToolCall(sessionId: string, toolCallId: string): Promise<void> {
    if (this.version !== 2) throw new BosunError({ kind: 'invalid-argument', message: 'tool_call/cancel is an ACP v2 method; this agent speaks v1' })
    this.requireSessions('tool_call/cancel')
    await this.request('tool_call/cancel', { sessionId, toolCallId })
  }

  async closeSession(sessionId: string): Promise<void> {
    this.requireSessions('session/close')
    this.turns.closed(sessionId)
    await this.request('session/close', { sessionId })
  }

  async deleteSession(sessionId: string): Promise<void> {
    this.requireSessions('session/delete')
    try {
      await this.request('session/delete', { sessionId })
    } catch (error) {
      // Already gone (deleted twice, or by another client): what was asked is done (E10).
      if (error instanceof RpcError && error.code === RESOURCE_NOT_FOUND) return
      throw error
    }
  }

  async listSessions(params: { cwd?: string; cursor?: string }, signal?: AbortSignal): Promise<{ sessions: AgentSessionInfo[]; nextCursor: string | null }> {
    this.requireSessions('session/list')
    const result = await this.request('session/list', { ...(params.cwd !== undefined ? { cwd: params.cwd } : {}), ...(params.cursor !== undefined ? { cursor: params.cursor } : {}) }, signal)
    return sessionList(result)
  }

  async authenticate(methodId: string, meta?: Record<string, unknown>, signal?: AbortSignal): Promise<void> {
    const login = loginCall(this.version, this.handshakeValue, methodId, meta)
    await this.request(login.method, login.params, signal)
  }

  async logout(): Promise<void> {
    await this.request(logoutMethod(this.version, this.handshakeValue), {})
  }

  close(error?: Error): void {
    if (this.disposed) return
    this.disposed = true
    const reason = error ?? new BosunError({ kind: 'agent-not-running', message: 'The agent connection was closed' })
    this.closedError = reason
    for (const deferred of [...this.pending]) deferred.reject(reason)
    this.pending.clear()
    this.turns.clear()
    const answering = this.requests.close(reason)
    this.checkOutputRead()
    // The agent's requests waiting for an answer (a form, a permission) are answered by their handlers on the close
    // (the brokers answer `cancel`/`cancelled`); the transport stays until those answers are written, so the agent
    // has them before its stdin ends (they failed, "Sending response failed.", at every stop with one waiting).
    this.fireClose(error)
    const disposeRpc = () => {
      try {
        this.rpc.dispose()
      } catch {
        // Disposing a connection whose stream already died may throw; we are done with it either way.
      }
    }
    if (answering.length === 0 || this.ended) disposeRpc()
    else this.answersOut = settledWithin(answering, ANSWER_GRACE_MS).then(disposeRpc)
    this.updateEmitter.dispose()
    this.problems.dispose()
    this.closeEmitter.dispose()
    this.inputStallEmitter.dispose()
    this.tap.dispose()
    this.pendingIds.dispose()
  }

  /**
   * Resolves once the answers {@link close} gave to the agent's waiting requests are handed to the writer (at most
   * {@link ANSWER_GRACE_MS} after it): what stops the agent ends its stdin after this, so they reach it first.
   */
  answersWritten(): Promise<void> {
    return this.answersOut ?? Promise.resolve()
  }

  whenOutputRead(): Promise<void> {
    return new Promise((resolve) => {
      this.outputWaiters.push(resolve)
      this.checkOutputRead()
    })
  }

  /** Wakes {@link whenOutputRead} callers once the output ended and its messages are handled, after what they settled. */
  private checkOutputRead(): void {
    if (this.outputWaiters.length === 0 || !(this.disposed || (this.outputEnded && this.readBacklog() === 0))) return
    const waiters = this.outputWaiters
    this.outputWaiters = []
    setImmediate(() => {
      for (const wake of waiters) wake()
    })
  }

  isRequestPending(id: JsonRpcId): boolean {
    return this.pendingIds.has(id)
  }

  dispose(): void {
    this.close()
  }

  // ---- plumbing ----------------------------------------------------------------------------

  /** C7: a v2 agent whose `initialize` answer has no `capabilities.session` is sent no session request. */
  private requireSessions(method: string): void {
    if (this.handshakeValue?.capabilities.sessions !== false) return
    throw new BosunError({
      kind: 'unsupported',
      message: `This agent offers no sessions: its answer to initialize has no session capabilities, so Bosun sends it no ${method}.`,
    })
  }

  /** `signal`: aborted, the request is withdrawn (`$/cancel_request`) and fails with `cancelled` at once, whatever the agent does. */
  private request(method: string, params: unknown, signal?: AbortSignal): Promise<unknown> {
    if (this.disposed) return Promise.reject(this.closedError)
    if (this.ended) return Promise.reject(notRunning(method))
    if (signal?.aborted) return Promise.reject(withdrawn(method))
    const deferred = new Deferred<unknown>()
    this.pending.add(deferred)
    const source = signal ? new CancellationTokenSource() : undefined
    const onAbort = () => {
      source?.cancel()
      deferred.reject(withdrawn(method))
    }
    signal?.addEventListener('abort', onAbort, { once: true })
    let sent: Promise<unknown>
    try {
      sent = source ? this.rpc.sendRequest(method, params, source.token) : this.rpc.sendRequest(method, params)
    } catch {
      // vscode-jsonrpc throws synchronously once its stream closed; callers get a value, never a throw.
      sent = Promise.reject(notRunning(method))
    }
    sent.then(
      (value) => deferred.resolve(value),
      (error: unknown) => deferred.reject(error instanceof ResponseError ? agentError(error, canSignIn(this.handshakeValue, this.options)) : (this.closedError ?? error)),
    )
    const settle = () => {
      this.pending.delete(deferred)
      signal?.removeEventListener('abort', onAbort)
      source?.dispose()
    }
    deferred.promise.then(settle, settle)
    return deferred.promise
  }

  private notify(method: string, params: unknown): void {
    if (this.disposed || this.ended) return
    try {
      this.rpc.sendNotification(method, params).catch((error: unknown) => this.options.logger?.debug(`sending ${method} failed`, error))
    } catch (error) {
      this.options.logger?.debug(`sending ${method} failed`, error)
    }
  }

  /**
   * `session/update` bypasses vscode-jsonrpc's per-tick queue (the hot path) while that queue holds no agent
   * request: an update that arrives behind a permission or elicitation request waits in the queue too, so each
   * request's handler runs (and shows its tool-call patch) before the updates the agent sent after it.
   */
  private fastPath(message: { method: string; params?: unknown }): boolean {
    if (message.method !== 'session/update') {
      // A notification nobody handles is ignored (JSON-RPC) here, not after waiting its turn in the queue.
      return !this.requests.takesNotification(message.method)
    }
    if (this.queued > 0) return false
    this.applySessionUpdate(message.params)
    return true
  }

  private applySessionUpdate(raw: unknown): void {
    const params = raw as { sessionId?: unknown; update?: { sessionUpdate?: unknown } } | undefined
    if (
      typeof params !== 'object' || params === null ||
      typeof params.sessionId !== 'string' ||
      typeof params.update !== 'object' || params.update === null ||
      typeof params.update.sessionUpdate !== 'string'
    ) {
      this.problems.report({ kind: 'invalid-message', message: 'Ignored a session/update without sessionId/update.sessionUpdate', preview: previewOf(params) })
      return
    }
    if (params.sessionId.length > MAX_SESSION_ID_CHARS) {
      this.problems.report({ kind: 'invalid-message', message: `Ignored a session/update whose sessionId is longer than ${MAX_SESSION_ID_CHARS} characters`, preview: params.sessionId.slice(0, 80) })
      return
    }
    const notification = params as SessionUpdateNotification
    if (notification.update.sessionUpdate === 'state_update' && this.version === 2 && this.turns.observeState(notification) === 'held') return
    this.updateEmitter.fire(notification)
  }

  private handleRequest(method: string, params: unknown, token: CancellationToken): Promise<unknown> {
    this.queued--
    // Closed, its transport kept only for the answers it owes: a request the agent sends meanwhile is not handled.
    if (this.disposed) return Promise.reject(new ResponseError(-32603, 'The client is closing the connection.'))
    return this.requests.handleRequest(method, params, token)
  }

  private handleNotification(method: string, params: unknown): void {
    if (this.disposed) return
    if (method === 'session/update') {
      // One that waited behind an agent request (see fastPath).
      this.queued--
      this.applySessionUpdate(params)
      return
    }
    this.requests.handleNotification(method, params)
  }

  private fireClose(error: Error | undefined): void {
    if (this.closeFired) return
    this.closeFired = true
    this.closeEmitter.fire(error ? { error } : {})
  }
}
