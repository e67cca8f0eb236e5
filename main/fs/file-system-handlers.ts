/**
 * `fs/read_text_file` and `fs/write_text_file` (v1, checklist G22–G26), served only inside the session's
 * roots (its working folder plus folders the person added). Refusals answer the agent with a JSON-RPC error
 * and tell the person in the session; every write shows as a diff, on the tool call it belongs to when one
 * is running, else on a tool card of Bosun's own.
 */
import type { AcpClientConnection, ClientRequestContext } from '../acp/types'
import { HandlerError, INVALID_PARAMS, RESOURCE_NOT_FOUND, sessionNotFound } from '../acp/types'
import { createConcurrencyLimit, LimitBusyError, type ConcurrencyLimit } from '../base/concurrency-limit'
import { DisposableStore, type IDisposable } from '../base/lifecycle'
import type { Logger } from '../base/log'
import type { FileRead, SessionAction, ToolCallEntry } from '../../common/session/types'
import { MAX_FILES_READ } from '../../common/session/reducer/tool-calls'
import { MAX_PATH_CHARS, confinePath } from './confine'
import { formatBytes } from '../base/format-bytes'
import { lineWindow, loneSurrogateAt, readTextFile, writeTextFileAtomic, MAX_TEXT_FILE_BYTES, type TextFile, type TextFileProblem } from './text-files'
import { bosunNotice } from '../../common/session/stop-watchdog'

export const READ_TEXT_FILE_METHOD = 'fs/read_text_file'
export const WRITE_TEXT_FILE_METHOD = 'fs/write_text_file'

/** JSON-RPC internal error. (Invalid params, a bad or refused path, is `INVALID_PARAMS`; resource not found, a missing file or an unknown session, is `RESOURCE_NOT_FOUND`.) */
const INTERNAL_ERROR = -32603

/** JSON-RPC `RequestCancelled`: the agent withdrew a read that was still waiting its turn. */
const REQUEST_CANCELLED = -32800

/**
 * Files read at once for one agent, and reads that may wait their turn. A read starts only once the agent has read
 * most of the answers waiting for it: an agent that asks for two hundred large files at once gets them as fast as it
 * reads them, and main holds a few files' text, not all of them.
 */
export const MAX_READS_AT_ONCE = 4
export const MAX_READS_WAITING = 256

/** Diffs larger than this are summarised on the card instead of carried whole. */
const MAX_DIFF_CHARS = 512 * 1024

export interface FileSystemSessionLookup {
  /** Bosun's session for an agent's session id, with its roots (cwd first). */
  getSession(agentId: string, acpSessionId: string): { sessionId: string; roots: string[] } | undefined
  /** The tool calls of a session, oldest first (to put a write's diff on the one it belongs to). */
  toolCalls(sessionId: string): readonly ToolCallEntry[]
}

export interface FileSystemHandlersOptions {
  sessions: FileSystemSessionLookup
  sink: (sessionId: string, action: SessionAction) => void
  log?: Logger
  maxFileBytes?: number
}

/** The agent a connection's file requests come from. */
export interface AgentFilesInfo {
  agentId: string
  agentName: string
  /**
   * Answer a read of a missing file (inside the session's folders) with an empty file instead of -32002 (G24). Only
   * for an agent known to fail on the standard answer: Gemini CLI reads a file before it writes it and, since its ACP
   * client rejects with the plain error object, takes any error for an unreadable file, so it could create no new file
   * (google-gemini/gemini-cli#9280, #17588, still so in 0.61). Zed opens an empty buffer for such a path.
   */
  missingFileReadsEmpty?: boolean
}

/** Agents whose `agentInfo.name` gets {@link AgentFilesInfo.missingFileReadsEmpty}. */
export const READS_MISSING_FILES_AS_EMPTY: ReadonlySet<string> = new Set(['gemini-cli'])

export class FileSystemHandlers {
  private writeCount = 0

  constructor(private readonly options: FileSystemHandlersOptions) {}

  /** Registers both methods on the connection; the registration ends with the returned disposable. */
  attach(connection: Pick<AcpClientConnection, 'handlers'>, info: AgentFilesInfo): IDisposable {
    const store = new DisposableStore()
    const reads = createConcurrencyLimit(MAX_READS_AT_ONCE, MAX_READS_WAITING)
    store.add(connection.handlers.registerRequest(READ_TEXT_FILE_METHOD, (params, context) => this.readInTurn(reads, info, params, context)))
    store.add(connection.handlers.registerRequest(WRITE_TEXT_FILE_METHOD, (params, context) => this.handleWriteTextFile(info, params, context)))
    return store
  }

  /** {@link handleReadTextFile} in its turn among the agent's reads, once the agent has room for the answer. */
  private async readInTurn(reads: ConcurrencyLimit, info: AgentFilesInfo, params: unknown, context: ClientRequestContext): Promise<{ content: string }> {
    try {
      return await reads.run(async () => {
        await context.answerRoom?.()
        if (context.signal.aborted) throw new HandlerError(REQUEST_CANCELLED, 'Request cancelled')
        return this.handleReadTextFile(info, params, context)
      }, context.signal)
    } catch (error) {
      if (error instanceof LimitBusyError) {
        throw new HandlerError(INTERNAL_ERROR, `Too many file reads at once (${MAX_READS_AT_ONCE} running, ${error.waiting} waiting); ask again once some are answered.`)
      }
      if (context.signal.aborted && !(error instanceof HandlerError)) throw new HandlerError(REQUEST_CANCELLED, 'Request cancelled')
      throw error
    }
  }

  async handleReadTextFile(info: AgentFilesInfo, params: unknown, _context?: ClientRequestContext): Promise<{ content: string }> {
    const p = record(params)
    const session = this.sessionOf(info, p)
    const line = optionalCount(p?.line, 'line')
    const limit = optionalCount(p?.limit, 'limit')
    const { sessionId, realPath, path, root } = await this.confined(info, session, p, 'read')
    const file = await readTextFile(realPath, this.options.maxFileBytes ?? MAX_TEXT_FILE_BYTES, root)
    if (!file.ok && file.problem.kind === 'not-found' && info.missingFileReadsEmpty) {
      // See `missingFileReadsEmpty`: the file the agent is about to create, inside the session's folders.
      this.options.log?.info(`${info.agentName}: read ${path}: not found, answered as an empty file (the agent cannot take -32002)`)
      return { content: '' }
    }
    if (!file.ok) throw this.refuse(sessionId, info, 'read', path, file.problem)
    const content = lineWindow(file.value.text, line, limit)
    this.showRead(sessionId, path, realPath, { path, line: line ?? null, limit: limit ?? null, lines: lineCount(content), times: 1 })
    return { content }
  }

  async handleWriteTextFile(info: AgentFilesInfo, params: unknown, _context?: ClientRequestContext): Promise<Record<string, never>> {
    const p = record(params)
    const session = this.sessionOf(info, p)
    if (typeof p?.content !== 'string') throw new HandlerError(INVALID_PARAMS, 'content must be a string')
    const content = p.content
    const maxBytes = this.options.maxFileBytes ?? MAX_TEXT_FILE_BYTES
    if (Buffer.byteLength(content, 'utf8') > maxBytes) {
      throw new HandlerError(INVALID_PARAMS, `The content is larger than ${formatBytes(maxBytes)}; Bosun writes text files up to that size.`)
    }
    // UTF-8 cannot hold a lone surrogate: written, it would become U+FFFD, a file other than the one the agent sent and the diff shows.
    const lone = loneSurrogateAt(content)
    if (lone >= 0) throw new HandlerError(INVALID_PARAMS, `The content is not valid Unicode text (a lone surrogate at character ${lone}); Bosun writes text exactly or not at all.`)
    // A NUL is binary content: Bosun's own read refuses a file holding one, so written, the agent could not read it back.
    const nul = content.indexOf('\0')
    if (nul >= 0) throw new HandlerError(INVALID_PARAMS, `The content is not text (a NUL character at character ${nul}); Bosun writes text files only.`)
    // The call the write belongs to is the one running when the agent asks: OpenCode reports its edit completed while
    // Bosun still writes a large file, and a card of Bosun's own then read "Wrote …" beside the edit that made it.
    const running = this.runningCalls(session.sessionId)
    const { sessionId, realPath, path, exists, root } = await this.confined(info, session, p, 'write')
    let previous: TextFile | undefined
    if (exists) {
      const read = await readTextFile(realPath, maxBytes, root)
      // A binary or huge file is never replaced by text (that would lose data); a missing one is created.
      if (!read.ok && read.problem.kind !== 'not-found') throw this.refuse(sessionId, info, 'write', path, read.problem)
      if (read.ok) previous = read.value
    }
    const written = await writeTextFileAtomic(realPath, content, previous, root)
    if (!written.ok) throw this.refuse(sessionId, info, 'write', path, written.problem)
    this.showWrite(sessionId, running, path, realPath, previous?.text ?? null, written.value.written)
    return {}
  }

  /** The agent's session, or -32002 with the v2 `SessionNotFoundErrorData` shape (G7), before anything else the request names. */
  private sessionOf(info: { agentId: string }, p: Record<string, unknown> | undefined): { sessionId: string; roots: string[] } {
    if (typeof p?.sessionId !== 'string') throw new HandlerError(INVALID_PARAMS, 'sessionId must be a string')
    const session = this.options.sessions.getSession(info.agentId, p.sessionId)
    if (!session) throw sessionNotFound(p.sessionId)
    return session
  }

  /** The path and its confinement to the session's roots, or a JSON-RPC error (and a notice for a refused path). */
  private async confined(info: { agentName: string }, session: { sessionId: string; roots: string[] }, p: Record<string, unknown> | undefined, verb: 'read' | 'write') {
    if (typeof p?.path !== 'string') throw new HandlerError(INVALID_PARAMS, 'path must be a string')
    const path = p.path
    const confined = await confinePath(path, session.roots)
    if (!confined.ok) {
      if (confined.reason === 'outside-roots' || confined.reason === 'invalid-path') {
        this.notice(session.sessionId, 'warning', `Refused to let ${info.agentName} ${verb} ${path.slice(0, 300)}`, confined.message)
      }
      // The path as the agent sent it, unless it is longer than any path is (it has it anyway).
      throw new HandlerError(INVALID_PARAMS, confined.message, { path: path.length > MAX_PATH_CHARS ? `${path.slice(0, 120)}…` : path, reason: confined.reason })
    }
    return { sessionId: session.sessionId, realPath: confined.realPath, exists: confined.exists, root: confined.root, path }
  }

  private refuse(sessionId: string, info: { agentName: string }, verb: 'read' | 'write', path: string, problem: TextFileProblem): HandlerError {
    this.options.log?.info(`${info.agentName}: ${verb} ${path} refused (${problem.kind})`)
    if (problem.kind === 'not-found') return new HandlerError(RESOURCE_NOT_FOUND, problem.message, { uri: path })
    // Reasons the person would want to know about (a missing file is an agent's routine probe).
    if (problem.kind !== 'io-error') this.notice(sessionId, 'warning', `${info.agentName} could not ${verb} ${path.slice(0, 300)}`, problem.message)
    return new HandlerError(problem.kind === 'io-error' ? -32603 : INVALID_PARAMS, problem.message, { path, reason: problem.kind })
  }

  /**
   * The write's diff: on the tool call that names this file among those `running` when the agent asked (else the
   * running edit), appended to what it shows while it runs, and kept with it ({@link ToolCallEntry.writtenDiffs}) once
   * the agent has reported it ended; a write outside any tool call gets a completed card of Bosun's own.
   */
  private showWrite(sessionId: string, running: readonly ToolCallEntry[], path: string, realPath: string, oldText: string | null, newText: string): void {
    const tooBig = (oldText?.length ?? 0) + newText.length > MAX_DIFF_CHARS
    const diff = tooBig
      ? { type: 'content' as const, content: { type: 'text', text: `Wrote ${path} (${formatBytes(Buffer.byteLength(newText))}; too large to show as a diff).` } }
      : { type: 'diff' as const, path, oldText, newText }
    const asked = callFor(running, path, realPath, 'edit')
    // The call as it is now: the agent's updates while Bosun wrote changed its content, or ended it.
    const owner = asked && this.options.sessions.toolCalls(sessionId).findLast((t) => t.toolCallId === asked.toolCallId)
    if (owner) {
      // An ended call's content is the agent's last word: what Bosun wrote is kept apart (below), not added to it.
      if (isRunning(owner)) this.options.sink(sessionId, { type: 'updates', updates: [{ sessionUpdate: 'tool_call_update', toolCallId: owner.toolCallId, content: contentWithWrite(owner.content, diff) }] })
      // Kept apart too: the agent's next update may replace the content, and with it what Bosun wrote.
      const writtenDiffs = contentWithWrite(owner.writtenDiffs ?? [], diff) as ToolCallEntry['content']
      this.options.sink(sessionId, { type: 'file_written', toolCallId: owner.toolCallId, writtenDiffs })
      return
    }
    this.options.sink(sessionId, {
      type: 'updates',
      updates: [
        {
          sessionUpdate: 'tool_call',
          toolCallId: `bosun-fs-write-${++this.writeCount}-${Date.now().toString(36)}`,
          title: `${oldText === null ? 'Created' : 'Wrote'} ${path}`,
          kind: 'edit',
          status: 'completed',
          locations: [{ path }],
          content: [diff],
        },
      ],
    })
  }

  /**
   * A read on the running tool call that names this file (else the running read, else the newest running call): its
   * path and lines, not its text. A read outside any tool call is not shown (agents read routinely).
   */
  private showRead(sessionId: string, path: string, realPath: string, read: FileRead): void {
    const running = this.runningCalls(sessionId)
    const owner = callFor(running, path, realPath, 'read') ?? running[0]
    if (owner) this.options.sink(sessionId, { type: 'file_read', toolCallId: owner.toolCallId, filesRead: readsWithRead(owner.filesRead ?? [], read) })
  }

  /** The session's tool calls still running, newest first. */
  private runningCalls(sessionId: string): ToolCallEntry[] {
    const calls = this.options.sessions.toolCalls(sessionId)
    const running: ToolCallEntry[] = []
    for (let i = calls.length - 1; i >= 0; i--) if (isRunning(calls[i]!)) running.push(calls[i]!)
    return running
  }

  private notice(sessionId: string, severity: 'warning' | 'info', title: string, description: string): void {
    this.options.sink(sessionId, { type: 'updates', updates: [bosunNotice(severity, title, description)] })
  }
}

/** Content items a running tool call keeps as Bosun adds writes to it, and the diff text among them. */
export const MAX_TOOL_CONTENT_ITEMS = 32
export const MAX_TOOL_DIFF_CHARS = 4 * MAX_DIFF_CHARS
/** The `_meta` key of the note that counts the items left out (read back at the next write). */
const OMITTED_META = 'bosun/omitted'

type ContentItem = { type?: unknown; path?: unknown; oldText?: unknown; newText?: unknown; content?: unknown; _meta?: unknown }

const diffChars = (item: ContentItem): number =>
  item.type === 'diff' ? (typeof item.oldText === 'string' ? item.oldText.length : 0) + (typeof item.newText === 'string' ? item.newText.length : 0) : 0

const omittedBy = (item: ContentItem): number => {
  const meta = item._meta as Record<string, unknown> | undefined
  const count = meta?.[OMITTED_META]
  return typeof count === 'number' && Number.isInteger(count) && count > 0 ? count : 0
}

/**
 * A running tool call's content with one more write: a file written again shows one diff, from before its first write
 * in this tool call to after its last; past {@link MAX_TOOL_CONTENT_ITEMS} items or {@link MAX_TOOL_DIFF_CHARS} of
 * diff text the oldest items give way to one note that counts them. An agent that writes without end in one tool
 * call grows its card by one diff's worth at most, not by everything it wrote so far (each update carries the whole
 * content).
 */
export function contentWithWrite(existing: readonly unknown[], written: { type: 'diff'; path: string; oldText: string | null; newText: string } | { type: 'content'; content: unknown }): unknown[] {
  const items = [...existing] as ContentItem[]
  let omitted = 0
  const note = items.findIndex((item) => omittedBy(item) > 0)
  if (note >= 0) omitted = omittedBy(items.splice(note, 1)[0]!)
  let next: ContentItem = written
  if (written.type === 'diff') {
    const earlier = items.findIndex((item) => item.type === 'diff' && item.path === written.path)
    if (earlier >= 0) {
      const first = items.splice(earlier, 1)[0]!
      const oldText = typeof first.oldText === 'string' ? first.oldText : null
      next = (oldText?.length ?? 0) + written.newText.length > MAX_DIFF_CHARS
        ? { type: 'content', content: { type: 'text', text: `Wrote ${written.path} again (${formatBytes(Buffer.byteLength(written.newText))}; too large to show as a diff).` } }
        : { type: 'diff', path: written.path, oldText, newText: written.newText }
    }
  }
  items.push(next)
  let chars = items.reduce((sum, item) => sum + diffChars(item), 0)
  while (items.length > 1 && (items.length > MAX_TOOL_CONTENT_ITEMS - 1 || chars > MAX_TOOL_DIFF_CHARS)) {
    chars -= diffChars(items.shift()!)
    omitted++
  }
  if (omitted > 0) {
    const text = `${omitted} earlier ${omitted === 1 ? 'item is' : 'items are'} not shown here (Bosun keeps the last ${MAX_TOOL_CONTENT_ITEMS} of a tool call's files and diffs).`
    items.unshift({ type: 'content', content: { type: 'text', text }, _meta: { [OMITTED_META]: omitted } } as ContentItem)
  }
  return items
}

const isRunning = (call: ToolCallEntry) => call.status === 'pending' || call.status === 'in_progress'

/** The running call (newest first) a read or write of a file belongs to: the one naming the file, else the one of `kind`. */
function callFor(running: readonly ToolCallEntry[], path: string, realPath: string, kind: 'read' | 'edit'): ToolCallEntry | undefined {
  return running.find((t) => t.locations.some((l) => l.path === path || l.path === realPath)) ?? running.find((t) => t.toolKind === kind)
}

/**
 * A tool call's reads with one more: the same window of the same file read again counts once more, moved last; past
 * {@link MAX_FILES_READ} the oldest give way.
 */
export function readsWithRead(existing: readonly FileRead[], read: FileRead): FileRead[] {
  const same = (r: FileRead) => r.path === read.path && r.line === read.line && r.limit === read.limit
  const earlier = existing.find(same)
  const next = earlier ? { ...read, times: Math.min(earlier.times + 1, Number.MAX_SAFE_INTEGER) } : read
  return [...existing.filter((r) => !same(r)), next].slice(-MAX_FILES_READ)
}

/** Lines in a window of text (a last line without its newline counts). */
function lineCount(text: string): number {
  if (text === '') return 0
  let n = 0
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++
  return text.endsWith('\n') ? n : n + 1
}

/** `line` / `limit`: absent, null, or a non-negative integer; anything else is -32602 (G23). */
function optionalCount(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new HandlerError(INVALID_PARAMS, `${name} must be a non-negative integer`)
  return value
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
}
