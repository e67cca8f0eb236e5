import { promises as fs } from 'node:fs'
import { appendToFile, rotateFile } from '../base/append-file'
import { dirname } from 'node:path'
import type { IDisposable } from '../base/lifecycle'
import type { Logger } from '../base/log'

export interface AgentLogFileOptions {
  /**
   * When the file would grow past this, it is renamed to `<path>.1` (replacing the previous one) and restarted; where
   * `<path>.1` cannot be replaced (a folder of that name), the file keeps its newest half in place instead.
   */
  maxBytes?: number
  /** Text waiting for the disk beyond this is dropped (and the drop noted in the file): the agent is never slowed down. */
  maxQueuedBytes?: number
  /**
   * Applied to whole lines before they are queued (replaces known secret values). Text is redacted a
   * line at a time, so a secret the agent writes in two pieces (two pipe chunks) is still one string here.
   */
  redact?: (text: string) => string
  logger?: Logger
}

/** The longest unterminated line held back for redaction. */
const MAX_PARTIAL_CHARS = 16 * 1024

/**
 * A per-agent log file (agent stderr plus lifecycle lines), bounded by rotation. Appends are queued and
 * written one at a time off the caller's path, so a chatty agent never waits on the disk. A disk error is
 * reported once and the file is abandoned; logging never breaks the agent.
 */
export class AgentLogFile implements IDisposable {
  private readonly maxBytes: number
  private readonly maxQueuedBytes: number
  private queue: string[] = []
  private queuedBytes = 0
  private droppedBytes = 0
  private size: number | undefined
  private draining: Promise<void> | undefined
  private broken = false
  /** Why logging stopped, in words a person can act on (see {@link whyLogStopped}). */
  private stoppedWhy: string | undefined
  /** Bosun's log was told once that rotation could not use `<path>.1`. */
  private rotationWarned = false
  private disposed = false
  /** The unterminated end of what was appended (redacted once its line is complete). */
  private partial = ''

  constructor(
    readonly path: string,
    private readonly options: AgentLogFileOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? 5 * 1024 * 1024
    this.maxQueuedBytes = options.maxQueuedBytes ?? 1024 * 1024
  }

  /** Logging to the file stopped after an error (a file where its folder should be, a FIFO in its place, a full disk). */
  get stopped(): boolean {
    return this.broken
  }

  /** Why logging to the file stopped, with when and what to do, or undefined while it goes on. */
  get stoppedReason(): string | undefined {
    return this.stoppedWhy
  }

  append(raw: string): void {
    if (!raw || this.broken || this.disposed) return
    let pending = this.partial + raw
    const newline = pending.lastIndexOf('\n')
    if (newline < 0 && pending.length <= MAX_PARTIAL_CHARS) {
      this.partial = pending
      return
    }
    // A line longer than the bound is written in pieces (a secret straddling the cut is the price of bounded memory).
    const cut = newline >= 0 ? newline + 1 : pending.length
    this.partial = pending.slice(cut)
    pending = pending.slice(0, cut)
    this.enqueue(pending)
  }

  private enqueue(raw: string): void {
    const text = this.options.redact ? this.options.redact(raw) : raw
    if (this.queuedBytes + text.length > this.maxQueuedBytes) {
      this.droppedBytes += text.length
      return
    }
    this.queue.push(text)
    this.queuedBytes += text.length
    this.draining ??= this.drain()
  }

  /**
   * A whole line of Bosun's own about the agent's output (such as a line it wrote on stdout that is not JSON),
   * written ahead of the agent's unfinished stderr line, which stays held back until it ends: a note that
   * arrives between two pieces of a secret would otherwise cut it in two halves that redaction does not know.
   */
  appendNote(line: string): void {
    if (!line || this.broken || this.disposed) return
    this.enqueue(line.endsWith('\n') ? line : line + '\n')
  }

  /** Appends one line with an ISO timestamp (on a line of its own). */
  appendLine(line: string): void {
    if (this.broken || this.disposed) return
    this.flushPartial()
    this.enqueue(`${new Date().toISOString()} ${line}\n`)
  }

  /** Resolves when everything appended so far is on disk (or abandoned after an error). */
  async flush(): Promise<void> {
    this.flushPartial()
    while (this.draining) await this.draining
  }

  private flushPartial(): void {
    if (!this.partial) return
    const text = this.partial.endsWith('\n') ? this.partial : this.partial + '\n'
    this.partial = ''
    this.enqueue(text)
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0 && !this.broken) {
        let text = this.queue.join('')
        this.queue = []
        this.queuedBytes = 0
        if (this.droppedBytes > 0) {
          text += `${new Date().toISOString()} [bosun] ${this.droppedBytes} characters of agent output were not logged (disk too slow)\n`
          this.droppedBytes = 0
        }
        await this.write(text)
      }
    } catch (error) {
      this.broken = true
      this.queue = []
      this.stoppedWhy = `Bosun stopped writing this log at ${new Date().toISOString()}: ${whyLogStopped(this.path, error)} It starts again when the agent next starts.`
      this.options.logger?.warn(`cannot write agent log ${this.path}; logging to it stops`, error)
    } finally {
      this.draining = undefined
    }
  }

  private async write(text: string): Promise<void> {
    const bytes = Buffer.byteLength(text)
    if (this.size === undefined) {
      await fs.mkdir(dirname(this.path), { recursive: true })
      // A regular file's size only: anything else in the log's place is never moved aside (the append refuses it).
      this.size = await fs.stat(this.path).then(
        (s) => (s.isFile() ? s.size : 0),
        () => 0,
      )
    }
    if (this.size > 0 && this.size + bytes > this.maxBytes) {
      // Where `<path>.1` cannot take the log (a folder of that name), it keeps its newest half, and a line says why.
      const rotated = await rotateFile(this.path, Math.floor(this.maxBytes / 2))
      this.size = rotated.size
      if (rotated.why) {
        if (!this.rotationWarned) this.options.logger?.warn(`agent log: ${rotated.why}`)
        this.rotationWarned = true
        text = `${new Date().toISOString()} [bosun] ${rotated.why}\n${text}`
      }
    }
    await appendToFile(this.path, text)
    this.size += Buffer.byteLength(text)
  }

  /** Stops accepting text; what is queued is still written (await {@link flush} to know when). */
  dispose(): void {
    if (!this.broken && !this.disposed) this.flushPartial()
    this.disposed = true
  }
}

/** Said, when the log is written or read, of a folder that stands where the agent's log file should be. */
export function logIsFolder(path: string): string {
  return `${path} is a folder, and Bosun keeps the agent's log in a file of that name. Move or remove that folder.`
}

/** Said, when the log is written or read, of something other than a regular file in the log's place. */
export function logIsNotAFile(path: string): string {
  return `${path} is not a regular file (a FIFO, a device, a socket or a link to one), and Bosun keeps the agent's log in a file of that name. Move or remove it.`
}

/**
 * Why a log could not be written, as a person can act on it: which file or folder, and what to do. `error` is what
 * the write threw (a system error's `code`, or the append's refusal of something that is not a regular file).
 */
export function whyLogStopped(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  const folder = dirname(path)
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return `Bosun may not write ${path} (${code}). Give it write access to ${folder} and to the file.`
    case 'EROFS':
      return `${folder} is on a disk that is read-only (EROFS).`
    case 'ENOSPC':
    case 'EDQUOT':
      return `The disk of ${folder} is full (${code}). Free some space.`
    case 'ENOTDIR':
    case 'EEXIST':
      return `A folder on the way to ${path} is a file (${code}). Move or remove that file.`
    case 'EISDIR':
      return logIsFolder(path)
  }
  const message = error instanceof Error ? error.message : String(error)
  if (message.endsWith('is not a regular file')) return logIsNotAFile(path)
  return `${message}.`
}
