import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { promises as fs } from 'node:fs'
import { resolve, sep } from 'node:path'
import type { Readable, Writable } from 'node:stream'
import { findOnPath } from '../config/validate'
import { unrunnableReason } from '../config/unrunnable'
import { Deferred } from '../base/deferred'
import { fail, ok, type Result } from '../base/errors'
import { Emitter, type Event } from '../base/event'
import type { IDisposable } from '../base/lifecycle'
import { createLogger, type Logger } from '../base/log'
import { TextTail } from '../base/ring-buffer'
import { asATerminalLeavesIt } from '../../common/terminal/terminal-text'
import type { ProcessGroupRecords } from './process-records'
import { AgentLogFile } from './agent-log-file'
import { newRunTag, processesTagged, RUN_TAG_NAME } from './run-tag'

/** Everything needed to launch one agent process, already resolved (secrets merged, paths absolute). */
export interface AgentProcessSpec {
  agentId: string
  /** Display name, used in log lines (`[agent codex pid=123] …`). */
  name: string
  command: string
  args: readonly string[]
  /** The complete environment of the child: nothing from `process.env` is added. */
  env: Readonly<Record<string, string>>
  /** The process working directory (sessions send their own `cwd`; checklist A14). */
  cwd: string
  /** Where stderr and lifecycle lines go; rotated at a size cap. */
  logFile?: string
  /** See `LaunchSpec.withoutKeys` (main/config/launch.ts). */
  withoutKeys?: { names: string[]; reason: string }
  /** What of the agent's definition decides what runs, hashed (`launchIdentityHash`): whether a saved change reached this process. */
  launchIdentity?: string
  /** See `LaunchSpec.started`: the definition as it was at this start, to say what a saved change changed. */
  started?: { command: string; args: readonly string[]; env: Readonly<Record<string, string>>; secretEnv: readonly string[]; keyRevision: number }
  /** Size of the in-memory stderr tail kept for error messages (characters). Default 16 KiB. */
  stderrTailBytes?: number
}

export interface AgentExit {
  code: number | null
  signal: NodeJS.Signals | null
  stderrTail: string
  /** True when we asked it to stop ({@link AgentProcess.stop} or dispose) before it exited. */
  expected: boolean
}

export interface AgentStopOptions {
  /** Total time from the request until SIGKILL. Default 3000 ms. */
  deadlineMs?: number
  /** How long to wait after closing stdin before SIGTERM. Default a quarter of the deadline, at most 500 ms. */
  stdinGraceMs?: number
}

export interface AgentProcessOptions {
  logger?: Logger
  /** A log file shared across restarts of the same agent (the host owns it); overrides `spec.logFile`. */
  log?: AgentLogFile
  /** Where the process group is recorded while it lives (reaped by the next Bosun if this one dies). */
  records?: ProcessGroupRecords
}

const isWindows = process.platform === 'win32'

/**
 * Windows has no process groups or graceful signals for console programs: stopping an agent ends its whole
 * process tree (`taskkill /T /F`), while the main child still runs (the tree is found through it).
 */
export function windowsTreeKill(pid: number): { file: string; args: string[] } {
  return { file: 'taskkill', args: ['/PID', String(pid), '/T', '/F'] }
}
/** After the main child exits, how long stderr may take to deliver its last bytes. */
const stderrDrainCapMs = 1_000
/** After SIGKILL, how long before we stop waiting for the exit event (only a stuck kernel gets here). */
const killCapMs = 2_000
/**
 * How long after the exit the agent's stdout stays open for what it wrote last (the host reads it for a second): a
 * grandchild that left the process group (setsid) holds the pipe, and could write to it for as long as it lives.
 */
const outputReleaseCapMs = 3_000

/**
 * One agent child process. It runs in its own process group so that stopping it reaches every process it
 * started; stderr is always drained (checklist A12) into a bounded tail and the log file. Create it with
 * {@link AgentProcess.start}; a launch failure is a value, never an exception.
 */
export class AgentProcess implements IDisposable {
  /** Spawns the agent; resolves once it runs, or with `agent-spawn-failed` (missing command or cwd, not executable…). */
  static async start(spec: AgentProcessSpec, options: AgentProcessOptions = {}): Promise<Result<AgentProcess>> {
    const cwdProblem = await fs.stat(spec.cwd).then(
      (s) => (s.isDirectory() ? undefined : 'is not a directory'),
      () => 'does not exist',
    )
    if (cwdProblem) {
      return fail({ kind: 'agent-spawn-failed', message: `Cannot start ${spec.name}: the working directory ${spec.cwd} ${cwdProblem}.` })
    }
    let child: ChildProcess
    // What it starts inherits the tag, so what leaves its process group is still found at its exit (run-tag.ts).
    const runTag = newRunTag()
    try {
      child = spawn(spec.command, [...spec.args], {
        cwd: spec.cwd,
        env: { ...spec.env, [RUN_TAG_NAME]: runTag },
        stdio: ['pipe', 'pipe', 'pipe'],
        // Its own process group: stop() signals the group, so grandchildren go too.
        detached: !isWindows,
        windowsHide: true,
      })
    } catch (error) {
      return fail({ kind: 'agent-spawn-failed', message: await describeSpawnError(spec, error) })
    }
    // A failed spawn destroys the pipes; their errors must not escape as uncaught exceptions.
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.on('error', () => {})
    return new Promise((resolve) => {
      const onSpawn = () => {
        child.off('error', onError)
        resolve(ok(new AgentProcess(child, spec, options, runTag)))
      }
      const onError = (error: Error) => {
        child.off('spawn', onSpawn)
        void describeSpawnError(spec, error).then((message) => resolve(fail({ kind: 'agent-spawn-failed', message })))
      }
      child.once('spawn', onSpawn)
      child.once('error', onError)
    })
  }

  readonly pid: number
  /** What we write to: the agent's stdin. */
  readonly stdin: Writable
  /** What we read: the agent's stdout. */
  readonly stdout: Readable
  /** Resolves once, when the child has exited and its group was swept; never rejects. */
  readonly exited: Promise<AgentExit>

  private readonly onDidExitEmitter = new Emitter<AgentExit>()
  /** Fired once when the child exits (after its process group was swept and stderr drained). */
  readonly onDidExit: Event<AgentExit> = this.onDidExitEmitter.event
  private readonly onDidWriteStderrEmitter = new Emitter<string>()
  /** Every chunk the agent writes to stderr, decoded as UTF-8. Never parse it as protocol. */
  readonly onDidWriteStderr: Event<string> = this.onDidWriteStderrEmitter.event

  private readonly tail: TextTail
  private readonly log: AgentLogFile | undefined
  private readonly ownsLog: boolean
  private readonly logger: Logger
  private readonly exitDeferred = new Deferred<AgentExit>()
  private exitInfo: AgentExit | undefined
  private stopRequested = false
  private stopping: Promise<AgentExit> | undefined
  private readonly records: ProcessGroupRecords | undefined

  private constructor(
    private readonly child: ChildProcess,
    readonly spec: AgentProcessSpec,
    options: AgentProcessOptions,
    /** This run's tag, in its environment and its descendants' (run-tag.ts). */
    readonly runTag: string,
  ) {
    this.pid = child.pid!
    this.stdin = child.stdin!
    this.stdout = child.stdout!
    this.exited = this.exitDeferred.promise
    this.tail = new TextTail(spec.stderrTailBytes ?? 16 * 1024)
    this.records = options.records
    if (!isWindows) this.records?.add(this.pid, runTag)
    this.logger = (options.logger ?? createLogger('agent')).child(`${spec.name} pid=${this.pid}`)
    this.ownsLog = !options.log && !!spec.logFile
    this.log = options.log ?? (spec.logFile ? new AgentLogFile(spec.logFile, { logger: this.logger }) : undefined)

    const stderr = child.stderr!
    stderr.setEncoding('utf8')
    stderr.on('data', (text: string) => this.record(text))
    child.on('error', (error) => this.logger.warn('process error', error))
    child.once('exit', (code, signal) => void this.handleExit(code, signal))
    this.lifecycle(`started: ${spec.command} ${spec.args.join(' ')}`.trimEnd())
  }

  get isRunning(): boolean {
    return this.exitInfo === undefined
  }

  /** The exit, once it happened. */
  get exit(): AgentExit | undefined {
    return this.exitInfo
  }

  /**
   * Adds a line of Bosun's own to what the agent's log shows (the stderr tail, the log file, the live log): what
   * the agent wrote where it should not, such as a line on stdout that is not JSON.
   */
  appendNote(line: string): void {
    if (this.isRunning) this.record(line.endsWith('\n') ? line : line + '\n', 'note')
  }

  /** What the agent's log shows: the stderr tail, the log file and the live log. */
  private record(text: string, from: 'stderr' | 'note' = 'stderr'): void {
    this.tail.append(text)
    // A note is not glued to the agent's unfinished stderr line in the file, where lines are redacted whole.
    if (from === 'note') this.log?.appendNote(text)
    else this.log?.append(text)
    this.onDidWriteStderrEmitter.fire(text)
  }

  /**
   * The end of what the agent wrote to stderr, cut at a line boundary, as a terminal leaves it: what errors quote and
   * every screen shows. Escape sequences, carriage returns and control characters (a program's colours, a hostile
   * one's `ESC]0;…` or NUL) would show as "[31m" or hide text; the log file keeps the bytes as written.
   */
  stderrTail(): string {
    return asATerminalLeavesIt(this.tail.toString())
  }

  /** Waits for the exit at most `ms`; true when it exited. */
  async waitForExit(ms: number): Promise<boolean> {
    if (this.exitInfo) return true
    let handle: ReturnType<typeof setTimeout> | undefined
    try {
      return await Promise.race([
        this.exited.then(() => true),
        new Promise<boolean>((resolve) => {
          handle = setTimeout(() => resolve(false), Math.max(0, ms))
        }),
      ])
    } finally {
      clearTimeout(handle)
    }
  }

  /**
   * Graceful stop: close stdin, wait a moment, SIGTERM the process group, and SIGKILL it when the
   * deadline passes. Resolves when the child has exited. Safe to call more than once.
   */
  stop(options: AgentStopOptions = {}): Promise<AgentExit> {
    if (this.exitInfo) return Promise.resolve(this.exitInfo)
    this.stopRequested = true
    this.stopping ??= this.runStop(options)
    return this.stopping
  }

  private async runStop({ deadlineMs = 3_000, stdinGraceMs }: AgentStopOptions): Promise<AgentExit> {
    const started = Date.now()
    const grace = Math.min(stdinGraceMs ?? Math.min(500, deadlineMs / 4), deadlineMs)
    this.lifecycle(`stopping (deadline ${deadlineMs} ms)`)
    this.stdin.end()
    if (grace > 0 && (await this.waitForExit(grace))) return this.exited
    this.signalGroup('SIGTERM')
    if (await this.waitForExit(deadlineMs - (Date.now() - started))) return this.exited
    this.lifecycle(`still running after ${deadlineMs} ms: SIGKILL`)
    this.signalGroup('SIGKILL')
    if (await this.waitForExit(killCapMs)) return this.exited
    this.logger.error(`did not exit ${killCapMs} ms after SIGKILL`)
    return { code: null, signal: 'SIGKILL', stderrTail: this.stderrTail(), expected: true }
  }

  /** Kills the whole group now (SIGKILL), without the graceful steps. */
  kill(): void {
    if (!this.exitInfo) this.stopRequested = true
    this.signalGroup('SIGKILL')
  }

  private signalGroup(signal: NodeJS.Signals): void {
    try {
      if (isWindows) {
        if (this.exitInfo === undefined && this.child.exitCode === null) {
          const { file, args } = windowsTreeKill(this.pid)
          execFile(file, args, { windowsHide: true }, (error) => {
            if (error) this.logger.debug(`taskkill: ${error.message}`)
          })
        }
        this.child.kill(signal)
      } else process.kill(-this.pid, signal)
    } catch (error) {
      // ESRCH: the group is already empty.
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') this.logger.warn(`cannot send ${signal}`, error)
    }
  }

  /** Kills the processes outside the group that carry this run's tag (Linux; see run-tag.ts). */
  private killEscaped(): void {
    for (const pid of processesTagged(this.runTag)) {
      try {
        process.kill(pid, 'SIGKILL')
        this.lifecycle(`killed pid ${pid}, started by the agent outside its process group`)
      } catch {
        // Gone meanwhile, or not ours to signal.
      }
    }
  }

  private async handleExit(code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    // The main child is gone; whatever it left in its group (grandchildren) goes with it, and so does what it
    // started that left the group (setsid) but still carries its run's tag.
    this.signalGroup('SIGKILL')
    if (!isWindows) this.killEscaped()
    if (!isWindows) this.records?.remove(this.pid)
    await this.drainStderr()
    const exit: AgentExit = { code, signal, stderrTail: this.stderrTail(), expected: this.stopRequested }
    this.exitInfo = exit
    this.lifecycle(`exited code=${code} signal=${signal}${exit.expected ? ' (stopped)' : ''}`)
    if (this.ownsLog && this.log) {
      // Its own log is complete on disk by the time anyone hears of the exit.
      this.log.dispose()
      await this.log.flush()
    }
    this.exitDeferred.resolve(exit)
    this.onDidExitEmitter.fire(exit)
    this.onDidExitEmitter.dispose()
    this.onDidWriteStderrEmitter.dispose()
    this.releaseOutput()
  }

  /**
   * Closes Bosun's end of the agent's stdout once it has ended, or {@link outputReleaseCapMs} after the exit: a
   * grandchild outside the group that shares it gets EPIPE, and Bosun holds no descriptor for a process it cannot see.
   */
  private releaseOutput(): void {
    const stdout = this.child.stdout!
    const close = () => {
      clearTimeout(handle)
      stdout.off('end', close)
      stdout.off('close', close)
      // (Node closes its end of stdin at the exit already.)
      if (!stdout.destroyed) stdout.destroy()
    }
    const handle = setTimeout(close, outputReleaseCapMs)
    handle.unref?.()
    if (stdout.readableEnded || stdout.destroyed) return close()
    stdout.once('end', close)
    stdout.once('close', close)
  }

  /** Lets the last stderr bytes arrive, so the tail in the error is complete; capped for escaped grandchildren. */
  private async drainStderr(): Promise<void> {
    const stderr = this.child.stderr!
    if (stderr.readableEnded || stderr.destroyed) return
    let handle: ReturnType<typeof setTimeout> | undefined
    await new Promise<void>((resolve) => {
      stderr.once('close', resolve)
      stderr.once('end', resolve)
      handle = setTimeout(resolve, stderrDrainCapMs)
    })
    clearTimeout(handle)
    if (!stderr.destroyed) stderr.destroy()
  }

  private lifecycle(message: string): void {
    this.logger.info(message)
    this.log?.appendLine(`[agent ${this.spec.name} pid=${this.pid}] ${message}`)
  }

  /** Kills the group if it still runs and drops every listener. Prefer {@link stop} for a graceful end. */
  dispose(): void {
    this.kill()
    this.onDidExitEmitter.dispose()
    this.onDidWriteStderrEmitter.dispose()
  }
}

async function describeSpawnError(spec: AgentProcessSpec, error: unknown): Promise<string> {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  // A program that is there and still fails so: a folder, or a script whose #! interpreter is missing (ENOENT too).
  const why = !isWindows && (code === 'ENOENT' || code === 'EACCES') ? await programProblem(spec).catch(() => null) : null
  const reason = why
    ? why
    : code === 'ENOENT'
      ? `command not found: ${spec.command}`
      : code === 'EACCES'
        ? `permission denied (is ${spec.command} executable?)`
        : error instanceof Error
          ? error.message
          : String(error)
  return `Cannot start ${spec.name}: ${reason}`
}

/** What {@link unrunnableReason} says of the file `spec.command` names (a path, or found on the agent's PATH). */
async function programProblem(spec: AgentProcessSpec): Promise<string | null> {
  const path = spec.command.includes(sep) ? resolve(spec.cwd, spec.command) : await findOnPath(spec.command, spec.env)
  return path ? unrunnableReason(path) : null
}
