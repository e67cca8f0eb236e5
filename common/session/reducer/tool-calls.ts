/**
 * Tool calls (`tool_call`, `tool_call_update`, v2 `tool_call_content_chunk`) and v2 display-only terminals.
 */
import type { FileRead, TerminalView, ToolCallCancel, ToolCallContent, ToolCallEntry } from '../types'
import { FINISHED_TOOL_STATUSES, cutText, fittingToolMeta, isObject, isString, NONE, parseLocations, parseToolContent, patchedToolMeta } from './draft'
import type { Draft, Json, Update } from './draft'
import { cleanText } from '../title'
import { itemsCut, TRUNCATION_MARKER } from '../../bounded'

// ---------------------------------------------------------------------------------------------------------
// Tool calls
// ---------------------------------------------------------------------------------------------------------

export function findToolCall(d: Draft, rawId: string): number {
  const toolCallId = storableId(rawId)
  return d.find('tool_call', toolCallId)
}

/**
 * A tool call's id as the history keeps it (lone surrogates and NUL become U+FFFD): the same id, live and after a
 * restore, so the agent's later updates to it still find it. An id with neither (all real ones) is itself.
 */
// eslint-disable-next-line no-control-regex
const storableId = (id: string): string => (/[\uD800-\uDFFF\u0000]/.test(id) ? cleanText(id) : id)

/**
 * A tool call's title is cut here (with "…"): agents put whole commands in it (a multi-line script stays whole at this
 * size), and every card, approval and list draws it; the command itself is shown from `rawInput`.
 */
export const MAX_TOOL_TITLE_CHARS = 4_096

/** The tool call's position, creating it with defaults (no title, kind other, status pending) when first seen. */
export function ensureToolCall(d: Draft, rawId: string): number {
  const toolCallId = storableId(rawId)
  const i = findToolCall(d, toolCallId)
  if (i >= 0) return i
  const entry: ToolCallEntry = {
    kind: 'tool_call',
    id: `tool:${toolCallId}`,
    toolCallId,
    title: null,
    toolKind: 'other',
    status: 'pending',
    content: NONE,
    locations: NONE,
    permissionIds: NONE,
    elicitationIds: NONE,
  }
  return d.push(entry)
}

/**
 * Applies a tool call patch (v1 `tool_call`/`tool_call_update`, v2 `tool_call_update`, or a permission's tool
 * call). v1: `null` ≡ omitted ≡ unchanged. v2: `null` clears (kind → other, status → pending, title/name unset,
 * arrays cleared, capabilities removed). `content`/`locations` replace whole arrays. `_meta` patches by key.
 */
export function patchToolCall(d: Draft, i: number, u: Json): void {
  const t = d.mutEntry<ToolCallEntry>(i)
  const clear = d.v2
  // The update's own keys, not every field Bosun knows: an update carries a few of them. Each field is
  // independent of the others, so the order they come in does not matter.
  for (const key in u) {
    const value = u[key]
    // Absent, or null where null does not clear (v1).
    if (value === undefined || (value === null && !clear)) continue
    switch (key) {
      case 'title':
        if (isString(value)) t.title = cutText(value, MAX_TOOL_TITLE_CHARS)
        else if (value === null) t.title = null
        break
      case 'name':
        if (isString(value)) t.name = value
        else if (value === null) delete t.name
        break
      case 'kind':
        if (isString(value)) t.toolKind = value
        else if (value === null) t.toolKind = 'other'
        break
      case 'status':
        // A call the person's Stop cancelled that the agent then reports failed failed because it was stopped:
        // claude-agent-acp reports a command it interrupted so, and it read as a red failure nobody asked about (F16).
        if (value === 'failed' && t.status === 'cancelled' && d.s.turn.stopRequested === true) break
        if (isString(value)) t.status = value
        else if (value === null) t.status = 'pending'
        break
      case 'content':
        if (Array.isArray(value)) t.content = d.own(value.map(parseToolContent))
        else if (value === null) t.content = d.own([])
        break
      case 'locations': {
        const cut = Array.isArray(value) ? itemsCut(value[value.length - 1]) : 0
        if (Array.isArray(value)) t.locations = d.own(parseLocations(value))
        else if (value === null) t.locations = d.own([])
        if (cut > 0) t.locationsNotKept = cut
        else delete t.locationsNotKept
        break
      }
      case 'rawInput':
        if (value === null) delete t.rawInput
        else t.rawInput = value
        break
      case 'rawOutput':
        if (value === null) delete t.rawOutput
        else t.rawOutput = value
        break
      case 'capabilities':
        // Replaced whole; a malformed value means no controls, so Bosun never sends what the agent did not advertise (E15).
        if (isObject(value)) t.capabilities = value
        else delete t.capabilities
        break
      case '_meta':
        if (value === null) delete t._meta
        else if (isObject(value)) {
          const meta = patchedToolMeta(t._meta, value)
          if (meta) t._meta = meta
          else delete t._meta
        }
        break
      case FROM_SUBAGENT: {
        const title = subagentTitle(d, value)
        if (title !== undefined) t.subagent = title
        // Whose call it is, for its Cancel (main checks the session is a subagent this one announced).
        if (isString(value) && value.length > 0 && value.length <= MAX_SUBAGENT_SESSION_ID_CHARS) t.subagentSessionId = value
        break
      }
      case 'sessionUpdate':
      case 'toolCallId':
        break
      default:
        // A field this version of Bosun does not know (a newer schema's, an agent's own): kept by key, shown as it is.
        patchExtra(t, key, value)
    }
  }
}

/** Most unknown fields kept per tool call: an agent cannot grow one without end with new names. */
export const MAX_TOOL_EXTRA_FIELDS = 32

function patchExtra(t: ToolCallEntry, key: string, value: unknown): void {
  if (value === null) {
    if (t.extra && key in t.extra) {
      const { [key]: _gone, ...rest } = t.extra
      if (Object.keys(rest).length > 0) t.extra = rest
      else delete t.extra
    }
    return
  }
  if (!t.extra || key in t.extra || Object.keys(t.extra).length < MAX_TOOL_EXTRA_FIELDS) {
    const extra: Record<string, unknown> = { ...t.extra }
    // A key like `__proto__` stays an own field.
    Object.defineProperty(extra, key, { value, enumerable: true, writable: true, configurable: true })
    t.extra = extra
  }
}

/** The updates whose `_meta` patches a tool call's or a terminal's ({@link patchedToolMeta}). */
const TOOL_META_UPDATES = new Set(['tool_call', 'tool_call_update', 'terminal_update'])

/**
 * `update` without the `_meta` keys no session keeps (each over `MAX_META_CHARS` alone, such as claude-agent-acp's
 * v1 copy of each tool's whole result): main cuts them as the update arrives, so what a session's budget counts, what
 * is queued and what goes to the window is what the session keeps. `update` itself when nothing is cut.
 */
export function withoutUnkeptToolMeta<T extends { sessionUpdate: string }>(update: T): T {
  const meta = (update as Json)._meta
  if (!TOOL_META_UPDATES.has(update.sessionUpdate) || !isObject(meta)) return update
  const fitting = fittingToolMeta(meta)
  if (fitting === meta) return update
  // The terminal extension is applied, not kept as `_meta`: a command's output over 8 KiB in one report is kept in its
  // terminal (bounded there), so it stays for the reducer to apply (and is counted as what the session keeps).
  for (const key of TERMINAL_META_KEYS) if (Object.hasOwn(meta, key)) fitting[key] = meta[key]
  return { ...update, _meta: fitting }
}

/**
 * `update` with a command's output that the v1 terminal extension brings in one report (`_meta.terminal_output` or
 * `terminal_output_delta`, its `data`) cut to its last `max` characters, marked where it was cut: the end of an output
 * is what a command said last, and the general bound on a string keeps a string's start (codex-acp sent the last
 * megabyte of a 50,000-line output in one report, and its last line gave way to the marker). `update` itself when
 * nothing is that long. Any value is taken: main calls it on what the agent sent, before anything else.
 */
export function withTerminalOutputTail<T>(update: T, max: number): T {
  if (!isObject(update) || !TOOL_META_UPDATES.has(update.sessionUpdate as string) || !isObject(update._meta)) return update
  const meta = update._meta
  let cut: Json | undefined
  for (const key of ['terminal_output', 'terminal_output_delta'] as const) {
    const output = meta[key]
    if (!isObject(output) || !isString(output.data) || output.data.length <= max) continue
    cut ??= { ...meta }
    cut[key] = { ...output, data: lastChars(output.data, max) }
  }
  return cut ? ({ ...update, _meta: cut } as T) : update
}

/** The last `max` characters of `text` at most, from a line start near the cut when there is one, after a marker line. */
function lastChars(text: string, max: number): string {
  const marker = (dropped: number) => `${TRUNCATION_MARKER} (${dropped} earlier characters)\n`
  let from = text.length - max + marker(text.length).length
  const newline = text.indexOf('\n', from)
  if (newline >= 0 && newline - from < 4096) from = newline + 1
  // Not the second half of a surrogate pair.
  else if (/[\uDC00-\uDFFF]/.test(text.charAt(from))) from++
  return marker(from) + text.slice(from)
}

/** The `_meta` keys of the v1 terminal extension ({@link applyTerminalMeta}). */
const TERMINAL_META_KEYS = ['terminal_info', 'terminal_output', 'terminal_output_delta', 'terminal_exit'] as const

/** A v2 subagent's card's id (see subagents.ts): no agent's tool call id starts with it (tool call ids are the agent's, these are Bosun's). */
export const subagentCardId = (childSessionId: string): string => `subagent:${childSessionId}`
/** Whether a tool call id is a subagent's card's ({@link subagentCardId}). */
export const isSubagentCardId = (toolCallId: string): boolean => toolCallId.startsWith('subagent:')

/**
 * The key main sets, to the subagent's session id, on a subagent's tool call update it routes to the parent. Display
 * only: an agent that sets it itself can name no more than a subagent it announced, whose session it could use as well.
 */
export const FROM_SUBAGENT = 'fromSubagent'

/** A subagent's session id a tool call keeps (main adopts no longer ids). */
export const MAX_SUBAGENT_SESSION_ID_CHARS = 1024

/** The title of the card of the subagent `childSessionId`, if the session announced it. */
export function subagentTitle(d: Draft, childSessionId: unknown): string | undefined {
  if (!isString(childSessionId)) return undefined
  const i = findToolCall(d, subagentCardId(childSessionId))
  return i >= 0 ? ((d.s.entries[i] as ToolCallEntry).title ?? undefined) : undefined
}

export function applyToolCall(d: Draft, u: Update): void {
  if (!isString(u.toolCallId)) return
  const i = ensureToolCall(d, u.toolCallId)
  patchToolCall(d, i, u)
  if (!d.v2 && isObject(u._meta)) applyTerminalMeta(d, u._meta, d.s.entries[i] as ToolCallEntry)
  if (!d.v2 && u.rawInput !== undefined) nameAgentTerminals(d, d.s.entries[i] as ToolCallEntry)
}

/** Diffs of Bosun's writes a tool call keeps (main keeps fewer: see `contentWithWrite`). */
const MAX_WRITTEN_DIFFS = 64

/** Bosun's writes for a tool call of the session ({@link ToolCallEntry.writtenDiffs}); an unknown call is left alone. */
export function applyFileWritten(d: Draft, toolCallId: unknown, writtenDiffs: unknown): void {
  if (!isString(toolCallId) || !Array.isArray(writtenDiffs)) return
  const i = findToolCall(d, toolCallId)
  if (i < 0) return
  d.mutEntry<ToolCallEntry>(i).writtenDiffs = d.own(writtenDiffs.slice(-MAX_WRITTEN_DIFFS) as ToolCallContent[])
}

/** Reads a tool call keeps (the oldest give way). */
export const MAX_FILES_READ = 32

/** A read's path as a card keeps it (longer than any real path). */
const MAX_READ_PATH_CHARS = 4_096

/** Bosun's reads for a tool call of the session ({@link ToolCallEntry.filesRead}), bounded again; an unknown call is left alone. */
export function applyFileRead(d: Draft, toolCallId: unknown, filesRead: unknown): void {
  if (!isString(toolCallId) || !Array.isArray(filesRead)) return
  const i = findToolCall(d, toolCallId)
  if (i < 0) return
  const count = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0
  const reads = filesRead
    .filter((r): r is FileRead => isObject(r) && isString(r.path) && (r.line === null || count(r.line)) && (r.limit === null || count(r.limit)) && count(r.lines) && count(r.times))
    .slice(-MAX_FILES_READ)
    .map((r) => ({ path: r.path.slice(0, MAX_READ_PATH_CHARS), line: r.line, limit: r.limit, lines: r.lines, times: r.times }))
  d.mutEntry<ToolCallEntry>(i).filesRead = d.own(reads)
}

/**
 * An agent's own terminal announced before its command was known takes the command when the raw input brings it:
 * claude-agent-acp announces the terminal with `rawInput: {}` and sends the command in the next update, and the
 * card's terminal read "Terminal toolu_…" above the output.
 */
function nameAgentTerminals(d: Draft, call: ToolCallEntry): void {
  for (const item of call.content) {
    if (item.type !== 'terminal') continue
    const terminalId = (item as Json).terminalId
    if (!isString(terminalId) || !Object.hasOwn(d.s.terminals, terminalId)) continue
    const known = d.s.terminals[terminalId]!
    if (!known.agentRun || known.command != null) continue
    const command = commandText(isObject(call.rawInput) ? (call.rawInput.command ?? call.rawInput.cmd) : undefined)
    if (command !== null) mutTerminal(d, terminalId).command = command
  }
}

/**
 * v1 agents that run their commands themselves (codex-acp, claude-agent-acp) show them through the `_meta` terminal
 * extension on the tool call: `terminal_info` announces a terminal of theirs, `terminal_output` (or codex-acp's
 * `terminal_output_delta`) appends its text, `terminal_exit` ends it. Applied as the v2 display terminals are, to a
 * terminal Bosun does not run: one the agent announced this way, never one of `terminal/create` (those ids are
 * Bosun's, and their output is what Bosun saw).
 */
function applyTerminalMeta(d: Draft, meta: Json, call: ToolCallEntry): void {
  const info = terminalMeta(meta.terminal_info)
  const output = terminalMeta(meta.terminal_output) ?? terminalMeta(meta.terminal_output_delta)
  const exit = terminalMeta(meta.terminal_exit)
  const terminalId = (info ?? output ?? exit)?.terminal_id
  if (!isString(terminalId)) return
  const known = Object.hasOwn(d.s.terminals, terminalId) ? d.s.terminals[terminalId] : undefined
  if (known && !known.agentRun) return
  const t = mutTerminal(d, terminalId)
  t.agentRun = true
  if (info) {
    const command = commandText(isObject(call.rawInput) ? (call.rawInput.command ?? call.rawInput.cmd) : undefined)
    if (command !== null && t.command == null) t.command = command
    if (isString(info.cwd)) t.cwd = info.cwd
  }
  if (output && isString(output.data) && output.terminal_id === terminalId) {
    t.output += output.data
    boundOutput(t)
  }
  if (exit && exit.terminal_id === terminalId) {
    t.exitStatus = {
      exitCode: typeof exit.exit_code === 'number' && Number.isInteger(exit.exit_code) ? exit.exit_code : null,
      signal: isString(exit.signal) ? exit.signal : null,
    }
  }
}

const terminalMeta = (value: unknown): Json | null => (isObject(value) && isString(value.terminal_id) ? value : null)

/** A command as the agent's raw input gives it: a shell line, or an argv joined by spaces. */
function commandText(command: unknown): string | null {
  if (isString(command)) return cutText(command, MAX_TOOL_TITLE_CHARS)
  if (Array.isArray(command) && command.length > 0 && command.every(isString)) return cutText(command.join(' '), MAX_TOOL_TITLE_CHARS)
  return null
}

/** v2 `tool_call_content_chunk`: appends one item; a first-seen id creates the tool call (H22). */
export function applyToolContentChunk(d: Draft, u: Update): void {
  if (!isString(u.toolCallId) || !isObject(u.content)) return
  const t = d.mutEntry<ToolCallEntry>(ensureToolCall(d, u.toolCallId))
  d.mutArray<ToolCallContent>(t, 'content').push(parseToolContent(u.content))
}

// ---------------------------------------------------------------------------------------------------------
// Terminals (v2 display-only): base64 output, UTF-8 decoded across chunk boundaries
// ---------------------------------------------------------------------------------------------------------

export const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
export const BASE64_VALUES = new Int16Array(128).fill(-1)
for (let i = 0; i < BASE64.length; i++) BASE64_VALUES[BASE64.charCodeAt(i)] = i

/** Decodes standard base64 (whitespace and padding tolerated); `null` when it is not base64. */
export function decodeBase64(text: string): Uint8Array | null {
  const out = new Uint8Array(Math.floor((text.length * 3) / 4) + 3)
  let length = 0
  let buffer = 0
  let bits = 0
  let padding = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === 61 /* = */) {
      padding = true
      continue
    }
    if (code === 32 || code === 10 || code === 13 || code === 9) continue
    const value = code < 128 ? BASE64_VALUES[code]! : -1
    if (value < 0 || padding) return null
    buffer = (buffer << 6) | value
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[length++] = (buffer >> bits) & 0xff
    }
  }
  return out.subarray(0, length)
}

/** How many trailing bytes form an incomplete (but so far valid) UTF-8 sequence. */
export function incompleteTail(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!
    if ((byte & 0xc0) === 0x80) continue // continuation byte: keep looking for the lead byte
    const needed = byte >= 0xf0 && byte <= 0xf7 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1
    return needed > back ? back : 0
  }
  return 0
}

export const utf8 = new TextDecoder('utf-8')

/** Decodes `pending + bytes`, keeping an incomplete trailing sequence for the next chunk. */
export function decodeUtf8(pending: readonly number[] | undefined, bytes: Uint8Array): { text: string; pending: number[] } {
  let all = bytes
  if (pending && pending.length > 0) {
    all = new Uint8Array(pending.length + bytes.length)
    all.set(pending, 0)
    all.set(bytes, pending.length)
  }
  const tail = incompleteTail(all)
  const complete = tail === 0 ? all : all.subarray(0, all.length - tail)
  return { text: isAscii(complete) ? asciiText(complete) : utf8.decode(complete), pending: tail === 0 ? [] : Array.from(all.subarray(all.length - tail)) }
}

/** Terminal output is mostly ASCII; small ASCII chunks skip the decoder. */
export function isAscii(bytes: Uint8Array): boolean {
  if (bytes.length > 4096) return false
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return false
  return true
}

export function asciiText(bytes: Uint8Array): string {
  return String.fromCharCode.apply(null, bytes as unknown as number[])
}

export function mutTerminal(d: Draft, terminalId: string): TerminalView {
  const terminals = d.mutRecord('terminals')
  // Own keys only: an agent's `constructor` or `__proto__` is a terminal id like any other.
  const current = Object.hasOwn(terminals, terminalId) ? terminals[terminalId] : undefined
  if (current && d.isOwned(current)) return current
  const next = d.own<TerminalView>(current ? { ...current } : { terminalId, output: '' })
  Object.defineProperty(terminals, terminalId, { value: next, enumerable: true, writable: true, configurable: true })
  return next
}

export function setPending(t: TerminalView, pending: number[]): void {
  if (pending.length > 0) t.pendingUtf8 = pending
  else delete t.pendingUtf8
}

/** v2 `terminal_update`: an upsert; `output` is an authoritative snapshot that replaces earlier bytes (H25). */
export function applyTerminalUpdate(d: Draft, u: Update): void {
  if (!isString(u.terminalId)) return
  let decoded: { text: string; pending: number[] } | null = null
  // A malformed snapshot leaves the output as it was; the update's other fields still apply (default on error).
  const bytes = isObject(u.output) && isString(u.output.data) ? decodeBase64(u.output.data) : null
  if (bytes) decoded = decodeUtf8(undefined, bytes)
  const t = mutTerminal(d, u.terminalId)
  delete t.agentGone
  if (decoded) {
    t.output = decoded.text
    setPending(t, decoded.pending)
    delete t.truncated
    boundOutput(t)
    markRanOnAfterStop(d, t)
  } else if (u.output === null) {
    t.output = ''
    setPending(t, [])
    delete t.truncated
  }
  // Drawn on the card like a tool call's command, and kept for every terminal the session ever had: bounded alike.
  if (isString(u.command) || u.command === null) t.command = u.command === null ? null : cutText(u.command, MAX_TOOL_TITLE_CHARS)
  if (isString(u.cwd) || u.cwd === null) t.cwd = u.cwd === null ? null : cutText(u.cwd, MAX_TOOL_TITLE_CHARS)
  if (isObject(u.exitStatus)) t.exitStatus = parseExitStatus(u.exitStatus)
  else if (u.exitStatus === null) t.exitStatus = null
  if (u.size === null) t.size = null
  else if (isTerminalSize(u.size)) t.size = u.size as TerminalView['size']
  applyTerminalExtras(t, u)
}

/** Unknown `terminal_update` fields kept per terminal. */
export const MAX_TERMINAL_EXTRA_KEYS = 64

/** The fields of `terminal_update` the reducer knows; any other key is kept in `extra`. */
const TERMINAL_UPDATE_KEYS = new Set(['sessionUpdate', 'terminalId', 'command', 'cwd', 'output', 'exitStatus', 'size', 'capabilities', '_meta'])

/**
 * v2 `capabilities` (replaced whole; `null` clears; a malformed value means no controls, so Bosun never sends
 * a request the agent did not advertise), `_meta` (patched by key) and unknown fields (kept, patched by key).
 */
function applyTerminalExtras(t: TerminalView, u: Update): void {
  if (u.capabilities !== undefined) {
    if (isObject(u.capabilities)) t.capabilities = u.capabilities
    else delete t.capabilities
  }
  if (u._meta === null) delete t._meta
  else if (isObject(u._meta)) {
    const meta = patchedToolMeta(t._meta, u._meta)
    if (meta) t._meta = meta
    else delete t._meta
  }
  let extra: Record<string, unknown> | undefined
  for (const key of Object.keys(u)) {
    if (TERMINAL_UPDATE_KEYS.has(key) || u[key] === undefined) continue
    extra ??= { ...t.extra }
    if (u[key] === null) delete extra[key]
    // Bounded: an agent inventing a new key on every update must not grow the terminal without end.
    else if (Object.hasOwn(extra, key) || Object.keys(extra).length < MAX_TERMINAL_EXTRA_KEYS) {
      Object.defineProperty(extra, key, { value: u[key], enumerable: true, writable: true, configurable: true })
    }
  }
  if (extra) {
    if (Object.keys(extra).length > 0) t.extra = extra
    else delete t.extra
  }
}

/**
 * A concrete exit status (its presence means exited), other keys kept: an `exitCode` that is not an integer or
 * a `signal` that is not a string is dropped (omitted and `null` mean "not known" alike).
 */
function parseExitStatus(value: Json): NonNullable<TerminalView['exitStatus']> {
  const status: Json = { ...value }
  if (status.exitCode !== null && !(typeof status.exitCode === 'number' && Number.isInteger(status.exitCode))) delete status.exitCode
  if (status.signal !== null && !isString(status.signal)) delete status.signal
  return status as NonNullable<TerminalView['exitStatus']>
}

function isTerminalSize(value: unknown): boolean {
  const cell = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 65535
  return isObject(value) && cell(value.cols) && cell(value.rows)
}

/** How much output Bosun keeps per terminal (characters); past it the oldest output is dropped. */
export const MAX_TERMINAL_OUTPUT_CHARS = 2 * 1024 * 1024

/** Keeps the last {@link MAX_TERMINAL_OUTPUT_CHARS} of the output (a `yes` in a terminal must not grow main without end). */
function boundOutput(t: TerminalView): void {
  if (t.output.length <= MAX_TERMINAL_OUTPUT_CHARS) return
  // Cut at a line start where there is one near, so the kept part begins cleanly.
  let from = t.output.length - MAX_TERMINAL_OUTPUT_CHARS
  const newline = t.output.indexOf('\n', from)
  if (newline >= 0 && newline - from < 4096) from = newline + 1
  t.output = t.output.slice(from)
  t.truncated = true
}

/** Bosun's `terminal/cancel` was accepted: shown as cancelling until the agent reports the exit status (E16). */
export function applyTerminalCancelRequested(d: Draft, terminalId: unknown): void {
  if (!isString(terminalId) || !Object.hasOwn(d.s.terminals, terminalId)) return
  const t = mutTerminal(d, terminalId)
  t.cancelRequested = true
  delete t.cancelUnconfirmed
}

/** Main's deadline passed with no exit status: not stopping any more as far as anyone knows; an exit that came first wins. */
export function applyTerminalCancelUnconfirmed(d: Draft, terminalId: unknown): void {
  if (!isString(terminalId) || !Object.hasOwn(d.s.terminals, terminalId)) return
  const current = d.s.terminals[terminalId]!
  if (current.exitStatus || !current.cancelRequested) return
  const t = mutTerminal(d, terminalId)
  delete t.cancelRequested
  t.cancelUnconfirmed = true
}

const TOOL_CALL_CANCELS: ReadonlySet<unknown> = new Set<ToolCallCancel>(['requested', 'unconfirmed', 'refused'])

/**
 * What became of Bosun's `tool_call/cancel` (E15). A deadline that passes after the final status came, or after
 * another answer, changes nothing; an unknown call is left alone. The turn is not touched: cancelling one tool
 * call does not change the foreground state.
 */
export function applyToolCallCancel(d: Draft, toolCallId: unknown, cancel: unknown): void {
  if (!isString(toolCallId) || !TOOL_CALL_CANCELS.has(cancel)) return
  const i = findToolCall(d, toolCallId)
  if (i < 0) return
  const current = d.s.entries[i] as ToolCallEntry
  if (cancel === 'unconfirmed' && (current.cancel !== 'requested' || FINISHED_TOOL_STATUSES.has(current.status))) return
  d.mutEntry<ToolCallEntry>(i).cancel = cancel as ToolCallCancel
}

/** v2 `terminal_output_chunk`: decode this chunk's base64 on its own, then append its bytes (H25). */
export function applyTerminalChunk(d: Draft, u: Update): void {
  if (!isString(u.terminalId) || !isString(u.data)) return
  const bytes = decodeBase64(u.data)
  if (!bytes) return
  const t = mutTerminal(d, u.terminalId)
  delete t.agentGone
  const decoded = decodeUtf8(t.pendingUtf8, bytes)
  t.output += decoded.text
  setPending(t, decoded.pending)
  boundOutput(t)
  markRanOnAfterStop(d, t)
}

/** Whether a tool call's content shows the terminal `terminalId`. */
export const showsTerminal = (entry: ToolCallEntry, terminalId: string): boolean =>
  entry.content.some((c) => c.type === 'terminal' && (c as Record<string, unknown>).terminalId === terminalId)

/**
 * v2: output of a terminal that has not exited, after the person's Stop ended the turn: the agent did not stop its
 * command (codex-acp answers `session/cancel` at once and runs the command on to its end, its card marked cancelled).
 * Marked on the terminal and on the tool calls that show it, once.
 */
function markRanOnAfterStop(d: Draft, t: TerminalView): void {
  if (!d.v2 || t.ranOnAfterStop || t.exitStatus || d.s.turn.state !== 'idle' || d.s.turn.stopRequested !== true) return
  t.ranOnAfterStop = true
  const entries = d.s.entries
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!
    if (entry.kind !== 'tool_call' || entry.ranOnAfterStop) continue
    if (showsTerminal(entry, t.terminalId)) d.mutEntry<ToolCallEntry>(i).ranOnAfterStop = true
  }
}
