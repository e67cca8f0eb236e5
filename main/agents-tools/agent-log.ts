/**
 * The agent's stderr for the log view: the tail of its log file (on request) and the live appends
 * (coalesced into at most one `agentLog` event per agent per batch interval, bounded in size). Both are
 * redacted with every known secret value; a secret split across two chunks is held back until the
 * rest arrives, so it is still replaced whole.
 */
import { lstat, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { logIsFolder, logIsNotAFile } from '../agents/agent-log-file'
import type { Scheduler } from '../agents/scheduler'
import { readFileTail } from '../base/append-file'
import type { IDisposable } from '../base/lifecycle'
import type { SecretSet } from './redaction'

export interface LogStreamOptions {
  /** Default 100 ms (≤ 10 events/s). */
  batchMs?: number
  /** Characters per event at most; older text beyond it is skipped with a marker. Default 16 Ki. */
  maxEventChars?: number
}

/** Coalesces one agent's stderr into `emit(text)` calls. */
export class LogStream implements IDisposable {
  private buffer = ''
  private skipped = 0
  private timer: IDisposable | undefined
  private readonly batchMs: number
  private readonly maxEventChars: number
  private disposed = false

  constructor(
    private readonly secrets: SecretSet,
    private readonly scheduler: Scheduler,
    private readonly emit: (text: string) => void,
    options: LogStreamOptions = {},
  ) {
    this.batchMs = options.batchMs ?? 100
    this.maxEventChars = options.maxEventChars ?? 16 * 1024
  }

  append(text: string): void {
    if (this.disposed || !text) return
    this.buffer += text
    // Bound memory between two events: keep only what one event can carry (plus room for a held-back secret prefix).
    const cap = this.maxEventChars * 2
    if (this.buffer.length > cap) {
      this.skipped += this.buffer.length - cap
      this.buffer = this.buffer.slice(-cap)
    }
    this.timer ??= this.scheduler.setTimeout(() => this.flush(false), this.batchMs)
  }

  /** Emits what is buffered; with `final`, also the held-back end (the stream ended). */
  flush(final = true): void {
    this.timer?.dispose()
    this.timer = undefined
    if (!this.buffer) return
    const hold = final ? 0 : this.secrets.pendingPrefixLength(this.buffer)
    let text = this.buffer.slice(0, this.buffer.length - hold)
    this.buffer = this.buffer.slice(this.buffer.length - hold)
    if (this.buffer) this.timer = this.scheduler.setTimeout(() => this.flush(true), this.batchMs)
    text = this.secrets.redactText(text)
    if (text.length > this.maxEventChars) {
      this.skipped += text.length - this.maxEventChars
      text = text.slice(-this.maxEventChars)
    }
    if (this.skipped > 0) {
      text = `[bosun] ${this.skipped} characters of output skipped\n${text}`
      this.skipped = 0
    }
    if (text) this.emit(text)
  }

  dispose(): void {
    this.disposed = true
    this.timer?.dispose()
    this.timer = undefined
    this.buffer = ''
  }
}

/**
 * The last `maxBytes` of the log file (and of its rotated `.1` predecessor when the current file is
 * shorter), cut at a line start, redacted. A missing file is an empty log.
 */
export async function readLogTail(path: string, maxBytes: number, secrets: SecretSet): Promise<{ text: string; truncated: boolean }> {
  const current = await readTail(path, maxBytes)
  let text = current.text
  let truncated = current.truncated
  if (!truncated && current.bytes < maxBytes) {
    // Only a regular file is the older part: anything else of that name (a folder, which the log then says) is none.
    const older = await readFileTail(`${path}.1`, maxBytes - current.bytes).catch(() => undefined)
    if (older && older.bytes > 0) {
      text = older.text + text
      truncated = older.truncated
    }
  }
  return { text: secrets.redactText(text), truncated }
}

const STARTS_AGAIN = 'The log starts again when the agent next starts.'

async function readTail(path: string, maxBytes: number): Promise<{ text: string; truncated: boolean; bytes: number }> {
  try {
    // Only a regular file: a FIFO in the log's place would hold this read until something writes it.
    return await readFileTail(path, maxBytes)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return { text: '', truncated: false, bytes: 0 }
    if (code === 'ENOTDIR') throw new Error(await fileInFolderPlace(path))
    const found = await lstat(path).catch(() => undefined)
    // Said as the writer says it when it stops (agent-log-file.ts).
    if (found?.isDirectory()) throw new Error(`The log cannot be kept: ${logIsFolder(path)} ${STARTS_AGAIN}`)
    if (found && !found.isFile()) throw new Error(`The log cannot be kept: ${logIsNotAFile(path)} ${STARTS_AGAIN}`)
    throw error
  }
}

/**
 * What ENOTDIR means for the log at `path`, in words a person can act on: which file stands where a folder of the
 * path should be (Bosun's `logs` or `logs/agents`, made into a file by hand or by another program).
 */
async function fileInFolderPlace(path: string): Promise<string> {
  for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
    const found = await stat(dir).catch(() => undefined)
    if (found && !found.isDirectory()) {
      return `The log cannot be kept: ${dir} is a file, and Bosun keeps the agents' logs in a folder of that name. Move or remove that file. ${STARTS_AGAIN}`
    }
  }
  return `The log cannot be kept: a folder on the way to ${path} is a file.`
}
