/**
 * The five v1 `terminal/*` methods (checklist G27–G35). `terminal/create` returns its id at once; the
 * command runs in a PTY in its own process group with Bosun's scrubbed environment, pagers turned off, plus the
 * variables the agent asked for, in a folder inside the session's roots. Output is kept for `terminal/output` as
 * plain text (escape sequences out, CRLF as LF: {@link TerminalText}) within `outputByteLimit` (tail kept, cut at
 * a character boundary), and streamed raw to the session for the tool card's terminal view.
 * Every terminal belongs to its connection and session: it is killed when the person stops the turn, and
 * released when the session closes, the agent goes away, or Bosun quits.
 */
import { randomUUID } from 'node:crypto'
import { accessSync, constants as fsConstants, statSync } from 'node:fs'
import { isAbsolute } from 'node:path'
import type { AcpClientConnection, ClientRequestContext } from '../acp/types'
import { HandlerError, INVALID_PARAMS, RESOURCE_NOT_FOUND, sessionNotFound } from '../acp/types'
import { fail, ok, type Result } from '../base/errors'
import { DisposableStore, toDisposable, type IDisposable } from '../base/lifecycle'
import type { Logger } from '../base/log'
import { RUN_TAG_NAME } from '../agents/run-tag'
import { scrubEnv } from '../config/launch'
import { confinePath } from '../fs/confine'
import { cutText } from '../../common/bounded'
import { MAX_TOOL_TITLE_CHARS } from '../../common/session/reducer/tool-calls'
import type { SessionAction } from '../../common/session/types'
import { terminalCommand } from './command-line'
import { OutputBuffer } from '../../common/terminal/output-buffer'
import { TerminalText } from '../../common/terminal/terminal-text'
import { dropUtf8Head, utf8Length } from '../../common/terminal/utf8'
import { PtyProcess, type PtyExit } from './pty-process'

export const TERMINAL_METHODS = ['terminal/create', 'terminal/output', 'terminal/wait_for_exit', 'terminal/kill', 'terminal/release'] as const

const REQUEST_CANCELLED = -32800

/** Retained for `terminal/output` when the agent gives no `outputByteLimit` (Bosun bounds what it keeps). */
export const DEFAULT_OUTPUT_BYTE_LIMIT = 1024 * 1024
/**
 * The most Bosun retains for one terminal, whatever `outputByteLimit` the agent asks for: a command that prints without
 * end (`yes`) would otherwise grow main's memory as long as it runs. Past it the oldest output goes, as with any limit,
 * and `terminal/output` says `truncated`.
 */
export const MAX_OUTPUT_BYTE_LIMIT = 4 * 1024 * 1024
/** Terminals one session may have at once (released ones do not count). */
const MAX_TERMINALS_PER_SESSION = 64
/**
 * What one session's terminals retain for `terminal/output`, together: each new terminal gets what its live siblings
 * leave of it (at least {@link MIN_SHARE_BYTES}), whatever its `outputByteLimit`. 64 terminals running `yes` at 4 MiB
 * each held 1.4 GB of main's heap (with their cards) and kept it while they ran.
 */
export const SESSION_OUTPUT_BYTES = 16 * 1024 * 1024
/** Output reaches the session at most this often. */
const DISPLAY_FLUSH_MS = 50
/**
 * What the cards of all terminals are sent, together, per flush interval ({@link DISPLAY_FLUSH_MS}) over time, shared
 * out among the terminals (each gets at least {@link MIN_DISPLAY_FLUSH_BYTES}); a terminal quiet for a while may send
 * a burst of up to {@link DISPLAY_BURST_BYTES} whole. Output faster than that for longer (`yes`, a long `cat`) is more
 * than anyone reads: the card shows its newest part in place of what it had, and the retained tail once the command
 * ends. Sent whole, one `yes` took its session past its limit of 256 MiB (which counts what the cards are sent) in
 * under a minute, and the session stopped.
 */
const DISPLAY_FLUSH_BYTES = 8 * 1024
const MIN_DISPLAY_FLUSH_BYTES = 512
const DISPLAY_BURST_BYTES = 256 * 1024
/** Display output beyond this many bytes is re-sent as a snapshot of the retained tail (the card stays cheap). */
const DISPLAY_SNAPSHOT_BYTES = 2 * 1024 * 1024
/** What one session's terminal cards show, together, shared out like {@link SESSION_OUTPUT_BYTES}. */
const SESSION_DISPLAY_BYTES = 16 * 1024 * 1024
/** The least a terminal retains and shows, however many siblings it has. */
const MIN_SHARE_BYTES = 64 * 1024
/**
 * What all sessions' terminals retain, and show, together, shared out as a session's are: a session's budget was the
 * only bound, and a hundred open sessions of one agent could each hold their 16 MiB twice over (3.2 GB).
 */
export const TOTAL_OUTPUT_BYTES = 64 * 1024 * 1024
/** Agent terminals running at once in all sessions (64 a session, in a hundred sessions, were 6,400 PTYs). */
export const MAX_TERMINALS = 256

/**
 * Set in every terminal before the agent's own `env` (which wins). Nobody can press a key in an agent's terminal, so
 * nothing may wait for one: pagers print straight through (`GIT_PAGER` also overrides a configured `core.pager`, as
 * Zed does; an empty `SYSTEMD_PAGER` turns systemctl's off) and git fails rather than ask for a password.
 */
export const NON_INTERACTIVE_ENV: Readonly<Record<string, string>> = {
  TERM: 'xterm-256color',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  MANPAGER: 'cat',
  SYSTEMD_PAGER: '',
  GIT_TERMINAL_PROMPT: '0',
}

export interface TerminalSessionLookup {
  /** `cannotContinue`: why the session cannot continue (it is full, or its agent no longer has it); no terminal starts for it. */
  getSession(agentId: string, acpSessionId: string): { sessionId: string; cwd: string; roots: string[]; cannotContinue?: string } | undefined
}

export interface TerminalHandlersOptions {
  sessions: TerminalSessionLookup
  sink: (sessionId: string, action: SessionAction) => void
  /** Bosun's own environment, scrubbed before use (tests pass their own). */
  baseEnv?: NodeJS.ProcessEnv
  log?: Logger
  /** Bounds over all sessions (tests make them small): default {@link TOTAL_OUTPUT_BYTES} and {@link MAX_TERMINALS}. */
  totalOutputBytes?: number
  maxTerminals?: number
}

interface Terminal {
  id: string
  agentId: string
  sessionId: string
  attachment: object
  process: PtyProcess
  /** What `terminal/output` answers. */
  output: TerminalText
  /** The raw stream's tail, for a snapshot of the card's terminal view. */
  displayTail: OutputBuffer
  /** Display output past this many bytes is re-sent as a snapshot of the tail (this terminal's share of the card budget). */
  displayLimit: number
  /** Output not yet sent to the session (its newest {@link DISPLAY_FLUSH_BYTES} at most), and how much was sent since the last snapshot. */
  pendingDisplay: string
  displayedBytes: number
  /** The card was last sent only the newest part of a flood: once the command ends, it gets the retained tail. */
  throttled: boolean
  /** What the card may be sent now (bytes; see {@link DISPLAY_FLUSH_BYTES}), as of `creditAt` (ms). */
  displayCredit: number
  creditAt: number
  flushTimer: NodeJS.Timeout | undefined
  subscriptions: IDisposable[]
  /** Aborted when Bosun releases the terminal: a `terminal/wait_for_exit` still pending is cancelled (B18). */
  released: AbortController
}

export class TerminalHandlers implements IDisposable {
  private readonly terminals = new Map<string, Terminal>()
  private disposed = false

  constructor(private readonly options: TerminalHandlersOptions) {}

  /** Registers the five methods; disposing (or the connection closing) releases the terminals it created. */
  attach(
    connection: Pick<AcpClientConnection, 'handlers'> & Partial<Pick<AcpClientConnection, 'onDidClose'>>,
    info: { agentId: string; agentName: string; runTag?: string | undefined },
  ): IDisposable {
    const attachment = {}
    const store = new DisposableStore()
    const register = (method: string, handler: (params: Record<string, unknown>, terminal: Terminal | undefined, context: ClientRequestContext) => Promise<unknown> | unknown) =>
      store.add(
        connection.handlers.registerRequest(method, (params, context) => {
          const p = record(params)
          if (!p || typeof p.sessionId !== 'string') throw new HandlerError(INVALID_PARAMS, 'sessionId must be a string')
          if (method === 'terminal/create') return handler(p, undefined, context)
          return handler(p, this.find(info.agentId, p), context)
        }),
      )
    register('terminal/create', (p) => this.handleCreateTerminal(info, attachment, p))
    register('terminal/output', (_p, t) => this.handleTerminalOutput(t!))
    register('terminal/wait_for_exit', (_p, t, context) => this.handleWaitForTerminalExit(t!, context.signal))
    register('terminal/kill', (_p, t) => this.handleKillTerminal(t!))
    register('terminal/release', (_p, t) => this.handleReleaseTerminal(t!))
    if (connection.onDidClose) store.add(connection.onDidClose(() => this.releaseWhere((t) => t.attachment === attachment)))
    store.add(toDisposable(() => this.releaseWhere((t) => t.attachment === attachment)))
    return store
  }

  /** Ids of live terminals of a session (tests, diagnostics). */
  terminalsOf(sessionId: string): string[] {
    return this.terminalsIn(sessionId).map((t) => t.id)
  }

  private terminalsIn(sessionId: string): Terminal[] {
    return [...this.terminals.values()].filter((t) => t.sessionId === sessionId)
  }

  /** The person stopped the turn: running commands of the session are killed (ids stay valid for the agent). */
  cancelSession(sessionId: string): void {
    for (const t of this.terminals.values()) if (t.sessionId === sessionId && !t.process.exitStatus) void t.process.stop()
  }

  /**
   * The person killed one running terminal of the session from its card: its process tree goes (SIGTERM, then
   * SIGKILL), the id stays valid and the agent still gets the exit status. Another session's terminal, or a released
   * one, is unknown here; one that already ended is left as it is.
   */
  async killForPerson(sessionId: string, terminalId: string): Promise<Result<undefined>> {
    const t = this.terminals.get(terminalId)
    if (!t || t.sessionId !== sessionId) return fail({ kind: 'not-found', message: 'This session has no such running terminal.' })
    if (t.process.exitStatus) return fail({ kind: 'invalid-argument', message: 'This terminal has already ended.' })
    this.options.log?.info(`terminal ${t.id} of session ${sessionId} killed by the person`)
    this.options.sink(sessionId, { type: 'terminal_cancel_requested', terminalId: t.id })
    await t.process.stop()
    return ok(undefined)
  }

  /** The session closed: its terminals are killed and released. */
  releaseSession(sessionId: string): void {
    this.releaseWhere((t) => t.sessionId === sessionId)
  }

  /** The agent went away: every terminal it created is killed and released. */
  releaseAgent(agentId: string): void {
    this.releaseWhere((t) => t.agentId === agentId)
  }

  private async handleCreateTerminal(info: { agentId: string; runTag?: string | undefined }, attachment: object, p: Record<string, unknown>): Promise<{ terminalId: string }> {
    if (this.disposed) throw new HandlerError(-32603, 'Bosun is shutting down')
    const session = this.sessionOf(info.agentId, p.sessionId as string)
    if (typeof p.command !== 'string' || p.command.trim() === '') throw new HandlerError(INVALID_PARAMS, 'command must be a non-empty string')
    const args = optionalList(p.args, 'args').map((a) => {
      if (typeof a !== 'string') throw new HandlerError(INVALID_PARAMS, 'args must be strings')
      return a
    })
    let env: Record<string, string> = { ...scrubEnv(this.options.baseEnv ?? process.env), ...NON_INTERACTIVE_ENV }
    for (const entry of optionalList(p.env, 'env')) {
      const pair = record(entry)
      if (!pair || typeof pair.name !== 'string' || typeof pair.value !== 'string' || pair.name === '' || pair.name.includes('=') || pair.name.includes('\0')) {
        throw new HandlerError(INVALID_PARAMS, 'env entries must be {name, value} strings')
      }
      env[pair.name] = pair.value
    }
    if (info.runTag !== undefined) {
      // First, where the scan at the agent's exit reads it, and never the agent's to change: a command the agent runs
      // that leaves its process group (`setsid`, a daemon) is found by it and goes with the agent (run-tag.ts).
      const { [RUN_TAG_NAME]: _theirs, ...rest } = env
      env = { [RUN_TAG_NAME]: info.runTag, ...rest }
    }
    const asked = p.outputByteLimit === undefined || p.outputByteLimit === null ? DEFAULT_OUTPUT_BYTE_LIMIT : p.outputByteLimit
    if (typeof asked !== 'number' || !Number.isInteger(asked) || asked < 0) throw new HandlerError(INVALID_PARAMS, 'outputByteLimit must be a non-negative integer')
    let cwd = session.cwd
    if (p.cwd !== undefined && p.cwd !== null) {
      if (typeof p.cwd !== 'string' || !isAbsolute(p.cwd)) throw new HandlerError(INVALID_PARAMS, 'cwd must be an absolute path')
      cwd = p.cwd
    }
    const confined = await confinePath(cwd, session.roots)
    if (!confined.ok) throw new HandlerError(INVALID_PARAMS, confined.message, { cwd, reason: confined.reason })
    if (!isDirectory(confined.realPath)) throw new HandlerError(INVALID_PARAMS, `${cwd} is not a folder`, { cwd, reason: 'not-a-folder' })
    if (session.cannotContinue !== undefined) {
      // A full session (or one its agent no longer has) shows nothing new: a command started for it would run unseen.
      throw new HandlerError(INVALID_PARAMS, `This session cannot continue, so Bosun runs no more commands for it: ${session.cannotContinue}`)
    }
    const siblings = this.terminalsIn(session.sessionId)
    if (siblings.length >= MAX_TERMINALS_PER_SESSION) {
      throw new HandlerError(INVALID_PARAMS, `This session already has ${MAX_TERMINALS_PER_SESSION} terminals; release some first`)
    }
    const all = [...this.terminals.values()]
    const maxTerminals = this.options.maxTerminals ?? MAX_TERMINALS
    if (all.length >= maxTerminals) throw new HandlerError(INVALID_PARAMS, `Bosun runs at most ${maxTerminals} agent terminals at once; release some first`)
    // What the session's siblings leave of its budget, and all terminals of the total, whichever is less (at least the floor).
    const total = this.options.totalOutputBytes ?? TOTAL_OUTPUT_BYTES
    const share = (budget: number, of: (t: Terminal) => number) =>
      Math.max(MIN_SHARE_BYTES, Math.min(budget - siblings.reduce((n, t) => n + of(t), 0), total - all.reduce((n, t) => n + of(t), 0)))
    const limit = Math.min(asked, MAX_OUTPUT_BYTE_LIMIT, share(SESSION_OUTPUT_BYTES, (t) => t.output.limit))
    const displayLimit = Math.min(DISPLAY_SNAPSHOT_BYTES, share(SESSION_DISPLAY_BYTES, (t) => t.displayLimit))
    // A whole shell line in `command` (no args, not a program) runs through the platform's shell, as Zed does (G28).
    const platform = process.platform
    const { file, args: argv } = terminalCommand(p.command, args, { platform, env, cwd: confined.realPath, isRunnable: (path) => isRunnable(path, platform) })
    let child: PtyProcess
    try {
      child = PtyProcess.spawn({ file, args: argv, cwd: confined.realPath, env })
    } catch (error) {
      throw new HandlerError(INVALID_PARAMS, `Cannot start ${p.command}: ${error instanceof Error ? error.message : String(error)}`)
    }
    const id = `term-${randomUUID()}`
    const terminal: Terminal = {
      id,
      agentId: info.agentId,
      sessionId: session.sessionId,
      attachment,
      process: child,
      output: new TerminalText(limit),
      displayTail: new OutputBuffer(displayLimit / 4),
      displayLimit,
      pendingDisplay: '',
      displayedBytes: 0,
      throttled: false,
      displayCredit: DISPLAY_BURST_BYTES,
      creditAt: Date.now(),
      flushTimer: undefined,
      subscriptions: [],
      released: new AbortController(),
    }
    this.terminals.set(id, terminal)
    // What the card shows (the command runs as given): bounded as the reducer keeps it, not the megabytes of arguments a
    // command line may take, once for every terminal the session ever had.
    const display = cutText([p.command, ...args].join(' '), MAX_TOOL_TITLE_CHARS)
    this.options.sink(session.sessionId, { type: 'client_terminal', update: { sessionUpdate: 'terminal_update', terminalId: id, command: display, cwd: confined.realPath } })
    terminal.subscriptions.push(
      child.onDidWrite((data) => {
        terminal.output.append(data)
        terminal.displayTail.append(data)
        terminal.pendingDisplay += data
        // More than a burst is cut to its newest part when it goes (flushDisplay): what is older is not kept.
        if (terminal.pendingDisplay.length > 2 * DISPLAY_BURST_BYTES) terminal.pendingDisplay = newestBytes(terminal.pendingDisplay, DISPLAY_BURST_BYTES + 1)
        terminal.flushTimer ??= setTimeout(() => this.flushDisplay(terminal), DISPLAY_FLUSH_MS)
      }),
    )
    void child.exited.then((exit) => this.exitedDisplay(terminal, exit))
    this.options.log?.info(`terminal ${id} started pid=${child.pid} for session ${session.sessionId}`)
    return { terminalId: id }
  }

  private handleTerminalOutput(t: Terminal): { output: string; truncated: boolean; exitStatus?: PtyExit } {
    const exit = t.process.exitStatus
    return { output: t.output.text(), truncated: t.output.truncated, ...(exit ? { exitStatus: exit } : {}) }
  }

  /**
   * The exit status, once the command exits (killed by `terminal/kill` or by the person stopping the turn, too).
   * Withdrawn by the agent (`$/cancel_request`), or ended because Bosun released the terminal before the command
   * exited (the agent's `terminal/release`, the session closing, the agent stopping, Bosun quitting): -32800, as an
   * internally cancelled request is answered (checklist B18, G31), not an exit status the command never had.
   */
  private async handleWaitForTerminalExit(t: Terminal, signal: AbortSignal): Promise<PtyExit> {
    if (t.process.exitStatus) return t.process.exitStatus
    const answered = new AbortController()
    try {
      // Settled in the order things happened: an exit before the release still answers with its status.
      return await Promise.race([
        t.process.exited,
        cancelledBy(signal, 'Request cancelled', answered.signal),
        cancelledBy(t.released.signal, 'Request cancelled: the terminal was released', answered.signal),
      ])
    } finally {
      answered.abort()
    }
  }

  private async handleKillTerminal(t: Terminal): Promise<Record<string, never>> {
    await t.process.stop()
    return {}
  }

  private handleReleaseTerminal(t: Terminal): Record<string, never> {
    this.release(t)
    return {}
  }

  /** The agent's session, or -32002 with the v2 `SessionNotFoundErrorData` shape (G7), before anything else the request names. */
  private sessionOf(agentId: string, sessionId: string): NonNullable<ReturnType<TerminalSessionLookup['getSession']>> {
    const session = this.options.sessions.getSession(agentId, sessionId)
    if (!session) throw sessionNotFound(sessionId)
    return session
  }

  private find(agentId: string, p: Record<string, unknown>): Terminal {
    const session = this.sessionOf(agentId, p.sessionId as string)
    if (typeof p.terminalId !== 'string') throw new HandlerError(INVALID_PARAMS, 'terminalId must be a string')
    const terminal = this.terminals.get(p.terminalId)
    // Another agent's or another session's terminal is as unknown as a released one.
    if (!terminal || terminal.agentId !== agentId || terminal.sessionId !== session.sessionId) {
      throw new HandlerError(RESOURCE_NOT_FOUND, `Unknown or released terminal ${p.terminalId}`, { terminalId: p.terminalId })
    }
    return terminal
  }

  private flushDisplay(t: Terminal): void {
    clearTimeout(t.flushTimer)
    t.flushTimer = undefined
    if (!t.pendingDisplay) return
    const share = Math.max(MIN_DISPLAY_FLUSH_BYTES, Math.floor(DISPLAY_FLUSH_BYTES / Math.max(1, this.terminals.size)))
    const now = Date.now()
    t.displayCredit = Math.min(DISPLAY_BURST_BYTES, t.displayCredit + (share * Math.max(0, now - t.creditAt)) / DISPLAY_FLUSH_MS)
    t.creditAt = now
    const size = utf8Length(t.pendingDisplay)
    if (size > t.displayCredit) {
      // Faster than anyone reads: the card shows the newest output in place of what it had.
      const newest = Buffer.from(newestBytes(t.pendingDisplay, share), 'utf8')
      t.pendingDisplay = ''
      t.displayedBytes = newest.length
      t.displayCredit = Math.max(0, t.displayCredit - newest.length)
      t.throttled = true
      this.options.sink(t.sessionId, { type: 'client_terminal', update: { sessionUpdate: 'terminal_update', terminalId: t.id, output: { data: newest.toString('base64') } } })
      return
    }
    t.displayCredit -= size
    const bytes = Buffer.from(t.pendingDisplay, 'utf8')
    t.pendingDisplay = ''
    t.displayedBytes += bytes.length
    if (t.displayedBytes > t.displayLimit) {
      // The card has shown a lot: replace it with the retained tail rather than grow without end.
      const tail = Buffer.from(t.displayTail.text(), 'utf8')
      t.displayedBytes = tail.length
      this.options.sink(t.sessionId, { type: 'client_terminal', update: { sessionUpdate: 'terminal_update', terminalId: t.id, output: { data: tail.toString('base64') } } })
      return
    }
    this.options.sink(t.sessionId, { type: 'client_terminal', update: { sessionUpdate: 'terminal_output_chunk', terminalId: t.id, data: bytes.toString('base64') } })
  }

  private exitedDisplay(t: Terminal, exit: PtyExit): void {
    // node-pty may deliver the last output after the exit.
    setImmediate(() => {
      this.flushDisplay(t)
      if (t.throttled) {
        // The flood is over: the card shows the retained tail, not only the newest part it was last sent.
        t.throttled = false
        const tail = Buffer.from(t.displayTail.text(), 'utf8')
        t.displayedBytes = tail.length
        this.options.sink(t.sessionId, { type: 'client_terminal', update: { sessionUpdate: 'terminal_update', terminalId: t.id, output: { data: tail.toString('base64') } } })
      }
      this.options.sink(t.sessionId, { type: 'client_terminal', update: { sessionUpdate: 'terminal_update', terminalId: t.id, exitStatus: exit } })
    })
  }

  private release(t: Terminal): void {
    if (!this.terminals.delete(t.id)) return
    this.flushDisplay(t)
    for (const sub of t.subscriptions) sub.dispose()
    // Before the kill: a pending wait must not answer the exit that the release itself causes.
    t.released.abort()
    t.process.dispose()
  }

  private releaseWhere(predicate: (t: Terminal) => boolean): void {
    for (const t of [...this.terminals.values()]) if (predicate(t)) this.release(t)
  }

  dispose(): void {
    this.disposed = true
    this.releaseWhere(() => true)
  }
}

/** A regular file this process may execute (on Windows, where there is no execute bit, any file). */
function isRunnable(path: string, platform: NodeJS.Platform): boolean {
  try {
    if (platform !== 'win32') accessSync(path, fsConstants.X_OK)
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/** Rejects with -32800 once `signal` is aborted; stops listening once `until` is. */
function cancelledBy(signal: AbortSignal, message: string, until: AbortSignal): Promise<never> {
  return new Promise<never>((_, reject) => {
    const onAbort = () => reject(new HandlerError(REQUEST_CANCELLED, message))
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true, signal: until })
  })
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/** The end of `text` in at most `bytes` UTF-8 bytes, from a character's first byte. */
function newestBytes(text: string, bytes: number): string {
  const excess = utf8Length(text) - bytes
  return excess > 0 ? dropUtf8Head(text, excess).rest : text
}

function optionalList(value: unknown, name: string): unknown[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw new HandlerError(INVALID_PARAMS, `${name} must be an array`)
  return value
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
}
