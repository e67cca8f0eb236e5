/**
 * The session reducer: `applyActions(state, actions) → state`, pure and total. It runs in main (snapshots),
 * in the renderer (display) and in the benchmark, so it uses no DOM, no Node and no React.
 *
 * Cost model: one call is one batch. The batch copies the `entries` array at most once, each touched entry
 * (and each array inside it) at most once, and finds entries through id → position maps kept beside the
 * state (a WeakMap, so the state itself stays plain data for structured clone / JSON). Text chunks are
 * appended with string concatenation (V8 ropes), so streaming a long message is linear.
 *
 * Semantics follow ACP-CLIENT-CHECKLIST §F, §H, §L: v1 `null` ≡ omitted; v2 `null` clears; unknown kinds are
 * kept; malformed payloads of known kinds are ignored. Nothing here throws on agent input.
 */
import type {
  CommandView,
  CompactionEntry,
  ConfigOptionView,
  ContentBlock,
  ElicitationEntry,
  ElicitationView,
  Entry,
  MessageEntry,
  ModeView,
  PermissionEntry,
  PermissionRequestView,
  PlanEntryView,
  PlanView,
  ProtocolVersion,
  SessionAction,
  SessionState,
  TerminalView,
  ToolCallContent,
  ToolCallEntry,
  ToolCallLocation,
  UnknownEntry,
} from './types'

type Json = Record<string, unknown>
type MessageKind = MessageEntry['kind']
type Update = { sessionUpdate: string; [key: string]: unknown }

/** How many transient notices a session keeps (oldest dropped first). */
const MAX_NOTICES = 50
const FINISHED_TOOL_STATUSES = new Set(['completed', 'failed', 'cancelled'])

// ---------------------------------------------------------------------------------------------------------
// Creation and the index
// ---------------------------------------------------------------------------------------------------------

export function createSessionState(init: {
  sessionId: string
  /** The agent's own id for the session; defaults to `sessionId`. */
  acpSessionId?: string
  agentId: string
  protocolVersion: ProtocolVersion
  cwd: string
}): SessionState {
  return {
    sessionId: init.sessionId,
    acpSessionId: init.acpSessionId ?? init.sessionId,
    agentId: init.agentId,
    protocolVersion: init.protocolVersion,
    cwd: init.cwd,
    title: null,
    updatedAt: null,
    entries: [],
    plans: [],
    availableCommands: [],
    modes: null,
    configOptions: [],
    usage: null,
    terminals: {},
    permissions: {},
    elicitations: {},
    turn: { state: 'idle', stopReason: null, error: null, background: null, completedTurns: 0 },
    autoApprove: false,
    notices: [],
    seq: 0,
    pendingEcho: null,
  }
}

/**
 * Entry lookup keys: `m:<kind>:<messageId>`, `t:<toolCallId>`, `c:<compactionId>`, `p:<requestId>`,
 * `e:<elicitationRequestId>`. The map only grows (entries are never removed or moved), so a newer state may
 * share its predecessor's map; every hit is verified against the entry and a mismatch rebuilds the map.
 */
interface EntryIndex {
  keys: Map<string, number>
  /** The message the last chunk went to: streams hit one message thousands of times in a row. */
  lastMessage: { kind: MessageKind; messageId: string; at: number } | null
}

/**
 * Where a state's index lives: a non-enumerable symbol property on the states this module creates (invisible
 * to JSON and structured clone, cheaper than a WeakMap per batch), a WeakMap for states made elsewhere
 * (cloned, frozen).
 */
const INDEX = Symbol('bosun.sessionIndex')
const foreignIndexes = new WeakMap<SessionState, EntryIndex>()

function indexOf(state: SessionState): EntryIndex | undefined {
  return (state as { [INDEX]?: EntryIndex })[INDEX] ?? foreignIndexes.get(state)
}

function attachIndex(state: SessionState, index: EntryIndex): void {
  if (Object.isExtensible(state)) Object.defineProperty(state, INDEX, { value: index, enumerable: false, writable: true })
  else foreignIndexes.set(state, index)
}

function entryKey(entry: Entry): string | null {
  switch (entry.kind) {
    case 'user_message':
    case 'agent_message':
    case 'agent_thought':
      return entry.messageId !== undefined ? `m:${entry.kind}:${entry.messageId}` : null
    case 'tool_call':
      return `t:${entry.toolCallId}`
    case 'compaction':
      return `c:${entry.compactionId}`
    case 'permission':
      return `p:${entry.requestId}`
    case 'elicitation':
      return `e:${entry.elicitationId}`
    default:
      return null
  }
}

function buildIndex(entries: readonly Entry[]): EntryIndex {
  const keys = new Map<string, number>()
  entries.forEach((entry, i) => {
    const key = entryKey(entry)
    if (key !== null && !keys.has(key)) keys.set(key, i)
  })
  return { keys, lastMessage: null }
}

/**
 * Builds (or returns) the id → position maps of a state, e.g. after it arrived by structured clone or JSON.
 * `applyActions` calls this itself when needed; calling it early only moves the O(n) cost.
 */
export function rebuildIndex(state: SessionState): SessionState {
  if (!indexOf(state)) attachIndex(state, buildIndex(state.entries))
  return state
}

// ---------------------------------------------------------------------------------------------------------
// The batch draft: copy-on-write bookkeeping for one applyActions call
// ---------------------------------------------------------------------------------------------------------

class Draft {
  readonly s: SessionState
  readonly v2: boolean
  /** Objects and arrays created during this batch: safe to mutate in place. */
  private readonly owned = new Set<object>()
  private entriesCopied = false
  index: EntryIndex
  private noticeCount = 0

  constructor(base: SessionState) {
    this.s = { ...base, seq: base.seq + 1 }
    this.v2 = base.protocolVersion === 2
    this.index = indexOf(base) ?? buildIndex(base.entries)
  }

  own<T extends object>(value: T): T {
    this.owned.add(value)
    return value
  }

  isOwned(value: object): boolean {
    return this.owned.has(value)
  }

  /** The entries array, copied once per batch. */
  entries(): Entry[] {
    if (!this.entriesCopied) {
      this.s.entries = this.s.entries.slice()
      this.entriesCopied = true
    }
    return this.s.entries
  }

  find(key: string, matches: (entry: Entry) => boolean): number {
    const i = this.index.keys.get(key)
    if (i === undefined) return -1
    const entry = this.s.entries[i]
    if (entry !== undefined && matches(entry)) return i
    // The map was shared with a sibling state (two batches applied to one base): rebuild for this one.
    this.index = buildIndex(this.s.entries)
    const j = this.index.keys.get(key)
    return j === undefined ? -1 : j
  }

  push(entry: Entry): number {
    const entries = this.entries()
    entries.push(this.own(entry))
    const key = entryKey(entry)
    if (key !== null) this.index.keys.set(key, entries.length - 1)
    return entries.length - 1
  }

  /** A mutable copy of entry `i` (copied once per batch). */
  mutEntry<E extends Entry>(i: number): E {
    const entries = this.entries()
    const entry = entries[i] as E
    if (this.owned.has(entry)) return entry
    const copy = this.own({ ...entry })
    entries[i] = copy
    return copy
  }

  /** A mutable copy of `obj[key]` (an array), copied once per batch. `obj` must already be owned. */
  mutArray<T>(obj: object, key: string): T[] {
    const holder = obj as Record<string, unknown>
    const current = holder[key]
    if (Array.isArray(current) && this.owned.has(current)) return current as T[]
    const copy = this.own(Array.isArray(current) ? (current.slice() as T[]) : [])
    holder[key] = copy
    return copy
  }

  /** A mutable copy of a record-valued field of the state (`terminals`, `permissions`, …). */
  mutRecord<K extends 'terminals' | 'permissions' | 'elicitations'>(key: K): SessionState[K] {
    const current = this.s[key]
    if (this.owned.has(current)) return current
    const copy = this.own({ ...current }) as SessionState[K]
    this.s[key] = copy
    return copy
  }

  mutTurn(): SessionState['turn'] {
    if (this.owned.has(this.s.turn)) return this.s.turn
    this.s.turn = this.own({ ...this.s.turn })
    return this.s.turn
  }

  nextNoticeId(): string {
    return `notice-${this.s.seq}-${this.noticeCount++}`
  }

  finish(): SessionState {
    attachIndex(this.s, this.index)
    return this.s
  }
}

// ---------------------------------------------------------------------------------------------------------
// Small parsing helpers (input is untrusted: everything is checked)
// ---------------------------------------------------------------------------------------------------------

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
const isString = (value: unknown): value is string => typeof value === 'string'

/** A content block, or `null` when malformed (not an object with a string `type`, or a text block without text). */
function parseBlock(value: unknown): ContentBlock | null {
  if (!isObject(value) || !isString(value.type)) return null
  if (value.type === 'text' && !isString(value.text)) return null
  return value as ContentBlock
}

/** A list of content blocks; malformed items are skipped (`x-deserialize-skip-invalid-items`). */
function parseBlocks(value: unknown[]): ContentBlock[] {
  const blocks: ContentBlock[] = []
  for (const item of value) {
    const block = parseBlock(item)
    if (block) blocks.push(block)
  }
  return blocks
}

/**
 * A tool call content item. Known types with missing fields become `{type:'invalid', original}` so the UI
 * shows them generically instead of tripping over a diff without a path; unknown types are kept as they are.
 */
function parseToolContent(value: unknown): ToolCallContent {
  if (!isObject(value) || !isString(value.type)) return { type: 'invalid', original: value }
  const valid =
    value.type === 'content'
      ? parseBlock(value.content) !== null
      : value.type === 'diff'
        ? isString(value.path) || Array.isArray(value.changes)
        : value.type === 'terminal'
          ? isString(value.terminalId)
          : true
  return valid ? (value as ToolCallContent) : { type: 'invalid', original: value }
}

function parseLocations(value: unknown[]): ToolCallLocation[] {
  const out: ToolCallLocation[] = []
  for (const item of value) {
    if (isObject(item) && isString(item.path)) out.push(item as unknown as ToolCallLocation)
  }
  return out
}

/** `_meta` patch by top-level key; a `null` key removes it (v2 upsert rule, also used for v1 objects). */
function patchMeta(current: Record<string, unknown> | undefined, patch: Json): Record<string, unknown> {
  const next: Record<string, unknown> = { ...current }
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key]
    else next[key] = value
  }
  return next
}

const isTextBlock = (block: ContentBlock | undefined): block is ContentBlock & { type: 'text'; text: string } =>
  block !== undefined && block.type === 'text' && isString((block as Json).text)

/** Text blocks merge only when neither carries annotations or `_meta`, so nothing is lost by merging. */
function plainText(block: ContentBlock): boolean {
  const b = block as Json
  return isTextBlock(block) && b.annotations == null && b._meta == null
}

/** Appends one block to `content` (owned), merging consecutive plain text blocks in place. */
function appendBlock(d: Draft, content: ContentBlock[], block: ContentBlock): void {
  const last = content[content.length - 1]
  if (last !== undefined && plainText(last) && plainText(block)) {
    const text = (last as { text: string }).text + (block as { text: string }).text
    if (d.isOwned(last)) (last as { text: string }).text = text
    else content[content.length - 1] = d.own({ ...last, text } as ContentBlock)
    return
  }
  content.push(block)
}

// ---------------------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------------------

const MESSAGE_PREFIX: Record<MessageKind, string> = { user_message: 'user', agent_message: 'agent', agent_thought: 'thought' }

function newMessage(d: Draft, kind: MessageKind, messageId: string | undefined, content: ContentBlock[]): number {
  const position = d.s.entries.length
  const id = messageId !== undefined ? `${MESSAGE_PREFIX[kind]}:${messageId}` : `${MESSAGE_PREFIX[kind]}#${position}`
  const entry: MessageEntry = { kind, id, content: d.own(content) }
  if (messageId !== undefined) entry.messageId = messageId
  return d.push(entry)
}

function findMessage(d: Draft, kind: MessageKind, messageId: string): number {
  // Streams hit the same message thousands of times in a row: skip building the key and hashing it.
  const last = d.index.lastMessage
  if (last !== null && last.kind === kind && last.messageId === messageId) {
    const entry = d.s.entries[last.at]
    if (entry !== undefined && entry.kind === kind && entry.messageId === messageId) return last.at
  }
  const at = d.find(`m:${kind}:${messageId}`, (e) => e.kind === kind && e.messageId === messageId)
  if (at >= 0) d.index.lastMessage = { kind, messageId, at }
  return at
}

/**
 * Whether a user chunk repeats the local prompt we sent (and consumes it from `pendingEcho`). Text must be the
 * next piece of the prompt's text; a non-text block counts against the prompt's non-text blocks.
 */
function consumeEcho(d: Draft, block: ContentBlock): boolean {
  const echo = d.s.pendingEcho
  if (!echo) return false
  let next: { entryId: string; text: string; blocks: number } | null
  if (isTextBlock(block)) {
    if (block.text === '') return true
    if (!echo.text.startsWith(block.text)) {
      d.s.pendingEcho = null
      return false
    }
    next = { ...echo, text: echo.text.slice(block.text.length) }
  } else {
    if (echo.blocks <= 0) {
      d.s.pendingEcho = null
      return false
    }
    next = { ...echo, blocks: echo.blocks - 1 }
  }
  d.s.pendingEcho = next.text === '' && next.blocks === 0 ? null : next
  return true
}

/** Gives the local echo entry the agent's `messageId`, so later upserts for that id land on it. */
function adoptLocalMessage(d: Draft, entryId: string, messageId: string): number {
  const entries = d.s.entries
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!
    if (entry.id !== entryId) continue
    if (entry.kind !== 'user_message' || entry.messageId !== undefined) return -1
    const copy = d.mutEntry<MessageEntry>(i)
    copy.messageId = messageId
    d.index.keys.set(`m:user_message:${messageId}`, i)
    return i
  }
  return -1
}

function applyChunk(d: Draft, kind: MessageKind, u: Update): void {
  const block = parseBlock(u.content)
  if (!block) return
  const messageId = isString(u.messageId) ? u.messageId : undefined
  if (d.v2 && messageId === undefined) return // v2 requires messageId

  if (kind === 'user_message') {
    const echo = d.s.pendingEcho
    // A known id that is not our echo's is a different message; our echo's id (adopted earlier) still echoes.
    const at = messageId !== undefined ? findMessage(d, kind, messageId) : -1
    const other = at >= 0 && d.s.entries[at]!.id !== echo?.entryId
    if (echo && !other && consumeEcho(d, block)) {
      if (messageId !== undefined) adoptLocalMessage(d, echo.entryId, messageId)
      return
    }
  }

  let i = -1
  if (messageId !== undefined) {
    i = findMessage(d, kind, messageId)
  } else {
    // v1 without ids: continue the last entry when it is a message of the same role (never our local echo).
    const last = d.s.entries.length - 1
    const entry = d.s.entries[last]
    if (entry !== undefined && entry.kind === kind && !entry.local) i = last
  }
  if (i < 0) {
    newMessage(d, kind, messageId, [block])
    return
  }
  const entry = d.mutEntry<MessageEntry>(i)
  appendBlock(d, d.mutArray<ContentBlock>(entry, 'content'), block)
}

/** v2 `user_message` / `agent_message` / `agent_thought`: upsert by messageId (H20). */
function applyWholeMessage(d: Draft, kind: MessageKind, u: Update): void {
  if (!isString(u.messageId)) return
  const messageId = u.messageId
  const hasContent = 'content' in u && u.content !== undefined
  if (hasContent && u.content !== null && !Array.isArray(u.content)) return
  const content = Array.isArray(u.content) ? parseBlocks(u.content) : []

  let i = findMessage(d, kind, messageId)
  if (i < 0 && kind === 'user_message' && d.s.pendingEcho) {
    // The first new user_message after we sent a prompt is its insertion (F6): it becomes our local bubble
    // (its content, if any, is the agent's authoritative version), instead of a second bubble.
    i = adoptLocalMessage(d, d.s.pendingEcho.entryId, messageId)
    d.s.pendingEcho = null
  }
  if (i < 0) {
    i = newMessage(d, kind, messageId, content)
  } else if (hasContent) {
    const entry = d.mutEntry<MessageEntry>(i)
    entry.content = d.own(content)
  }
  if ('_meta' in u && u._meta !== undefined) {
    const entry = d.mutEntry<MessageEntry>(i)
    if (u._meta === null) delete entry._meta
    else if (isObject(u._meta)) entry._meta = patchMeta(entry._meta, u._meta)
  }
}

// ---------------------------------------------------------------------------------------------------------
// Tool calls
// ---------------------------------------------------------------------------------------------------------

function findToolCall(d: Draft, toolCallId: string): number {
  return d.find(`t:${toolCallId}`, (e) => e.kind === 'tool_call' && e.toolCallId === toolCallId)
}

/** The tool call's position, creating it with defaults (no title, kind other, status pending) when first seen. */
function ensureToolCall(d: Draft, toolCallId: string): number {
  const i = findToolCall(d, toolCallId)
  if (i >= 0) return i
  const entry: ToolCallEntry = {
    kind: 'tool_call',
    id: `tool:${toolCallId}`,
    toolCallId,
    title: null,
    toolKind: 'other',
    status: 'pending',
    content: [],
    locations: [],
    permissionIds: [],
    elicitationIds: [],
  }
  return d.push(entry)
}

/**
 * Applies a tool call patch (v1 `tool_call`/`tool_call_update`, v2 `tool_call_update`, or a permission's tool
 * call). v1: `null` ≡ omitted ≡ unchanged. v2: `null` clears (kind → other, status → pending, title/name unset,
 * arrays cleared, capabilities removed). `content`/`locations` replace whole arrays. `_meta` patches by key.
 */
function patchToolCall(d: Draft, i: number, u: Json): void {
  const t = d.mutEntry<ToolCallEntry>(i)
  const clear = d.v2
  const has = (key: string) => key in u && u[key] !== undefined && (u[key] !== null || clear)

  if (has('title')) {
    if (isString(u.title)) t.title = u.title
    else if (u.title === null) t.title = null
  }
  if (has('name')) {
    if (isString(u.name)) t.name = u.name
    else if (u.name === null) delete t.name
  }
  if (has('kind')) {
    if (isString(u.kind)) t.toolKind = u.kind
    else if (u.kind === null) t.toolKind = 'other'
  }
  if (has('status')) {
    if (isString(u.status)) t.status = u.status
    else if (u.status === null) t.status = 'pending'
  }
  if (has('content')) {
    if (Array.isArray(u.content)) t.content = d.own(u.content.map(parseToolContent))
    else if (u.content === null) t.content = d.own([])
  }
  if (has('locations')) {
    if (Array.isArray(u.locations)) t.locations = d.own(parseLocations(u.locations))
    else if (u.locations === null) t.locations = d.own([])
  }
  if (has('rawInput')) {
    if (u.rawInput === null) delete t.rawInput
    else t.rawInput = u.rawInput
  }
  if (has('rawOutput')) {
    if (u.rawOutput === null) delete t.rawOutput
    else t.rawOutput = u.rawOutput
  }
  if (has('capabilities')) {
    if (u.capabilities === null) delete t.capabilities
    else if (isObject(u.capabilities)) t.capabilities = u.capabilities
  }
  if (has('_meta')) {
    if (u._meta === null) delete t._meta
    else if (isObject(u._meta)) t._meta = patchMeta(t._meta, u._meta)
  }
}

function applyToolCall(d: Draft, u: Update): void {
  if (!isString(u.toolCallId)) return
  patchToolCall(d, ensureToolCall(d, u.toolCallId), u)
}

/** v2 `tool_call_content_chunk`: appends one item; a first-seen id creates the tool call (H22). */
function applyToolContentChunk(d: Draft, u: Update): void {
  if (!isString(u.toolCallId) || !isObject(u.content)) return
  const t = d.mutEntry<ToolCallEntry>(ensureToolCall(d, u.toolCallId))
  d.mutArray<ToolCallContent>(t, 'content').push(parseToolContent(u.content))
}

// ---------------------------------------------------------------------------------------------------------
// Terminals (v2 display-only): base64 output, UTF-8 decoded across chunk boundaries
// ---------------------------------------------------------------------------------------------------------

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const BASE64_VALUES = new Int16Array(128).fill(-1)
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
function incompleteTail(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!
    if ((byte & 0xc0) === 0x80) continue // continuation byte: keep looking for the lead byte
    const needed = byte >= 0xf0 && byte <= 0xf7 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1
    return needed > back ? back : 0
  }
  return 0
}

const utf8 = new TextDecoder('utf-8')

/** Decodes `pending + bytes`, keeping an incomplete trailing sequence for the next chunk. */
function decodeUtf8(pending: readonly number[] | undefined, bytes: Uint8Array): { text: string; pending: number[] } {
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
function isAscii(bytes: Uint8Array): boolean {
  if (bytes.length > 4096) return false
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return false
  return true
}

function asciiText(bytes: Uint8Array): string {
  return String.fromCharCode.apply(null, bytes as unknown as number[])
}

function mutTerminal(d: Draft, terminalId: string): TerminalView {
  const terminals = d.mutRecord('terminals')
  const current = terminals[terminalId]
  if (current && d.isOwned(current)) return current
  const next = d.own<TerminalView>(current ? { ...current } : { terminalId, output: '' })
  terminals[terminalId] = next
  return next
}

function setPending(t: TerminalView, pending: number[]): void {
  if (pending.length > 0) t.pendingUtf8 = pending
  else delete t.pendingUtf8
}

/** v2 `terminal_update`: an upsert; `output` is an authoritative snapshot that replaces earlier bytes (H25). */
function applyTerminalUpdate(d: Draft, u: Update): void {
  if (!isString(u.terminalId)) return
  let decoded: { text: string; pending: number[] } | null = null
  if (isObject(u.output)) {
    if (!isString(u.output.data)) return
    const bytes = decodeBase64(u.output.data)
    if (!bytes) return
    decoded = decodeUtf8(undefined, bytes)
  }
  const t = mutTerminal(d, u.terminalId)
  if (decoded) {
    t.output = decoded.text
    setPending(t, decoded.pending)
  } else if (u.output === null) {
    t.output = ''
    setPending(t, [])
  }
  if (isString(u.command) || u.command === null) t.command = u.command
  if (isString(u.cwd) || u.cwd === null) t.cwd = u.cwd
  if (isObject(u.exitStatus) || u.exitStatus === null) t.exitStatus = u.exitStatus as TerminalView['exitStatus']
  if (isObject(u.size) || u.size === null) t.size = u.size as TerminalView['size']
}

/** v2 `terminal_output_chunk`: decode this chunk's base64 on its own, then append its bytes (H25). */
function applyTerminalChunk(d: Draft, u: Update): void {
  if (!isString(u.terminalId) || !isString(u.data)) return
  const bytes = decodeBase64(u.data)
  if (!bytes) return
  const t = mutTerminal(d, u.terminalId)
  const decoded = decodeUtf8(t.pendingUtf8, bytes)
  t.output += decoded.text
  setPending(t, decoded.pending)
}

// ---------------------------------------------------------------------------------------------------------
// Plans, commands, modes, config, info, usage, notices, compaction
// ---------------------------------------------------------------------------------------------------------

function parsePlanEntries(value: unknown): PlanEntryView[] | null {
  if (!Array.isArray(value)) return null
  const out: PlanEntryView[] = []
  for (const item of value) {
    if (!isObject(item) || !isString(item.content)) continue
    const entry: PlanEntryView = {
      content: item.content,
      priority: isString(item.priority) ? item.priority : 'medium',
      status: isString(item.status) ? item.status : 'pending',
    }
    if (item._meta != null) entry._meta = item._meta
    out.push(entry)
  }
  return out
}

/** v1 `plan`: replaces the single plan (H11). */
function applyPlanV1(d: Draft, u: Update): void {
  const entries = parsePlanEntries(u.entries)
  if (!entries) return
  d.s.plans = [{ planId: '', type: 'items', entries }]
}

/** v2 `plan_update`: replaces that plan; unknown plan types are kept generically (H26). */
function applyPlanUpdate(d: Draft, u: Update): void {
  const plan = u.plan
  if (!isObject(plan) || !isString(plan.planId) || !isString(plan.type)) return
  let view: PlanView
  if (plan.type === 'items') {
    const entries = parsePlanEntries(plan.entries)
    if (!entries) return
    view = { planId: plan.planId, type: 'items', entries }
  } else {
    view = { planId: plan.planId, type: plan.type, entries: [], raw: plan }
  }
  const plans = d.s.plans.slice()
  const at = plans.findIndex((p) => p.planId === view.planId)
  if (at >= 0) plans[at] = view
  else plans.push(view)
  d.s.plans = plans
}

function parseCommands(value: unknown): CommandView[] | null {
  if (!Array.isArray(value)) return null
  const out: CommandView[] = []
  for (const item of value) {
    if (!isObject(item) || !isString(item.name)) continue
    const view: CommandView = { name: item.name, description: isString(item.description) ? item.description : '', raw: item }
    // v1 `{hint}`, v2 `{type:'text', hint}`; an unknown input type shows the command without structured input.
    const input = item.input
    if (isObject(input) && isString(input.hint) && (input.type === undefined || input.type === 'text')) view.hint = input.hint
    out.push(view)
  }
  return out
}

function parseModes(value: unknown): SessionState['modes'] | undefined {
  if (value === null) return null
  if (!isObject(value) || !Array.isArray(value.availableModes)) return undefined
  const availableModes: ModeView[] = []
  for (const mode of value.availableModes) {
    if (!isObject(mode) || !isString(mode.id)) continue
    availableModes.push({
      id: mode.id,
      name: isString(mode.name) ? mode.name : mode.id,
      description: isString(mode.description) ? mode.description : null,
    })
  }
  return { currentModeId: isString(value.currentModeId) ? value.currentModeId : null, availableModes }
}

/** Config options (v1 `id`/`group`, v2 `configId`/`groupId`); grouped select options are flattened (H14). */
export function parseConfigOptions(value: unknown): ConfigOptionView[] | null {
  if (!Array.isArray(value)) return null
  const out: ConfigOptionView[] = []
  for (const item of value) {
    if (!isObject(item)) continue
    const id = isString(item.configId) ? item.configId : isString(item.id) ? item.id : null
    if (id === null || !isString(item.name)) continue
    const options: ConfigOptionView['options'] = []
    const pushOption = (o: unknown, group?: string) => {
      if (!isObject(o) || !isString(o.value)) return
      const option: ConfigOptionView['options'][number] = {
        value: o.value,
        name: isString(o.name) ? o.name : o.value,
        description: isString(o.description) ? o.description : null,
      }
      if (group !== undefined) option.group = group
      options.push(option)
    }
    if (Array.isArray(item.options)) {
      for (const o of item.options) {
        if (isObject(o) && Array.isArray(o.options)) {
          const group = isString(o.name) ? o.name : isString(o.groupId) ? o.groupId : isString(o.group) ? o.group : ''
          for (const inner of o.options) pushOption(inner, group)
        } else pushOption(o)
      }
    }
    out.push({
      id,
      name: item.name,
      description: isString(item.description) ? item.description : null,
      category: isString(item.category) ? item.category : null,
      type: isString(item.type) ? item.type : 'unknown',
      currentValue: item.currentValue,
      options,
      raw: item,
    })
  }
  return out
}

function applySessionInfo(d: Draft, u: Update): void {
  if (isString(u.title) || u.title === null) d.s.title = u.title
  if (isString(u.updatedAt) || u.updatedAt === null) d.s.updatedAt = u.updatedAt
}

function applyUsage(d: Draft, u: Update): void {
  if (typeof u.used !== 'number' || typeof u.size !== 'number') return
  const previousCost = d.s.usage?.cost ?? null
  let cost = previousCost
  if (u.cost === null) cost = null
  else if (isObject(u.cost) && typeof u.cost.amount === 'number' && isString(u.cost.currency)) {
    cost = { amount: u.cost.amount, currency: u.cost.currency }
  }
  d.s.usage = { used: u.used, size: u.size, cost }
}

function applyNotice(d: Draft, u: Update): void {
  if (!isString(u.title) || u.title === '') return
  const severity = u.severity === 'warning' || u.severity === 'error' ? u.severity : 'info'
  const notice: SessionState['notices'][number] = { id: d.nextNoticeId(), severity, title: u.title }
  if (isString(u.description)) notice.description = u.description
  const notices = [...d.s.notices, notice]
  d.s.notices = notices.length > MAX_NOTICES ? notices.slice(notices.length - MAX_NOTICES) : notices
}

function ensureCompaction(d: Draft, compactionId: string, status: string): number {
  const i = d.find(`c:${compactionId}`, (e) => e.kind === 'compaction' && e.compactionId === compactionId)
  if (i >= 0) return i
  const entry: CompactionEntry = { kind: 'compaction', id: `compaction:${compactionId}`, compactionId, status, summary: [] }
  return d.push(entry)
}

/** `compaction_update`: upsert; the first notification fixes the position (H18). */
function applyCompactionUpdate(d: Draft, u: Update): void {
  if (!isString(u.compactionId) || !isString(u.status)) return
  const c = d.mutEntry<CompactionEntry>(ensureCompaction(d, u.compactionId, u.status))
  c.status = u.status
  if (Array.isArray(u.summary)) c.summary = d.own(parseBlocks(u.summary))
  else if (u.summary === null) c.summary = d.own([])
  if (u.error === null) delete c.error
  else if (u.error !== undefined) c.error = u.error
}

function applyCompactionChunk(d: Draft, u: Update): void {
  if (!isString(u.compactionId)) return
  const block = parseBlock(u.content)
  if (!block) return
  const c = d.mutEntry<CompactionEntry>(ensureCompaction(d, u.compactionId, 'in_progress'))
  appendBlock(d, d.mutArray<ContentBlock>(c, 'summary'), block)
}

// ---------------------------------------------------------------------------------------------------------
// Turn state (v2 `state_update`)
// ---------------------------------------------------------------------------------------------------------

function applyStateUpdate(d: Draft, u: Update): void {
  if (!isString(u.state)) return
  const previous = d.s.turn
  const background = Array.isArray(u.background) ? (u.background as unknown[]) : null
  if (u.state === 'idle') {
    const stopReason = isString(u.stopReason) ? u.stopReason : null
    const error =
      stopReason === 'error' && isObject(u.error) && isString(u.error.message)
        ? { message: u.error.message, ...(typeof u.error.code === 'number' ? { code: u.error.code } : {}) }
        : null
    // Repeated or replayed idle snapshots are idempotent (F9): only a transition into idle completes a turn.
    const completed = previous.state !== 'idle'
    d.s.turn = d.own({
      state: 'idle',
      stopReason,
      error,
      background,
      completedTurns: previous.completedTurns + (completed ? 1 : 0),
    })
    if (completed) d.s.pendingEcho = null
    return
  }
  const state = u.state === 'running' || u.state === 'requires_action' ? u.state : 'unknown'
  const turn = d.mutTurn()
  turn.state = state
  turn.background = background
  if (previous.state === 'idle') {
    turn.stopReason = null
    turn.error = null
  }
}

// ---------------------------------------------------------------------------------------------------------
// Dispatch of one session/update
// ---------------------------------------------------------------------------------------------------------

const BOTH: Record<string, (d: Draft, u: Update) => void> = {
  user_message_chunk: (d, u) => applyChunk(d, 'user_message', u),
  agent_message_chunk: (d, u) => applyChunk(d, 'agent_message', u),
  agent_thought_chunk: (d, u) => applyChunk(d, 'agent_thought', u),
  tool_call_update: applyToolCall,
  available_commands_update: (d, u) => {
    const commands = parseCommands(u.availableCommands)
    if (commands) d.s.availableCommands = commands
  },
  config_option_update: (d, u) => {
    const options = parseConfigOptions(u.configOptions)
    if (options) d.s.configOptions = options
  },
  session_info_update: applySessionInfo,
  usage_update: applyUsage,
  notice: applyNotice,
  compaction_update: applyCompactionUpdate,
  compaction_summary_chunk: applyCompactionChunk,
}

const V1_ONLY: Record<string, (d: Draft, u: Update) => void> = {
  tool_call: applyToolCall,
  plan: applyPlanV1,
  current_mode_update: (d, u) => {
    if (!isString(u.currentModeId)) return
    d.s.modes = { currentModeId: u.currentModeId, availableModes: d.s.modes?.availableModes ?? [] }
  },
}

const V2_ONLY: Record<string, (d: Draft, u: Update) => void> = {
  user_message: (d, u) => applyWholeMessage(d, 'user_message', u),
  agent_message: (d, u) => applyWholeMessage(d, 'agent_message', u),
  agent_thought: (d, u) => applyWholeMessage(d, 'agent_thought', u),
  state_update: applyStateUpdate,
  tool_call_content_chunk: applyToolContentChunk,
  terminal_update: applyTerminalUpdate,
  terminal_output_chunk: applyTerminalChunk,
  plan_update: applyPlanUpdate,
}

function applyUpdate(d: Draft, u: unknown): void {
  if (!isObject(u) || !isString(u.sessionUpdate)) return
  const update = u as Update
  const handler = BOTH[update.sessionUpdate] ?? (d.v2 ? V2_ONLY : V1_ONLY)[update.sessionUpdate]
  if (handler) {
    handler(d, update)
    return
  }
  // Unknown (or the other version's) kind: kept whole, shown generically (H2, H29).
  const entry: UnknownEntry = { kind: 'unknown', id: `unknown#${d.s.entries.length}`, sessionUpdate: update.sessionUpdate, raw: u }
  d.push(entry)
}

// ---------------------------------------------------------------------------------------------------------
// Bosun's own actions
// ---------------------------------------------------------------------------------------------------------

function applyLocalPrompt(d: Draft, content: unknown, messageId: unknown): void {
  if (!Array.isArray(content)) return
  const blocks = parseBlocks(content)
  if (isString(messageId)) {
    const existing = findMessage(d, 'user_message', messageId)
    if (existing >= 0) {
      // The agent's insertion arrived first (v2 F6): that is the message; just mark it as ours.
      d.mutEntry<MessageEntry>(existing).local = true
      return
    }
  }
  const i = newMessage(d, 'user_message', isString(messageId) ? messageId : undefined, blocks)
  const entry = d.mutEntry<MessageEntry>(i)
  entry.local = true
  if (!isString(messageId)) {
    const text = blocks.filter(isTextBlock).map((b) => b.text).join('')
    const others = blocks.filter((b) => !isTextBlock(b)).length
    d.s.pendingEcho = text === '' && others === 0 ? null : { entryId: entry.id, text, blocks: others }
  }
}

function lastLocalPrompt(d: Draft): number {
  const entries = d.s.entries
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!
    if (entry.kind === 'user_message' && entry.local) return i
  }
  return -1
}

function applyTurnEnded(d: Draft, stopReason: unknown, error: unknown): void {
  const reason = isString(stopReason) ? stopReason : null
  const err = isObject(error) && isString(error.message) ? (error as { message: string; code?: number }) : null
  d.s.pendingEcho = null
  if (d.v2) {
    // v2: the prompt response only means "inserted"; the turn ends with an idle state_update (F6, F7).
    if (err) d.mutTurn().error = err
    return
  }
  const previous = d.s.turn
  d.s.turn = d.own({
    state: 'idle',
    stopReason: reason,
    error: err,
    background: previous.background,
    completedTurns: previous.completedTurns + (previous.state === 'idle' ? 0 : 1),
  })
  if (reason === 'refusal') {
    const i = lastLocalPrompt(d)
    if (i >= 0) d.mutEntry<MessageEntry>(i).excluded = true
  }
}

/** Optimistically marks the unfinished tool calls of the current turn `cancelled`, locally (F12). */
function applyCancelRequested(d: Draft): void {
  const entries = d.s.entries
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!
    if (entry.kind === 'user_message' && !entry.excluded) break
    if (entry.kind === 'tool_call' && !FINISHED_TOOL_STATUSES.has(entry.status)) d.mutEntry<ToolCallEntry>(i).status = 'cancelled'
  }
}

/** The agent died: its unfinished tool calls (of any turn, background work included) will never finish. */
function applyAgentGone(d: Draft): void {
  const entries = d.s.entries
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!
    if (entry.kind === 'tool_call' && !FINISHED_TOOL_STATUSES.has(entry.status)) d.mutEntry<ToolCallEntry>(i).status = 'cancelled'
  }
}

function permissionToolCallId(request: PermissionRequestView): string | null {
  if (isString(request.toolCallId)) return request.toolCallId
  const subject = request.subject
  if (subject?.type === 'tool_call') return subject.toolCallId
  if (subject?.type === 'command' && isString(subject.toolCallId)) return subject.toolCallId
  return null
}

function applyPermissionRequested(d: Draft, request: PermissionRequestView, toolCallPatch: unknown): void {
  if (!isObject(request) || !isString(request.requestId)) return
  d.mutRecord('permissions')[request.requestId] = request
  const toolCallId = permissionToolCallId(request)
  if (toolCallId === null) {
    if (d.find(`p:${request.requestId}`, (e) => e.kind === 'permission' && e.requestId === request.requestId) < 0) {
      const entry: PermissionEntry = { kind: 'permission', id: `permission:${request.requestId}`, requestId: request.requestId }
      d.push(entry)
    }
    return
  }
  // Agents commonly skip the tool_call before asking (G2): create it. The patch is the tool call's own data;
  // the request's title/description are prompt copy and never written into the tool call (G3).
  const i = ensureToolCall(d, toolCallId)
  if (isObject(toolCallPatch)) {
    const { toolCallId: _id, sessionUpdate: _kind, ...patch } = toolCallPatch
    patchToolCall(d, i, patch)
  }
  const t = d.mutEntry<ToolCallEntry>(i)
  if (!t.permissionIds.includes(request.requestId)) d.mutArray<string>(t, 'permissionIds').push(request.requestId)
}

function applyPermissionResolved(
  d: Draft,
  requestId: string,
  resolution: NonNullable<PermissionRequestView['resolution']>,
  status: PermissionRequestView['status'],
): void {
  const current = d.s.permissions[requestId]
  if (!current) return
  d.mutRecord('permissions')[requestId] = { ...current, status, resolution }
  const toolCallId = permissionToolCallId(current)
  const by = resolution?.by
  if (toolCallId === null || (by !== 'rule' && by !== 'auto-approve' && by !== 'person')) return
  // Only a chosen option decides the tool call; a dismissal (no option) is told by the request's own note.
  if (!isString(resolution.optionId)) return
  const i = findToolCall(d, toolCallId)
  if (i < 0) return
  const option = current.options.find((o) => o.optionId === resolution.optionId)
  const optionKind = resolution.optionKind ?? option?.kind
  const decidedBy: NonNullable<ToolCallEntry['decidedBy']> = {
    kind: by,
    label: resolution.note ?? option?.name ?? (by === 'rule' ? 'rule' : by === 'auto-approve' ? 'auto-approve' : resolution.optionId),
  }
  if (optionKind !== undefined) decidedBy.optionKind = optionKind
  d.mutEntry<ToolCallEntry>(i).decidedBy = decidedBy
}

function applyElicitationRequested(d: Draft, elicitation: ElicitationView): void {
  if (!isObject(elicitation) || !isString(elicitation.elicitationRequestId)) return
  const id = elicitation.elicitationRequestId
  d.mutRecord('elicitations')[id] = elicitation
  if (isString(elicitation.toolCallId)) {
    const t = d.mutEntry<ToolCallEntry>(ensureToolCall(d, elicitation.toolCallId))
    if (!t.elicitationIds.includes(id)) d.mutArray<string>(t, 'elicitationIds').push(id)
    return
  }
  // Request-scoped elicitations (no session) belong to the app store, not to a session's timeline.
  if (elicitation.sessionId !== null && d.find(`e:${id}`, (e) => e.kind === 'elicitation' && e.elicitationId === id) < 0) {
    const entry: ElicitationEntry = { kind: 'elicitation', id: `elicitation:${id}`, elicitationId: id }
    d.push(entry)
  }
}

function applySessionConfigured(d: Draft, action: Extract<SessionAction, { type: 'session_configured' }>): void {
  const options = parseConfigOptions(action.configOptions)
  if (options) {
    // Config options supersede the legacy modes (a mode is a config option with category "mode").
    d.s.configOptions = options
  } else if (action.modes !== undefined) {
    const modes = parseModes(action.modes)
    if (modes !== undefined) d.s.modes = modes
  }
  const commands = parseCommands(action.availableCommands)
  if (commands) d.s.availableCommands = commands
}

function applyAction(d: Draft, action: SessionAction): void {
  switch (action.type) {
    case 'updates':
      if (Array.isArray(action.updates)) {
        for (const update of action.updates) {
          try {
            applyUpdate(d, update)
          } catch {
            // A malformed update must not take the batch down with it; it is simply not applied.
          }
        }
      }
      return
    case 'local_prompt':
      return applyLocalPrompt(d, action.content, action.messageId)
    case 'turn_started': {
      const turn = d.mutTurn()
      turn.state = 'running'
      turn.stopReason = null
      turn.error = null
      return
    }
    case 'turn_ended':
      return applyTurnEnded(d, action.stopReason, action.error)
    case 'cancel_requested':
      return applyCancelRequested(d)
    case 'agent_gone':
      return applyAgentGone(d)
    case 'permission_requested':
      return applyPermissionRequested(d, action.request, action.toolCallPatch)
    case 'permission_resolved':
      return applyPermissionResolved(d, action.requestId, action.resolution, action.status)
    case 'elicitation_requested':
      return applyElicitationRequested(d, action.elicitation)
    case 'elicitation_resolved': {
      const current = d.s.elicitations[action.elicitationRequestId]
      if (current) d.mutRecord('elicitations')[action.elicitationRequestId] = { ...current, status: action.status }
      return
    }
    case 'set_auto_approve':
      d.s.autoApprove = action.value === true
      return
    case 'session_configured':
      return applySessionConfigured(d, action)
    case 'dismiss_notice':
      d.s.notices = d.s.notices.filter((n) => n.id !== action.id)
      return
    default:
      return
  }
}

/**
 * Applies one batch of actions. Pure: `state` is never mutated (the result shares every untouched part with
 * it), `seq` grows by one per call, and no input makes it throw.
 */
export function applyActions(state: SessionState, actions: readonly SessionAction[]): SessionState {
  const d = new Draft(state)
  for (const action of actions) {
    try {
      if (isObject(action)) applyAction(d, action)
    } catch {
      // Same rule as for updates: a bad action is dropped, the rest of the batch applies.
    }
  }
  return d.finish()
}
