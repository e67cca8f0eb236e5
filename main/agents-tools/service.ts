/**
 * Agent tools (issue 6): check connection, login/logout (agent-driven, env-var, terminal), the stderr
 * log and the protocol inspector — the handlers of `preload/contract/agent-tools.ts`.
 *
 * Secrets: every secret value of every agent Bosun has launched (or is about to) is in one
 * {@link SecretSet}, and everything this service sends to the renderer or exports — inspector messages,
 * log text, terminal output, check errors — passes through it first.
 */
import { methodMeta, record } from '../acp/handshake'
import type { AcpClientConnection, AuthMethodSummary, ProtocolVersion } from '../acp/types'
import type { AcpConnectionFactory, AgentHost } from '../agents/agent-host'
import type { AgentProcessSpec } from '../agents/agent-process'
import { realScheduler, type Scheduler } from '../agents/scheduler'
import type { AgentSupervisor } from '../agents/supervisor'
import { fail, ok, toFailure, type Failure, type Result } from '../base/errors'
import { JoinedRuns } from '../base/joined-runs'
import { DisposableStore, toDisposable, type IDisposable } from '../base/lifecycle'
import { createLogger, type Logger } from '../base/log'
import type { AgentConfigService } from '../config/agent-config-service'
import { ENV_NAME_PATTERN } from '../config/agent-definitions'
import { envVarOf, gatewayOf, gatewayView, loginKind } from './login-kind'
import { keyNamesOf } from '../../common/agent-keys'
import { agentErrorWords, errorDetails } from '../../common/acp-errors'
import type { CallClient, CallHandlers, EventSink } from '../../common/contract'
import type { AgentAccountView, agentToolsCalls, AuthMethodView, CheckResult } from '../../common/contract/agent-tools'
import { AUTH_STATUS_UPDATE, readAuthStatus } from './account'
import { LogStream, readLogTail } from './agent-log'
import { AuthTerminals, commandLine, droppedLoginEnv, loginMethodsOf, namedTerminalCommand, programBaseName, terminalSpec, withOwnProgram } from './auth-terminal'
import { checkConnection } from './check-connection'
import { InspectorHub, type InspectorOptions } from './inspector'
import { KeyLoginMemory } from './key-logins'
import { SecretSet } from './redaction'

export type AgentToolsHandlers = Pick<CallHandlers, keyof typeof agentToolsCalls>

export interface AgentToolsOptions {
  events: EventSink
  config: Pick<AgentConfigService, 'definitions' | 'secrets' | 'launchSpec' | 'secretValues' | 'secretsChanged'>
  supervisor: AgentSupervisor
  /** The running agent's connection, started if needed (the composition root's `AgentPort.connect`). */
  connect(agentId: string): Promise<Result<{ connection: AcpClientConnection; protocolVersion: ProtocolVersion }>>
  /** The same factory the supervisor uses (a check must connect exactly as a session would). */
  createConnection: AcpConnectionFactory
  /** Where the agent's stderr log file is (`<home>/logs/agents/<id>.log`). */
  logFile(agentId: string): string
  scheduler?: Scheduler
  logger?: Logger
  inspector?: InspectorOptions
  checkInitializeTimeoutMs?: number
  /** Graceful stop deadline when login restarts the agent. Default 3 s. */
  stopDeadlineMs?: number
  /** Bosun's own environment, where a key the person exported may be found (`useEnvironmentKey`). Default `process.env`. */
  environment?: NodeJS.ProcessEnv
  /**
   * Where the logins that read their key from the agent's environment are remembered across runs
   * (`<home>/login-keys.json`, see `key-logins.ts`); without it, for this run only.
   */
  keyLoginsFile?: string
}

export interface AgentToolsService {
  handlers: AgentToolsHandlers
  /**
   * Records `connection`'s messages in the agent's inspector until it closes. Call it where the
   * connection is created (before `initialize`), so the inspector sees the handshake too.
   */
  attachConnection(agentId: string, connection: AcpClientConnection): IDisposable
  /** The secret values everything here is redacted with (tests). */
  readonly secrets: SecretSet
  /** A failure with its message, stderr tail and data redacted. */
  redactFailure(failure: Failure): Failure
  /** An agent status for the renderer with its error (message, stderr tail) redacted: an agent may print its key as it dies. */
  redactView<V extends { error?: { message: string; stderrTail?: string } | null }>(view: V): V
  /** Emits pending inspector and log batches now (tests). */
  flush(): void
  dispose(): void
}

const DEFAULT_LOG_BYTES = 64 * 1024
/** A terminal login's command as shown (the contract's bound). */
const MAX_COMMAND_LINE_CHARS = 2000
/** `agentAccount` events: at most one per agent per this interval (the latest is sent at its end). */
const ACCOUNT_EVENT_INTERVAL_MS = 250
/** Connection checks running at once (each starts a process). */
const MAX_CHECKS_AT_ONCE = 4

/**
 * Whether an agent-driven method takes a key in the login request: it carries `_meta["api-key"]` (an object,
 * such as Gemini CLI's `{ provider: "google" }`, or `true`), and the agent reads the key from the request's
 * `_meta["api-key"]`.
 */
export function takesKeyInRequest(method: AuthMethodSummary): boolean {
  const key = methodMeta(method, 'api-key')
  return key === true || record(key) !== undefined
}

/** A gateway's base URL as sent: absolute http(s), with no credentials in it (they belong in a header, where they are redacted). */
export function gatewayBaseUrl(text: string): Result<string> {
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    return fail({ kind: 'invalid-argument', message: 'The gateway address must be a full URL, such as https://gateway.example.com.' })
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail({ kind: 'invalid-argument', message: 'The gateway address must start with https:// or http://.' })
  if (url.username || url.password) return fail({ kind: 'invalid-argument', message: 'Put the gateway’s credentials in a header, not in its address.' })
  return ok(text.trim())
}

/** What to redact of a header value: the value, and its last word ("Bearer sk-…" is echoed as "sk-…" too). */
function headerSecrets(value: string): string[] {
  const last = value.trim().split(/\s+/).at(-1) ?? ''
  return last !== value ? [value, last] : [value]
}

export { envVarOf, gatewayOf, loginKind }

/** The caller of a call main makes itself (and of tests): one that never leaves. */
const MAIN_CLIENT: CallClient = { onDidLeave: () => ({ dispose() {} }) }

/** An error's `data` that says why in words: a string, or `{ details: string }` (not the JSON of anything else). */
const isDetailed = (data: unknown): boolean => typeof data === 'string' || typeof record(data)?.details === 'string'

/**
 * A failed agent-driven login as the person is told it: why in words after the agent's message ("Internal error" says
 * nothing: why is in `data.details`, as Cline and Gemini CLI put it), and for a terminal login Bosun would not start
 * (it names another program than `configured`, the agent's own) the command to run themselves. A new failure: the
 * one given may be shared (a closed connection rejects every later request with one error).
 */
export function loginFailure(failure: Failure, method: AuthMethodSummary, configured: string | undefined): Failure {
  // The agent's words: JSON-RPC's "Internal error: " before them dropped (kept when nothing follows it: the details say why).
  let message = failure.kind === 'rpc-error' || failure.kind === 'auth-required' ? agentErrorWords(failure.message).message : failure.message
  const details = isDetailed(failure.data) ? errorDetails(failure.data) : undefined
  if (details !== undefined && !message.includes(details)) message = `${message.trimEnd().replace(/\.$/, '')}: ${details}`
  const named = configured !== undefined ? namedTerminalCommand(method, configured) : undefined
  if (configured !== undefined && named !== undefined) {
    // The command is the agent's word, not Bosun's: said as such, for the person to judge before running it.
    message = `${message.trimEnd().replace(/\.$/, '')}. For “${method.name}”, the agent names a command to run in a terminal: ${named}. Bosun starts such a command itself only when it is the agent's own program (${programBaseName(configured)}); if you trust this one, run it yourself in a terminal, then try again.`
  }
  return message === failure.message ? failure : { ...failure, message }
}

export function createAgentToolsService(options: AgentToolsOptions): AgentToolsService {
  const { events, config, supervisor } = options
  const log = options.logger ?? createLogger('agent-tools')
  const scheduler = options.scheduler ?? realScheduler
  const stopDeadlineMs = options.stopDeadlineMs ?? 3_000
  const store = new DisposableStore()
  const secrets = new SecretSet()
  /** How many pages watch each agent in the inspector (see the `watchInspector` call). */
  const inspectorWatchers = new Map<string, number>()
  /**
   * The agents each page watches: a page counts once for an agent however often it asks, and its watches end when it
   * leaves (a tab closed, or the window's page reloaded, while watching), so no event streams on for nobody.
   */
  const watchesOf = new Map<CallClient, { agents: Set<string>; leaving?: { dispose(): void } }>()
  const inspectors = store.add(
    new InspectorHub(
      secrets,
      (agentId, messages) => {
        if ((inspectorWatchers.get(agentId) ?? 0) > 0) events.emit('inspectorMessages', { agentId, messages })
      },
      scheduler,
      options.inspector,
      (agentId) => (inspectorWatchers.get(agentId) ?? 0) > 0,
    ),
  )
  const unwatchInspector = (client: CallClient, agentId: string) => {
    const watches = watchesOf.get(client)
    if (!watches?.agents.delete(agentId)) return
    if (watches.agents.size === 0) {
      watchesOf.delete(client)
      watches.leaving?.dispose()
    }
    const count = (inspectorWatchers.get(agentId) ?? 1) - 1
    if (count > 0) inspectorWatchers.set(agentId, count)
    else inspectorWatchers.delete(agentId)
  }
  const watchInspector = (client: CallClient, agentId: string) => {
    let watches = watchesOf.get(client)
    if (!watches) watchesOf.set(client, (watches = { agents: new Set() }))
    if (watches.agents.has(agentId)) return
    watches.agents.add(agentId)
    const count = (inspectorWatchers.get(agentId) ?? 0) + 1
    inspectorWatchers.set(agentId, count)
    if (count === 1) inspectors.startWatching(agentId)
    const mine = watches
    mine.leaving ??= client.onDidLeave(() => {
      for (const watched of [...mine.agents]) unwatchInspector(client, watched)
    })
  }
  store.add(
    toDisposable(() => {
      for (const watches of watchesOf.values()) watches.leaving?.dispose()
      watchesOf.clear()
    }),
  )
  const logStreams = new Map<string, LogStream>()
  /**
   * Key variables each agent named in a failed login (`data.envVars`, see `common/agent-keys.ts`), the newest
   * last; with the names its definition lists, the only names a key is stored under for it.
   */
  const namedKeys = new Map<string, string[]>()
  /**
   * Per agent, the login method whose key it refused in the request and read from its environment instead (codex-acp
   * 2.6 reads `_meta["api-key"].apiKey`, Gemini CLI the string Bosun sends), and the names Bosun stored the key under;
   * kept in the home, so a key given after Bosun restarts goes there too.
   */
  const keyLogins = new KeyLoginMemory(options.keyLoginsFile)
  /** What each agent last said about who is signed in (`_auth/status_update`); one small entry per defined agent. */
  const accounts = new Map<string, AgentAccountView>()
  const accountTimers = new Map<string, IDisposable>()
  const MAX_NAMED_KEYS = 8
  const watchedHosts = new WeakSet<AgentHost>()
  /** Throwaway hosts of checks in progress (killed if Bosun shuts down mid-check). */
  const checkHosts = new Set<AgentHost>()
  let disposed = false
  const terminals = store.add(
    new AuthTerminals(
      secrets,
      scheduler,
      {
        output: (terminalId, data) => events.emit('authTerminalOutput', { terminalId, data }),
        exit: (terminalId, exit) => events.emit('authTerminalOutput', { terminalId, data: '', exit }),
      },
      log.child('auth-terminal'),
    ),
  )

  /**
   * Learns the secret values of an agent from a launch environment (only names the definition marks
   * secret). Values are kept for as long as the agent is defined, even after a key was replaced: the
   * old one may still be in its log.
   */
  const learnSecrets = (agentId: string, env: Readonly<Record<string, string>>) => {
    const names = config.definitions.get(agentId)?.secretEnv ?? []
    for (const name of names) if (Object.hasOwn(env, name) && typeof env[name] === 'string') secrets.add(agentId, env[name])
  }

  const logStream = (agentId: string): LogStream => {
    let stream = logStreams.get(agentId)
    if (!stream) {
      stream = new LogStream(secrets, scheduler, (text) => events.emit('agentLog', { agentId, text }))
      logStreams.set(agentId, stream)
    }
    return stream
  }

  // A host appears (or starts again): learn its secrets before it writes anything, and stream its stderr.
  store.add(
    supervisor.onDidChangeStatus((view) => {
      const host = supervisor.get(view.agentId)
      if (!host) return
      if (view.status === 'starting') learnSecrets(view.agentId, host.spec.env)
      if (watchedHosts.has(host)) return
      watchedHosts.add(host)
      learnSecrets(view.agentId, host.spec.env)
      // The host's emitter is disposed with the host, which ends this subscription too.
      store.add(host.onDidWriteStderr((text) => logStream(view.agentId).append(text)))
    }),
  )

  store.add(
    config.definitions.onDidChange(() => {
      const known = new Set(config.definitions.list().map((d) => d.id))
      for (const [agentId, stream] of logStreams) {
        if (known.has(agentId)) continue
        stream.dispose()
        logStreams.delete(agentId)
        inspectors.forget(agentId)
        namedKeys.delete(agentId)
        secrets.set(agentId, [])
        void terminals.closeAgent(agentId)
      }
      for (const agentId of accounts.keys()) if (!known.has(agentId)) accounts.delete(agentId)
    }),
  )

  const notFound = (agentId: string) => fail({ kind: 'not-found', message: `No agent with id ${agentId}` })

  /**
   * The launch spec as a session would get it (and its secrets learned for redaction). `launchSpec` is the
   * gate: a launch the person never confirmed asks first (check connection and terminal sign-in included).
   */
  async function processSpec(agentId: string): Promise<Result<AgentProcessSpec>> {
    const def = config.definitions.get(agentId)
    if (!def) return notFound(agentId)
    const launch = await config.launchSpec(agentId)
    if (!launch.ok) return launch
    learnSecrets(agentId, launch.value.env)
    return ok({ agentId, name: def.name, ...launch.value })
  }

  async function handshakeOf(agentId: string) {
    if (!config.definitions.get(agentId)) return notFound(agentId)
    const connected = await options.connect(agentId)
    if (!connected.ok) return connected
    const handshake = connected.value.connection.handshake
    if (!handshake) return fail({ kind: 'agent-not-running', message: 'The agent is not connected.' })
    return ok({ connection: connected.value.connection, handshake })
  }

  /** The agent's methods as Bosun uses them (see {@link loginMethodsOf}). */
  const loginMethods = (agentId: string, methods: readonly AuthMethodSummary[]) => loginMethodsOf(methods, config.definitions.get(agentId)?.command)

  async function findMethod(agentId: string, methodId: string) {
    const connected = await handshakeOf(agentId)
    if (!connected.ok) return connected
    const method = loginMethods(agentId, connected.value.handshake.authMethods).find((m) => m.id === methodId)
    if (!method) return fail({ kind: 'not-found', message: `The agent does not offer the sign-in method ${methodId}.` })
    return ok({ ...connected.value, method })
  }

  /** Stop, then start with a fresh launch spec (new secrets, re-`initialize`). */
  async function restartAgent(agentId: string): Promise<Result<undefined>> {
    await supervisor.stop(agentId, { deadlineMs: stopDeadlineMs })
    const connected = await options.connect(agentId)
    return connected.ok ? ok(undefined) : connected
  }

  /** Every failure this service returns is redacted too (an agent's stderr tail can hold what it printed). */
  const redactFailure = (failure: Failure): Failure => ({
    ...failure,
    message: secrets.redactText(failure.message),
    ...(failure.stderrTail !== undefined ? { stderrTail: secrets.redactText(failure.stderrTail) } : {}),
    // An agent's error details are its own words too (a login that fails may quote the key it was given).
    ...(failure.data !== undefined ? { data: secrets.redactDeep(failure.data) } : {}),
  })
  const guard = async <T>(fn: () => Promise<Result<T>> | Result<T>): Promise<Result<T>> => {
    try {
      const result = await fn()
      return result.ok ? result : fail(redactFailure(result.error))
    } catch (error) {
      log.error('call failed', error)
      return fail(redactFailure(toFailure(error)))
    }
  }

  /**
   * Stores `value` in the keychain as the agent's secret env under each of `names` (listing them in its definition),
   * then restarts the agent with it.
   */
  async function storeKeyAndRestart(agentId: string, names: readonly string[], value: string): Promise<Result<{ restarted: true }>> {
    const def = config.definitions.get(agentId)
    if (!def) return notFound(agentId)
    const status = await config.secrets.status()
    if (!status.available) return fail({ kind: 'keychain-unavailable', message: status.message })
    // Known before it is stored, so nothing that follows (restart, stderr, inspector) can show it.
    secrets.add(agentId, value)
    for (const name of names) {
      const stored = await config.secrets.set(agentId, name, value)
      if (!stored.ok) return stored
    }
    const added = names.filter((name) => !def.secretEnv.includes(name))
    if (added.length > 0) {
      const saved = await config.definitions.save({ ...def, secretEnv: [...def.secretEnv, ...added] })
      if (!saved.ok) return saved
    } else {
      // The same names, set now: the Agents screen's "not set" and the sign-in's "With a key" hear of it.
      config.secretsChanged(agentId)
    }
    const restarted = await restartAgent(agentId)
    return restarted.ok ? ok({ restarted: true }) : restarted
  }

  async function loginWithEnvVar(agentId: string, method: AuthMethodSummary, value: string | undefined): Promise<Result<{ restarted: boolean }>> {
    const name = envVarOf(method)
    if (!name) return fail({ kind: 'invalid-argument', message: `${method.name} does not say which environment variable to set.` })
    if (!value) return fail({ kind: 'invalid-argument', message: `Enter the value of ${name}.` })
    return storeKeyAndRestart(agentId, [name], value)
  }

  const rememberNamedKeys = (agentId: string, data: unknown) => {
    const named = keyNamesOf(data)
    if (named.length === 0) return
    const known = (namedKeys.get(agentId) ?? []).filter((n) => !named.includes(n))
    namedKeys.set(agentId, [...known, ...named].slice(-MAX_NAMED_KEYS))
  }
  const mayStoreKey = (agentId: string, name: string): boolean =>
    ENV_NAME_PATTERN.test(name) && (config.definitions.get(agentId)?.secretEnv.includes(name) === true || namedKeys.get(agentId)?.includes(name) === true)
  /** A non-empty value of `name` in Bosun's own environment (own properties only). */
  const environmentValue = (name: string): string | undefined => {
    const env = options.environment ?? process.env
    const value = Object.hasOwn(env, name) ? env[name] : undefined
    return typeof value === 'string' && value.trim() !== '' && value.length <= 65536 ? value : undefined
  }
  const keyRefused = (name: string) =>
    fail({ kind: 'invalid-argument', message: `${name} is neither one of this agent's keys nor a key it asked for, so Bosun does not set it.` })

  /**
   * The names the agent's login `methodId` reads its key from, when its last key went there (this run or an earlier
   * one) and is still stored: the keychain is the truth of what the agent has in its environment. Empty otherwise.
   */
  async function keysThroughEnv(agentId: string, methodId: string): Promise<string[]> {
    const remembered = await keyLogins.get(agentId)
    const names = remembered?.methodId === methodId ? remembered.names.filter((name) => mayStoreKey(agentId, name)) : []
    for (const name of names) {
      const stored = await config.secrets.has(agentId, name)
      if (stored.ok && stored.value) return names
    }
    return []
  }

  /** The key stored under `names` and the agent restarted with it, then the login again on its new connection. */
  async function storeRestartAndLogin(agentId: string, methodId: string, names: readonly string[], value: string): Promise<Result<{ restarted: boolean }>> {
    const restarted = await storeKeyAndRestart(agentId, names, value)
    if (!restarted.ok) return restarted
    const again = await findMethod(agentId, methodId)
    if (!again.ok) return again
    const login = await loginWithAgent(agentId, again.value.connection, again.value.method)
    return login.ok ? ok({ restarted: true }) : login
  }

  /**
   * `authenticate` / `auth/login` with an agent-driven method; a failure that names key variables is remembered.
   * `meta`: the request's `_meta` (a key in `"api-key"`, a gateway in `"gateway"`).
   */
  async function loginWithAgent(agentId: string, connection: AcpClientConnection, method: AuthMethodSummary, meta?: Record<string, unknown>): Promise<Result<{ restarted: boolean }>> {
    try {
      await connection.authenticate(method.id, meta, loginAborts.get(agentId)?.signal)
      return ok({ restarted: false })
    } catch (error) {
      const failure = toFailure(error)
      rememberNamedKeys(agentId, failure.data)
      return fail(loginFailure(failure, method, config.definitions.get(agentId)?.command))
    }
  }

  /**
   * Logins and logouts of an agent, one at a time: a login may wait minutes on the person (a browser sign-in), and
   * a renderer that asks again and again must not pile requests up in main or on an agent that never answers. Each
   * running one has its way out: the person cancels a login that waits on a browser nobody will finish in.
   */
  const loginAborts = new Map<string, AbortController>()
  const checks = new JoinedRuns<CheckResult>(MAX_CHECKS_AT_ONCE, (max) => `${max} connection checks are already running; try again when one has finished.`)
  const oneLoginAt = async <T>(agentId: string, fn: () => Promise<Result<T>>): Promise<Result<T>> => {
    if (loginAborts.has(agentId)) {
      return fail({ kind: 'invalid-argument', message: `${config.definitions.get(agentId)?.name ?? agentId} is still busy signing in or out; wait for it to finish, or restart the agent.` })
    }
    loginAborts.set(agentId, new AbortController())
    try {
      return await guard(fn)
    } finally {
      loginAborts.delete(agentId)
    }
  }

  /** Check connection for one agent (see `checkAgentConnection`). */
  function runCheck(agentId: string): Promise<Result<CheckResult>> {
    return guard(async () => {
      const spec = await processSpec(agentId)
      if (!spec.ok) {
        if (spec.error.kind === 'not-found') return spec
        // A launch that cannot even be built (no keychain for its secrets) is a failed check, shown like one.
        return ok({
          ok: false,
          agentName: config.definitions.get(agentId)?.name ?? agentId,
          agentInfo: null,
          protocolVersion: null,
          capabilities: [],
          authMethods: [],
          error: { kind: spec.error.kind, message: spec.error.message },
          durationMs: 0,
        })
      }
      const preferred = config.definitions.get(agentId)?.protocolVersion
      let checkHost: AgentHost | undefined
      const check = checkConnection({
        onHost: (host) => {
          checkHost = host
          checkHosts.add(host)
        },
        spec: spec.value,
        createConnection: (streams) => {
          const connection = options.createConnection(streams)
          inspectors.attach(agentId, connection, 'check')
          return connection
        },
        secrets,
        logger: log.child('check'),
        ...(preferred ? { preferredProtocolVersion: preferred } : {}),
        ...(options.checkInitializeTimeoutMs ? { initializeTimeoutMs: options.checkInitializeTimeoutMs } : {}),
      })
      try {
        return ok(await check)
      } finally {
        if (checkHost) checkHosts.delete(checkHost)
      }
    })
  }

  const handlers: AgentToolsHandlers = {
    // Each check starts a process: one per agent at a time (asking again joins it), and a few agents at once.
    checkAgentConnection: ({ agentId }) => checks.run(agentId, () => runCheck(agentId)),

    listAuthMethods: ({ agentId }) =>
      guard(async () => {
        const connected = await handshakeOf(agentId)
        if (!connected.ok) return connected
        const def = config.definitions.get(agentId)
        const methods: AuthMethodView[] = loginMethods(agentId, connected.value.handshake.authMethods).map((m) => {
          const kind = loginKind(m)
          const envName = kind === 'env_var' ? envVarOf(m) : undefined
          // What the terminal will run, shown before it does: the configured program by name, and its args.
          const shown = kind === 'terminal' && def ? commandLine(programBaseName(def.command), m.wholeArgs ? (m.args ?? []) : [...def.args, ...(m.args ?? [])]) : undefined
          const leftOut = kind === 'terminal' ? droppedLoginEnv(m).map((name) => name.slice(0, 64)) : []
          return {
            id: m.id,
            name: m.name,
            ...(m.description !== undefined ? { description: m.description } : {}),
            type: m.type,
            ...(envName ? { envName } : {}),
            ...(kind === 'agent' && takesKeyInRequest(m) ? { takesKey: true as const } : {}),
            ...gatewayView(kind, m),
            ...(shown !== undefined ? { commandLine: shown.slice(0, MAX_COMMAND_LINE_CHARS) } : {}),
            ...(leftOut.length > 0 ? { envLeftOut: leftOut } : {}),
            ...(kind === 'other' ? { unsupported: true as const } : {}),
          }
        })
        const account = accounts.get(agentId)
        return ok({ methods, ...(account ? { account } : {}) })
      }),

    loginAgent: ({ agentId, methodId, value, keyName, gateway }) =>
      oneLoginAt(agentId, async () => {
        const found = await findMethod(agentId, methodId)
        if (!found.ok) return found
        const { connection, method } = found.value
        if (gateway !== undefined) {
          if (loginKind(method) !== 'agent' || !gatewayOf(method)) return fail({ kind: 'invalid-argument', message: `${method.name} does not take a gateway.` })
          if (value !== undefined || keyName !== undefined) return fail({ kind: 'invalid-argument', message: 'A gateway sign-in takes no key; put it in a header.' })
          const baseUrl = gatewayBaseUrl(gateway.baseUrl)
          if (!baseUrl.ok) return baseUrl
          // Known before they are sent, so the inspector, the log and the agent's errors show them redacted.
          for (const header of gateway.headers ?? []) for (const secret of headerSecrets(header.value)) secrets.add(agentId, secret)
          const headers = Object.fromEntries((gateway.headers ?? []).map((h) => [h.name, h.value]))
          return loginWithAgent(agentId, connection, method, { gateway: { baseUrl: baseUrl.value, ...(Object.keys(headers).length > 0 ? { headers } : {}) } })
        }
        switch (loginKind(method)) {
          case 'terminal':
            // D2/D3: a terminal method is never sent to authenticate / auth/login.
            return fail({ kind: 'invalid-argument', message: `${method.name} signs in through a terminal; open its terminal to sign in.` })
          case 'env_var':
            return loginWithEnvVar(agentId, method, value)
          case 'agent': {
            if (keyName === undefined && value !== undefined) {
              if (!takesKeyInRequest(method)) return fail({ kind: 'invalid-argument', message: `${method.name} does not take a key when it signs in.` })
              // It took the last key from its environment: this one goes there too. Sent in the request, it would be
              // passed over for the one stored before, and the login would succeed with that.
              const throughEnv = await keysThroughEnv(agentId, methodId)
              if (throughEnv.length > 0) return storeRestartAndLogin(agentId, methodId, throughEnv, value)
              // Known before it is sent, so the inspector, the log and the agent's errors show it redacted.
              secrets.add(agentId, value)
              const login = await loginWithAgent(agentId, connection, method, { 'api-key': value })
              if (login.ok) return login
              // The agent reads the key from its environment instead, and said where (codex-acp names CODEX_API_KEY
              // and OPENAI_API_KEY, either of which it reads): the key the person gave goes there, for this agent only.
              const named = keyNamesOf(login.error.data).filter((name) => mayStoreKey(agentId, name))
              if (named.length === 0) return login
              const defined = (id: string) => config.definitions.get(id) !== undefined
              await keyLogins.remember(agentId, methodId, named, defined).catch((error: unknown) => log.warn(`could not remember where ${agentId} reads its key`, error))
              return storeRestartAndLogin(agentId, methodId, named, value)
            }
            if (keyName === undefined) return loginWithAgent(agentId, connection, method)
            if (!value) return fail({ kind: 'invalid-argument', message: `Enter the value of ${keyName}.` })
            if (!mayStoreKey(agentId, keyName)) return keyRefused(keyName)
            return storeRestartAndLogin(agentId, methodId, [keyName], value)
          }
          default:
            return fail({ kind: 'invalid-argument', message: `Bosun does not know how to use the sign-in method ${method.name} (type ${method.type}).` })
        }
      }),

    saveAgentKey: ({ agentId, name, value }) =>
      guard(async () => {
        if (!config.definitions.get(agentId)) return notFound(agentId)
        if (!mayStoreKey(agentId, name)) return keyRefused(name)
        return storeKeyAndRestart(agentId, [name], value)
      }),

    listEnvironmentKeys: ({ agentId }) =>
      guard(() => {
        const def = config.definitions.get(agentId)
        if (!def) return notFound(agentId)
        // Only the names the person confirmed for this agent: an agent that names another variable in a failed
        // login must not be able to get its value out of Bosun's environment.
        return ok({ names: def.secretEnv.filter((name) => ENV_NAME_PATTERN.test(name) && environmentValue(name) !== undefined) })
      }),

    useEnvironmentKey: ({ agentId, name }) =>
      guard(async () => {
        const def = config.definitions.get(agentId)
        if (!def) return notFound(agentId)
        if (!def.secretEnv.includes(name) || !ENV_NAME_PATTERN.test(name)) {
          return fail({ kind: 'invalid-argument', message: `${name} is not one of this agent's keys, so Bosun does not give it a value from its environment.` })
        }
        const value = environmentValue(name)
        if (value === undefined) return fail({ kind: 'not-found', message: `${name} is not set in Bosun's environment.` })
        log.info(`${agentId}: ${name} taken from Bosun's environment into the keychain`)
        return storeKeyAndRestart(agentId, [name], value)
      }),

    startAuthTerminal: ({ agentId, methodId }) =>
      guard(async () => {
        const found = await findMethod(agentId, methodId)
        if (!found.ok) return found
        const { method } = found.value
        if (method.type !== 'terminal') return fail({ kind: 'invalid-argument', message: `${method.name} is not a terminal sign-in.` })
        // J8: the program comes from our own configuration; the agent only adds args and env.
        const launch = await processSpec(agentId)
        const spec = launch.ok ? await withOwnProgram(launch.value) : launch
        if (!spec.ok) return spec
        const leftOut = droppedLoginEnv(method)
        if (leftOut.length > 0) log.warn(`terminal login of ${agentId}: its env's ${leftOut.map((n) => JSON.stringify(n.slice(0, 64))).join(', ')} left out`)
        return terminals.start(agentId, terminalSpec(spec.value, method), (_exit, succeeded) => {
          if (!succeeded || disposed) return
          void restartAgent(agentId).then((restarted) => {
            if (!restarted.ok) log.warn(`restart after the terminal login failed: ${secrets.redactText(restarted.error.message)}`)
          })
        })
      }),

    authTerminalInput: ({ terminalId, data }) => guard(() => terminals.input(terminalId, data)),

    closeAuthTerminal: ({ terminalId }) =>
      guard(async () => {
        await terminals.close(terminalId)
        return ok(undefined)
      }),

    cancelAgentLogin: ({ agentId }) =>
      guard(() => {
        // The agent is asked to withdraw it (`$/cancel_request`); Bosun stops waiting either way.
        loginAborts.get(agentId)?.abort()
        return ok(undefined)
      }),

    logoutAgent: ({ agentId }) =>
      oneLoginAt(agentId, async () => {
        const connected = await handshakeOf(agentId)
        if (!connected.ok) return connected
        // D4/D5: only when the agent says it supports logout.
        if (!connected.value.handshake.capabilities.logout) {
          return fail({ kind: 'invalid-argument', message: 'This agent does not support signing out.' })
        }
        try {
          await connected.value.connection.logout()
          return ok(undefined)
        } catch (error) {
          return fail(toFailure(error))
        }
      }),

    getAgentLog: ({ agentId, maxBytes }) =>
      guard(async () => {
        if (!config.definitions.get(agentId)) return notFound(agentId)
        const host = supervisor.get(agentId)
        if (host) {
          learnSecrets(agentId, host.spec.env)
          await host.flushLog()
        } else {
          // Not started in this run: its secrets (for redaction) come from the keychain (reading a log starts nothing).
          const values = await config.secretValues(agentId)
          if (values.ok) learnSecrets(agentId, values.value)
        }
        const tail = await readLogTail(options.logFile(agentId), maxBytes ?? DEFAULT_LOG_BYTES, secrets)
        // A log that stopped says so where the person reads it, with what to do (its file may read well enough).
        const stopped = host?.logStopped
        if (stopped === undefined) return ok(tail)
        return ok({ ...tail, text: `${tail.text}${tail.text === '' || tail.text.endsWith('\n') ? '' : '\n'}[bosun] ${secrets.redactText(stopped)}\n` })
      }),

    listInspectorMessages: ({ agentId, method, sessionId, limit }) =>
      guard(() => {
        if (!config.definitions.get(agentId)) return notFound(agentId)
        const inspector = inspectors.inspector(agentId)
        const filter = {
          ...(method !== undefined ? { method } : {}),
          ...(sessionId !== undefined ? { sessionId } : {}),
          ...(limit !== undefined ? { limit } : {}),
        }
        return ok({ messages: inspector.list(filter), dropped: inspector.dropped })
      }),

    exportInspector: ({ agentId }) =>
      guard(() => {
        if (!config.definitions.get(agentId)) return notFound(agentId)
        const messages = inspectors.inspector(agentId).list()
        const stamp = new Date().toISOString().replace(/[:.]/g, '-')
        const safeId = agentId.replace(/[^A-Za-z0-9._-]/g, '_')
        return ok({
          fileName: `bosun-inspector-${safeId}-${stamp}.jsonl`,
          content: messages.map((m) => JSON.stringify(m)).join('\n') + (messages.length > 0 ? '\n' : ''),
        })
      }),

    clearInspector: ({ agentId }) =>
      guard(() => {
        if (!config.definitions.get(agentId)) return notFound(agentId)
        inspectors.inspector(agentId).clear()
        return ok(undefined)
      }),
    watchInspector: ({ agentId, watching }, client = MAIN_CLIENT) =>
      guard(() => {
        // Only a defined agent is watched (what a page watches stays as small as the list of agents); any is let go.
        if (watching && !config.definitions.get(agentId)) return notFound(agentId)
        if (watching) watchInspector(client, agentId)
        else unwatchInspector(client, agentId)
        return ok(undefined)
      }),
  }

  return {
    handlers,
    secrets,
    redactFailure,
    redactView: (view) => (view.error ? { ...view, error: redactFailure(view.error as Failure) } : view),
    attachConnection: (agentId, connection) => {
      const host = supervisor.get(agentId)
      if (host) learnSecrets(agentId, host.spec.env)
      const inspected = inspectors.attach(agentId, connection)
      const accountUpdates = connection.handlers.registerNotification(AUTH_STATUS_UPDATE, (params) => {
        const account = readAuthStatus(params)
        if (!account || disposed) return
        const redacted = { ...account, label: secrets.redactText(account.label), ...(account.detail ? { detail: secrets.redactText(account.detail) } : {}) }
        const previous = accounts.get(agentId)
        accounts.set(agentId, redacted)
        if (previous && JSON.stringify(previous) === JSON.stringify(redacted)) return
        // At most one event per agent per interval, the latest: an agent that floods these cannot flood the renderer.
        if (accountTimers.has(agentId)) return
        events.emit('agentAccount', { agentId, account: redacted })
        accountTimers.set(
          agentId,
          scheduler.setTimeout(() => {
            accountTimers.delete(agentId)
            const latest = accounts.get(agentId)
            if (latest && latest !== redacted && !disposed) events.emit('agentAccount', { agentId, account: latest })
          }, ACCOUNT_EVENT_INTERVAL_MS),
        )
      })
      return toDisposable(() => {
        accountUpdates.dispose()
        inspected.dispose()
      })
    },
    flush() {
      inspectors.flush()
      for (const stream of logStreams.values()) stream.flush(true)
    },
    dispose() {
      disposed = true
      for (const stream of logStreams.values()) stream.dispose()
      logStreams.clear()
      for (const host of checkHosts) host.dispose()
      checkHosts.clear()
      for (const timer of accountTimers.values()) timer.dispose()
      accountTimers.clear()
      store.dispose()
    },
  }
}
