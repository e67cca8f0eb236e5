import type { Readable, Writable } from 'node:stream'
import { ErrorCodes } from 'vscode-jsonrpc/node.js'
import type { AcpClientConnection, AgentHandshake, ProtocolVersion } from '../acp/types'
import { AgentExitedError, BosunError, RpcError, fail, ok, toFailure, type Failure, type Result } from '../base/errors'
import { Emitter, type Event } from '../base/event'
import type { IDisposable } from '../base/lifecycle'
import { createLogger, type Logger } from '../base/log'
import type { AgentRuntimeView } from '../../common/session/types'
import { restartedMessage } from '../../common/session/turn-stop'
import { AgentLogFile } from './agent-log-file'
import { AgentProcess, type AgentExit, type AgentProcessOptions, type AgentProcessSpec } from './agent-process'
import type { ProcessGroupRecords } from './process-records'
import {
  classifyExit,
  crashCount,
  defaultRestartPolicyOptions,
  initialRestartState,
  recordExit,
  recordStart,
  type ExitCause,
  type RestartDecision,
  type RestartPolicyOptions,
  type RestartState,
} from './restart-policy'
import { printable } from '../acp/ndjson'
import { formatBytes } from '../base/format-bytes'
import { realScheduler, type Scheduler } from './scheduler'

/** How a line the agent wrote on stdout that is not JSON starts in its log. */
export const STDOUT_NOTE = '[Bosun: on stdout, not JSON]'
/** Said after a start that timed out when the agent printed text that is not ACP on stdout. */
export const STDOUT_HINT = 'It printed text that is not ACP instead (see what it printed): it may be waiting for input on a terminal, such as a sign-in code. Run its command in a terminal once to finish that, then try again.'
/** At most this many such lines are shown per process start, each cut at {@link STDOUT_NOTE_CHARS} characters. */
export const MAX_STDOUT_NOTES = 50
export const STDOUT_NOTE_CHARS = 4_000

export type AgentStatus = AgentRuntimeView['status']

/** The pipes of a freshly started agent, handed to the connection factory. */
export interface AgentConnectionStreams {
  agentId: string
  /** The agent's stdout: what the connection reads. */
  input: Readable
  /** The agent's stdin: what the connection writes. */
  output: Writable
  logger: Logger
}

/**
 * Builds the ACP connection over a started agent's pipes. The composition root closes over the rest
 * (`clientInfo`, elicitation settings, `maxMessageBytes`) and calls `createAcpConnection`.
 */
export type AcpConnectionFactory = (streams: AgentConnectionStreams) => AcpClientConnection

/** Test seam: how a process is started (defaults to {@link AgentProcess.start}). */
export type AgentProcessStarter = (spec: AgentProcessSpec, options: AgentProcessOptions) => Promise<Result<AgentProcess>>

export interface AgentHostOptions {
  spec: AgentProcessSpec
  createConnection: AcpConnectionFactory
  /** Scope it `agent` so lines read `[agent codex pid=123] …`. */
  logger?: Logger
  scheduler?: Scheduler
  /** How long `initialize` may take. Default 60 s. */
  initializeTimeoutMs?: number
  /** Deadline of a graceful stop before SIGKILL. Default 3 s. */
  stopDeadlineMs?: number
  restartPolicy?: Partial<RestartPolicyOptions>
  /** Restart after a crash (per the policy). Default true; when false a crash leaves status `crashed`. */
  autoRestart?: boolean
  /** The version to offer first (a persisted preference, see {@link AgentHost.onDidChangePreferredVersion}); default: the connection's (2). */
  preferredProtocolVersion?: ProtocolVersion
  /**
   * A v1 agent that answered 1 to our v2 offer never saw our v1 client capabilities (C10b). `continue`
   * (default): keep this process, without Bosun's files, terminals and elicitation, and offer 1 from the
   * next start, so the first start is the only one. `restart`: start it again at once, offering 1.
   */
  onV1AnswerToV2Offer?: 'continue' | 'restart'
  startProcess?: AgentProcessStarter
  /** Applied to everything written to the agent's log file (secret values an agent prints must not reach the disk). */
  redactLog?: (text: string) => string
  /** Records each process group in the home, so the next Bosun can reap them if this one dies. */
  processRecords?: ProcessGroupRecords
}

export interface AgentDisconnectEvent {
  connection: AcpClientConnection
  /** Why: an {@link AgentExitedError} (also what every pending request was rejected with). */
  error: BosunError
}

export interface AgentCrashEvent {
  error: Failure
  decision: RestartDecision
}

/** How long a failed `initialize` waits for the process exit status that explains it. */
const exitExplainMs = 500
/** When the connection closes on its own, how long the process gets to exit before we kill it. */
const connectionLostGraceMs = 1_000
/** How long an exited agent's output may take to end (a grandchild that left its group may hold it open). */
const outputReadCapMs = 1_000

/** Resolves once the connection has handled all the agent wrote, or after {@link outputReadCapMs}. */
async function outputRead(connection: AcpClientConnection): Promise<void> {
  if (!connection.whenOutputRead) return
  let timer: ReturnType<typeof setTimeout> | undefined
  await Promise.race([connection.whenOutputRead(), new Promise<void>((resolve) => (timer = setTimeout(resolve, outputReadCapMs)))])
  clearTimeout(timer)
}

interface Attempt {
  process: AgentProcess
  connection: AcpClientConnection
  handshake: AgentHandshake
}

/**
 * Owns one agent's lifecycle: process → connection → `initialize` (raced against the process exit and a
 * timeout) → ready; on a crash, every pending request is rejected with {@link AgentExitedError} and the
 * agent restarts per the {@link RestartPolicyOptions | policy}. All timers and processes are owned here.
 */
export class AgentHost implements IDisposable {
  private readonly onDidChangeStatusEmitter = new Emitter<AgentRuntimeView>()
  readonly onDidChangeStatus: Event<AgentRuntimeView> = this.onDidChangeStatusEmitter.event
  private readonly onDidConnectEmitter = new Emitter<AcpClientConnection>()
  /** A new connection finished `initialize` (its `handshake` is set): register handlers, re-attach sessions. */
  readonly onDidConnect: Event<AcpClientConnection> = this.onDidConnectEmitter.event
  private readonly onDidDisconnectEmitter = new Emitter<AgentDisconnectEvent>()
  /** A ready connection ended (crash, clean exit, stop). */
  readonly onDidDisconnect: Event<AgentDisconnectEvent> = this.onDidDisconnectEmitter.event
  private readonly onDidCrashEmitter = new Emitter<AgentCrashEvent>()
  /** The agent crashed (or failed to come back during an automatic restart); `decision` says what happens next. */
  readonly onDidCrash: Event<AgentCrashEvent> = this.onDidCrashEmitter.event
  private readonly onDidChangePreferredVersionEmitter = new Emitter<ProtocolVersion>()
  /**
   * The version to offer changed: the agent turned out v1-only (it answered 1 to a v2 offer), or v2-only (offered 1,
   * it refused or answered 2, and the connection went on in v2). Persist it so the next launch offers it directly.
   */
  readonly onDidChangePreferredVersion: Event<ProtocolVersion> = this.onDidChangePreferredVersionEmitter.event
  private readonly onDidWriteStderrEmitter = new Emitter<string>()
  /** Stderr of the current process (for a live log view). */
  readonly onDidWriteStderr: Event<string> = this.onDidWriteStderrEmitter.event

  private specValue: AgentProcessSpec
  private readonly createConnection: AcpConnectionFactory
  private readonly logger: Logger
  /** Unscoped (`agent`): processes add `<name> pid=<pid>`. */
  private readonly baseLogger: Logger
  private readonly scheduler: Scheduler
  private readonly initializeTimeoutMs: number
  private readonly stopDeadlineMs: number
  private readonly policy: RestartPolicyOptions
  private readonly autoRestart: boolean
  private readonly startProcess: AgentProcessStarter
  private readonly redactLog: ((text: string) => string) | undefined
  private readonly processRecords: ProcessGroupRecords | undefined
  private log: AgentLogFile | undefined

  private statusValue: AgentStatus = 'stopped'
  private error: Failure | null = null
  private preferredVersion: ProtocolVersion | undefined
  private readonly onV1AnswerToV2Offer: 'continue' | 'restart'
  /** Bumped by stop/restart/dispose: work from an older generation finds it changed and backs off. */
  private generation = 0
  private process: AgentProcess | undefined
  private lastProcess: AgentProcess | undefined
  /** The spec the current process was started with (a saved change to the definition applies from the next start). */
  private processSpec: AgentProcessSpec | undefined
  private connectionValue: AcpClientConnection | undefined
  /** The connection being initialized (so stop() can close it). */
  private pendingConnection: AcpClientConnection | undefined
  /** The connection ended while the process lived on, by the agent closing its output (stdout) or its input (stdin). */
  private connectionLost: 'output' | 'input' | false = false
  /** Set when the agent stopped reading its input and Bosun stopped it: the error it shows. */
  private unresponsive: Failure | undefined
  private starting: Promise<Result<AgentHandshake>> | undefined
  private restartState: RestartState = initialRestartState
  private restartTimer: IDisposable | undefined
  private nextRestartAt: number | null = null
  private subscriptions: IDisposable[] = []
  private disposed = false

  constructor(options: AgentHostOptions) {
    this.specValue = options.spec
    this.createConnection = options.createConnection
    this.logger = (options.logger ?? createLogger('agent')).child(options.spec.name)
    this.scheduler = options.scheduler ?? realScheduler
    this.initializeTimeoutMs = options.initializeTimeoutMs ?? 60_000
    this.stopDeadlineMs = options.stopDeadlineMs ?? 3_000
    this.policy = { ...defaultRestartPolicyOptions, ...options.restartPolicy }
    this.autoRestart = options.autoRestart ?? true
    this.preferredVersion = options.preferredProtocolVersion
    this.onV1AnswerToV2Offer = options.onV1AnswerToV2Offer ?? 'continue'
    this.startProcess = options.startProcess ?? ((spec, processOptions) => AgentProcess.start(spec, processOptions))
    this.redactLog = options.redactLog
    this.processRecords = options.processRecords
    this.baseLogger = options.logger ?? createLogger('agent')
  }

  get agentId(): string {
    return this.specValue.agentId
  }

  get spec(): AgentProcessSpec {
    return this.specValue
  }

  get status(): AgentStatus {
    return this.statusValue
  }

  /** The ready connection, or undefined while the agent is not ready. */
  get connection(): AcpClientConnection | undefined {
    return this.connectionValue
  }

  get handshake(): AgentHandshake | undefined {
    return this.connectionValue?.handshake
  }

  /** The version offered first; 1 once the agent proved v1-only (C10b), 2 once it proved v2-only. */
  get preferredProtocolVersion(): ProtocolVersion | undefined {
    return this.preferredVersion
  }

  get pid(): number | undefined {
    return this.process?.pid
  }

  /** The running process's run tag (run-tag.ts): what Bosun starts for it carries the tag too, and goes with it. */
  get runTag(): string | undefined {
    return this.process?.runTag
  }

  /** The spec the running process was started with; undefined while none runs. */
  get runningSpec(): AgentProcessSpec | undefined {
    return this.process ? this.processSpec : undefined
  }

  /** A new launch spec (settings changed); it applies from the next start. */
  updateSpec(spec: AgentProcessSpec): void {
    if (spec.logFile !== this.specValue.logFile) {
      this.log?.dispose()
      this.log = undefined
    }
    this.specValue = spec
  }

  view(): AgentRuntimeView {
    const handshake = this.connectionValue?.handshake
    return {
      agentId: this.specValue.agentId,
      name: this.specValue.name,
      status: this.statusValue,
      pid: this.process?.pid ?? null,
      protocolVersion: handshake?.protocolVersion ?? null,
      ...(handshake && handshake.offeredVersion === 2 && handshake.protocolVersion === 1 ? { withoutClientCapabilities: true } : {}),
      agentInfo: handshake?.agentInfo ?? null,
      ...(handshake && (handshake.capabilities.resumeSession || handshake.capabilities.loadSession) ? { reopensSessions: true } : {}),
      ...(handshake ? { listsSessions: handshake.capabilities.listSessions } : {}),
      error: this.error ? { kind: this.error.kind, message: this.error.message, ...(this.error.stderrTail ? { stderrTail: this.error.stderrTail } : {}) } : null,
      crashCount: crashCount(this.restartState, this.scheduler.now(), this.policy),
      nextRestartAt: this.nextRestartAt,
    }
  }

  /** The stderr tail of the current (or last) process. */
  stderrTail(): string {
    return (this.process ?? this.lastProcess)?.stderrTail() ?? ''
  }

  /** Starts the agent, or joins the start in progress; resolves with the handshake or why it failed. */
  start(): Promise<Result<AgentHandshake>> {
    if (this.disposed) return Promise.resolve(fail({ kind: 'agent-not-running', message: `${this.specValue.name} is shut down.` }))
    const handshake = this.connectionValue?.handshake
    if (this.statusValue === 'ready' && handshake) return Promise.resolve(ok(handshake))
    if (this.starting) return this.starting
    this.cancelRestartTimer()
    return this.launch('user')
  }

  /**
   * A person's stop: pending requests are rejected at once, the process is stopped gracefully, and nothing restarts it.
   * `reason`: what the pending requests (a turn in progress) are rejected with instead of '<name> was stopped.'
   */
  async stop(options: { deadlineMs?: number; reason?: string } = {}): Promise<void> {
    this.generation++
    this.cancelRestartTimer()
    const process = this.process
    const starting = this.starting
    const closing = [this.connectionValue, this.pendingConnection]
    this.closeConnections(new AgentExitedError(options.reason ?? `${this.specValue.name} was stopped.`, null, null, undefined, true))
    this.process = undefined
    this.restartState = recordExit(this.restartState, { kind: 'user-stop' }, this.scheduler.now(), this.policy).state
    this.error = null
    if (!this.disposed) this.setStatus('stopped')
    // What the close answered (a form or a permission the agent waits for) reaches the agent before its stdin ends.
    await Promise.all(closing.map((connection) => connection?.answersWritten?.()))
    await process?.stop({ deadlineMs: options.deadlineMs ?? this.stopDeadlineMs })
    // A launch that was spawning when we stopped kills its own process; wait for that too.
    await starting?.catch(() => undefined)
  }

  /** A person's restart: stop, then start with a fresh crash history. */
  async restart(): Promise<Result<AgentHandshake>> {
    // A turn running now ends in the person's words, not as '<name> was stopped.', an error whose log would say nothing.
    await this.stop({ reason: restartedMessage(this.specValue.name) })
    return this.start()
  }

  private launch(trigger: 'user' | 'auto'): Promise<Result<AgentHandshake>> {
    const generation = ++this.generation
    this.nextRestartAt = null
    if (trigger === 'user') {
      // A person asked: the crash history starts over (after a give-up, one more crash must not give up at once).
      this.error = null
      this.restartState = initialRestartState
    }
    this.setStatus('starting')
    const promise = this.runLaunch(generation, trigger).finally(() => {
      if (this.starting === promise) this.starting = undefined
    })
    this.starting = promise
    return promise
  }

  private async runLaunch(generation: number, trigger: 'user' | 'auto'): Promise<Result<AgentHandshake>> {
    const asked = this.preferredVersion
    let result = await this.attempt(generation, asked)
    if (result.ok && asked === 1 && result.value.handshake.protocolVersion === 2 && generation === this.generation) {
      // A v2-only agent: it refused the offer of 1 (-32022) or answered 2, and the connection initialized it again as
      // v2 in the same process. Every later start offers 2.
      this.preferredVersion = 2
      this.onDidChangePreferredVersionEmitter.fire(2)
      this.logger.info('speaks only protocol 2; the next start offers 2')
    } else if (result.ok && result.value.handshake.offeredVersion === 2 && result.value.handshake.protocolVersion === 1 && generation === this.generation) {
      // A v1 agent that answered 1 to our v2 offer never saw our v1-shaped capabilities (C10b). Every later
      // start offers 1. (An agent that rejects the v2 offer is retried in-process by the connection, C10c.)
      this.preferredVersion = 1
      this.onDidChangePreferredVersionEmitter.fire(1)
      if (this.onV1AnswerToV2Offer === 'restart') {
        this.logger.info('answered protocol 1 to a v2 offer; restarting it with a v1 offer')
        await this.discard(result.value, 'restarting with protocol v1')
        if (generation === this.generation) result = await this.attempt(generation, 1)
      } else {
        this.logger.info('answered protocol 1 to a v2 offer; this run goes on without Bosun files, terminals and elicitation, the next start offers 1')
      }
    }
    if (generation !== this.generation) {
      if (result.ok) await this.discard(result.value, 'start was cancelled')
      return fail({ kind: 'cancelled', message: `Starting ${this.specValue.name} was cancelled.` })
    }
    if (!result.ok) {
      this.handleLaunchFailure(result.error, trigger)
      return result
    }
    this.adopt(generation, result.value)
    return ok(result.value.handshake)
  }

  /** Spawns a process and runs `initialize` on it, raced against the process exit and the timeout. */
  private async attempt(generation: number, version: ProtocolVersion | undefined): Promise<Result<Attempt>> {
    const spec = this.specValue
    // A log that stopped on an error is tried afresh with each start: the person may have fixed what was in its way.
    if (this.log?.stopped) {
      this.log.dispose()
      this.log = undefined
    }
    if (spec.logFile && !this.log) this.log = new AgentLogFile(spec.logFile, { logger: this.logger, ...(this.redactLog ? { redact: this.redactLog } : {}) })
    const started = await this.startProcess(spec, {
      logger: this.baseLogger,
      ...(this.log ? { log: this.log } : {}),
      ...(this.processRecords ? { records: this.processRecords } : {}),
    })
    if (!started.ok) {
      this.log?.appendLine(`[agent ${spec.name}] ${started.error.message}`)
      return started
    }
    const process = started.value
    this.lastProcess = process
    if (generation !== this.generation) {
      process.kill()
      await process.exited
      return fail({ kind: 'cancelled', message: `Starting ${spec.name} was cancelled.` })
    }
    this.process = process
    this.processSpec = spec
    const stderrSub = process.onDidWriteStderr((text) => this.onDidWriteStderrEmitter.fire(text))
    this.subscriptions.push(stderrSub)
    void process.exited.then(() => this.forget(stderrSub))

    let connection: AcpClientConnection
    try {
      connection = this.createConnection({ agentId: spec.agentId, input: process.stdout, output: process.stdin, logger: this.baseLogger.child(`${spec.name} pid=${process.pid}`) })
    } catch (error) {
      this.logger.error('cannot create the connection', error)
      await this.discardProcess(process)
      return fail({ kind: 'internal', message: `Cannot connect to ${spec.name}: ${toFailure(error).message}` })
    }
    this.pendingConnection = connection
    // From the first line, before `initialize` is answered: an agent that asks on its terminal for a sign-in code (Gemini
    // CLI with NO_BROWSER) prints there and exits, and what it printed is what says why.
    const stdoutSub = watchStdout(connection, process)
    this.subscriptions.push(stdoutSub)
    void process.exited.then(() => this.forget(stdoutSub))

    let timer: IDisposable | undefined
    const timeoutMs = this.initializeTimeoutMs
    const timeout = new Promise<never>((_, reject) => {
      timer = this.scheduler.setTimeout(
        () => reject(new BosunError({ kind: 'timeout', message: `${spec.name} did not answer initialize within ${Math.round(timeoutMs / 1000)} s.` })),
        timeoutMs,
      )
    })
    const exited = process.exited.then((exit) => {
      throw exitError(spec.name, exit, 'while starting')
    })
    try {
      const handshake = await Promise.race([connection.initialize(version ? { preferredVersion: version } : undefined), exited, timeout])
      return ok({ process, connection, handshake })
    } catch (error) {
      const failure = await this.explainInitializeFailure(process, error, generation, connection)
      this.log?.appendLine(`[agent ${spec.name} pid=${process.pid}] initialize failed: ${failure.message}`)
      connection.close(error instanceof BosunError ? error : new BosunError(failure))
      await this.discardProcess(process)
      return fail(failure)
    } finally {
      timer?.dispose()
      if (this.pendingConnection === connection) this.pendingConnection = undefined
    }
  }

  /**
   * The connection may see stdout close before Node reports the exit; give the exit a moment so the
   * error says how the agent exited and carries its stderr tail (what Zed shows).
   */
  private async explainInitializeFailure(process: AgentProcess, error: unknown, generation: number, connection: AcpClientConnection): Promise<Failure> {
    // `initialize` could not be written because the agent closed its input (stdin): it may exit now, or live on.
    const inputClosed = error instanceof RpcError && error.code === ErrorCodes.MessageWriteError && process.stdin.destroyed
    const worthWaiting =
      generation === this.generation && (inputClosed || (!(error instanceof RpcError) && !(error instanceof BosunError && error.kind === 'timeout')))
    if (process.exit || (worthWaiting && (await process.waitForExit(exitExplainMs)))) {
      return exitError(this.specValue.name, process.exit!, 'while starting').failure
    }
    const failure: Failure = inputClosed
      ? { kind: 'initialize-failed', message: `${this.specValue.name} closed its input (stdin) while starting, so Bosun could not send it anything (${(error as RpcError).message}).` }
      : { ...toFailure(error) }
    if (failure.kind === 'internal') failure.kind = 'initialize-failed'
    const tail = lastLines(process.stderrTail())
    // An agent that printed text instead of answering may be asking for something on a terminal (a sign-in code).
    if (failure.kind === 'timeout' && tail.includes(STDOUT_NOTE)) failure.message += ` ${STDOUT_HINT}`
    // An answer written without its newline (or ended by \r alone) is never read: the most common bug of a new agent.
    const unterminated = failure.kind === 'timeout' ? (connection.unterminatedOutput?.() ?? 0) : 0
    if (unterminated > 0) failure.message += ` ${unterminatedHint(unterminated)}`
    return tail ? { ...failure, stderrTail: failure.stderrTail ?? tail } : failure
  }

  private adopt(generation: number, { process, connection, handshake }: Attempt): void {
    this.process = process
    this.connectionValue = connection
    this.connectionLost = false
    this.unresponsive = undefined
    this.error = null
    this.restartState = recordStart(this.restartState, this.scheduler.now())
    void process.exited.then((exit) => this.handleProcessExit(generation, connection, exit))
    const closeSub = connection.onDidClose(() => void this.handleConnectionClosed(generation, connection, process))
    this.subscriptions.push(closeSub)
    void process.exited.then(() => this.forget(closeSub))
    const problemSub = connection.onDidReportProblem((problem) => {
      if (problem.kind === 'unresponsive') this.handleUnresponsive(generation, connection, process, problem.message)
    })
    this.subscriptions.push(problemSub)
    void process.exited.then(() => this.forget(problemSub))
    this.logger.info(`ready: protocol v${handshake.protocolVersion}${handshake.agentInfo ? `, ${handshake.agentInfo.name} ${handshake.agentInfo.version ?? ''}`.trimEnd() : ''}`)
    this.setStatus('ready')
    this.onDidConnectEmitter.fire(connection)
  }

  /** The connection ended on its own (stdout closed, fatal protocol error): a live process is useless now. */
  private async handleConnectionClosed(generation: number, connection: AcpClientConnection, process: AgentProcess): Promise<void> {
    if (generation !== this.generation || this.connectionValue !== connection) return
    if (await process.waitForExit(connectionLostGraceMs)) return
    if (generation !== this.generation) return
    this.logger.warn('the connection closed but the process still runs; killing it')
    // Bosun's write to it failed (EPIPE) and its output goes on: it closed its input, not its output.
    this.connectionLost = process.stdin.destroyed && !process.stdout.readableEnded ? 'input' : 'output'
    process.kill()
  }

  /**
   * The agent stopped reading its stdin and Bosun's bounded queue is full: nothing more can reach it, so
   * it is stopped (not restarted: it would do it again) and reported with its stderr tail.
   */
  private handleUnresponsive(generation: number, connection: AcpClientConnection, process: AgentProcess, why: string): void {
    if (generation !== this.generation || this.connectionValue !== connection || this.unresponsive) return
    const tail = lastLines(process.stderrTail())
    const waiting = /\(([^()]*waiting)\)$/.exec(why)?.[1]
    this.unresponsive = {
      kind: 'agent-exited',
      // `why` is the connection's "The agent stopped reading its input (N KB waiting)": said once, with how much waited.
      message: `${this.specValue.name} stopped reading its input${waiting ? ` (${waiting})` : ''}, so Bosun stopped it.`,
      ...(tail ? { stderrTail: tail } : {}),
    }
    this.logger.error(`unresponsive: ${why}; stopping it`)
    this.log?.appendLine(`[agent ${this.specValue.name} pid=${process.pid}] ${this.unresponsive.message}`)
    void process.stop({ deadlineMs: this.stopDeadlineMs })
  }

  private async handleProcessExit(generation: number, connection: AcpClientConnection, exit: AgentExit): Promise<void> {
    if (generation !== this.generation || this.disposed) return
    // What the agent wrote before it exited is handled first: a turn it answered ended as it said, not with its exit.
    await outputRead(connection)
    if (generation !== this.generation || this.disposed) return
    const unresponsive = this.unresponsive
    const error = unresponsive
      ? new AgentExitedError(unresponsive.message, exit.code, exit.signal, unresponsive.stderrTail)
      : this.connectionLost
        ? lostError(this.specValue.name, exit, this.connectionLost)
        : exitError(this.specValue.name, exit)
    this.process = undefined
    this.connectionValue = undefined
    connection.close(error)
    this.onDidDisconnectEmitter.fire({ connection, error })
    if (unresponsive) {
      this.error = unresponsive
      this.setStatus('failed')
      return
    }
    const cause: ExitCause = this.connectionLost ? { kind: 'crash' } : classifyExit(exit)
    this.afterExit(cause, error.failure)
  }

  private handleLaunchFailure(failure: Failure, trigger: 'user' | 'auto'): void {
    this.process = undefined
    if (trigger === 'user' || failure.kind === 'agent-spawn-failed') {
      // A start someone asked for reports at once; a command that cannot even spawn will not get better by retrying.
      this.error = failure
      this.setStatus('failed')
      return
    }
    this.afterExit({ kind: 'crash' }, failure)
  }

  private afterExit(cause: ExitCause, failure: Failure): void {
    const now = this.scheduler.now()
    const { state, decision } = recordExit(this.restartState, cause, now, this.policy)
    this.restartState = state
    if (decision.action === 'none') {
      this.error = decision.reason === 'clean-exit' ? failure : null
      this.setStatus('stopped')
      return
    }
    this.onDidCrashEmitter.fire({ error: failure, decision })
    if (decision.action === 'give-up') {
      const windowMin = Math.round(this.policy.crashWindowMs / 60_000)
      this.error = { ...failure, message: `${failure.message} It crashed ${decision.crashCount} times within ${windowMin} minutes; not restarting it.` }
      this.logger.error(`giving up after ${decision.crashCount} crashes`)
      this.setStatus('failed')
      return
    }
    this.error = failure
    if (!this.autoRestart) {
      this.setStatus('crashed')
      return
    }
    this.logger.warn(`crashed (${failure.message}); restarting in ${decision.delayMs} ms`)
    this.nextRestartAt = now + decision.delayMs
    const generation = this.generation
    this.restartTimer = this.scheduler.setTimeout(() => {
      this.restartTimer = undefined
      if (generation !== this.generation || this.disposed) return
      void this.launch('auto')
    }, decision.delayMs)
    this.setStatus('restarting')
  }

  /** Drops a successful attempt we no longer want (v1 downgrade, cancelled start). */
  private async discard(attempt: Attempt, reason: string): Promise<void> {
    attempt.connection.close(new AgentExitedError(`${this.specValue.name}: ${reason}.`, null, null))
    await this.discardProcess(attempt.process)
  }

  private async discardProcess(process: AgentProcess): Promise<void> {
    await process.stop({ deadlineMs: this.stopDeadlineMs })
    if (this.process === process) this.process = undefined
  }

  private closeConnections(error: BosunError): void {
    const ready = this.connectionValue
    const pending = this.pendingConnection
    this.connectionValue = undefined
    this.pendingConnection = undefined
    pending?.close(error)
    if (ready) {
      ready.close(error)
      this.onDidDisconnectEmitter.fire({ connection: ready, error })
    }
  }

  private cancelRestartTimer(): void {
    this.restartTimer?.dispose()
    this.restartTimer = undefined
    this.nextRestartAt = null
  }

  private forget(subscription: IDisposable): void {
    subscription.dispose()
    this.subscriptions = this.subscriptions.filter((s) => s !== subscription)
  }

  private setStatus(status: AgentStatus): void {
    this.statusValue = status
    this.onDidChangeStatusEmitter.fire(this.view())
  }

  /** Kills the process at once (no grace) and drops every listener and timer. Use {@link stop} first for a graceful end. */
  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    this.generation++
    this.cancelRestartTimer()
    this.closeConnections(new AgentExitedError(`${this.specValue.name} was shut down.`, null, null))
    this.process?.kill()
    this.process = undefined
    for (const subscription of this.subscriptions) subscription.dispose()
    this.subscriptions = []
    this.log?.dispose()
    this.onDidChangeStatusEmitter.dispose()
    this.onDidConnectEmitter.dispose()
    this.onDidDisconnectEmitter.dispose()
    this.onDidCrashEmitter.dispose()
    this.onDidChangePreferredVersionEmitter.dispose()
    this.onDidWriteStderrEmitter.dispose()
  }

  /** Why the agent's log file stopped (what the Logs tab tells under the log), or undefined while it is written. */
  get logStopped(): string | undefined {
    return this.log?.stoppedReason
  }

  /** Resolves when the log file has everything written so far (tests, diagnostics export). */
  async flushLog(): Promise<void> {
    await this.log?.flush()
  }
}

/**
 * A line on stdout that is not JSON (a sign-in URL, a banner, a prompt for input, a warning printed to the wrong
 * stream) is shown in the agent's log, where the person looks (the stderr tail, the log file, the live log); a few
 * dozen of them, then one line says the rest is not.
 */
function watchStdout(connection: AcpClientConnection, process: AgentProcess): IDisposable {
  let notes = 0
  return connection.onDidReportProblem((problem) => {
    if (problem.kind !== 'non-json-line' || problem.line === undefined || notes > MAX_STDOUT_NOTES) return
    notes++
    process.appendNote(notes > MAX_STDOUT_NOTES ? `${STDOUT_NOTE} … more lines that are not JSON are not shown` : `${STDOUT_NOTE} ${printable(problem.line, STDOUT_NOTE_CHARS)}`)
  })
}

/** What a timeout adds when the agent began a message on its output and never ended the line. */
export function unterminatedHint(bytes: number): string {
  return `It wrote ${formatBytes(bytes)} of JSON on its output without ending the line: ACP reads a message once its line ends with a newline (\\n).`
}

/** The agent closed its output or its input and lived on, so Bosun stopped it: that is what the person is told, not the signal Bosun sent. */
function lostError(name: string, exit: AgentExit, side: 'output' | 'input'): AgentExitedError {
  const tail = lastLines(exit.stderrTail)
  const message =
    side === 'input'
      ? `${name} closed its input (stdin) while still running: nothing more could reach it, so Bosun stopped it.`
      : `${name} closed its output while still running, so Bosun stopped it.`
  return new AgentExitedError(message, exit.code, exit.signal, tail || undefined)
}

function exitError(name: string, exit: AgentExit, when?: string): AgentExitedError {
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`
  const lines = linesOf(exit.stderrTail)
  // A process killed by SIGKILL had no last words: whatever it printed before was about something else.
  const said = exit.signal === 'SIGKILL' ? undefined : lastWords(lines)
  const message = `${name} ${how}${when ? ` ${when}` : ''}.${said ? ` ${said.text}` : ''}`
  const excerpt = excerptOf(lines, said?.index)
  return new AgentExitedError(message, exit.code, exit.signal, excerpt || undefined)
}

/** Words that say what went wrong, as programs print them (`Unknown arguments: …`, `Error: …`, `fatal: …`). */
const TELLING_LINE = /\b(error|unknown|invalid|unrecognized|unrecognised|not found|no such|fatal|failed|failure|cannot|can't|could not|denied|missing|refused|unsupported|panicked)\b/i
/** Lines that never say why: a stack frame, Node's version footer under an uncaught error, a caret under a source line. */
const NOT_A_REASON = /^(\s+at\s|Node\.js v\d|\s*\^+\s*$)/

/**
 * The agent's own last words: the last line on stderr that tells what went wrong (a CLI that prints its error and
 * then its whole usage, Node's uncaught error above its stack and version), else its last line on stderr, else the
 * last thing it printed on stdout (without Bosun's label).
 */
function lastWords(lines: readonly string[]): { text: string; index: number } | undefined {
  const reason = (line: string) => line.trim() !== '' && !NOT_A_REASON.test(line)
  let last: number | undefined
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!
    if (line.startsWith(STDOUT_NOTE) || !reason(line)) continue
    last ??= i
    if (TELLING_LINE.test(line)) return { text: line.trim(), index: i }
  }
  if (last !== undefined) return { text: lines[last]!.trim(), index: last }
  const printed = lines.findLastIndex((line) => line.startsWith(STDOUT_NOTE) && reason(line.slice(STDOUT_NOTE.length)))
  return printed >= 0 ? { text: lines[printed]!.slice(STDOUT_NOTE.length).trim(), index: printed } : undefined
}

/** The stderr excerpt carried by errors: the last 40 lines, and the line the message quotes when it is further up. */
function excerptOf(lines: readonly string[], quoted: number | undefined, count = 40): string {
  const start = Math.max(0, lines.length - count)
  if (quoted === undefined || quoted >= start) return lines.slice(start).join('\n')
  const skipped = start + 2 - quoted - 1
  return [lines[quoted], `… ${skipped} more lines …`, ...lines.slice(start + 2)].join('\n')
}

/** The stderr excerpt carried by errors: the last 40 lines. */
function lastLines(text: string): string {
  return excerptOf(linesOf(text), undefined)
}

/** A stderr tail as lines, without the empty one after its last line break. */
function linesOf(text: string): string[] {
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  return lines
}
