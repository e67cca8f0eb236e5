import { z } from 'zod'
import { call, event, id } from './define'
import { HEADER_NAME_PATTERN } from '../http-header'

/**
 * Calls and events of the agent tools: check connection, login/logout (agent-driven, env-var, terminal),
 * the agent's stderr log and the protocol inspector.
 *
 * Nothing here ever carries a stored secret: the inspector, the log and the auth terminal output are
 * redacted in main (every secret value of the agent replaced by `«redacted»`) before they cross.
 */

const protocolVersion = z.union([z.literal(1), z.literal(2)]).nullable()
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).max(256)
const keyValue = z.string().min(1).max(65536)

/** `agent` (the agent logs in itself), `terminal` (run a command the person types into), `env_var`, or anything else the agent sent. */
export const authMethodTypeSchema = z.string()

export const authMethodViewSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  type: authMethodTypeSchema,
  /** For env-var methods: the variable the value goes into (stored in the keychain as a secret env of the agent). */
  envName: z.string().optional(),
  /**
   * An agent-driven method that takes a key in the login request itself (`_meta["api-key"]` on the method, as
   * Gemini CLI's "Gemini API key"): the person pastes it, main sends it with `authenticate` and does not store it,
   * unless the agent refuses it naming the variables it reads its key from (codex-acp): then it is stored there.
   */
  takesKey: z.literal(true).optional(),
  /**
   * An agent-driven method that routes the agent through a model gateway the person names (`_meta.gateway` on the
   * method, as Gemini CLI's "AI API Gateway" and claude-agent-acp's "Custom model gateway"): a base URL and optional
   * headers go in the login request's `_meta.gateway`, and are not stored. `gatewayProtocol`: the API it speaks.
   */
  gateway: z.literal(true).optional(),
  gatewayProtocol: z.string().max(64).optional(),
  /** A terminal login: the command it runs (the agent's configured program by name, and its args), shown before it runs. */
  commandLine: z.string().max(2000).optional(),
  /**
   * A terminal login: the names of the variables its `env` asks for that Bosun leaves out (they could make the login
   * program run other code or trust other servers: `LD_PRELOAD`, `NODE_OPTIONS`, `PATH`…), each cut to 64 characters.
   */
  envLeftOut: z.array(z.string().max(64)).max(64).optional(),
  /** A method of a kind Bosun cannot run (a type it does not know, a v2 method without one): listed, never offered to log in with. */
  unsupported: z.literal(true).optional(),
})
export type AuthMethodView = z.infer<typeof authMethodViewSchema>

export const checkResultSchema = z.strictObject({
  ok: z.boolean(),
  /** The definition's name (always set, even when the agent failed). */
  agentName: z.string(),
  agentInfo: z
    .strictObject({ name: z.string(), title: z.string().optional(), version: z.string().optional() })
    .nullable(),
  protocolVersion,
  /**
   * In plain words, always the same list in the same order: "Loads earlier sessions", "Resumes sessions",
   * "Lists sessions", "Images in prompts", "Audio in prompts", "Embedded context (files) in prompts",
   * "MCP servers over HTTP", "MCP servers over SSE", "Additional folders", "Logout". Empty when not ok.
   */
  capabilities: z.array(z.strictObject({ label: z.string(), supported: z.boolean() })),
  authMethods: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      description: z.string().optional(),
      type: authMethodTypeSchema,
      /** A method that takes a model gateway, and the API it speaks, as in {@link AuthMethodView}. */
      gateway: z.literal(true).optional(),
      gatewayProtocol: z.string().max(64).optional(),
      /** A method of a kind Bosun cannot run, as in {@link AuthMethodView}. */
      unsupported: z.literal(true).optional(),
    }),
  ),
  /** Set when `ok` is false: `kind` is a failure kind, e.g. `agent-spawn-failed`, `agent-exited`, `timeout`, `initialize-failed`, `unsupported-protocol-version`, `rpc-error`. */
  error: z
    .strictObject({
      kind: z.string(),
      message: z.string(),
      stderrTail: z.string().optional(),
      /** An agent's JSON-RPC error: what its `data` says in words, and the rest of `data` as JSON (see `agentErrorWords`). */
      details: z.string().optional(),
      data: z.string().optional(),
    })
    .optional(),
  durationMs: z.number(),
})
export type CheckResult = z.infer<typeof checkResultSchema>

export const inspectorMessageSchema = z.strictObject({
  /** Increasing per agent (across reconnects); gaps mean messages dropped from the ring. */
  seq: z.number(),
  /** Epoch ms. */
  time: z.number(),
  /** `out` = Bosun → agent, `in` = agent → Bosun. */
  direction: z.enum(['in', 'out']),
  kind: z.enum(['request', 'response', 'notification', 'error', 'invalid']),
  method: z.string().optional(),
  id: z.union([z.string(), z.number(), z.null()]).optional(),
  sessionId: z.string().optional(),
  /** Responses and errors: ms since their request (same id, opposite direction). */
  latencyMs: z.number().optional(),
  /** Size of the line on the wire. */
  bytes: z.number(),
  /** The message, redacted; a huge one is truncated (`{ "«truncated»": true, preview, bytes }`). */
  message: z.unknown(),
  /** `check`: from a Check connection run (a separate throwaway process), not the running agent. */
  origin: z.literal('check').optional(),
})
export type InspectorMessage = z.infer<typeof inspectorMessageSchema>

export const authTerminalExitSchema = z.strictObject({ code: z.number().nullable(), signal: z.string().nullable() })

/**
 * Who the agent says it is signed in as (claude-agent-acp's `_auth/status_update`), in its own words, bounded:
 * `signedIn: false` is the agent saying no one is (`kind: "none"`). Absent: the agent has not said.
 */
export const agentAccountSchema = z.strictObject({
  signedIn: z.boolean(),
  kind: z.string().max(64),
  label: z.string().max(256),
  detail: z.string().max(256).optional(),
})
export type AgentAccountView = z.infer<typeof agentAccountSchema>

const headerName = z.string().regex(HEADER_NAME_PATTERN).max(256)
export const gatewayLoginSchema = z.strictObject({
  baseUrl: z.string().min(1).max(2048),
  headers: z.array(z.strictObject({ name: headerName, value: z.string().max(8192) })).max(32).optional(),
})
export type GatewayLogin = z.infer<typeof gatewayLoginSchema>

export const agentToolsCalls = {
  /**
   * Spawns the agent exactly as a session would (same command, args, env and secrets) as a separate
   * throwaway process, runs `initialize`, then stops it. A failing agent is a value (`ok: false` with the
   * stderr tail), not a call failure; the call fails only for an unknown agent id.
   */
  checkAgentConnection: call(z.strictObject({ agentId: id }), checkResultSchema),
  /** The running agent's auth methods (starts it if needed). */
  listAuthMethods: call(
    z.strictObject({ agentId: id }),
    z.strictObject({ methods: z.array(authMethodViewSchema), account: agentAccountSchema.optional() }),
  ),
  /**
   * Agent-driven methods: `authenticate` (v1) / `auth/login` (v2) on the running connection (`restarted: false`).
   * With `keyName` and `value` (a key the agent's failed login named in its error `data.envVars`, or one its
   * definition lists): the key is stored in the keychain as a secret env of the agent, the agent restarts with
   * it, and then logs in with the method (`restarted: true`). With `value` alone, for a method that takes a key in
   * the request (`takesKey`): the key goes in the request's `_meta["api-key"]`, and is not stored; if the agent
   * refuses naming key variables, it is stored under each of them, the agent restarts, and logs in (`restarted: true`).
   * Env-var methods: `value` is stored in the keychain as a secret env of the agent and the agent is
   * restarted with it (`restarted: true`). Terminal methods fail with `invalid-argument` (use `startAuthTerminal`).
   * With `gateway`, for a `gateway` method: sent in the request's `_meta.gateway` as `{ baseUrl, headers }` (an
   * absolute http(s) URL without credentials in it), not stored; the header values are redacted from then on.
   */
  loginAgent: call(
    z.strictObject({
      agentId: id,
      methodId: z.string().min(1).max(512),
      value: keyValue.optional(),
      keyName: envName.optional(),
      /** For a `gateway` method: where the agent sends its model requests, and the headers it adds (values are secrets). */
      gateway: gatewayLoginSchema.optional(),
    }),
    z.strictObject({ restarted: z.boolean() }),
  ),
  /**
   * Stores a key in the keychain as a secret env of the agent and restarts the agent with it. Only for a name
   * the agent's definition lists in `secretEnv`, or one the agent named in a failed login (see `loginAgent`);
   * anything else fails with `invalid-argument` and nothing is stored.
   */
  saveAgentKey: call(z.strictObject({ agentId: id, name: envName, value: keyValue }), z.strictObject({ restarted: z.literal(true) })),
  /**
   * The names among the agent's keys (its definition's `secretEnv`, which the person confirmed; never a name the
   * agent asked for) that are set in Bosun's own environment (Bosun started from a shell that exports them). Names
   * only: the values never leave main.
   */
  listEnvironmentKeys: call(z.strictObject({ agentId: id }), z.strictObject({ names: z.array(z.string()) })),
  /**
   * Stores the value Bosun's own environment has for `name` in the keychain as the agent's key and restarts the
   * agent with it. Only for a name the definition lists, and only when the environment has a value.
   */
  useEnvironmentKey: call(z.strictObject({ agentId: id, name: envName }), z.strictObject({ restarted: z.literal(true) })),
  /**
   * Runs the agent's own command with the method's `args` and `env` (plus the agent's env and secrets) as a
   * separate process with piped stdin/stdout/stderr (no PTY). Output arrives as `authTerminalOutput`; on
   * exit 0 the agent is restarted.
   */
  startAuthTerminal: call(
    z.strictObject({ agentId: id, methodId: z.string().min(1).max(512) }),
    z.strictObject({ terminalId: z.string() }),
  ),
  /** Text typed by the person (send a trailing "\n" for Enter). */
  authTerminalInput: call(z.strictObject({ terminalId: id, data: z.string().max(65536) }), z.undefined()),
  /** Kills the terminal process (no-op if it already exited). */
  closeAuthTerminal: call(z.strictObject({ terminalId: id }), z.undefined()),
  /** Stops waiting for the agent's login in progress (a browser sign-in nobody finishes) and asks the agent to withdraw it. */
  cancelAgentLogin: call(z.strictObject({ agentId: id }), z.undefined()),
  /** Fails with `invalid-argument` unless the agent advertises logout (v1 `auth.logout`, v2 any auth method). */
  logoutAgent: call(z.strictObject({ agentId: id }), z.undefined()),
  /** The tail of the agent's stderr log file (redacted). `truncated` = older text exists. Default 64 KiB, max 1 MiB. */
  getAgentLog: call(
    z.strictObject({ agentId: id, maxBytes: z.number().int().min(1).max(1_048_576).optional() }),
    z.strictObject({ text: z.string(), truncated: z.boolean() }),
  ),
  /** A snapshot of the agent's inspector ring, oldest first; filters are exact matches. `dropped` = messages evicted from the ring so far. */
  listInspectorMessages: call(
    z.strictObject({
      agentId: id,
      method: z.string().max(512).optional(),
      sessionId: z.string().max(512).optional(),
      limit: z.number().int().min(1).max(100_000).optional(),
    }),
    z.strictObject({ messages: z.array(inspectorMessageSchema), dropped: z.number() }),
  ),
  /** The redacted messages as JSON Lines (one InspectorMessage per line), with a suggested file name. */
  exportInspector: call(z.strictObject({ agentId: id }), z.strictObject({ fileName: z.string(), content: z.string() })),
  clearInspector: call(z.strictObject({ agentId: id }), z.undefined()),
  /**
   * The inspector view of an agent opened (`watching: true`) or closed. `inspectorMessages` events are sent
   * only while a view watches: every streamed chunk would otherwise cross to the renderer twice.
   */
  watchInspector: call(z.strictObject({ agentId: id, watching: z.boolean() }), z.undefined()),
} as const

export const agentToolsEvents = {
  /** Output of an auth terminal (stdout and stderr merged); the last one carries `exit`. */
  authTerminalOutput: event(
    z.strictObject({ terminalId: z.string(), data: z.string(), exit: authTerminalExitSchema.optional() }),
  ),
  /** The running agent said who it is signed in as (see {@link agentAccountSchema}). */
  agentAccount: event(z.strictObject({ agentId: z.string(), account: agentAccountSchema })),
  /** Live stderr of an agent, redacted, coalesced (at most 10 events/s per agent, bounded text per event). */
  agentLog: event(z.strictObject({ agentId: z.string(), text: z.string() })),
  /** New inspector messages of an agent, batched (at most 10 events/s per agent). */
  inspectorMessages: event(z.strictObject({ agentId: z.string(), messages: z.array(inspectorMessageSchema) })),
} as const
