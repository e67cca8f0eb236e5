/**
 * The surface of the ACP layer that the rest of main codes against. `connection.ts` implements
 * {@link AcpClientConnection}; agents/, sessions/, permissions/ and elicitation/ only see these types.
 *
 * Protocol payload types come from the official SDK (type-only imports); v1 is the package root,
 * v2 is `@agentclientprotocol/sdk/experimental/v2`.
 */
import type * as v1 from '@agentclientprotocol/sdk'
import type * as v2 from '@agentclientprotocol/sdk/experimental/v2'
import type { Event } from '../base/event'
import type { IDisposable } from '../base/lifecycle'

export type { v1, v2 }

export type ProtocolVersion = 1 | 2
/** JSON-RPC ids: numbers or strings, echoed with the same JSON type. */
export type JsonRpcId = number | string

/**
 * What we learned from `initialize`, normalised across v1 and v2 and bounded (see `HANDSHAKE_LIMITS`). The result
 * itself is not kept: the inspector has it.
 */
export interface AgentHandshake {
  protocolVersion: ProtocolVersion
  /**
   * The version we offered. A v1 agent that answers 1 to a v2 offer never saw our v1-shaped client
   * capabilities (checklist C10b): it runs without Bosun's files, terminals and elicitation until its next
   * start, which offers 1 (the host remembers that).
   */
  offeredVersion: ProtocolVersion
  agentInfo: { name: string; title?: string; version?: string } | null
  capabilities: AgentCapabilitySummary
  /** Auth methods as the agent sent them (v1 `{id,…}` or v2 `{methodId, type,…}`), malformed items skipped. */
  authMethods: AuthMethodSummary[]
}

export interface AgentCapabilitySummary {
  /**
   * Whether the agent serves sessions at all: always on v1; on v2 only when its `initialize` answer has
   * `capabilities.session` (C7). Without it the connection sends no `session/*` request.
   */
  sessions: boolean
  loadSession: boolean
  resumeSession: boolean
  listSessions: boolean
  closeSession: boolean
  deleteSession: boolean
  logout: boolean
  prompt: { image: boolean; audio: boolean; embeddedContext: boolean }
  mcp: { stdio: boolean; http: boolean; sse: boolean }
  additionalDirectories: boolean
}

export interface AuthMethodSummary {
  id: string
  name: string
  description?: string
  /** `agent` | `terminal` | anything else (kept, shown generically, never auto-invoked). */
  type: string
  args?: string[]
  env?: Record<string, string>
  /** The method's own fields Bosun reads later (legacy `varName`/`vars`, `_meta`), each kept only while small. */
  raw: unknown
}

/** One session from the agent's `session/list`. */
export interface AgentSessionInfo {
  sessionId: string
  cwd: string
  title: string | null
  updatedAt: string | null
  /** The session's folders beyond `cwd`, the complete ordered list (E17); absent when the agent names none. */
  additionalDirectories?: string[]
}

export interface NewSessionOutcome {
  sessionId: string
  /** v1 `modes` (only used when no configOptions). */
  modes?: unknown
  /** v1 `models`, the unstable session models API (only used when no config option is the model). */
  models?: unknown
  configOptions?: unknown[]
  availableCommands?: unknown[]
  raw: unknown
}

export interface PromptOutcome {
  /** `end_turn` | `max_tokens` | `max_turn_requests` | `refusal` | `cancelled` | v2 `error` | unknown (kept). `null` = not reported. */
  stopReason: string | null
  /** v2 idle `state_update` error, when the turn ended in error. */
  error?: { code?: number; message: string; data?: unknown }
  /** v2: the `messageId` of the inserted user message. */
  userMessageId?: string
}

/** What the caller of {@link AcpClientConnection.prompt} hears before the turn ends. */
export interface PromptHooks {
  /**
   * v2: the agent answered the prompt: it inserted it as the user message `messageId` (F6). Called before any
   * update the connection held back until that answer (a possibly stale idle) reaches `onDidReceiveUpdate`.
   */
  onInserted?(messageId: string): void
}

/** One `session/update` notification's payload, as received (shape-checked, not schema-validated). */
export interface SessionUpdateNotification {
  sessionId: string
  update: { sessionUpdate: string; [key: string]: unknown }
  _meta?: unknown
}

/** Context given to a client-side request handler (permissions, elicitation, fs, terminals). */
export interface ClientRequestContext {
  readonly protocolVersion: ProtocolVersion
  readonly requestId: JsonRpcId
  readonly method: string
  /** Aborted when the agent sends `$/cancel_request` for this id, or the connection closes. */
  readonly signal: AbortSignal
  /**
   * Resolves once the agent has read most of what waits for it (at once when it has): a handler about to make a large
   * answer waits here first, so main never holds many answers an agent asked for and has not read.
   */
  readonly answerRoom?: () => Promise<void>
}

/** A JSON-RPC error a handler wants to answer with (e.g. -32602 invalid params, -32002 not found). */
export class HandlerError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message)
    this.name = 'HandlerError'
  }
}

/** JSON-RPC "invalid params": a request whose params are malformed, or name something the method cannot take. */
export const INVALID_PARAMS = -32602

/** JSON-RPC "resource not found": ACP's answer naming an unknown session (G7), terminal or other resource. */
export const RESOURCE_NOT_FOUND = -32002

/** The answer to a request naming a session the agent does not have with Bosun: -32002 with `{sessionId}` (G7). */
export const sessionNotFound = (sessionId: string): HandlerError => new HandlerError(RESOURCE_NOT_FOUND, `Session not found: ${sessionId}`, { sessionId })

export type ClientRequestHandler = (params: unknown, context: ClientRequestContext) => Promise<unknown> | unknown
export type ClientNotificationHandler = (params: unknown, context: { protocolVersion: ProtocolVersion; method: string }) => void

/**
 * Client-side handlers, registered by method name. Until a domain registers a handler, the method
 * answers -32601. Aliases (e.g. `session/elicitation` → `elicitation/create`) are registered twice.
 */
export interface ClientHandlerRegistry {
  registerRequest(method: string, handler: ClientRequestHandler): IDisposable
  registerNotification(method: string, handler: ClientNotificationHandler): IDisposable
}

/** A message seen on the wire, for the protocol inspector. */
export interface WireTrace {
  direction: 'in' | 'out'
  /** Epoch ms. */
  time: number
  /** The parsed message, or the raw text for a line that was not JSON. */
  message: unknown
  bytes: number
  /** The line as decoded, for a received JSON message (what the inspector keeps instead of the parsed value). */
  text?: string
}

/** Transport-level problems that do not end the connection (garbage line, oversized line, …). */
/** Bytes of Bosun's an agent leaves unread in its input, and how long it has read none of them. */
export interface InputStall {
  waitingBytes: number
  unreadMs: number
}

export interface TransportProblem {
  kind: 'non-json-line' | 'oversized-line' | 'invalid-message' | 'batch-rejected' | 'unknown-response-id' | 'handler-crashed' | 'unresponsive' | 'message-too-large'
  message: string
  /** A short, truncated preview of the offending input. */
  preview?: string
  /**
   * `non-json-line`: the line as read (bounded by the reader's line limit; make it printable before showing it, see
   * `printable` in ndjson.ts). An agent that prints a sign-in URL or a warning on stdout has it shown in its log.
   */
  line?: string
}

export interface AcpClientConnection extends IDisposable {
  readonly handlers: ClientHandlerRegistry
  /** Bytes of a message the agent began writing and has not ended with a newline (see the NDJSON reader). */
  unterminatedOutput?(): number
  /**
   * Resolves once the agent's output has ended and every message read from it has been handled (in a later turn of
   * the event loop, so what the answers settled has run), or once the connection is closed.
   */
  whenOutputRead?(): Promise<void>
  /**
   * After `close`: resolves once the answers it gave to the agent's waiting requests (a form, a permission) are handed
   * to the writer, within a second; what stops the agent ends its stdin after this.
   */
  answersWritten?(): Promise<void>
  /** Set after a successful `initialize`. */
  readonly handshake: AgentHandshake | undefined
  readonly onDidReceiveUpdate: Event<SessionUpdateNotification>
  readonly onDidReportProblem: Event<TransportProblem>
  readonly onDidTrace: Event<WireTrace>
  /** Fired once when the stream ends or the connection is disposed. */
  readonly onDidClose: Event<{ error?: Error }>
  /**
   * The agent read none of its input for a while though Bosun's bytes wait for it in a full pipe (a message sent now
   * waits behind them): how many bytes wait and for how long, or `null` once it reads again. Ends nothing.
   */
  readonly onDidChangeInputStall?: Event<InputStall | null>
  /** What the agent leaves unread as {@link onDidChangeInputStall} last said; `null` while it reads. */
  inputStall?(): InputStall | null
  /** Whether Bosun's own request with this id still waits for the agent's answer (what a request-scoped elicitation may name, G12). */
  isRequestPending(id: JsonRpcId): boolean
  /** Fires with the id of each of Bosun's requests once the agent answered it (or it failed in the agent's place). */
  readonly onDidSettleRequest: Event<JsonRpcId>

  initialize(options?: { preferredVersion?: ProtocolVersion }): Promise<AgentHandshake>
  newSession(params: { cwd: string; mcpServers?: unknown[]; additionalDirectories?: string[] }): Promise<NewSessionOutcome>
  /** Resolves when the turn ends (v1: the prompt response; v2: the idle `state_update`). */
  prompt(sessionId: string, prompt: unknown[], hooks?: PromptHooks): Promise<PromptOutcome>
  cancel(sessionId: string): void
  setMode(sessionId: string, modeId: string): Promise<void>
  /** v1 `session/set_model` (the unstable session models API; v2 connections refuse it). */
  setModel?(sessionId: string, modelId: string): Promise<void>
  setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<unknown[] | undefined>
  resumeSession(params: { sessionId: string; cwd: string; replay?: boolean; mcpServers?: unknown[]; additionalDirectories?: string[] }): Promise<NewSessionOutcome>
  /** v2 `terminal/cancel`: only for a terminal that currently advertises `capabilities.cancel` (E16); v1 connections refuse it. */
  cancelTerminal?(sessionId: string, terminalId: string): Promise<void>
  /** v2 `tool_call/cancel`: only for a tool call that currently advertises `capabilities.cancel` and is not final (E15); v1 connections refuse it. */
  cancelToolCall?(sessionId: string, toolCallId: string): Promise<void>
  /** `session/close` (v1 `sessionCapabilities.close`, v2 baseline): the agent may free the session. */
  closeSession?(sessionId: string): Promise<void>
  /**
   * `session/delete` (E10; v1 `sessionCapabilities.delete`, v2 `session.delete`, which the caller checks): the agent
   * forgets the session. A -32002 (it has no such session) resolves: deleting is idempotent.
   */
  deleteSession?(sessionId: string): Promise<void>
  /**
   * `session/list`: the sessions the agent has (for a folder), one page; answers liberally (bad items skipped).
   * `signal`: aborted, Bosun withdraws it (`$/cancel_request`, B16) and drops the agent's late answer.
   */
  listSessions?(params: { cwd?: string; cursor?: string }, signal?: AbortSignal): Promise<{ sessions: AgentSessionInfo[]; nextCursor: string | null }>
  /** `meta`: the request's `_meta` (a key the method takes in the request, see `takesKeyInRequest`). */
  authenticate(methodId: string, meta?: Record<string, unknown>, signal?: AbortSignal): Promise<void>
  logout(): Promise<void>
  /** Rejects every pending outgoing request with `error` and closes the connection. */
  close(error?: Error): void
}
