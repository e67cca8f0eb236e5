/**
 * How a transcript entry and a session's state become database text, bounded: an agent's huge tool
 * output, deeply nested raw input or invalid text never makes a row too big to read back or breaks a
 * session. What is cut says so in place (`… [truncated …]`).
 */
import type { Entry, MessageEntry, SessionState, ToolCallEntry } from '../../common/session/types'
import { cleanText } from '../../common/session/title'
import { setOwn } from '../../common/own-keys'

/** Longest string kept inside an entry (a message's text, a tool's output). */
export const MAX_STRING = 256 * 1024
/** Largest serialized entry or session state: past it, strings are cut to the budget left. */
export const MAX_BODY = 1024 * 1024
/** Deeper values are replaced by a marker (an agent's raw input may nest without end). */
export const MAX_DEPTH = 32
const MAX_ARRAY = 5_000
const MAX_KEYS = 1_000
/** Longest search text per entry: as long as the longest string stored, so whatever is kept of a message is found. */
const MAX_SEARCH_TEXT = MAX_STRING

/** A JSON-safe, bounded copy of `value`. */
export function bounded(value: unknown, budget = { left: MAX_BODY }, depth = 0): unknown {
  if (value === null || typeof value === 'boolean') return value
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (typeof value === 'string') {
    const limit = Math.max(0, Math.min(MAX_STRING, budget.left))
    const text = value.length > limit ? `${value.slice(0, limit)}… [truncated ${value.length - limit} characters]` : value
    budget.left -= Math.min(value.length, limit) + 2
    return NOT_PLAIN.test(text) ? cleanText(text) : text
  }
  if (typeof value !== 'object') return undefined
  if (depth >= MAX_DEPTH) return '[nested too deeply]'
  budget.left -= 2
  if (Array.isArray(value)) {
    const out: unknown[] = []
    for (let i = 0; i < value.length && i < MAX_ARRAY; i++) {
      const item = bounded(value[i], budget, depth + 1)
      out.push(item === undefined ? null : item)
    }
    if (value.length > MAX_ARRAY) out.push(`[${value.length - MAX_ARRAY} more items not kept]`)
    return out
  }
  const out: Record<string, unknown> = {}
  let keys = 0
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue
    if (++keys > MAX_KEYS) break
    const item = bounded((value as Record<string, unknown>)[key], budget, depth + 1)
    // Defined, not assigned: a `__proto__` key is the agent's data, kept like any other.
    if (item !== undefined) setOwn(out, cleanText(key.length > 1024 ? key.slice(0, 1024) : key), item)
    budget.left -= Math.min(key.length, 1024) + 3
  }
  return out
}

/** The row text of an entry. Its search text is taken from this body later, when the index catches up. */
export function encodeEntry(entry: Entry): { body: string } {
  return { body: plainMessageBody(entry) ?? (withinBounds(entry) ? JSON.stringify(entry) : JSON.stringify(bounded(entry))) }
}

/**
 * Whether {@link bounded} would copy `value` as it is (the same JSON): plain objects and arrays no deeper or wider
 * than it keeps, every string and key clean and no longer than it keeps, the whole within the body's budget as it
 * counts it. Looks without copying, so a flood's tool calls are written without a copy of each made and dropped
 * (most of what the history thread allocated besides the rows). Anything else is false, and goes through `bounded`.
 */
export function withinBounds(value: unknown, budget = { left: MAX_BODY }, depth = 0): boolean {
  if (typeof value === 'string') {
    budget.left -= value.length + 2
    return value.length <= MAX_STRING && budget.left >= 0 && !NOT_PLAIN.test(value)
  }
  if (value === null || typeof value === 'boolean' || typeof value === 'number' || value === undefined) return true
  if (typeof value !== 'object' || depth >= MAX_DEPTH) return false
  budget.left -= 2
  // Not a class instance (a toJSON, a getter): JSON.stringify would not read it as bounded does.
  const prototype: unknown = Object.getPrototypeOf(value)
  if (prototype === Array.prototype) {
    const array = value as unknown[]
    if (array.length > MAX_ARRAY) return false
    for (let i = 0; i < array.length; i++) if (!withinBounds(array[i], budget, depth + 1)) return false
    return budget.left >= 0
  }
  if (prototype !== Object.prototype && prototype !== null) return false
  let keys = 0
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue
    if (++keys > MAX_KEYS || key.length > 1024 || NOT_PLAIN.test(key)) return false
    if (!withinBounds((value as Record<string, unknown>)[key], budget, depth + 1)) return false
    budget.left -= key.length + 3
  }
  return budget.left >= 0
}

/** Text `cleanText` would change: any surrogate (paired ones too, to keep the test simple) or NUL. */
// eslint-disable-next-line no-control-regex
const NOT_PLAIN = /[\uD800-\uDFFF\u0000]/

/**
 * Most of a transcript: a message of plain text blocks, small, its text clean. `bounded` would copy it
 * unchanged (same keys in the same order, nothing to cut), so its JSON is written as is; anything else is
 * null and goes through `bounded`.
 */
function plainMessageBody(entry: Entry): string | null {
  const size = plainMessageSize(entry)
  return size !== null && fitsPlain(size, (entry as MessageEntry).content.length) ? JSON.stringify(entry) : null
}

/** Far inside every bound: no string is cut, the body's budget is never reached. */
const fitsPlain = (size: number, blocks: number) => size + blocks * 32 <= MAX_STRING / 2

/** The characters of a plain message's strings (what {@link fitsPlain} weighs), or null when it is not one. */
function plainMessageSize(entry: Entry): number | null {
  if (entry.kind !== 'agent_message' && entry.kind !== 'agent_thought' && entry.kind !== 'user_message') return null
  if (Object.getPrototypeOf(entry) !== Object.prototype) return null
  let size = 0
  for (const key in entry) {
    if (!Object.hasOwn(entry, key) || key.length > 64 || NOT_PLAIN.test(key)) return null
    const value = (entry as unknown as Record<string, unknown>)[key]
    if (key === 'content') continue
    if (typeof value === 'string') {
      if (NOT_PLAIN.test(value)) return null
      size += value.length
    } else if (typeof value !== 'boolean' && value !== undefined) return null
  }
  if (!Array.isArray(entry.content)) return null
  for (const block of entry.content) {
    if (block === null || typeof block !== 'object' || Object.getPrototypeOf(block) !== Object.prototype) return null
    let keys = 0
    for (const key in block) {
      if (!Object.hasOwn(block, key)) return null
      keys++
      const value = (block as Record<string, unknown>)[key]
      if ((key !== 'type' && key !== 'text') || typeof value !== 'string') return null
      size += value.length
      // Too large to pass as is whatever it holds: not scanned (a long message is written at every tick while it grows).
      if (size > MAX_STRING / 2 || NOT_PLAIN.test(value)) return null
    }
    if (keys !== 2) return null
  }
  return size
}

/**
 * A plain message's body, with what its growth needs: where its last text ends in the body, and its size as the
 * shortcut weighs it. A message streamed over many ticks is written whole at each; from its second tick on, the
 * history thread extends the body it wrote last by the new text alone ({@link grownPlainBody}) instead of
 * serializing and scanning the whole message again.
 */
export interface PlainBody {
  body: string
  textEnd: number
  size: number
}

/** {@link encodeEntry}'s body of a plain message, with where its last text ends; null for anything else. */
export function plainBody(entry: Entry): PlainBody | null {
  const size = plainMessageSize(entry)
  if (size === null || !fitsPlain(size, (entry as MessageEntry).content.length)) return null
  const tail = tailAfterLastText(entry as MessageEntry)
  if (tail === null) return null
  const body = JSON.stringify(entry)
  return body.endsWith(tail) ? { body, textEnd: body.length - tail.length, size } : null
}

/**
 * The body of a plain message after its last text block grew by `text` and nothing else changed (a growth without
 * blocks, `entry-growth.ts`), from its body before; null when the grown message no longer takes the shortcut (it
 * is then encoded whole). The same text as {@link encodeEntry} makes: JSON escapes each character on its own, and
 * the text holds no surrogate.
 */
export function grownPlainBody(before: PlainBody, text: string, blocks: number): PlainBody | null {
  const size = before.size + text.length
  if (!fitsPlain(size, blocks) || NOT_PLAIN.test(text)) return null
  const escaped = JSON.stringify(text).slice(1, -1)
  return { body: before.body.slice(0, before.textEnd) + escaped + before.body.slice(before.textEnd), textEnd: before.textEnd + escaped.length, size }
}

/** What follows the last text block's text in the JSON of a plain message: its closing quote, the rest of the block and of the message. */
function tailAfterLastText(entry: MessageEntry): string | null {
  const last = entry.content[entry.content.length - 1] as Record<string, unknown> | undefined
  if (last === undefined || last.type !== 'text') return null
  let tail = '"'
  let after = false
  for (const key in last) {
    if (key === 'text') after = true
    else if (after) tail += `,${JSON.stringify(key)}:${JSON.stringify(last[key])}`
  }
  tail += '}]'
  after = false
  for (const key in entry) {
    if (!Object.hasOwn(entry, key)) continue
    const value = (entry as unknown as Record<string, unknown>)[key]
    if (key === 'content') after = true
    else if (after && value !== undefined) tail += `,${JSON.stringify(key)}:${JSON.stringify(value)}`
  }
  return `${tail}}`
}

/** Reads an entry back; a row that does not parse is shown as an unknown entry, never dropped or thrown. */
export function decodeEntry(row: { entryId: string; kind: string; body: string }): Entry {
  try {
    const value = JSON.parse(row.body) as unknown
    if (value && typeof value === 'object' && !Array.isArray(value) && typeof (value as Entry).kind === 'string' && typeof (value as Entry).id === 'string') {
      return value as Entry
    }
  } catch {
    // Fall through: shown as unreadable.
  }
  return { kind: 'unknown', id: row.entryId, sessionUpdate: `unreadable ${row.kind}`, raw: row.body.slice(0, 4096) }
}

const blockText = (blocks: unknown): string[] =>
  Array.isArray(blocks)
    ? blocks.flatMap((b) => (b && typeof b === 'object' && typeof (b as { text?: unknown }).text === 'string' ? [(b as { text: string }).text] : []))
    : []

function commandOf(raw: unknown): string[] {
  if (!raw || typeof raw !== 'object') return []
  const out: string[] = []
  const record = raw as Record<string, unknown>
  for (const key of ['command', 'cmd', 'path', 'file_path', 'filePath', 'pattern', 'query', 'url']) {
    const value = record[key]
    if (typeof value === 'string') out.push(value)
    else if (Array.isArray(value)) out.push(value.filter((v) => typeof v === 'string').join(' '))
  }
  return out
}

/** What search finds in an entry: prompts, agent messages, tool titles, commands and paths. */
export function searchTextOf(entry: Entry): string {
  let parts: string[] = []
  switch (entry.kind) {
    // Thoughts are not searched: they are the agent's scratch work, and as long as the rest together.
    case 'user_message':
    case 'agent_message':
      parts = blockText(entry.content)
      break
    case 'tool_call': {
      const tool = entry as ToolCallEntry
      if (tool.title) parts.push(tool.title)
      parts.push(...commandOf(tool.rawInput))
      for (const location of tool.locations ?? []) if (typeof location?.path === 'string') parts.push(location.path)
      for (const content of tool.content ?? []) {
        const path = (content as { path?: unknown }).path
        if (typeof path === 'string') parts.push(path)
      }
      break
    }
    default:
      return ''
  }
  let text = parts.join('\n')
  if (text.length > MAX_SEARCH_TEXT) text = text.slice(0, MAX_SEARCH_TEXT)
  return cleanText(text)
}

export function searchTextOfBody(body: string): string {
  try {
    const value = JSON.parse(body) as unknown
    return value && typeof value === 'object' ? searchTextOf(value as Entry) : ''
  } catch {
    return ''
  }
}

/** The session-wide part of a state (everything but its entries and identity), before encoding. */
export function sessionStateFields(state: SessionState): Record<string, unknown> {
  // Notices are transient (checklist H17): a restored session does not show the last run's again.
  const { entries: _entries, sessionId: _id, acpSessionId: _acp, agentId: _agent, cwd: _cwd, protocolVersion: _v, seq: _seq, pendingEcho: _echo, notices: _notices, ...rest } = state
  return rest
}

export function encodeSessionFields(fields: Record<string, unknown>): string {
  return JSON.stringify(bounded(withTerminalTails(fields), { left: 4 * MAX_BODY }))
}

/**
 * `fields` with each terminal's output longer than a stored string cut to its end (from a line start near the cut) and
 * marked `truncated`, as a terminal in a session keeps its last 2 MB: `bounded` keeps a string's start, and a 50,000-line
 * output reopened after a restart showed its first 8,000 lines and not how it ended. `fields` itself when none is.
 */
function withTerminalTails(fields: Record<string, unknown>): Record<string, unknown> {
  const terminals = fields.terminals
  if (typeof terminals !== 'object' || terminals === null) return fields
  let copy: Record<string, unknown> | undefined
  for (const [terminalId, terminal] of Object.entries(terminals)) {
    const output: unknown = typeof terminal === 'object' && terminal !== null ? (terminal as { output?: unknown }).output : undefined
    if (typeof output !== 'string' || output.length <= MAX_STRING) continue
    let from = output.length - MAX_STRING
    const newline = output.indexOf('\n', from)
    if (newline >= 0 && newline - from < 4096) from = newline + 1
    else if (/[\uDC00-\uDFFF]/.test(output.charAt(from))) from++
    copy ??= { ...terminals }
    setOwn(copy, terminalId, { ...(terminal as object), output: output.slice(from), truncated: true })
  }
  return copy ? { ...fields, terminals: copy } : fields
}

/** The session-wide part of a state (everything but its entries), as stored. */
export function encodeSessionState(state: SessionState): string {
  return encodeSessionFields(sessionStateFields(state))
}

