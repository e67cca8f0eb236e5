/**
 * Terminal login (checklist D3, J8): the agent's *own* configured command and launch environment, plus
 * the auth method's `args` (appended) and `env` (overriding), run as a separate process the person can
 * type into, in a pseudo-terminal: what they type is echoed, Ctrl-C interrupts, and programs that want a
 * TTY for a login prompt get one. The process leads its own group, so closing it stops everything it started.
 */
import { randomUUID } from 'node:crypto'
import type { AgentExit, AgentProcessSpec } from '../agents/agent-process'
import type { Scheduler } from '../agents/scheduler'
import { fail, ok, type Result } from '../base/errors'
import type { IDisposable } from '../base/lifecycle'
import type { Logger } from '../base/log'
import { methodMeta, record } from '../acp/handshake'
import type { AuthMethodSummary } from '../acp/types'
import { settableEnv } from '../config/env-names'
import { findOnPath, hasPathSeparator } from '../config/validate'
import { PtyProcess } from '../terminals/pty-process'
import { LogStream } from './agent-log'
import type { SecretSet } from './redaction'

export interface AuthTerminalEvents {
  output(terminalId: string, data: string): void
  exit(terminalId: string, exit: { code: number | null; signal: string | null }): void
}

interface Terminal {
  agentId: string
  process: PtyProcess
  output: LogStream
  /** Closed by the person (or Bosun): whatever the exit code, the login did not succeed (D3). */
  cancelled: boolean
}

/** A terminal login's args and env; `wholeArgs`: the args replace the configured ones (`_meta["terminal-auth"]`). */
export type TerminalLogin = Pick<AuthMethodSummary, 'args' | 'env'> & { wholeArgs?: boolean }

/**
 * The spawn spec of a terminal login: launch spec + method args/env (D3), but for the variables of the method's env that
 * would have the login program run code or trust servers the agent chose ({@link settableEnv}: `LD_PRELOAD`,
 * `NODE_OPTIONS`, `PATH`…): those are left out, the launch's own values kept, and the person is shown their names
 * ({@link droppedLoginEnv}). Exported for tests (D3's argv/env rule).
 */
export function terminalSpec(launch: AgentProcessSpec, method: TerminalLogin): AgentProcessSpec {
  const { logFile: _logFile, ...rest } = launch
  return {
    ...rest,
    name: `${launch.name} (sign-in)`,
    args: method.wholeArgs ? [...(method.args ?? [])] : [...launch.args, ...(method.args ?? [])],
    env: { ...launch.env, ...settableEnv(method.env ?? {}).env },
  }
}

/** The names of a login method's env Bosun leaves out of its terminal (see {@link terminalSpec}). */
export const droppedLoginEnv = (method: TerminalLogin): string[] => settableEnv(method.env ?? {}).dropped

/**
 * The launch spec with its command found on the launch's *own* PATH, before a login method's env applies (J8): a
 * method whose env sets PATH would otherwise choose which program of the configured name runs. A command with a
 * folder in it is the configured file already.
 */
export async function withOwnProgram(launch: AgentProcessSpec, platform: NodeJS.Platform = process.platform): Promise<Result<AgentProcessSpec>> {
  if (hasPathSeparator(launch.command, platform)) return ok(launch)
  const found = await findOnPath(launch.command, launch.env, platform)
  if (!found) return fail({ kind: 'agent-spawn-failed', message: `${launch.command} was not found on PATH` })
  return ok({ ...launch, command: found })
}

/** Sign-in terminals open at once, per agent and in all. */
export const MAX_LOGIN_TERMINALS_PER_AGENT = 2
export const MAX_LOGIN_TERMINALS = 8

const MAX_LEGACY_ARGS = 64
const MAX_LEGACY_ARG_CHARS = 4096

/** A program's file name, without its folder. */
export const programBaseName = (command: string): string => command.split(/[\\/]/).pop() || command

/** A program's name without its folder, and on Windows without `.exe`/`.cmd`/`.bat` and case. */
function programName(command: string): string {
  const base = programBaseName(command)
  return /^[A-Za-z]:|\\/.test(command) || /\.(exe|cmd|bat)$/i.test(base) ? base.replace(/\.(exe|cmd|bat)$/i, '').toLowerCase() : base
}

/**
 * The older terminal login (Zed's `_meta["terminal-auth"]`: `{command, args?, env?, label?}`), on a method without
 * the standard `type: "terminal"`, as OpenCode sends it: `opencode auth login`. Read only when it names the agent's
 * own configured program (by name: `opencode` for a configured `/usr/local/bin/opencode`); Bosun then runs *its*
 * configured program with these args in place of the configured ones. A command naming another program, or a
 * malformed entry, gives `undefined`: the method stays what it was, and nothing the agent named is ever run.
 */
export function legacyTerminalLogin(method: AuthMethodSummary, configuredCommand: string): TerminalLogin | undefined {
  if (method.type !== 'agent') return undefined
  const meta = record(methodMeta(method, 'terminal-auth'))
  if (!meta) return undefined
  const { command, args, env } = meta
  if (typeof command !== 'string' || command === '' || programName(command) !== programName(configuredCommand)) return undefined
  if (args !== undefined && (!Array.isArray(args) || args.length > MAX_LEGACY_ARGS || !args.every((a) => typeof a === 'string' && a.length <= MAX_LEGACY_ARG_CHARS))) return undefined
  const login: TerminalLogin = { args: (args as string[] | undefined) ?? [], wholeArgs: true }
  const envMap = record(env)
  if (envMap) {
    const pairs = Object.entries(envMap).filter((pair): pair is [string, string] => typeof pair[1] === 'string')
    if (pairs.length > 0) login.env = Object.fromEntries(pairs)
  }
  return login
}

/** How much of a command Bosun would not run is quoted back (the agent chose it). */
const MAX_NAMED_COMMAND_CHARS = 300

/**
 * The command line of an older terminal login (`_meta["terminal-auth"]`) Bosun does not run because it names another
 * program than the configured one (GitHub Copilot CLI names its platform binary; the person may run it through `npx`),
 * to tell the person what to run themselves; `undefined` when there is none or Bosun runs it.
 */
export function namedTerminalCommand(method: AuthMethodSummary, configuredCommand: string): string | undefined {
  if (legacyTerminalLogin(method, configuredCommand)) return undefined
  const meta = record(methodMeta(method, 'terminal-auth'))
  if (!meta || typeof meta.command !== 'string' || meta.command.trim() === '') return undefined
  const args = Array.isArray(meta.args) ? meta.args.filter((a): a is string => typeof a === 'string').slice(0, MAX_LEGACY_ARGS) : []
  const line = commandLine(meta.command, args)
  return line.length > MAX_NAMED_COMMAND_CHARS ? `${line.slice(0, MAX_NAMED_COMMAND_CHARS - 1)}…` : line
}

/**
 * The agent's methods as Bosun uses them, given the agent's configured program: one whose `_meta["terminal-auth"]`
 * names that program is a terminal login (see {@link legacyTerminalLogin}), never sent to `authenticate`.
 */
export function loginMethodsOf(methods: readonly AuthMethodSummary[], configuredCommand: string | undefined): (AuthMethodSummary & TerminalLogin)[] {
  return methods.map((m) => {
    const legacy = configuredCommand !== undefined ? legacyTerminalLogin(m, configuredCommand) : undefined
    return legacy ? { ...m, ...legacy, type: 'terminal' } : m
  })
}

/** How a terminal login's command reads, for the person to see before it runs (no env: values can be secrets). */
export function commandLine(command: string, args: readonly string[]): string {
  const quote = (word: string) => (word !== '' && /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)
  return [command, ...args].map(quote).join(' ')
}

export class AuthTerminals implements IDisposable {
  private readonly terminals = new Map<string, Terminal>()
  private disposed = false

  constructor(
    private readonly secrets: SecretSet,
    private readonly scheduler: Scheduler,
    private readonly events: AuthTerminalEvents,
    private readonly logger?: Logger,
  ) {}

  /**
   * Starts it; `onExit` runs after the exit was reported, with `succeeded` = exit code 0 and not closed
   * by the person (the service then restarts the agent).
   */
  async start(agentId: string, spec: AgentProcessSpec, onExit: (exit: AgentExit, succeeded: boolean) => void): Promise<Result<{ terminalId: string }>> {
    if (this.disposed) return fail({ kind: 'agent-not-running', message: 'Bosun is shutting down.' })
    // Each is a process: a few per agent (the Agents page and a sign-in dialog may each have one open) and in all.
    const open = [...this.terminals.values()]
    if (open.filter((t) => t.agentId === agentId).length >= MAX_LOGIN_TERMINALS_PER_AGENT || open.length >= MAX_LOGIN_TERMINALS) {
      return fail({ kind: 'invalid-argument', message: 'Too many sign-in terminals are open; close one first.' })
    }
    let process: PtyProcess
    try {
      process = PtyProcess.spawn({ file: spec.command, args: [...spec.args], cwd: spec.cwd, env: { TERM: 'xterm-256color', ...spec.env } })
    } catch (error) {
      return fail({ kind: 'agent-spawn-failed', message: `Cannot start ${spec.command}: ${error instanceof Error ? error.message : String(error)}` })
    }
    this.logger?.info(`login terminal for ${agentId} started pid=${process.pid}`)
    const terminalId = `auth-${randomUUID()}`
    // Output is coalesced like the log (≤ 10 events/s) and redacted: the process has the agent's secrets in its env.
    const output = new LogStream(this.secrets, this.scheduler, (text) => this.events.output(terminalId, text), { maxEventChars: 64 * 1024 })
    const terminal: Terminal = { agentId, process, output, cancelled: false }
    this.terminals.set(terminalId, terminal)
    process.onDidWrite((text) => output.append(text))
    void process.exited.then((ptyExit) => {
      output.flush(true)
      output.dispose()
      this.terminals.delete(terminalId)
      if (this.disposed) return
      const exit: AgentExit = { code: ptyExit.exitCode, signal: ptyExit.signal as NodeJS.Signals | null, stderrTail: '', expected: terminal.cancelled }
      this.events.exit(terminalId, { code: exit.code, signal: exit.signal })
      onExit(exit, exit.code === 0 && !terminal.cancelled)
    })
    return ok({ terminalId })
  }

  input(terminalId: string, data: string): Result<undefined> {
    const terminal = this.terminals.get(terminalId)
    if (!terminal) return fail({ kind: 'not-found', message: 'That sign-in terminal has already ended.' })
    if (terminal.process.exitStatus) return fail({ kind: 'agent-not-running', message: 'The sign-in process no longer reads input.' })
    terminal.process.write(data)
    return ok(undefined)
  }

  /** Stops it (SIGTERM to its group, then SIGKILL); a no-op when it already ended. */
  async close(terminalId: string): Promise<void> {
    const terminal = this.terminals.get(terminalId)
    if (terminal) await this.cancel(terminal)
  }

  /** Every terminal of an agent (the agent was removed). */
  async closeAgent(agentId: string): Promise<void> {
    await Promise.all([...this.terminals.values()].filter((t) => t.agentId === agentId).map((t) => this.cancel(t)))
  }

  private async cancel(terminal: Terminal): Promise<void> {
    terminal.cancelled = true
    await terminal.process.stop(1_000)
  }

  dispose(): void {
    this.disposed = true
    for (const terminal of this.terminals.values()) {
      terminal.output.dispose()
      terminal.process.dispose()
    }
    this.terminals.clear()
  }
}
