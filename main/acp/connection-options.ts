/** What a connection to one agent is made with (`createAcpConnection` in ./connection). */
import type { Readable, Writable } from 'node:stream'
import type { Logger } from '../base/log'
import type { AuthMethodSummary, HandlerError } from './types'

export interface AcpConnectionOptions {
  input: Readable
  output: Writable
  logger?: Logger
  maxMessageBytes?: number
  clientInfo: { name: string; version: string }
  /** Elicitation modes we advertise (C5: only present objects count). */
  elicitation?: { form?: boolean; url?: boolean }
  /** Bound of the outgoing queue (an agent that does not read its stdin); see the NDJSON writer's `maxQueuedBytes`. */
  maxQueuedBytes?: number
  /** How long messages may wait for an agent that reads nothing; see the NDJSON writer's `stallMs`. */
  writeStallMs?: number
  /** How long bytes may wait unread in the pipe before {@link AcpClientConnection.onDidChangeInputStall}; see the NDJSON writer's `inputStallMs`. */
  inputStallMs?: number
  /** The agent's requests Bosun holds at once; see the NDJSON reader's `maxRequestsInFlight`. */
  maxRequestsInFlight?: number
  /** Applied to previews of bad lines before they are logged (secret values an agent prints). */
  redact?: (text: string) => string
  /**
   * What else Bosun serves (C3, C4): v1 `fs.*` and `terminal` (all five `terminal/*`), and `auth.terminal`
   * (v1 `true`, v2 `{}`) when terminal sign-in runs in a PTY. Advertise only what has a registered handler.
   */
  clientCapabilities?: ClientCapabilityFlags
  /**
   * Whether Bosun itself has a way to sign this agent in beyond its auth methods: the keys its definition lists
   * (`secretEnv`), which the sign-in dialog asks for. With it, a -32000 offers sign-in even from an agent that listed
   * no auth methods (B10).
   */
  signInByKeys?: () => boolean
  /**
   * Whether Bosun can run a listed auth method (its sign-in dialog offers it and something happens). Default: any
   * method but a v2 one without a type, which Bosun never sends (D5). A -32000 from an agent whose methods are all
   * ones Bosun cannot run is no sign-in to offer, as from one that lists none (B10).
   */
  runsAuthMethod?: (method: AuthMethodSummary) => boolean
  /** v1: advertise `session.configOptions.boolean` (default true; the session header shows boolean options). Without it no boolean value is sent (E13). */
  booleanConfigOptions?: boolean
  /**
   * Asked before a registered handler runs an agent request: an error refuses it (the agent gets it), a promise makes
   * it wait (a request naming a session Bosun is still being told about). Synchronous when it says yes at once, so a
   * handler's synchronous part still runs before the updates read after its request.
   */
  admitRequest?: (method: string, params: unknown, signal: AbortSignal) => HandlerError | undefined | Promise<HandlerError | undefined>
}

export interface ClientCapabilityFlags {
  fs?: { readTextFile?: boolean; writeTextFile?: boolean }
  terminal?: boolean
  authTerminal?: boolean
}
