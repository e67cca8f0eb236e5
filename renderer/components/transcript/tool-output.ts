/**
 * How a tool call's text output is drawn. Agent text is Markdown, and an agent that means its output as text to read
 * verbatim fences it (claude-agent-acp's Read and Bash). OpenCode sends a file it read and a command's output bare:
 * drawn as Markdown, a file's `# Notes` became a heading, `__init__.py` bold, and `ls -l` columns lost their
 * alignment; its todo list, a JSON array, lost its indentation. Such text is shown as it is, in a monospace block.
 */

import type { PlanEntryView } from '../../../common/session/types'
import { parsePlanEntries } from '../../../common/session/reducer/plans'

/** Kinds whose output is a file's text or a command's output, unless the agent fenced it as Markdown. */
const VERBATIM_KINDS: ReadonlySet<string> = new Set(['read', 'execute'])

/** A Markdown fence line (``` or ~~~ at a line start, up to three spaces in). */
const FENCE = /^ {0,3}(```|~~~)/m

/** Largest text parsed to see whether it is JSON (bigger is drawn as the agent's kind says). */
const MAX_JSON_PROBE_CHARS = 200_000

/** True when `block`, a content block of a tool call of `toolKind`, is text shown verbatim rather than as Markdown. */
export function isVerbatimToolText(toolKind: string, block: unknown): boolean {
  if (typeof block !== 'object' || block === null) return false
  const { type, text } = block as { type?: unknown; text?: unknown }
  if (type !== 'text' || typeof text !== 'string') return false
  if (VERBATIM_KINDS.has(toolKind) && !FENCE.test(text)) return true
  return looksLikeJson(text)
}

function looksLikeJson(text: string): boolean {
  return jsonObjectOrList(text) !== undefined
}

/** The text's value when it is a JSON object or list (of at most {@link MAX_JSON_PROBE_CHARS}), else undefined. */
function jsonObjectOrList(text: string): unknown {
  const t = text.trim()
  if (t.length < 2 || t.length > MAX_JSON_PROBE_CHARS) return undefined
  const ends = `${t[0]}${t[t.length - 1]}`
  if (ends !== '{}' && ends !== '[]') return undefined
  try {
    return JSON.parse(t) as unknown
  } catch {
    return undefined
  }
}

/**
 * The todo list a call wrote, when its text output is that list as JSON: OpenCode's `todowrite` answers with the list
 * it was given (`rawInput.todos`), pretty-printed, and the card showed five lines of brackets, quotes and
 * `"priority": "medium"` per step for a list the plan panel shows as a checklist. The steps, or null for any other
 * output (JSON of another shape, a call with no `todos` in its input, text).
 */
export function todoListOutput(rawInput: unknown, block: unknown): PlanEntryView[] | null {
  if (typeof rawInput !== 'object' || rawInput === null || !Array.isArray((rawInput as { todos?: unknown }).todos)) return null
  if (typeof block !== 'object' || block === null) return null
  const { type, text } = block as { type?: unknown; text?: unknown }
  if (type !== 'text' || typeof text !== 'string') return null
  const list = jsonObjectOrList(text)
  if (!Array.isArray(list) || list.length === 0) return null
  const entries = parsePlanEntries(list)
  // Every item a step (a string `content`): otherwise the JSON says more than a checklist would, and is shown as it is.
  return entries !== null && entries.length === list.length ? entries : null
}

/** How much of a failure's reason the card shows (the whole of it is under "Raw output"). */
const MAX_REASON_CHARS = 1_000

/**
 * Why a failed call failed, when the agent said it only in its raw output: GitHub Copilot CLI fails a read of a
 * missing file with no content and `rawOutput: {message: "Path does not exist", code: "failure"}`, so the card read
 * "Failed" and nothing else. A string raw output, or its `message` or `error` (a string, or an object's `message`);
 * null when the call did not fail, its content already says something, or there is no such text.
 */
export function failureReasonOf(status: string, content: readonly unknown[], rawOutput: unknown): string | null {
  if (status !== 'failed' || content.length > 0) return null
  const record = (value: unknown) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined)
  const error = record(rawOutput)?.error
  const reason = typeof rawOutput === 'string' ? rawOutput : (record(rawOutput)?.message ?? (typeof error === 'string' ? error : record(error)?.message))
  if (typeof reason !== 'string' || reason.trim() === '') return null
  const text = reason.trim()
  return text.length > MAX_REASON_CHARS ? `${text.slice(0, MAX_REASON_CHARS)}…` : text
}

/** What a failed call of each kind is called in words ("this command failed"). */
const FAILED_CALL_NOUN: Readonly<Record<string, string>> = {
  read: 'read',
  edit: 'edit',
  delete: 'deletion',
  move: 'move',
  search: 'search',
  execute: 'command',
  think: 'step',
  fetch: 'fetch',
  switch_mode: 'mode switch',
}

/**
 * What a failed call that says nothing of why shows: the card read "Failed" and nothing else (an agent that sends a
 * failed status alone). Says what is known (its kind, that no reason came) and where to look next; null when the call
 * did not fail or something already says why (its content, or a reason in its raw output: {@link failureReasonOf}).
 */
export function unexplainedFailureNote(status: string, toolKind: string, content: readonly unknown[], rawOutput: unknown): string | null {
  if (status !== 'failed' || content.length > 0 || failureReasonOf(status, content, rawOutput) !== null) return null
  const noun = Object.hasOwn(FAILED_CALL_NOUN, toolKind) ? FAILED_CALL_NOUN[toolKind] : 'tool call'
  const beyond = rawOutput !== undefined && rawOutput !== null ? ' beyond its raw output (below)' : ''
  return `The agent reported that this ${noun} failed and gave no reason${beyond}. Ask it in your next message what went wrong; its log (Agents, then Logs) may say more.`
}

/**
 * claude-agent-acp passes Claude Code's error text on as it is: the whole text wrapped in `<tool_use_error>` tags, and
 * (0.101, its v2 content) that inside a Markdown code fence, a code block whose one long line scrolled sideways.
 */
const TOOL_USE_ERROR = /^\s*(?:```\n<tool_use_error>([\s\S]*)<\/tool_use_error>\n```|<tool_use_error>([\s\S]*)<\/tool_use_error>)\s*$/

/** The text inside a `<tool_use_error>` wrapper that encloses all of `text` (trimmed), or null when it does not. */
export function insideErrorWrapper(text: string): string | null {
  const match = TOOL_USE_ERROR.exec(text)
  const inner = match?.[1] ?? match?.[2]
  if (inner === undefined || inner.includes('<tool_use_error>') || inner.trim() === '') return null
  return inner.trim()
}

/**
 * OpenCode ends a command's output with a note for its model, `<shell_metadata>…</shell_metadata>` ("User aborted the
 * command" after Stop, its timeout). The output before it and the note's text; null when the text ends otherwise.
 */
const SHELL_METADATA = /\n*<shell_metadata>\n?([\s\S]*?)\n?<\/shell_metadata>\s*$/

export function shellMetadataOf(text: string): { output: string; note: string } | null {
  const match = SHELL_METADATA.exec(text)
  const note = match?.[1]?.trim()
  if (!match || !note || note.includes('<shell_metadata>')) return null
  return { output: text.slice(0, match.index), note }
}

/** OpenCode's note of a command the person stopped: it reports the call `completed` all the same (1.18.33). */
export const STOPPED_COMMAND_NOTE = 'User aborted the command'

/**
 * Gemini CLI's words opening a command's output when the person's Stop ended it: it reports the call `completed` all
 * the same (0.61: "Command cancelled by user.\n\nOutput before cancellation:\ntick 1…").
 */
export const CANCELLED_COMMAND_NOTE = 'Command cancelled by user.'
const CANCELLED_COMMAND = /^Command cancelled by user\.[ \t]*(?:\n+Output before cancellation:[ \t]*(?:\n|$))?\n*/

/** Gemini CLI's note at the start of a stopped command's output ({@link CANCELLED_COMMAND_NOTE}), and the output after it. */
export function cancelledCommandOf(text: string): { output: string; note: string } | null {
  const match = CANCELLED_COMMAND.exec(text)
  return match ? { output: text.slice(match[0].length), note: CANCELLED_COMMAND_NOTE } : null
}


/**
 * claude-agent-acp's note to its model when the person stops a call (0.101): Claude Code's words for a refused tool use
 * ("The user doesn't want to proceed with this tool use. … STOP what you are doing and wait …"), for a command stopped
 * while running with a correction after them. It comes as the command's output (a Bash call) or as the call's content
 * (a call stopped while it asked), fenced or not: addressed to the model, not to the person who pressed Stop.
 */
const STOP_NOTE_START = "The user doesn't want to proceed with this tool use."
const FENCED_NOTE = /^\s*```\n([\s\S]*)\n```\s*$/

/** The output before claude-agent-acp's note at a Stop ({@link STOP_NOTE_START}), and the note; null without one. */
export function stopNoteOf(text: string): { output: string; note: string } | null {
  const unfenced = FENCED_NOTE.exec(text)?.[1]
  const body = unfenced?.trimStart().startsWith(STOP_NOTE_START) ? unfenced : text
  const at = body.indexOf(STOP_NOTE_START)
  if (at < 0) return null
  return { output: body.slice(0, at).trimEnd(), note: body.slice(at).trim() }
}
