import { promises as fs } from 'node:fs'
import { dirname } from 'node:path'
import type { IDisposable } from '../base/lifecycle'
import type { Logger } from '../base/log'

export interface AgentLogFileOptions {
  /** When the file would grow past this, it is renamed to `<path>.1` (replacing the previous one) and restarted. */
  maxBytes?: number
  /** Text waiting for the disk beyond this is dropped (and the drop noted in the file): the agent is never slowed down. */
  maxQueuedBytes?: number
  /** Applied to every appended text before it is queued (replaces known secret values). */
  redact?: (text: string) => string
  logger?: Logger
}

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
  private disposed = false

  constructor(
    readonly path: string,
    private readonly options: AgentLogFileOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? 5 * 1024 * 1024
    this.maxQueuedBytes = options.maxQueuedBytes ?? 1024 * 1024
  }

  append(raw: string): void {
    if (!raw || this.broken || this.disposed) return
    const text = this.options.redact ? this.options.redact(raw) : raw
    if (this.queuedBytes + text.length > this.maxQueuedBytes) {
      this.droppedBytes += text.length
      return
    }
    this.queue.push(text)
    this.queuedBytes += text.length
    this.draining ??= this.drain()
  }

  /** Appends one line with an ISO timestamp. */
  appendLine(line: string): void {
    this.append(`${new Date().toISOString()} ${line}\n`)
  }

  /** Resolves when everything appended so far is on disk (or abandoned after an error). */
  async flush(): Promise<void> {
    while (this.draining) await this.draining
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
      this.options.logger?.warn(`cannot write agent log ${this.path}; logging to it stops`, error)
    } finally {
      this.draining = undefined
    }
  }

  private async write(text: string): Promise<void> {
    const bytes = Buffer.byteLength(text)
    if (this.size === undefined) {
      await fs.mkdir(dirname(this.path), { recursive: true })
      this.size = await fs.stat(this.path).then(
        (s) => s.size,
        () => 0,
      )
    }
    if (this.size > 0 && this.size + bytes > this.maxBytes) {
      await fs.rename(this.path, `${this.path}.1`)
      this.size = 0
    }
    await fs.appendFile(this.path, text, { mode: 0o600 })
    this.size += bytes
  }

  /** Stops accepting text; what is queued is still written (await {@link flush} to know when). */
  dispose(): void {
    this.disposed = true
  }
}
