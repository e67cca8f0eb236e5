/**
 * The batch draft of `applyActions`: copy-on-write bookkeeping, the id → position index kept beside a state,
 * and the small parsers every update family uses (input is untrusted: everything is checked).
 */
import { sharedStrings } from '../shared-strings'
import type { ContentBlock, Entry, MessageEntry, SessionState, ToolCallContent, ToolCallLocation } from '../types'

export type Json = Record<string, unknown>
export type MessageKind = MessageEntry['kind']
export type Update = { sessionUpdate: string; [key: string]: unknown }

/** How many transient notices a session keeps (oldest dropped first). */
export const MAX_NOTICES = 50
/** A notice the agent sends again and again counts up to this. */
export const MAX_NOTICE_REPEATS = 999
export const FINISHED_TOOL_STATUSES = new Set(['completed', 'failed', 'cancelled'])

/** The kinds of entries found by their id: messages (by `messageId`), tool calls, compactions, permissions, forms. */
export type IndexedKind = 'user_message' | 'agent_message' | 'agent_thought' | 'tool_call' | 'compaction' | 'permission' | 'elicitation'

/**
 * Entry lookup: per kind, the entry's own id (`messageId`, `toolCallId`, `compactionId`, `requestId`,
 * `elicitationId`) → its position. Keyed by the id strings the entries hold, so the index adds no string per
 * entry (a `t:<toolCallId>` key of its own per entry was about 30 bytes each, and built and hashed at every
 * lookup). The maps only grow (entries are never removed or moved), so a newer state may share its predecessor's;
 * every hit is verified against the entry and a mismatch rebuilds them.
 */
export interface EntryIndex {
  keys: Partial<Record<IndexedKind, Map<string, number>>>
  /** The message the last chunk went to: streams hit one message thousands of times in a row. */
  lastMessage: { kind: MessageKind; messageId: string; at: number } | null
  /** The text block chunks are being appended to, and its length when this run of chunks began (see {@link Draft.streamedInto}). */
  run?: { entry: number; block: number; startLength: number } | null
}

/**
 * Where a state's index lives: a non-enumerable symbol property on the states this module creates (invisible
 * to JSON and structured clone, cheaper than a WeakMap per batch), a WeakMap for states made elsewhere
 * (cloned, frozen).
 */
export const INDEX = Symbol('bosun.sessionIndex')
export const foreignIndexes = new WeakMap<SessionState, EntryIndex>()

export function indexOf(state: SessionState): EntryIndex | undefined {
  return (state as { [INDEX]?: EntryIndex })[INDEX] ?? foreignIndexes.get(state)
}

export function attachIndex(state: SessionState, index: EntryIndex): void {
  if (Object.isExtensible(state)) Object.defineProperty(state, INDEX, { value: index, enumerable: false, writable: true })
  else foreignIndexes.set(state, index)
}

/** The id an entry is found by (see {@link EntryIndex}), or `undefined` (not of an indexed kind, or a message without `messageId`). */
export function indexedId(entry: Entry): string | undefined {
  switch (entry.kind) {
    case 'user_message':
    case 'agent_message':
    case 'agent_thought':
      return entry.messageId
    case 'tool_call':
      return entry.toolCallId
    case 'compaction':
      return entry.compactionId
    case 'permission':
      return entry.requestId
    case 'elicitation':
      return entry.elicitationId
    default:
      return undefined
  }
}

/** Records that the entry of `kind` with this id is at position `i`. */
export function setIndexed(index: EntryIndex, kind: IndexedKind, id: string, i: number): void {
  let ids = index.keys[kind]
  if (!ids) index.keys[kind] = ids = new Map()
  ids.set(id, i)
}

export function buildIndex(entries: readonly Entry[]): EntryIndex {
  const index: EntryIndex = { keys: {}, lastMessage: null }
  entries.forEach((entry, i) => {
    const id = indexedId(entry)
    if (id !== undefined && !index.keys[entry.kind as IndexedKind]?.has(id)) setIndexed(index, entry.kind as IndexedKind, id, i)
  })
  return index
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

export class Draft {
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

  /** The position of the entry of `kind` with this id, or -1. */
  find(kind: IndexedKind, id: string): number {
    const i = this.index.keys[kind]?.get(id)
    if (i === undefined) return -1
    const entry = this.s.entries[i]
    if (entry !== undefined && entry.kind === kind && indexedId(entry) === id) return i
    // The maps were shared with a sibling state (two batches applied to one base): rebuild for this one.
    this.index = buildIndex(this.s.entries)
    const j = this.index.keys[kind]?.get(id)
    return j === undefined ? -1 : j
  }

  push(entry: Entry): number {
    const entries = this.entries()
    entries.push(this.own(entry))
    const id = indexedId(entry)
    if (id !== undefined) setIndexed(this.index, entry.kind as IndexedKind, id, entries.length - 1)
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

  /**
   * A chunk was appended to text block `block` of entry `entry`. When chunks move on to another block, the
   * one they leave is flattened if this run grew it by a quarter or more: appended chunks are a rope (one
   * string object per chunk, about twice the text's size on the heap, and work for every GC) until then.
   * The quarter keeps the copying linear in the text, whatever order the streams interleave in.
   */
  streamedInto(entry: number, block: number): void {
    const run = this.index.run
    if (run && run.entry === entry && run.block === block) return
    if (run) {
      const text = textAt(this.s.entries, run.entry, run.block)
      if (text !== undefined && (text.length - run.startLength) * 4 >= text.length) flattenString(text)
    }
    this.index.run = { entry, block, startLength: textAt(this.s.entries, entry, block)?.length ?? 0 }
  }

  /**
   * Another batch begins in this draft (`applyBatches`, `SessionBatches`): the state's `seq` becomes `seq`, the
   * one a call of `applyActions` for that batch alone would give it, and what is numbered per batch (notice ids)
   * starts again.
   */
  beginBatch(seq: number): void {
    this.s.seq = seq
    this.noticeCount = 0
  }

  nextNoticeId(): string {
    return `notice-${this.s.seq}-${this.noticeCount++}`
  }

  finish(): SessionState {
    attachIndex(this.s, this.index)
    return this.s
  }
}

function textAt(entries: readonly Entry[], entry: number, block: number): string | undefined {
  const content = (entries[entry] as { content?: unknown } | undefined)?.content
  const text = Array.isArray(content) ? (content[block] as { text?: unknown } | undefined)?.text : undefined
  return typeof text === 'string' ? text : undefined
}

/**
 * Makes V8 store `text` as one piece instead of the tree of pieces `a + b + …` builds: converting a string to
 * a number flattens it in place (the value is unchanged; the pieces become garbage). Engines without ropes
 * only pay a failed number parse.
 */
export function flattenString(text: string): void {
  if (text.length > 12) Number(text)
}

// ---------------------------------------------------------------------------------------------------------
// Small parsing helpers (input is untrusted: everything is checked)
// ---------------------------------------------------------------------------------------------------------

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
export const isString = (value: unknown): value is string => typeof value === 'string'

export { cutText } from '../../bounded'

/** A content block, or `null` when malformed (not an object with a string `type`, or a text block without text). */
export function parseBlock(value: unknown): ContentBlock | null {
  if (!isObject(value) || !isString(value.type)) return null
  if (value.type === 'text' && !isString(value.text)) return null
  return value as ContentBlock
}

/** A list of content blocks; malformed items are skipped (`x-deserialize-skip-invalid-items`). */
export function parseBlocks(value: unknown[]): ContentBlock[] {
  const blocks: ContentBlock[] = []
  for (const item of value) {
    const block = parseBlock(item)
    if (block) blocks.push(block)
  }
  return exact(blocks)
}

/**
 * `list` in an array of its own size. `push` leaves room for 16 more items in the array it grows (a location
 * array of one took 76 bytes, not 12), and a session keeps these for its whole life, in main and in every page.
 */
export const exact = <T>(list: T[]): T[] => list.slice()

/** One empty list for every tool call that has none (yet) of a kind: the draft copies it before adding to it. */
export const NONE: never[] = Object.freeze([]) as unknown as never[]

/**
 * A tool call content item. Known types with missing fields become `{type:'invalid', original}` so the UI
 * shows them generically instead of tripping over a diff without a path; unknown types are kept as they are.
 */
export function parseToolContent(value: unknown): ToolCallContent {
  if (!isObject(value) || !isString(value.type)) return { type: 'invalid', original: value }
  const valid =
    value.type === 'content'
      ? parseBlock(value.content) !== null
      : value.type === 'diff'
        ? isString(value.path) || Array.isArray(value.changes)
        : value.type === 'terminal'
          ? isString(value.terminalId)
          : true
  if (!valid) return { type: 'invalid', original: value }
  if (value.type === 'diff' && isString(value.path)) return sharedDiff(value)
  return value as ToolCallContent
}

/**
 * A v1 diff whose path and texts are the equal strings seen before, when there were (see shared-strings.ts): a copy, the
 * update's own object is never changed.
 */
function sharedDiff(value: Json): ToolCallContent {
  const diff: Json = { ...value, path: sharedStrings.share(value.path as string) }
  if (isString(value.oldText)) diff.oldText = sharedStrings.share(value.oldText)
  if (isString(value.newText)) diff.newText = sharedStrings.share(value.newText)
  return diff as ToolCallContent
}

export function parseLocations(value: unknown[]): ToolCallLocation[] {
  const out: ToolCallLocation[] = []
  for (const item of value) {
    if (!isObject(item) || !isString(item.path)) continue
    // A 1-based line (both versions); anything else (0, negative, a fraction, a string) means "no line", as the
    // schema's default-on-error says, and the rest of the location is kept.
    // A copy whose path is the equal string seen before (a diff's, an earlier call's), if any: see shared-strings.ts.
    if (item.line === undefined || item.line === null || isLine(item.line)) out.push({ ...item, path: sharedStrings.share(item.path) } as unknown as ToolCallLocation)
    else {
      const { line: _line, ...rest } = item
      out.push({ ...rest, path: sharedStrings.share(item.path) } as unknown as ToolCallLocation)
    }
  }
  return exact(out)
}

const isLine = (line: unknown): boolean => typeof line === 'number' && Number.isInteger(line) && line >= 1 && line <= 0xffffffff

/** `_meta` patch by top-level key; a `null` key removes it (v2 upsert rule, also used for v1 objects). */
export function patchMeta(current: Record<string, unknown> | undefined, patch: Json): Record<string, unknown> {
  const next: Record<string, unknown> = { ...current }
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key]
    // Defined, not assigned: a `__proto__` key is data, not the object's prototype.
    else Object.defineProperty(next, key, { value, enumerable: true, writable: true, configurable: true })
  }
  return next
}

/**
 * Largest `_meta` a session keeps, in characters of JSON. `_meta` is opaque (I1): Bosun keeps and stores it as the
 * agent sent it, but an agent must not grow a session (main's memory, the renderer's, the history database)
 * without end through it, as a tool call keeps a bounded number of unknown fields (`extra`). A larger one is
 * dropped whole (the rest of its update still applies); real ones (trace context, a model name) are far smaller.
 */
export const MAX_META_CHARS = 8 * 1024

/** The JSON of `_meta` objects the session keeps (so comparing a chunk's `_meta` with the last one kept costs one stringify). */
const metaJson = new WeakMap<object, string>()

/** The JSON of `value` when it is a `_meta` Bosun keeps (an object within {@link MAX_META_CHARS}), else `undefined`. */
export function keptMetaJson(value: unknown): string | undefined {
  if (!isObject(value)) return undefined
  const known = metaJson.get(value)
  if (known !== undefined) return known
  let json: string | undefined
  try {
    json = JSON.stringify(value)
  } catch {
    return undefined
  }
  if (json === undefined || json.length > MAX_META_CHARS) return undefined
  metaJson.set(value, json)
  return json
}

/** `value` when it is a `_meta` Bosun keeps (see {@link MAX_META_CHARS}), else `undefined`. */
export function boundedMeta(value: unknown): Record<string, unknown> | undefined {
  return keptMetaJson(value) !== undefined ? (value as Record<string, unknown>) : undefined
}

/**
 * A stored `_meta` after a v2 metadata patch (`session_info_update`; v1 objects the same way): an object patches by
 * top-level key, `null` clears (v1: `null` ≡ omitted). `current` itself when nothing changes or the result
 * would be larger than {@link MAX_META_CHARS} (the patch is dropped).
 */
export function patchedMeta(current: Record<string, unknown> | undefined, patch: unknown, v2: boolean): Record<string, unknown> | undefined {
  if (patch === null) return v2 ? undefined : current
  if (!isObject(patch)) return current
  const next = patchMeta(current, patch)
  const json = keptMetaJson(next)
  if (json === undefined) return current
  if (current !== undefined && json === keptMetaJson(current)) return current
  return Object.keys(next).length > 0 ? next : undefined
}

/**
 * A tool call's or terminal's `_meta` after a patch by key, bounded as other `_meta` is ({@link MAX_META_CHARS}): a key
 * whose value alone is over the bound is not kept, and if the whole would still be over it the patch is dropped. In
 * v1, claude-agent-acp puts each tool's whole result there on every report (a read file, an edited file's old text,
 * a command's output), which the tool call's content already shows: kept, it grew the session, the window and the
 * history by as much again. `undefined` when nothing is left.
 */
export function patchedToolMeta(current: Record<string, unknown> | undefined, patch: Json): Record<string, unknown> | undefined {
  return patchedMeta(current, fittingToolMeta(patch), false)
}

/** A tool call's or terminal's `_meta` patch without the keys whose value alone is over {@link MAX_META_CHARS}; `patch` itself when none is. */
export function fittingToolMeta(patch: Json): Json {
  let fitting: Json | undefined
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || value === undefined || keptMetaJson({ [key]: value }) !== undefined) continue
    fitting ??= { ...patch }
    delete fitting[key]
  }
  return fitting ?? patch
}

export const isTextBlock = (block: ContentBlock | undefined): block is ContentBlock & { type: 'text'; text: string } =>
  block !== undefined && block.type === 'text' && isString((block as Json).text)

/** Text blocks merge only when neither carries annotations or `_meta`, so nothing is lost by merging. */
export function plainText(block: ContentBlock): boolean {
  const b = block as Json
  return isTextBlock(block) && b.annotations == null && b._meta == null
}

/** Appends one block to `content` (owned), merging consecutive plain text blocks in place. */
export function appendBlock(d: Draft, content: ContentBlock[], block: ContentBlock): void {
  const last = content[content.length - 1]
  if (last !== undefined && plainText(last) && plainText(block)) {
    const text = (last as { text: string }).text + (block as { text: string }).text
    if (d.isOwned(last)) (last as { text: string }).text = text
    else content[content.length - 1] = d.own({ ...last, text } as ContentBlock)
    return
  }
  content.push(block)
}
