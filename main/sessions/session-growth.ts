/**
 * How much an agent's update can grow its session: what `maxSessionBytes` (sessions-service.ts) counts, per update as
 * the batcher takes it. Most of what an agent sends adds to the session (text, new tool calls, unknown kinds) and counts
 * whole. Some of it only replaces what the session holds, and counts only by what it adds over the largest it replaced:
 *   - a tool call's `content`, `rawInput`, `rawOutput`, `locations` and `title` (each replaces the call's own): an agent
 *     that streams a command's output by sending the call's whole content again and again holds one copy of it;
 *   - the kinds that say what the session is now (plan, commands, modes, options, usage, title, the v2 turn state);
 *   - a terminal's output (chunks, or a card's output sent in place of what it showed) past what the session keeps of
 *     one terminal (its newest {@link MAX_TERMINAL_OUTPUT_CHARS}): a `yes` holds its tail, however long it runs.
 * Without this, such a session reached the limit (256 MiB) with a few MiB held, and stopped. Small values (under
 * {@link TRACKED_BYTES}) count whole and are not remembered, so what is kept here stays small: one number per large
 * field of a tool call, per kind and per terminal.
 */
import { MAX_TERMINAL_OUTPUT_CHARS } from '../../common/session/reducer/tool-calls'
import { estimateJsonBytes } from './estimate-json'

/** A replacing value under this size counts whole and is not remembered. */
export const TRACKED_BYTES = 1024

/** What a terminal's output counts at most: the tail a session keeps of it, with room for its encoding (base64). */
export const TERMINAL_OUTPUT_COUNTED_BYTES = 2 * MAX_TERMINAL_OUTPUT_CHARS

const REPLACED_TOOL_CALL_FIELDS = ['content', 'rawInput', 'rawOutput', 'locations', 'title'] as const

/** Update kinds that state what the session is now (not history): applied from a v1 `session/load` replay. */
export const SESSION_FACTS: ReadonlySet<string> = new Set([
  'available_commands_update',
  'current_mode_update',
  'config_option_update',
  'session_info_update',
  'usage_update',
  'plan',
])

/**
 * Kinds each of whose updates replaces what the session shows of it (its facts, the v2 plan and turn state), so none of
 * them grows it: what a full session still applies (sessions-service.ts), and what counts here by what it outgrows.
 */
export const REPLACING_KINDS: ReadonlySet<string> = new Set([...SESSION_FACTS, 'plan_update', 'state_update'])

/**
 * Output for a terminal's card: appended (`terminal_output_chunk`) or put in place of what it showed (a `terminal_update`
 * with `output`, as Bosun sends a card that falls behind a flood its newest part). Either way the session keeps a
 * bounded tail of it.
 */
function isTerminalOutput(kind: unknown, update: { output?: unknown }): boolean {
  return kind === 'terminal_output_chunk' || (kind === 'terminal_update' && update.output !== undefined && update.output !== null)
}

/** One session's: the largest value seen of each replacing field or kind, and each terminal's output counted. */
export class SessionGrowth {
  private readonly largest = new Map<string, number>()
  private readonly terminals = new Map<string, number>()

  /** What an agent's update (estimated at `bytes`, as the batch counts it) grows the session by. */
  update(update: unknown, bytes: number): number {
    if (typeof update !== 'object' || update === null) return bytes
    const u = update as Record<string, unknown>
    const kind = u.sessionUpdate
    if (isTerminalOutput(kind, u)) return this.terminalOutput(u.terminalId, bytes)
    // No field of a small update is large enough to be remembered.
    if (bytes < TRACKED_BYTES) return bytes
    if (kind === 'tool_call' || kind === 'tool_call_update') {
      if (typeof u.toolCallId !== 'string') return bytes
      let counted = bytes
      for (const field of REPLACED_TOOL_CALL_FIELDS) {
        const value = u[field]
        if (value === undefined || value === null) continue
        const size = estimateJsonBytes(value, 1)
        if (size >= TRACKED_BYTES) counted -= size - this.grown(`${u.toolCallId}\u0000${field}`, size)
      }
      return counted
    }
    if (typeof kind !== 'string') return bytes
    return REPLACING_KINDS.has(kind) ? this.grown(`\u0000${kind}`, bytes) : bytes
  }

  /** What a terminal Bosun runs for the session grows it by (its output counts up to what the session keeps). */
  clientTerminal(update: { sessionUpdate: string; terminalId: string; output?: unknown }, bytes: number): number {
    return isTerminalOutput(update.sessionUpdate, update) ? this.terminalOutput(update.terminalId, bytes) : bytes
  }

  private terminalOutput(terminalId: unknown, bytes: number): number {
    if (typeof terminalId !== 'string') return bytes
    const before = this.terminals.get(terminalId) ?? 0
    const counted = Math.max(0, Math.min(bytes, TERMINAL_OUTPUT_COUNTED_BYTES - before))
    // Once at the bound, the terminal stays there: nothing more of it counts.
    this.terminals.set(terminalId, before + counted)
    return counted
  }

  /** How far `size` goes past the largest value of `key` seen so far (remembered as the new largest). */
  private grown(key: string, size: number): number {
    const largest = this.largest.get(key) ?? 0
    if (size <= largest) return 0
    this.largest.set(key, size)
    return size - largest
  }
}
