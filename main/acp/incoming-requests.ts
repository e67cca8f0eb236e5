/**
 * The agent's requests and notifications to Bosun (all but `session/update`, which the connection applies itself on
 * its hot path): the registry of client-side handlers, each request's abort signal (ACP's `$/cancel_request`), the
 * methods the agent was never told Bosun serves, and the answers still owed when the connection closes.
 */
import { CancellationTokenSource, ResponseError, type CancellationToken, type RequestMessage } from 'vscode-jsonrpc/node.js'
import { toDisposable } from '../base/lifecycle'
import type { Logger } from '../base/log'
import { isRecord } from './agent-errors'
import type { AcpConnectionOptions } from './connection-options'
import type { IncomingRequestIds } from './request-ids'
import type { ClientHandlerRegistry, ClientNotificationHandler, ClientRequestHandler, JsonRpcId, ProtocolVersion, TransportProblem } from './types'
import { HandlerError } from './types'

export interface IncomingRequestsHost {
  logger: Logger | undefined
  admitRequest: AcpConnectionOptions['admitRequest']
  /** The version the agent's requests are read in (the one offered while `initialize` is in flight). */
  version(): ProtocolVersion
  /** See {@link ClientRequestContext.answerRoom}. */
  answerRoom(): Promise<void>
  report(problem: TransportProblem): void
  /** Agent requests in flight, under Bosun's own ids inside vscode-jsonrpc. */
  incomingIds: IncomingRequestIds
}

interface IncomingRequest {
  controller: AbortController
}

export class IncomingRequests {
  private readonly requestHandlers = new Map<string, ClientRequestHandler>()
  private readonly notificationHandlers = new Map<string, ClientNotificationHandler>()
  /** Agent→client requests in flight, by the agent's id (a Map keeps `7` and `"7"` apart, B3). */
  private readonly incoming = new Map<JsonRpcId, IncomingRequest>()
  /** The handlers of the agent's requests not settled yet: the connection lets their answers out before it lets go of the transport. */
  private readonly answering = new Set<Promise<unknown>>()
  private readonly tokenIds = new WeakMap<CancellationToken, JsonRpcId>()
  /**
   * Methods the agent was never told Bosun serves, answered -32601 whatever handler is registered (see
   * `Negotiated.unadvertisedPrefixes`).
   */
  private unadvertisedPrefixes: readonly string[] = []

  readonly handlers: ClientHandlerRegistry = {
    registerRequest: (method, handler) => {
      this.requestHandlers.set(method, handler)
      return toDisposable(() => {
        if (this.requestHandlers.get(method) === handler) this.requestHandlers.delete(method)
      })
    },
    registerNotification: (method, handler) => {
      this.notificationHandlers.set(method, handler)
      return toDisposable(() => {
        if (this.notificationHandlers.get(method) === handler) this.notificationHandlers.delete(method)
      })
    },
  }

  constructor(private readonly host: IncomingRequestsHost) {}

  /** After the handshake: what the agent was never told Bosun serves. */
  refuse(prefixes: readonly string[]): void {
    this.unadvertisedPrefixes = prefixes
  }

  /** Whether a notification has somewhere to go: `$/cancel_request` and those with a registered handler. */
  takesNotification(method: string): boolean {
    return method === '$/cancel_request' || this.notificationHandlers.has(method)
  }

  /** vscode-jsonrpc's cancellation receiver: the token of a request the agent sent, known by the agent's id. */
  createCancellationTokenSource(message: RequestMessage): CancellationTokenSource {
    const source = new CancellationTokenSource()
    // Handlers and `$/cancel_request` know the request by the agent's id.
    const id = this.host.incomingIds.original(message.id as JsonRpcId) ?? (message.id as JsonRpcId)
    this.tokenIds.set(source.token, id)
    this.incoming.set(id, { controller: new AbortController() })
    return source
  }

  /** Runs the request's handler; the handler's synchronous part (a permission's tool-call patch…) has run when this returns. */
  handleRequest(method: string, params: unknown, token: CancellationToken): Promise<unknown> {
    const answer = this.runRequestHandler(method, params, token)
    this.answering.add(answer)
    const settled = () => void this.answering.delete(answer)
    answer.then(settled, settled)
    return answer
  }

  handleNotification(method: string, params: unknown): void {
    if (method === '$/cancel_request') {
      const requestId = isRecord(params) ? params.requestId : undefined
      if (typeof requestId === 'string' || typeof requestId === 'number') this.incoming.get(requestId)?.controller.abort()
      return
    }
    const handler = this.notificationHandlers.get(method)
    if (!handler) return
    try {
      handler(params, { protocolVersion: this.host.version(), method })
    } catch (error) {
      this.host.logger?.error(`notification handler for ${method} failed`, error)
      this.host.report({ kind: 'handler-crashed', message: `The ${method} handler failed` })
    }
  }

  /** The connection closed: every request in flight is aborted with `reason`. Returns the answers still owed. */
  close(reason: Error): Promise<unknown>[] {
    for (const request of this.incoming.values()) request.controller.abort(reason)
    this.incoming.clear()
    return [...this.answering]
  }

  private async runRequestHandler(method: string, params: unknown, token: CancellationToken): Promise<unknown> {
    const id = this.tokenIds.get(token) as JsonRpcId
    const entry = this.incoming.get(id) ?? { controller: new AbortController() }
    try {
      const handler = this.unadvertisedPrefixes.some((prefix) => method.startsWith(prefix)) ? undefined : this.requestHandlers.get(method)
      if (!handler) throw new ResponseError(-32601, `Method not found: ${method}`, { method })
      const admitted = this.host.admitRequest?.(method, params, entry.controller.signal)
      const refused = admitted instanceof Promise ? await admitted : admitted
      if (refused) throw refused
      return await handler(params, { protocolVersion: this.host.version(), requestId: id, method, signal: entry.controller.signal, answerRoom: this.host.answerRoom })
    } catch (error) {
      if (error instanceof ResponseError) throw error
      if (error instanceof HandlerError) throw new ResponseError(error.code, error.message, error.data)
      this.host.logger?.error(`handler for ${method} failed`, error)
      this.host.report({ kind: 'handler-crashed', message: `The ${method} handler failed: ${error instanceof Error ? error.message : String(error)}` })
      throw new ResponseError(-32603, 'Internal error')
    } finally {
      if (this.incoming.get(id) === entry) this.incoming.delete(id)
    }
  }
}
