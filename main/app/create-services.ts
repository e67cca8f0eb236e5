/**
 * The composition root: wires agents (supervisor + ACP connections), sessions, permissions, elicitation
 * and agent settings into one {@link CallHandlers} object. Both hosts (Electron shell, browser host) call
 * {@link createBosunServices}; only their transport and OS integration differ.
 */
import { join } from 'node:path'
import { createAcpConnection } from '../acp/connection'
import type { AcpClientConnection } from '../acp/types'
import { createAgentToolsService, loginKind, type AgentToolsService } from '../agents-tools/service'
import type { AcpConnectionFactory } from '../agents/agent-host'
import { ProtocolVersionMemory } from '../agents/protocol-hints'
import { AgentSupervisor } from '../agents/supervisor'
import { BosunError, fail, ok, stoppedByBosun, toFailure, type Result } from '../base/errors'
import { acquireHomeLock } from '../config/home-lock'
import { openProcessRecords } from '../agents/process-records'
import { DisposableStore } from '../base/lifecycle'
import { createLogger } from '../base/log'
import { createAgentConfigService } from '../config/agent-config-service'
import type { ElicitationBroker } from '../elicitation/broker'
import { createElicitationService } from '../elicitation/service'
import { FileSystemHandlers, READS_MISSING_FILES_AS_EMPTY } from '../fs/file-system-handlers'
import { createClientCapsService } from '../fs/service'
import { checkAddedFolders } from '../fs/folders'
import { createLocationsService, locationPathsOf } from '../locations/service'
import { createMcpService } from '../mcp/service'
import { TerminalHandlers } from '../terminals/terminal-handlers'
import { AgentTerminals } from '../terminals/agent-terminals'
import { AgentToolCalls } from '../tool-calls/agent-tool-calls'
import { createPermissionsService } from '../permissions/service'
import { cutText } from '../../common/bounded'
import { confirmUnattendedMode, unattendedChoice, unattendedDefault, unattendedMode, type UnattendedChoice } from '../trust/unattended-mode'
import { createRegistryService } from '../registry/registry-service'
import { SessionsService, type AgentPort } from '../sessions/sessions-service'
import { sessionRequestAdmission } from '../sessions/request-admission'
import { createHistoryService } from '../history/service'
import { openHistoryStore } from '../history/worker-history-store'
import { RESCUE_FOLDER } from '../history/rescue'
import { CLOSED_MESSAGE } from '../history/restore'
import { turnFailed } from '../../common/session/turn-stop'
import { ownerConfirmation, recordConfirmations, refuseAllConfirmation, serializeConfirmations } from '../trust/confirmation'
import type { CallHandlers } from '../../common/contract'
import type { AgentRuntimeView, SessionState, ToolCallEntry } from '../../common/session/types'
import { derivedTitle } from '../../common/session/title'
import type { BosunServices, HostIntegration } from './services'
import { bosunNotice } from '../../common/session/stop-watchdog'

/** Quit and agent-removal deadline for graceful stops (then SIGKILL). */
const STOP_DEADLINE_MS = 3_000

/**
 * The elicitation modes Bosun advertises in `initialize` (C5: `{form:{}, url:{}}`). The one source: the
 * connection sends it, and the broker refuses every mode it does not list with -32602 (G11).
 */
const ELICITATION_MODES = { form: true, url: true } as const

/** The client capabilities Bosun serves (C3, C4); each has its handlers attached to every connection below. */
const CLIENT_CAPABILITIES = { fs: { readTextFile: true, writeTextFile: true }, terminal: true, authTerminal: true } as const

export async function createBosunServices(integration: HostIntegration): Promise<BosunServices> {
  try {
    return await startBosunServices(integration)
  } catch (error) {
    // A history thread started ahead for this start ends with it (another Bosun holds the home, a file is unreadable).
    integration.historyThread?.dispose()
    throw error
  }
}

async function startBosunServices(integration: HostIntegration): Promise<BosunServices> {
  const log = createLogger('bosun')
  const store = new DisposableStore()
  const { events, home } = integration

  // One Bosun per home: a second one would write back its own copies of the files over the first one's.
  const lock = await acquireHomeLock(home, integration.host)
  if (!lock.ok) throw new BosunError(lock.error)
  if (lock.value.unlocked) log.warn(`running without a lock: ${lock.value.unlocked}`)
  // What a previous run on this home left running (it died without stopping its agents) is reaped now.
  const processes = openProcessRecords(home, log.child('processes'))

  // Every decision that widens what can run or open is confirmed here, by main, one at a time, and recorded.
  const hostConfirmation =
    integration.confirmation ?? (integration.host === 'web' ? ownerConfirmation(log.child('trust')) : refuseAllConfirmation(log.child('trust')))
  const confirmation = recordConfirmations(serializeConfirmations(hostConfirmation), { home, host: integration.host, log: log.child('trust') })

  const config = await createAgentConfigService({ home, events, logger: log.child('config'), confirmation, ...(integration.secretStore ? { secretStore: integration.secretStore } : {}) })
  store.add({ dispose: () => config.dispose() })
  // No double start: known v1 agents and command lines that settled on a version are offered it first.
  const protocolMemory = new ProtocolVersionMemory(home)
  await protocolMemory.load()
  const registry = store.add(createRegistryService({ home, config, events, confirmation, logger: log.child('registry') }))

  const createConnection: AcpConnectionFactory = ({ agentId, input, output, logger }) => {
    const connection: AcpClientConnection = createAcpConnection({
      input,
      output,
      logger,
      clientInfo: { name: 'Bosun', version: integration.appVersion },
      elicitation: ELICITATION_MODES,
      // Previews of bad lines reach the console: a key the agent printed is hidden first.
      redact: (text) => agentTools.current?.secrets.redactText(text) ?? text,
      clientCapabilities: CLIENT_CAPABILITIES,
      // An agent that lists no auth methods but wants a key its definition names: the sign-in dialog asks for it.
      signInByKeys: () => (config.definitions.get(agentId)?.secretEnv.length ?? 0) > 0,
      // A method of a kind Bosun does not know (a v2 one without a type) is no way to sign in.
      runsAuthMethod: (method) => loginKind(method) !== 'other',
      ...(integration.limits?.maxQueuedBytes !== undefined ? { maxQueuedBytes: integration.limits.maxQueuedBytes } : {}),
      ...(integration.limits?.writeStallMs !== undefined ? { writeStallMs: integration.limits.writeStallMs } : {}),
      ...(integration.limits?.inputStallMs !== undefined ? { inputStallMs: integration.limits.inputStallMs } : {}),
      ...(integration.limits?.maxRequestsInFlight !== undefined ? { maxRequestsInFlight: integration.limits.maxRequestsInFlight } : {}),
      // A request naming a session serves only a session of this very process (G7); one it names before Bosun knows it waits.
      admitRequest: sessionRequestAdmission({ sessionForRequest: (...args) => sessions.sessionForRequest(...args) }, agentId, () => connection),
    })
    return connection
  }
  // Late-bound: the agent tools need the supervisor, and record every connection from its creation (the handshake too).
  const agentTools: { current?: AgentToolsService } = {}
  // Late-bound too: elicitations are answered from a connection's creation, so an agent may ask while
  // `initialize` is pending (a request-scoped elicitation, G12). The modes checked are the ones advertised.
  const brokers: { elicitation?: ElicitationBroker } = {}
  const supervisor = new AgentSupervisor({
    createConnection: (streams) => {
      const connection = createConnection(streams)
      agentTools.current?.attachConnection(streams.agentId, connection)
      brokers.elicitation?.attach(connection, {
        agentId: streams.agentId,
        agentName: agentName(streams.agentId),
        advertised: ELICITATION_MODES,
        isRequestPending: (id) => connection.isRequestPending(id),
        onDidSettleRequest: connection.onDidSettleRequest,
      })
      return connection
    },
    logger: createLogger('agent'),
    preferredProtocolVersion: (agentId) => {
      const def = config.definitions.get(agentId)
      return def ? protocolMemory.preferred(def) : undefined
    },
    // Secret values an agent prints on stderr never reach its log file.
    redactLog: (text) => agentTools.current?.secrets.redactText(text) ?? text,
    processRecords: processes,
  })

  const agentLogFile = (agentId: string) => join(home, 'logs', 'agents', `${agentId}.log`)
  const agentName = (agentId: string) => config.definitions.get(agentId)?.name ?? agentId

  const agents: AgentPort = {
    async connect(agentId) {
      const host = supervisor.get(agentId)
      // The keys the running process started without (no keychain then), for its new sessions to say so.
      const withoutKeys = () => {
        const missing = supervisor.get(agentId)?.spec.withoutKeys
        return missing ? { withoutKeys: missing } : {}
      }
      if (host?.status === 'ready' && host.connection && host.handshake) {
        return ok({ connection: host.connection, protocolVersion: host.handshake.protocolVersion, ...withoutKeys() })
      }
      const launch = await config.launchSpec(agentId)
      if (!launch.ok) return launch
      const connected = await supervisor.ensureConnected(agentId, {
        agentId,
        name: agentName(agentId),
        ...launch.value,
        logFile: agentLogFile(agentId),
      })
      return connected.ok ? ok({ ...connected.value, ...withoutKeys() }) : connected
    },
    running(agentId) {
      const host = supervisor.get(agentId)
      return host?.status === 'ready' && host.handshake ? host.connection : undefined
    },
  }

  // Durable history (history.sqlite in the home): what the sessions apply is written off the hot path.
  const opened = openHistoryStore(home, integration.historyThread ? { started: integration.historyThread } : {})
  if (opened.problem) log.warn(opened.problem)
  const history = createHistoryService({
    store: opened.store,
    events,
    logger: log.child('history'),
    openProblem: opened.problem,
    ...(integration.saveFile ? { saveFile: integration.saveFile } : {}),
    redactFailure: (failure) => agentTools.current?.redactFailure(failure) ?? failure,
    redactText: (text) => agentTools.current?.secrets.redactText(text) ?? text,
    agentName: (agentId) => agentName(agentId),
    rescueDir: join(home, RESCUE_FOLDER),
  })
  const mcp = await createMcpService({
    home,
    secrets: config.secrets,
    log: log.child('mcp'),
    confirmation,
    agentIds: () => config.definitions.list().map((d) => d.id),
    handshake: (agentId) => {
      const handshake = supervisor.get(agentId)?.handshake
      return handshake ? { protocolVersion: handshake.protocolVersion, mcp: handshake.capabilities.mcp } : undefined
    },
    // MCP secret values are hidden everywhere agent secrets are (inspector, logs, transcript, errors).
    secretValues: { add: (owner, value) => agentTools.current?.secrets.add(owner, value), forget: (owner) => agentTools.current?.secrets.set(owner, []) },
  })
  // A removed agent leaves the MCP servers chosen for it (a new agent reusing its id starts with none).
  store.add(
    config.definitions.onDidChange((change) => {
      if (change.removed && change.changedId) void mcp.agentRemoved(change.changedId).catch((error: unknown) => log.warn('could not update the MCP servers', error))
    }),
  )
  // A key an agent prints (a tool's output, an error) is hidden before the transcript keeps or shows it.
  const sessions = store.add(
    new SessionsService(agents, events, log.child('sessions'), {
      redact: (actions) => agentTools.current?.secrets.redactDeep(actions) ?? actions,
      history: history.hooks,
      ...(integration.limits?.sessionCallTimeoutMs !== undefined ? { sessionCallTimeoutMs: integration.limits.sessionCallTimeoutMs } : {}),
      ...(integration.limits?.stopWatchdogMs !== undefined ? { stopWatchdogMs: integration.limits.stopWatchdogMs } : {}),
      ...(integration.limits?.maxSessionBytes !== undefined ? { maxSessionBytes: integration.limits.maxSessionBytes } : {}),
      ...(integration.limits?.maxTotalSessionBytes !== undefined ? { maxTotalSessionBytes: integration.limits.maxTotalSessionBytes } : {}),
      // A key split across two message chunks is held back until it is whole, then redacted.
      streamHold: (text) => agentTools.current?.secrets.pendingPrefixLength(text) ?? 0,
      // MCP servers on session/new and on reattach (load/resume), as far as the agent takes them (E2).
      mcpServers: (agentId, connection) => {
        const handshake = connection.handshake
        return handshake ? mcp.forAgent(agentId, handshake.protocolVersion, handshake.capabilities.mcp) : Promise.resolve({ servers: [], refused: [] })
      },
    }),
  )
  history.bind(sessions)
  const sink = (sessionId: string, action: Parameters<SessionsService['push']>[1]) => sessions.push(sessionId, action)
  const findToolCall = (sessionId: string, toolCallId: string): ToolCallEntry | undefined => {
    const state = sessions.state(sessionId)
    return state?.entries.find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.toolCallId === toolCallId)
  }

  // Secret values an agent echoes into a request never reach the pending list, audit file or notifications.
  const redact = <T>(value: T): T => agentTools.current?.secrets.redactDeep(value) ?? value
  // Who asks, as a permission's or a form's notification names it.
  const describeSession = (sessionId: string) => {
    const state = sessions.state(sessionId)
    return state ? { agentName: agentName(state.agentId), cwd: state.cwd, title: derivedTitle(state) } : undefined
  }
  const permissions = await createPermissionsService({
    home,
    sink,
    redact,
    events,
    confirmation,
    describeSession,
    ...(integration.notifier ? { notifier: integration.notifier } : {}),
    ...(integration.isWindowFocused ? { isWindowFocused: integration.isWindowFocused } : {}),
    focusRequest: (requestId) => events.emit('focusRequest', { requestId }),
    // A "turn ended" notification click (Electron; the browser page opens the session from `notify` itself).
    focusSession: (sessionId) => events.emit('focusSession', { sessionId }),
    sessions: {
      getSession: (agentId, acpSessionId) => {
        const sessionId = sessions.resolve(agentId, acpSessionId)
        const state = sessionId !== undefined ? sessions.state(sessionId) : undefined
        return sessionId !== undefined && state ? { cwd: state.cwd, sessionId } : undefined
      },
      lookupToolCall: (sessionId, toolCallId) => {
        const entry = findToolCall(sessionId, toolCallId)
        return entry ? { title: entry.title, toolKind: entry.toolKind, rawInput: entry.rawInput, locations: entry.locations, content: entry.content, name: entry.name, _meta: entry._meta } : undefined
      },
      getBackground: (sessionId) => sessions.state(sessionId)?.turn.background ?? null,
      isStopping: (sessionId) => {
        const turn = sessions.state(sessionId)?.turn
        return turn !== undefined && turn.state !== 'idle' && turn.stopRequested === true
      },
    },
  })
  store.add(permissions)

  const toastBudget = rateLimit(5, 10_000)
  const elicitation = createElicitationService({
    sink,
    ...(integration.openExternal ? { openExternal: integration.openExternal } : {}),
    onArrived: ({ sessionId, ...info }) =>
      permissions.attention.requestArrived({ ...info, kind: 'elicitation', sessionTitle: (sessionId !== null ? describeSession(sessionId)?.title : null) ?? null }),
    onResolved: (requestId) => permissions.attention.requestResolved(requestId),
    // A request Bosun cannot show (schema outside the subset…): tell the person, in the session or (before any session) as a toast.
    onRefused: ({ sessionId, agentName: name, message }) => {
      const title = `${name} asked for input Bosun cannot show`
      if (sessionId) sessions.push(sessionId, { type: 'updates', updates: [bosunNotice('warning', title, message)] })
      else {
        log.warn(`refused a request-scoped elicitation from ${name}: ${message}`)
        // Toasts are rate-limited: a flood of refused requests must not bury the page.
        if (toastBudget.take()) events.emit('appNotice', { severity: 'warning', title: title.slice(0, 512), description: message.slice(0, 4096) })
      }
    },
    events,
    resolveSession: (agentId, acpSessionId) => sessions.resolve(agentId, acpSessionId),
    sessionState: (sessionId) => sessions.state(sessionId),
    getBackground: (sessionId) => sessions.state(sessionId)?.turn.background ?? null,
    log: log.child('elicitation'),
    redact,
  })
  store.add({ dispose: () => elicitation.dispose() })
  brokers.elicitation = elicitation.broker

  const tools = createAgentToolsService({
    events,
    config,
    supervisor,
    connect: (agentId) => agents.connect(agentId),
    createConnection,
    logFile: agentLogFile,
    logger: log.child('agent-tools'),
    keyLoginsFile: join(home, 'login-keys.json'),
  })
  agentTools.current = tools
  store.add(tools)

  // Files and terminals of agents stay inside the session's folders: its working folder and those the person added.
  const rootsOf = (state: SessionState) => [state.cwd, ...(state.additionalDirectories ?? [])]
  const sessionRoots = (agentId: string, acpSessionId: string) => {
    const sessionId = sessions.resolve(agentId, acpSessionId)
    const state = sessionId !== undefined ? sessions.state(sessionId) : undefined
    return sessionId !== undefined && state ? { sessionId, cwd: state.cwd, roots: rootsOf(state) } : undefined
  }
  const files = new FileSystemHandlers({
    sessions: {
      getSession: sessionRoots,
      toolCalls: (sessionId) => sessions.state(sessionId)?.entries.filter((e): e is ToolCallEntry => e.kind === 'tool_call') ?? [],
    },
    sink,
    log: log.child('fs'),
  })

  const clientCaps = createClientCapsService({
    session: (sessionId) => {
      const state = sessions.state(sessionId)
      return state ? { agentId: state.agentId, cwd: state.cwd, roots: rootsOf(state) } : undefined
    },
    promptCapabilities: async (agentId) => {
      const connected = await agents.connect(agentId)
      if (!connected.ok) return connected
      return ok(connected.value.connection.handshake?.capabilities.prompt ?? { image: false, audio: false, embeddedContext: false })
    },
    agentName,
  })
  // A tool call's file opens in the person's editor only through main's checks (the browser host has no openPath).
  const locations = createLocationsService({
    session: (sessionId) => {
      const state = sessions.state(sessionId)
      return state ? { roots: rootsOf(state), locationPaths: () => locationPathsOf(state.entries) } : undefined
    },
    openPath: integration.openPath,
    log: log.child('locations'),
  })
  const terminalSession = (agentId: string, acpSessionId: string) => {
    const session = sessionRoots(agentId, acpSessionId)
    const cannotContinue = session && sessions.state(session.sessionId)?.cannotContinue?.reason
    return session && cannotContinue !== undefined ? { ...session, cannotContinue } : session
  }
  const terminals = store.add(new TerminalHandlers({ sessions: { getSession: terminalSession }, sink, log: log.child('terminals') }))
  // v2 agent-owned terminals: main decides whether `terminal/cancel` may be sent (E16).
  const agentTerminals = store.add(new AgentTerminals(sessions, log.child('agent-terminals')))
  // v2 tool calls the agent lets the person stop: main decides whether `tool_call/cancel` may be sent (E15).
  const agentToolCalls = store.add(new AgentToolCalls(sessions, log.child('agent-tool-calls')))

  // Each is told when a session closes too, whichever way it closes (the brokers' own `closeSession`).
  sessions.addCancellationListener(permissions.broker)
  sessions.addCancellationListener({ cancelSession: (sessionId) => terminals.cancelSession(sessionId), closeSession: (sessionId) => terminals.releaseSession(sessionId) })
  sessions.addCancellationListener(elicitation.broker)

  // Every new connection of an agent: route its updates and answer its requests. The scope ends with it.
  // (The elicitation broker is attached earlier, when the connection is created.)
  store.add(
    supervisor.onDidConnect(({ agentId, connection }) => {
      const scope = new DisposableStore()
      const info = { agentId, agentName: agentName(agentId), protocolVersion: connection.handshake?.protocolVersion ?? 1 }
      scope.add(sessions.attachConnection(agentId, connection))
      scope.add(permissions.broker.attach(connection, info))
      // `fs/*` and `terminal/*` are v1's client methods, offered in v1's clientCapabilities; v2 has neither (its
      // agents run their own terminals): a v2 agent that asks anyway gets "method not found", and no file or process.
      if (info.protocolVersion === 1) {
        const agentInfoName = connection.handshake?.agentInfo?.name
        scope.add(files.attach(connection, { ...info, missingFileReadsEmpty: agentInfoName !== undefined && READS_MISSING_FILES_AS_EMPTY.has(agentInfoName) }))
        // The agent's commands carry its run's tag: what they start outside their process group goes with the agent.
        scope.add(terminals.attach(connection, { ...info, runTag: supervisor.get(agentId)?.runTag }))
      }
      // Once what the agent wrote before its output ended is handled (updates, requests): they still reach their session.
      const closed = connection.onDidClose(() => {
        closed.dispose()
        void (connection.whenOutputRead?.() ?? Promise.resolve()).then(() => scope.dispose())
      })
    }),
  )
  store.add(
    supervisor.onDidDisconnect(({ agentId, error }) => {
      sessions.agentDisconnected(agentId, error.failure, stoppedByBosun(error))
      permissions.broker.detach(agentId, error.failure.message)
      elicitation.broker.agentGone(agentId)
      terminals.releaseAgent(agentId)
    }),
  )
  // A running agent whose definition was saved since it started runs the earlier one until it restarts: its view says so.
  // So does one whose key was changed (a wrong key corrected): it runs with the earlier value until it restarts.
  // Which changes it has not taken up are named, so the page can say what a restart applies.
  const withDefinitionState = (view: AgentRuntimeView): AgentRuntimeView => {
    const running = supervisor.get(view.agentId)?.runningSpec
    const changes = running ? config.launchChanges(view.agentId, running) : undefined
    return changes !== undefined ? { ...view, definitionChanged: true, definitionChanges: changes } : view
  }
  const emitStatus = (view: AgentRuntimeView) => {
    // A removed agent's last words (its host stopping) would put it back in the window's list of agents.
    if (!config.definitions.get(view.agentId)) return
    events.emit('agentStatus', { ...tools.redactView(withDefinitionState(view)), name: agentName(view.agentId) })
  }
  store.add(supervisor.onDidChangeStatus(emitStatus))
  store.add(
    config.onDidChangeSecrets((agentId) => {
      const view = supervisor.views().find((v) => v.agentId === agentId)
      if (view && supervisor.get(agentId)?.runningSpec) emitStatus(view)
    }),
  )
  store.add(
    supervisor.onDidChangePreferredVersion(({ agentId, version }) => {
      const def = config.definitions.get(agentId)
      if (def) void protocolMemory.remember(def, version).catch((error) => log.warn('could not remember the protocol version', error))
      if (def && def.protocolVersion !== version) void config.definitions.save({ ...def, protocolVersion: version })
    }),
  )
  store.add(
    config.definitions.onDidChange(() => {
      const known = new Set(config.definitions.list().map((d) => d.id))
      for (const view of supervisor.views()) {
        if (!known.has(view.agentId)) void supervisor.remove(view.agentId, { deadlineMs: STOP_DEADLINE_MS })
        else if (supervisor.get(view.agentId)?.runningSpec) emitStatus(view)
      }
    }),
  )

  const agentViews = (): AgentRuntimeView[] => {
    const running = new Map(supervisor.views().map((v) => [v.agentId, withDefinitionState(v)]))
    return config.definitions.list().map((def) => ({
      ...(running.get(def.id) ?? { agentId: def.id, status: 'stopped' as const }),
      name: def.name,
    }))
  }

  // Failures reach the renderer: an agent's stderr tail in them may hold a key it printed (redacted like the agent tools' output).
  const guard = async <T>(fn: () => Promise<Result<T>> | Result<T>): Promise<Result<T>> => {
    try {
      const result = await fn()
      return result.ok ? result : fail(tools.redactFailure(result.error))
    } catch (error) {
      log.error('call failed', error)
      return fail(tools.redactFailure(toFailure(error)))
    }
  }

  /**
   * The agent definition's `defaultMode` / `defaultConfigOptions`, set on a new session before anyone can
   * prompt it, and only as far as the agent offers them for this session: the mode goes to the config option
   * of category "mode" when there is one (config options supersede the legacy modes; v2 has only those),
   * else to `session/set_mode` if the agent lists that mode; an option is set when the agent lists it and the
   * value fits its kind. Values already current are not sent; a refused change is told in the session.
   */
  const applySessionDefaults = async (agentId: string, sessionId: string): Promise<void> => {
    const def = config.definitions.get(agentId)
    if (!def || (def.defaultMode === undefined && def.defaultConfigOptions === undefined)) return
    const state = sessions.state(sessionId)
    if (!state) return
    const wanted = new Map<string, string | boolean>(Object.entries(def.defaultConfigOptions ?? {}))
    const modeOption = state.configOptions.find((o) => o.category === 'mode' && o.type === 'select')
    const refused = (what: string, failure: { message: string }) =>
      sessions.push(sessionId, {
        type: 'updates',
        updates: [bosunNotice('warning', `${agentName(agentId)} did not take the default ${what}`, failure.message)],
      })
    /**
     * A default whose ids said nothing when it was saved, that the session's agent names for acting without asking
     * ("mode-3", which it calls "YOLO"): the person never decided on it, so it is asked here, as the mode select asks.
     */
    const unattendedDefaultConfirmed = async (configId: string | undefined, value: string | boolean, choice: UnattendedChoice | null): Promise<boolean> => {
      if (choice === null || unattendedDefault(configId, value) !== null) return true
      if (await unattendedConfirmed(sessionId, choice)) return true
      sessions.push(sessionId, {
        type: 'updates',
        updates: [bosunNotice('info', `The default mode of ${agentName(agentId)} was not set`, `You did not confirm “${cutText(choice.name, 200)}”, so the session stays in the mode its agent chose.`)],
      })
      return false
    }
    const skipped = (what: string) => log.info(`${agentId}: the default ${what} is not one the agent offers in session ${sessionId}; left as is`)

    const mode = def.defaultMode
    if (mode !== undefined && modeOption) {
      // An explicit default for that option wins over defaultMode.
      if (!wanted.has(modeOption.id)) wanted.set(modeOption.id, mode)
    } else if (mode !== undefined) {
      if (!state.modes?.availableModes.some((m) => m.id === mode)) skipped(`mode ${mode}`)
      else if (state.modes.currentModeId !== mode && (await unattendedDefaultConfirmed(undefined, mode, unattendedMode(state.modes, mode)))) {
        const set = await sessions.setMode(sessionId, mode)
        if (!set.ok) refused(`mode “${mode}”`, set.error)
      }
    }
    for (const [configId, value] of wanted) {
      const option = sessions.state(sessionId)?.configOptions.find((o) => o.id === configId)
      const fits =
        option?.type === 'boolean' ? typeof value === 'boolean' : option?.type === 'select' && typeof value === 'string' && option.options.some((o) => o.value === value)
      if (!option || !fits) {
        skipped(`${configId} = ${String(value)}`)
        continue
      }
      // v1: a boolean value only goes to an agent that was told Bosun takes boolean options (E13), i.e. one offered v1.
      if (typeof value === 'boolean' && state.protocolVersion === 1 && supervisor.get(agentId)?.handshake?.offeredVersion !== 1) {
        log.info(`${agentId}: boolean config options were not advertised to this v1 agent; ${configId} left as is`)
        continue
      }
      if (option.currentValue === value) continue
      if (!(await unattendedDefaultConfirmed(configId, value, unattendedChoice(option, value)))) continue
      const set = await sessions.setConfigOption(sessionId, configId, value)
      if (!set.ok) refused(`${option.name} “${String(value)}”`, set.error)
    }
  }

  /** The person's answer about a mode that lets the session's agent act without asking (see unattended-mode.ts). */
  const unattendedConfirmed = (sessionId: string, choice: UnattendedChoice) => {
    const session = describeSession(sessionId)
    return confirmUnattendedMode(confirmation, choice, { agentName: session?.agentName ?? 'the agent', ...(session ? { session } : {}) })
  }
  const unattendedRefused = () => fail({ kind: 'not-confirmed', message: 'The mode stays as it was: it was not confirmed.' })

  const handlers: CallHandlers = {
    appInfo: async () =>
      ok({
        name: 'Bosun',
        version: integration.appVersion,
        host: integration.host,
        platform: process.platform,
        ...(integration.limits?.stallNoticeMs !== undefined ? { stallNoticeMs: integration.limits.stallNoticeMs } : {}),
      }),
    getSnapshot: async () => ok({ agents: agentViews(), sessions: sessions.snapshot() }),
    newSession: ({ agentId, cwd, additionalDirectories }) =>
      guard(async () => {
        // Added folders are checked before the agent starts: each must be an existing folder.
        const folders = await checkAddedFolders(additionalDirectories ?? [], cwd)
        if (!folders.ok) return folders
        const created = await sessions.newSession(agentId, cwd, { additionalDirectories: folders.value })
        if (created.ok) await applySessionDefaults(agentId, created.value.sessionId)
        return created
      }),
    prompt: ({ sessionId, prompt }) =>
      guard(async () => {
        // Content the agent did not advertise never reaches it (main decides, not the composer).
        const prepared = await clientCaps.preparePrompt(sessionId, prompt)
        if (!prepared.ok) return prepared
        const result = await sessions.prompt(sessionId, prepared.value)
        const agentId = sessions.agentOf(sessionId)
        const ended = sessions.state(sessionId)
        // A turn that ran and ended with an error (the agent crashed, its API failed), not a prompt refused outright
        // (a turn already running, a full session): that ending is told too, with the error.
        const ran = result.ok || (result.error.kind !== 'invalid-argument' && result.error.kind !== 'not-found')
        const error = ran && ended && turnFailed(ended.turn) ? (ended.turn.error?.message ?? 'The agent gave no details.') : null
        if (agentId && (result.ok || error)) {
          // "Notify when a turn ends" (off by default; only when the window is not in front).
          permissions.attention.turnEnded({
            sessionId,
            agentName: agentName(agentId),
            sessionTitle: ended ? derivedTitle(ended) : null,
            stopReason: result.ok ? result.value.stopReason : null,
            error,
          })
        }
        return result
      }),
    cancel: ({ sessionId }) => guard(() => sessions.cancel(sessionId)),
    setMode: ({ sessionId, modeId }) =>
      guard(async () => {
        const unattended = unattendedMode(sessions.state(sessionId)?.modes, modeId)
        if (unattended !== null && !(await unattendedConfirmed(sessionId, unattended))) return unattendedRefused()
        return sessions.setMode(sessionId, modeId)
      }),
    setModel: ({ sessionId, modelId }) => guard(() => sessions.setModel(sessionId, modelId)),
    setConfigOption: ({ sessionId, configId, value }) =>
      guard(async () => {
        const option = sessions.state(sessionId)?.configOptions.find((o) => o.id === configId)
        const unattended = option ? unattendedChoice(option, value) : null
        if (unattended !== null && !(await unattendedConfirmed(sessionId, unattended))) return unattendedRefused()
        return sessions.setConfigOption(sessionId, configId, value)
      }),
    dismissNotice: ({ sessionId, noticeId }) => guard(() => sessions.dismissNotice(sessionId, noticeId)),
    closeSession: ({ sessionId }) => guard(() => sessions.closeSession(sessionId)),
    reopenSession: ({ sessionId }) => guard(() => sessions.reopenSession(sessionId)),
    restartAgent: ({ agentId }) =>
      guard(async () => {
        if (supervisor.get(agentId)) {
          // Restart with the agent's current settings and secrets, not the ones it was first started with.
          const launch = await config.launchSpec(agentId)
          if (!launch.ok) return launch
          supervisor.host({ agentId, name: agentName(agentId), ...launch.value, logFile: agentLogFile(agentId) })
          const restarted = await supervisor.restart(agentId)
          return restarted.ok ? ok(undefined) : restarted
        }
        const started = await agents.connect(agentId)
        return started.ok ? ok(undefined) : started
      }),
    stopAgent: ({ agentId }) =>
      guard(async () => {
        await supervisor.stop(agentId, { deadlineMs: STOP_DEADLINE_MS })
        return ok(undefined)
      }),
    // The hosts answer it for the page that made it (its ViewFlow, main/web/view-flow.ts); nothing to do without one.
    sessionActionsApplied: async () => ok(undefined),
    ...permissions.handlers,
    ...elicitation.handlers,
    ...config.handlers,
    ...tools.handlers,
    ...registry.handlers,
    ...history.handlers,
    ...clientCaps.handlers,
    ...mcp.handlers,
    cancelTerminal: ({ sessionId, terminalId }) => guard(() => agentTerminals.cancel(sessionId, terminalId)),
    cancelToolCall: ({ sessionId, toolCallId }) => guard(() => agentToolCalls.cancel(sessionId, toolCallId)),
    killTerminal: ({ sessionId, terminalId }) => guard(() => terminals.killForPerson(sessionId, terminalId)),
    ...locations.handlers,
  }

  let disposing: Promise<void> | undefined
  return {
    handlers,
    sessionState: (sessionId) => sessions.state(sessionId),
    dispose() {
      disposing ??= (async () => {
        try {
          // A permission still waiting is answered (cancelled) saying Bosun was closed, not that its agent exited: it
          // reads so in the history, above the turn's own line.
          for (const view of supervisor.views()) permissions.broker.detach(view.agentId, CLOSED_NOTE)
          // A turn still running ends saying Bosun was closed (the history keeps that), not '<agent> was stopped.'
          await supervisor.stopAll({ deadlineMs: STOP_DEADLINE_MS, reason: CLOSED_MESSAGE })
          // The agents' last words (exit lines) reach their log files before anything is torn down.
          await Promise.all(supervisor.views().map((view) => supervisor.get(view.agentId)?.flushLog()))
        } finally {
          // Every queued batch applied, then written: the history has what the sessions last showed.
          sessions.snapshot()
          history.dispose()
          supervisor.dispose()
          store.dispose()
          // Disposing answered what was still pending: those audit records, and rule writes, reach the disk first.
          await permissions.flush()
          await confirmation.flush()
          await config.flush()
          await lock.value.release()
        }
      })()
      return disposing
    },
  }
}

/** What a permission request still waiting when Bosun quits says of itself ("Request not answered. Bosun was closed."). */
const CLOSED_NOTE = 'Bosun was closed.'

/** At most `count` per `windowMs` (a fixed window; what is over the budget is dropped). */
function rateLimit(count: number, windowMs: number): { take(): boolean } {
  let windowStart = 0
  let used = 0
  return {
    take() {
      const now = Date.now()
      if (now - windowStart >= windowMs) {
        windowStart = now
        used = 0
      }
      return used++ < count
    },
  }
}
