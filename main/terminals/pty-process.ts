/**
 * One command in a pseudo-terminal (`@lydell/node-pty`). The PTY's child is a session and process-group
 * leader (node-pty calls `setsid`), so signalling `-pid` reaches everything it started that stayed in its
 * group. `stop()` is SIGTERM to the group, a deadline, then SIGKILL; the group is SIGKILLed again after the
 * leader exits, so background children of a finished command do not linger.
 */
import { closeSync, constants as fsConstants, openSync } from 'node:fs'
import { constants } from 'node:os'
import type * as pty from '@lydell/node-pty'
import { Deferred } from '../base/deferred'
import { Emitter, type Event } from '../base/event'
import type { IDisposable } from '../base/lifecycle'
import { lazyRequire } from '../base/lazy-require'

export interface PtySpec {
  file: string
  /** argv, or (Windows) a command line already quoted for `file`. */
  args: string[] | string
  cwd: string
  /** The complete environment (not merged with Bosun's). */
  env: Record<string, string>
  cols?: number
  rows?: number
}

export interface PtyExit {
  exitCode: number | null
  signal: string | null
}

/** node-pty (a native module), loaded with the first terminal. */
const loadPty = lazyRequire<typeof pty>('@lydell/node-pty')

const SIGNAL_NAMES = new Map<number, string>(Object.entries(constants.signals).map(([name, value]) => [value, name]))

export class PtyProcess implements IDisposable {
  private readonly dataEmitter = new Emitter<string>()
  private readonly exitDeferred = new Deferred<PtyExit>()
  private readonly subscriptions: IDisposable[] = []
  private exitValue: PtyExit | undefined
  private disposed = false

  /** Output as the terminal produced it (UTF-8 decoded by node-pty, escape sequences included). */
  readonly onDidWrite: Event<string> = this.dataEmitter.event
  /** Resolves once, when the command exited. */
  readonly exited: Promise<PtyExit> = this.exitDeferred.promise

  private constructor(
    private readonly pty: pty.IPty,
    /** Bosun's own descriptor of the terminal's slave side, held until the exit (see {@link holdSlave}). */
    private slaveFd: number | undefined,
  ) {
    this.subscriptions.push(pty.onData((data) => this.dataEmitter.fire(data)))
    this.subscriptions.push(
      pty.onExit(({ exitCode, signal }) => {
        this.releaseSlave()
        // Killed by a signal: the code node-pty reports is meaningless.
        const name = signal ? (SIGNAL_NAMES.get(signal) ?? `SIG${signal}`) : null
        this.exitValue = { exitCode: name ? null : exitCode, signal: name }
        // Whatever the command left running in its group goes with it.
        this.signalGroup('SIGKILL')
        this.exitDeferred.resolve(this.exitValue)
      }),
    )
  }

  /** Spawns; a command that cannot start throws (the caller turns it into a JSON-RPC error). */
  static spawn(spec: PtySpec): PtyProcess {
    const child = loadPty().spawn(spec.file, spec.args, {
      name: spec.env.TERM ?? 'xterm-256color',
      cols: spec.cols ?? 120,
      rows: spec.rows ?? 30,
      cwd: spec.cwd,
      env: spec.env,
    })
    return new PtyProcess(child, holdSlave(child))
  }

  get pid(): number {
    return this.pty.pid
  }

  get exitStatus(): PtyExit | undefined {
    return this.exitValue
  }

  /** Typed input (terminal sign-in): the PTY echoes it and turns Ctrl-C into SIGINT for the foreground group. */
  write(data: string): void {
    if (!this.exitValue && !this.disposed) this.pty.write(data)
  }

  resize(cols: number, rows: number): void {
    if (this.exitValue || this.disposed) return
    try {
      this.pty.resize(Math.max(2, Math.min(cols, 1000)), Math.max(1, Math.min(rows, 500)))
    } catch {
      // The PTY closed between the check and the call.
    }
  }

  /** SIGTERM to the group, then SIGKILL after `deadlineMs`; resolves with the exit. */
  async stop(deadlineMs = 2_000): Promise<PtyExit> {
    if (this.exitValue) return this.exitValue
    this.signalGroup('SIGTERM')
    let timer: NodeJS.Timeout | undefined
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), deadlineMs)))
    const first = await Promise.race([this.exited, timedOut])
    clearTimeout(timer)
    if (first !== 'timeout') return first
    this.signalGroup('SIGKILL')
    return this.exited
  }

  private signalGroup(signal: NodeJS.Signals): void {
    try {
      process.kill(-this.pty.pid, signal)
      return
    } catch {
      // ESRCH: no such group. Either it is gone, or the child has not yet called `setsid` (a signal sent
      // right after spawn, on a loaded machine). Then the child itself still gets the signal.
    }
    if (this.exitValue) return
    try {
      process.kill(this.pty.pid, signal)
    } catch {
      // The child is gone too.
    }
  }

  private releaseSlave(): void {
    if (this.slaveFd === undefined) return
    try {
      closeSync(this.slaveFd)
    } catch {
      // Already closed.
    }
    this.slaveFd = undefined
  }

  /** Kills the group at once and drops listeners. */
  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    this.signalGroup('SIGKILL')
    this.releaseSlave()
    for (const sub of this.subscriptions) sub.dispose()
    this.dataEmitter.dispose()
    // node-pty never reports the exit once its listeners are gone.
    this.exitDeferred.resolve(this.exitValue ?? { exitCode: null, signal: 'SIGKILL' })
  }
}

/**
 * Opens the terminal's slave side in Bosun (never as its controlling terminal), so the command's exit is not
 * the last close of it. On Linux the master answers EIO as soon as the slave is closed by everyone, and output
 * the kernel still held then is lost: the last kilobytes of a command that prints a lot and exits at once
 * (microsoft/node-pty#726). With the slave held, node-pty reads on until it gives up waiting for the close
 * (200 ms) and only then reports the exit, so every byte is read before `exited` resolves. Not on Windows
 * (ConPTY has no slave side); undefined when it cannot be opened, which only brings the old behaviour back.
 */
function holdSlave(child: pty.IPty): number | undefined {
  const name = (child as { ptsName?: unknown }).ptsName
  if (process.platform === 'win32' || typeof name !== 'string') return undefined
  try {
    return openSync(name, fsConstants.O_RDWR | fsConstants.O_NOCTTY)
  } catch {
    return undefined
  }
}
