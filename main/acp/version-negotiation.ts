/**
 * The `initialize` handshake (C9, C10): what Bosun offers in each version's shape, how it falls back when the agent
 * refuses a version, and what the answer leaves the connection (the version, the methods the agent was never told
 * Bosun serves, whether v1 boolean config options were advertised).
 */
import { boundJson } from '../../common/bounded'
import { BosunError, RpcError } from '../base/errors'
import type { Logger } from '../base/log'
import { AGENT_ERROR_BOUNDS, isRecord, previewOf } from './agent-errors'
import type { AcpConnectionOptions, ClientCapabilityFlags } from './connection-options'
import { normaliseHandshake } from './handshake'
import type { AgentHandshake, ProtocolVersion } from './types'

/** What the handshake reads from the connection's options. */
export type NegotiationOptions = Pick<AcpConnectionOptions, 'clientInfo' | 'elicitation' | 'clientCapabilities' | 'booleanConfigOptions'> & { logger?: Logger }

/** The connection's side of the handshake. */
export interface NegotiationPeer {
  request(method: string, params: unknown): Promise<unknown>
  /** The version the agent's own requests are held to from now on (the one offered, until it answers). */
  setVersion(version: ProtocolVersion): void
}

export interface Negotiated {
  handshake: AgentHandshake
  /** v1: whether the initialize the agent answered advertised `session.configOptions.boolean`. */
  booleansAdvertised: boolean
  /**
   * Methods the agent was never told Bosun serves, answered -32601 whatever handler is registered: a v1 agent that
   * answered our v2 offer read no v1 `clientCapabilities` (C10b), so it runs without Bosun's files, terminals and
   * elicitation; a v1 agent offered 1 gets only the files and terminals its `clientCapabilities` named (C3); v2 has none.
   */
  unadvertisedPrefixes: readonly string[]
}

/** What a v1 agent that answered a v2 offer was not offered (it saw no v1 `clientCapabilities`). */
const UNADVERTISED_TO_V1_UNDER_V2_OFFER = ['fs/', 'terminal/', 'elicitation/', 'session/elicitation']
/** v2 has no client file or terminal methods (its agents run their own terminals, L). */
const NOT_IN_V2 = ['fs/', 'terminal/']

/** The v1 client methods `clientCapabilities` said Bosun does not serve (C3: the agent's call gets -32601). */
function unadvertisedToV1(caps: ClientCapabilityFlags): string[] {
  return [
    ...(caps.fs?.readTextFile === true ? [] : ['fs/read_text_file']),
    ...(caps.fs?.writeTextFile === true ? [] : ['fs/write_text_file']),
    ...(caps.terminal === true ? [] : ['terminal/']),
  ]
}

/** Error codes a v1-only agent may answer a v2 `initialize` with (C10c). */
const RETRY_AS_V1_CODES = new Set([-32022, -32600, -32602])
/** v2's "unsupported protocol version" (`data: {requested, supported}`). */
const UNSUPPORTED_VERSION_CODE = -32022

/**
 * Negotiates the version (C9, C10): offers `preferredVersion` (default 2). Refused, it offers the other version on
 * the same connection: 2 → 1 for the errors v1-only agents answer a v2 offer with (C10c), 1 → 2 for a v2 agent's
 * -32022 (or an error whose `data.supported` lists 2). A v2 agent that answers 2 to an offer of 1 (v1's rule: its
 * own latest) read only our v1-shaped `clientInfo`/`clientCapabilities`: it is initialized again in the v2 shape
 * before anything else is sent (v2 allows a repeated `initialize` before any other request; the latest wins).
 * The version answered is set on `peer` before this resolves.
 */
export async function negotiateVersion(peer: NegotiationPeer, options: NegotiationOptions, preferredVersion: ProtocolVersion = 2): Promise<Negotiated> {
  let offered: ProtocolVersion = preferredVersion
  const tried = new Set<ProtocolVersion>([offered])
  // Until the agent answers, requests it sends (an elicitation during initialize) follow the version offered.
  peer.setVersion(offered)
  let result: unknown
  try {
    result = await peer.request('initialize', initializeParams(options, offered))
  } catch (error) {
    const other = error instanceof RpcError ? versionAfterRefusal(offered, error) : undefined
    if (other === undefined) throw error
    options.logger?.info(`initialize: the agent refused version ${offered} (${(error as RpcError).code}); offering ${other}`)
    offered = other
    tried.add(other)
    peer.setVersion(other)
    result = await peer.request('initialize', initializeParams(options, other))
  }
  let answered = answeredVersion(result, offered)
  if (offered === 1 && answered === 2 && !tried.has(2)) {
    options.logger?.info('initialize: the agent answered version 2 to an offer of 1; initializing it again as v2')
    peer.setVersion(2)
    try {
      const again = await peer.request('initialize', initializeParams(options, 2))
      answered = answeredVersion(again, 2)
      result = again
      offered = 2
    } catch (error) {
      // v2: a failed repeat leaves the first initialize in effect; the agent runs without Bosun's v2 capabilities.
      if (!(error instanceof RpcError)) throw error
      options.logger?.info(`initialize: the agent refused the v2 initialize (${error.code}); going on with its first answer`)
    }
  }
  peer.setVersion(answered)
  // Only the v1-shaped initialize carries `clientCapabilities`: a v1 agent that answered our v2 offer never saw it.
  return {
    handshake: normaliseHandshake(result as Record<string, unknown>, answered, offered),
    booleansAdvertised: offered === 1 && options.booleanConfigOptions !== false,
    unadvertisedPrefixes:
      answered === 2 ? NOT_IN_V2 : offered === 2 ? UNADVERTISED_TO_V1_UNDER_V2_OFFER : unadvertisedToV1(options.clientCapabilities ?? {}),
  }
}

/** The `initialize` params Bosun sends in `version`'s shape. */
function initializeParams(options: NegotiationOptions, version: ProtocolVersion): Record<string, unknown> {
  const elicitation: Record<string, unknown> = {}
  if (options.elicitation?.form) elicitation.form = {}
  if (options.elicitation?.url) elicitation.url = {}
  const caps = options.clientCapabilities ?? {}
  if (version === 2) {
    // v2 defines no fs, terminal or session client capabilities: only auth.terminal and elicitation (C4).
    const capabilities: Record<string, unknown> = { elicitation }
    if (caps.authTerminal) capabilities.auth = { terminal: {} }
    return { protocolVersion: 2, info: { ...options.clientInfo }, capabilities }
  }
  // Bosun shows `notice` and `compaction_*` updates (H17, H18): a v1 agent sends them only to a client that says so.
  const session: Record<string, unknown> = {
    ...(options.booleanConfigOptions !== false ? { configOptions: { boolean: {} } } : {}),
    notices: {},
    compaction: {},
  }
  const clientCapabilities: Record<string, unknown> = {
    fs: { readTextFile: caps.fs?.readTextFile === true, writeTextFile: caps.fs?.writeTextFile === true },
    terminal: caps.terminal === true,
    elicitation,
    session,
  }
  if (caps.authTerminal) {
    // `_meta.gateway`: Bosun sends a model gateway's address and headers in a login (claude-agent-acp offers its
    // "Custom model gateway" methods only to a client that says so).
    clientCapabilities.auth = { terminal: true, _meta: { gateway: true } }
    // The extension that came before `auth.terminal` (Zed's): agents such as OpenCode describe their terminal
    // login only under the method's `_meta["terminal-auth"]`, and only to a client that says it reads it.
    clientCapabilities._meta = { 'terminal-auth': true }
  }
  // The `_meta` terminal extension (Zed's, see applyTerminalMeta): Bosun shows a terminal an agent ran itself on the
  // tool call's card. claude-agent-acp sends its commands' output that way only to a client that says so; else as a
  // Markdown code block of the raw output, escape codes and all, and no exit status.
  clientCapabilities._meta = { ...(clientCapabilities._meta as Record<string, unknown> | undefined), terminal_output: true }
  return { protocolVersion: 1, clientInfo: { ...options.clientInfo }, clientCapabilities }
}

/**
 * The version to offer after the agent refused `offered`, or undefined (the refusal stands). Throws when the agent
 * says which versions it speaks and Bosun speaks none of them.
 */
function versionAfterRefusal(offered: ProtocolVersion, error: RpcError): ProtocolVersion | undefined {
  const data = isRecord(error.data) ? error.data : undefined
  const supported = Array.isArray(data?.supported) ? data.supported : undefined
  if (error.code === UNSUPPORTED_VERSION_CODE && supported && !supported.includes(1) && !supported.includes(2)) {
    throw new BosunError({
      kind: 'unsupported-protocol-version',
      message: `The agent speaks protocol versions ${previewOf(boundJson(supported, { maxDepth: 2, maxTotalChars: 200 }))}; Bosun speaks versions 1 and 2.`,
      data: { offered, supported: boundJson(supported, AGENT_ERROR_BOUNDS.data) },
    })
  }
  const other: ProtocolVersion = offered === 2 ? 1 : 2
  if (supported && !supported.includes(other)) return undefined
  if (offered === 2) return RETRY_AS_V1_CODES.has(error.code) ? 1 : undefined
  return error.code === UNSUPPORTED_VERSION_CODE || supported !== undefined ? 2 : undefined
}

/** The version an `initialize` result names, when Bosun speaks it. */
function answeredVersion(result: unknown, offered: ProtocolVersion): ProtocolVersion {
  const answered = isRecord(result) ? result.protocolVersion : undefined
  if (answered === 1 || answered === 2) return answered
  throw new BosunError({
    kind: 'unsupported-protocol-version',
    message: `The agent answered protocol version ${previewOf(boundJson(answered, { maxDepth: 4, maxTotalChars: 200 }))}; Bosun speaks versions 1 and 2.`,
    data: { offered, answered: boundJson(answered, AGENT_ERROR_BOUNDS.data) },
  })
}
