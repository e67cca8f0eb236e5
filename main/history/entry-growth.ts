/**
 * A streamed message grows by its chunks: between two writes, only its end changed. Main posts that end
 * (`growthOf`), not the whole message again, and the history thread rebuilds the entry from the version it
 * was last given (`applyGrowth`). Without this, a message streamed over a minute is copied to the thread
 * whole on every tick (quadratic in its length, all on main's thread).
 *
 * Both sides keep the same record: per session, the entries of that session's last posted write
 * ({@link PostedEntries}). Main sends a growth only against the version it posted last time, the thread
 * applies it to what it was given last time; anything else goes whole.
 */
import type { ContentBlock, Entry, MessageEntry } from '../../common/session/types'

/** How a message entry grew since the version last posted for it. */
export interface EntryGrowth {
  /** Appended to the text of that version's last block (a text block); empty when it did not change. */
  text: string
  /** Blocks added after that version's last block. */
  blocks: ContentBlock[]
}

const isMessage = (entry: Entry): entry is MessageEntry => entry.kind === 'user_message' || entry.kind === 'agent_message' || entry.kind === 'agent_thought'

/** Whether `a` and `b` have the same own keys with identical values, `except` one. */
function sameExcept(a: object, b: object, except: string): boolean {
  let count = 0
  for (const key in a) {
    if (!Object.hasOwn(a, key)) continue
    count++
    if (key !== except && (a as Record<string, unknown>)[key] !== (b as Record<string, unknown>)[key]) return false
  }
  for (const key in b) if (Object.hasOwn(b, key)) count--
  return count === 0
}

/**
 * How `after` grew from `before` (the reducer's copy-on-write keeps unchanged blocks identical), or null
 * when it changed otherwise (a v2 upsert replaced its content, a field changed, not a message): then it is
 * posted whole.
 */
export function growthOf(before: Entry, after: Entry): EntryGrowth | null {
  if (!isMessage(before) || !isMessage(after) || before.kind !== after.kind) return null
  if (!sameExcept(before, after, 'content')) return null
  const old = before.content
  const now = after.content
  if (!Array.isArray(old) || !Array.isArray(now) || old.length === 0 || now.length < old.length) return null
  const last = old.length - 1
  for (let i = 0; i < last; i++) if (old[i] !== now[i]) return null
  let text = ''
  if (old[last] !== now[last]) {
    const a = old[last] as { type: string; text?: unknown }
    const b = now[last] as { type: string; text?: unknown }
    if (a.type !== 'text' || b.type !== 'text' || typeof a.text !== 'string' || typeof b.text !== 'string') return null
    // A slice and ===, not startsWith: that walks the reducer's rope character by character (10× slower).
    if (!sameExcept(a, b, 'text') || b.text.length < a.text.length || b.text.slice(0, a.text.length) !== a.text) return null
    text = b.text.slice(a.text.length)
  }
  return { text, blocks: now.slice(old.length) }
}

/** The entry `growthOf(base, entry)` was taken from, rebuilt from `base` and the growth. */
export function applyGrowth(base: Entry, growth: EntryGrowth): Entry {
  if (!isMessage(base) || base.content.length === 0) throw new Error(`A ${base.kind} entry cannot grow.`)
  const content = [...base.content]
  if (growth.text) {
    const last = content[content.length - 1] as { type: string; text?: unknown }
    if (last.type !== 'text' || typeof last.text !== 'string') throw new Error('The last block of the message is not text.')
    content[content.length - 1] = { ...last, text: last.text + growth.text } as ContentBlock
  }
  for (const block of growth.blocks) content.push(block)
  return { ...base, content }
}

/** Per session, the entries (by position) of its last posted write: what a growth is taken against. */
export class PostedEntries {
  private readonly sessions = new Map<string, Map<number, Entry>>()

  get(sessionId: string, position: number): Entry | undefined {
    return this.sessions.get(sessionId)?.get(position)
  }

  /**
   * The session's last write held these entries (replacing what the one before held). Only its messages are
   * kept: nothing else can grow (`growthOf`), and a flood's tool calls with their diffs would stay on the
   * history thread's heap until the next write for nothing.
   */
  set(sessionId: string, entries: Map<number, Entry>): void {
    for (const [position, entry] of entries) if (!isMessage(entry)) entries.delete(position)
    if (entries.size === 0) this.sessions.delete(sessionId)
    else this.sessions.set(sessionId, entries)
  }

  forget(sessionId: string): void {
    this.sessions.delete(sessionId)
  }

  clear(): void {
    this.sessions.clear()
  }

  /** Sessions with entries kept (tests: nothing is held for closed sessions). */
  get size(): number {
    return this.sessions.size
  }
}
