/**
 * The scripted test agent's scenario format (JSON files in test/fixtures/scenarios/). One process
 * serves many prompts: the prompt's text (first text block, trimmed) picks a script, else `default`.
 */

export interface Scenario {
  initialize?: InitializeBehaviour
  session?: SessionBehaviour
  /**
   * Request-scoped elicitations (checklist G12): while handling one of these client requests, before any
   * session exists, the agent sends `elicitation/create` scoped to it (`requestId` = the id of the request it
   * is handling) and waits for the answer before it replies. See {@link RequestElicitation}.
   */
  elicitDuring?: {
    initialize?: RequestElicitation
    'session/new'?: RequestElicitation
    /** v1 `authenticate`, v2 `auth/login`: the login fails with -32000 unless the answer is `accept`. */
    authenticate?: RequestElicitation
  }
  /** Scripts keyed by prompt text; `default` for anything else. */
  prompts?: Record<string, Step[]>
  /**
   * v2 `terminal/cancel` (E16). Each request is logged on stderr as `TERMINAL-CANCEL <params json>`. A listed
   * terminal id is accepted (`{}`), then the agent reports its `exitStatus` (given here; default
   * `{signal:"SIGTERM"}`) with `capabilities: null`, drops it from the session's background list and sends an
   * idle `state_update` with the new list. An id not listed, or one already cancelled, gets -32602.
   */
  cancelTerminals?: Record<string, { exitStatus?: Record<string, unknown>; output?: string }>
  /**
   * v2 `tool_call/cancel` (E15). Each request is logged on stderr as `TOOL-CALL-CANCEL <params json>`. A listed tool
   * call id is accepted (`{}`), then the agent reports it `status` (default `cancelled`) with `capabilities: null`,
   * unless `confirm` is false (it accepts and never says so), and drops it from the session's background list (an idle
   * session gets a new snapshot). An id not listed, or one already cancelled, gets -32602.
   */
  cancelToolCalls?: Record<string, { status?: string; confirm?: boolean }>
}

export interface InitializeBehaviour {
  /** Wait before answering (ms). */
  delayMs?: number
  /** Wait before answering until this file exists: a test that must see the agent starting creates it when it has. */
  untilFile?: string
  /** The version to answer. Default: 1 for the v1 agent, 2 for the v2 agent. */
  protocolVersion?: number
  /** Answer offers of these versions with an error (`rejectCode`, default -32600), e.g. `[2]`. */
  rejectVersions?: number[]
  rejectCode?: number
  /** Fail `initialize` outright. */
  failWith?: { code: number; message: string; data?: unknown }
  /** Exit before reading anything, after writing `stderr`. */
  exitAtStart?: { code: number; stderr?: string }
  /** v1 `agentInfo` / v2 `info`. */
  agentInfo?: { name: string; title?: string; version: string }
  /** v1 `agentCapabilities` / v2 `capabilities`, sent as given. */
  capabilities?: Record<string, unknown>
  /** Sent as given (v1 `{id,…}`, v2 `{methodId, type,…}`). */
  authMethods?: unknown[]
  /**
   * The login fails with -32000 ("API key is missing") unless the request's `_meta["api-key"]` is this key, as
   * Gemini CLI's "Gemini API key" method. The login is logged on stderr as `LOGIN <params json>`.
   */
  loginKey?: string
  /** Logins never answer (an agent stuck in a browser sign-in). */
  loginHangs?: boolean
  /**
   * A login with the method `gateway` fails with -32602 unless the request's `_meta.gateway` has an http(s)
   * `baseUrl` and this header, as Gemini CLI's "AI API Gateway" method.
   */
  loginGatewayHeader?: string
  /**
   * claude-agent-acp's `_auth/status_update` (`{ authStatus }`): `signedOut` sent right after `initialize` is
   * answered, `signedIn` after a login goes through. `flood`: after `initialize`, that many more, each different
   * from the one before, the last one `signedIn`.
   */
  authStatus?: { signedOut: unknown; signedIn: unknown; flood?: number }
  /** Extra top-level keys merged into the result (unknown-key tests). */
  extra?: Record<string, unknown>
}

/**
 * `params` are the `elicitation/create` params without the scope: `requestId` is filled in (a `sessionId`
 * or `requestId` given here is sent as given). The answer (or the JSON-RPC error) is logged on stderr as
 * `ELICITATION-RESPONSE <method> <json>`, and reported as the agent's text
 * `request-scoped elicitation response (<method>): <json>` in the next new session, sent before the
 * `session/new` response. During `initialize` the request is written raw (the v2 SDK holds client requests
 * until the handshake is over), so it goes out even to a client that has not initialized yet.
 */
export interface RequestElicitation {
  params: Record<string, unknown>
}

export interface SessionBehaviour {
  /** v1 `modes` (SessionModeState). */
  modes?: { currentModeId: string; availableModes: { id: string; name: string; description?: string }[] }
  /**
   * v1 `models` (the unstable SessionModelState Gemini CLI sends), on `session/new`, `load` and `resume`, sent as
   * given; `session/set_model` takes a listed model (else -32602) and is logged as `SET-MODEL <json>`.
   */
  models?: { currentModelId?: unknown; availableModels: unknown[] }
  /** Sent as given (v1 `id`/`group`, v2 `configId`/`groupId`). */
  configOptions?: unknown[]
  /** Commands: v2 returns them from session/new; v1 sends an available_commands_update after it. */
  availableCommands?: { name: string; description: string; hint?: string }[]
  /** `session/new` fails with -32000 until `authenticate` / `auth/login` succeeded. */
  requireAuth?: boolean
  /** `session/prompt` fails with -32000 until `authenticate` / `auth/login` succeeded (claude-agent-acp signed out). */
  promptRequiresAuth?: boolean
  /**
   * With `promptRequiresAuth`: a login applies only to sessions built after it (`session/new`, `load`, `resume`); one
   * built before keeps refusing prompts until it is resumed or loaded again, as claude-agent-acp does after a gateway login.
   */
  authOnlyForLaterSessions?: boolean
  /** Session ids are `<idPrefix><n>` (default `sess-`): long ids with a common start for the inspector. */
  idPrefix?: string
  /** `session/set_mode`, `session/set_model` (v1) and `session/set_config_option` fail with this error. */
  refuseChanges?: { code: number; message: string }
  /** Raw updates for the new session sent before the `session/new` response (v2 allows it, E5). */
  updatesBeforeResponse?: Record<string, unknown>[]
  /** Steps replayed by `session/load` (v1) or `session/resume` with `replayFrom` (v2). */
  replay?: Step[]
  /**
   * The replay is started but not awaited: the load is answered at once and the history goes on streaming after
   * the response, as Gemini CLI's `session/load` does (it does not await the task that sends the history).
   */
  replayAfterResponse?: boolean
  /**
   * `session/close` forgets the session, as claude-agent-acp does: a prompt for it is answered -32002 (Session not
   * found) until it is loaded or resumed again.
   */
  closeForgets?: boolean
  /** What `session/list` answers (a missing `cwd` is the folder asked for); `session/close` is logged as `CLOSE <id>`. */
  list?: { sessionId: string; cwd?: string; title?: string; updatedAt?: string; additionalDirectories?: unknown }[]
  /** The first `session/list` is answered only once this file exists (a slow listing the person may cancel, B16). */
  listUntilFile?: string
  /** From the second `session/list` on, answered in place of `list` (a session started elsewhere, in a terminal, meanwhile). */
  listLater?: { sessionId: string; cwd?: string; title?: string; updatedAt?: string; additionalDirectories?: unknown }[]
  /**
   * `session/delete` is logged as `DELETE <id>` and answered `{}`, or with this error; a session deleted before is
   * answered -32002 (it is gone). Advertise it in `initialize.capabilities` (v1 `sessionCapabilities.delete`, v2 `session.delete`).
   */
  deleteFails?: { code: number; message: string }
  /** Raw updates sent before the `session/load` / `session/resume` response, after any replay (v2: before its own idle state_update). */
  updatesBeforeResume?: Record<string, unknown>[]
  /** `session/load` / `session/resume` are answered (and replay) only once this file exists: a slow load. */
  reattachUntilFile?: string
  /** `session/load` / `session/resume` fail with this error (Gemini CLI: -32603 "Internal error", `data.details` saying why). */
  reattachFails?: { code: number; message: string; data?: unknown }
}

export type Step =
  | { type: 'text'; text?: string; chunks?: string[]; emptyFirst?: boolean }
  | { type: 'thought'; text: string }
  | { type: 'tool_call'; id: string; title: string; kind?: string; status?: string; locations?: { path: string; line?: number }[]; rawInput?: unknown }
  | {
      type: 'tool_call_update'
      id: string
      status?: string
      title?: string
      /** v1 `{type:'diff', path, oldText, newText}`; v2 `{type:'diff', changes, patch:{format:'git_patch'}}`. */
      diff?: { path: string; oldText?: string | null; newText: string }
      text?: string
      locations?: { path: string; line?: number }[]
    }
  /** v2 `tool_call_content_chunk`; on v1 a `tool_call_update` with the text as content. */
  | { type: 'tool_call_content_chunk'; id: string; text: string }
  | { type: 'plan'; entries: { content: string; priority?: string; status?: string }[]; planId?: string }
  /** v1 `current_mode_update` (skipped on v2, which has no modes). */
  | { type: 'mode'; modeId: string }
  | { type: 'commands'; commands: { name: string; description: string; hint?: string }[] }
  /** Any raw update object (unknown kinds …), sent as `session/update` params.update. */
  | { type: 'update'; update: Record<string, unknown> }
  | { type: 'sleep'; ms: number }
  /**
   * Raw `session/request_permission` params (sessionId filled in when absent); reports `permission outcome: <json>`.
   * With `noWait`, the next steps run at once and the outcome is reported (and logged on stderr) when it comes.
   */
  | { type: 'request_permission'; params: Record<string, unknown>; /** Used instead of `params` by the v2 agent. */ paramsV2?: Record<string, unknown>; noWait?: boolean }
  /**
   * Raw `elicitation/create` params (sessionId filled in when absent); reports `elicitation response: <json>`. `noWait` as above.
   * A `requestId` of `"{promptRequestId}"` becomes the id of the session/prompt request the turn answers.
   */
  | { type: 'elicitation'; params: Record<string, unknown>; noWait?: boolean }
  /** Steps run on their own once the turn is over (v2: after its idle state_update; v1: after the prompt response): work the agent starts itself. */
  | { type: 'after_turn'; steps: Step[] }
  /**
   * Writes `line` (or JSON.stringify(`json`)) straight to stdout. The client's replies to raw requests
   * (ids listed in `replyIds`, and any `id:null` reply) are logged on stderr as `RAW-REPLY <json>`;
   * with `awaitReply`, the agent waits for the first one and reports it as text `raw reply: <json>`.
   */
  | { type: 'raw_line'; line?: string; json?: unknown; replyIds?: (string | number)[]; awaitReply?: boolean }
  /**
   * Any client method (`fs/read_text_file`, `terminal/create` …) with `params` (sessionId filled in when absent;
   * `{cwd}` in any string is the session's cwd, `{terminalId}` the id of the last `terminal/create` answer). Reports
   * `client response (<method>): <json>` (the result, or `{"error":{code,message,data}}`). With `background`, the
   * request is sent and the turn goes on; its report arrives when it is answered.
   */
  | { type: 'client_request'; method: string; params: Record<string, unknown>; background?: boolean }
  /**
   * v2: the session's background work from now on (`items` as sent; `null` stops reporting it). Every later
   * `state_update` of the session carries it (the turn's idle one included), as the spec requires.
   */
  | { type: 'background'; items: Record<string, unknown>[] | null }
  /** Reports the prompt's blocks as text `prompt received: <json>` (image and audio data replaced by their length). */
  | { type: 'report_prompt' }
  | { type: 'flood'; count: number; text?: string }
  /** Exit with `code` mid-turn; with `grandchild`, first spawn a sleeping child (pid on stderr as `GRANDCHILD <pid>`). */
  | { type: 'crash'; code?: number; grandchild?: boolean }
  | { type: 'exit'; code?: number }
  /**
   * Block until `session/cancel` for this session, then end the turn `cancelled`; `then`, the steps sent between the
   * cancel and that answer (what an agent reports of the work it stopped).
   */
  | { type: 'wait_for_cancel'; then?: Step[] }
  /**
   * v2: block until `tool_call/cancel` of tool call `id` was accepted and confirmed (see `cancelToolCalls`), then go on
   * with the turn; a `session/cancel` meanwhile ends the turn `cancelled`.
   */
  | { type: 'wait_for_tool_call_cancel'; id: string }
  /**
   * Block until the file `path` exists (`{cwd}` is the session's folder): a test creates it once it has seen what
   * the agent's silence until then should show, so that no outcome depends on how fast the machine is. A cancel
   * ends the wait and the turn.
   */
  | {
      type: 'wait_for_file'
      path: string
      /** Waits on after a cancel too: work the agent runs on after it answered `session/cancel` (codex-acp's command). */
      evenAfterCancel?: boolean
    }
  | { type: 'stderr'; text: string }
  /** How the turn ends (default `end_turn`); v2 may add `error`. */
  | { type: 'stop'; stopReason: string; error?: { code?: number; message: string } }
  /**
   * Answer `session/prompt` with this error instead (v1: ends the turn; v2: not inserted). `update` steps before
   * it are sent first (a v2 agent may report `running` and still reject); `after_turn` steps run afterwards.
   */
  | { type: 'prompt_error'; code: number; message: string; data?: unknown }
