/** A session as a Markdown document or a JSON file (export). Pure: the caller saves or sends the text. */
import type { ContentBlock, Entry, SessionState, ToolCallEntry } from '../../common/session/types'
import { stopNoteText, turnErrorText } from '../../common/session/turn-stop'
import type { HistorySummary } from '../../common/contract/history'
import { derivedTitle, untitledName } from '../../common/session/title'
import { readRangeText } from '../../common/session/file-reads'
import { TerminalText } from '../../common/terminal/terminal-text'
import { formatBytes } from '../base/format-bytes'

const fence = (text: string, lang = '') => {
  // A fence longer than any backtick run inside, so the text cannot close it.
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length))
  const marks = '`'.repeat(longest + 1)
  return `${marks}${lang}\n${text}\n${marks}`
}

/**
 * A block that is not text, in words: an image or audio by its type and size (its data is in the JSON export), a
 * resource by its address. Shown where the card shows the image, so a reader knows one was there.
 */
function mediaToMarkdown(block: unknown): string {
  const b = (typeof block === 'object' && block !== null ? block : {}) as { type?: unknown; mimeType?: unknown; data?: unknown; uri?: unknown; resource?: { uri?: unknown } }
  const type = typeof b.type === 'string' ? b.type : 'content'
  if ((type === 'image' || type === 'audio') && typeof b.data === 'string') {
    // Base64: three bytes for every four characters, less the padding.
    const bytes = Math.floor((b.data.length * 3) / 4) - (b.data.endsWith('==') ? 2 : b.data.endsWith('=') ? 1 : 0)
    const uri = typeof b.uri === 'string' ? `, ${b.uri}` : ''
    return `_(${type}${typeof b.mimeType === 'string' ? `, ${b.mimeType}` : ''}, ${formatBytes(bytes)}${uri}; its data is in the JSON export)_`
  }
  const uri = typeof b.uri === 'string' ? b.uri : typeof b.resource?.uri === 'string' ? b.resource.uri : null
  return `_(${type}${uri ? `: ${uri}` : ''})_`
}

function blocksToMarkdown(blocks: ContentBlock[]): string {
  return blocks
    .map((block) => {
      const b = block as { type: string; text?: unknown; uri?: unknown; name?: unknown }
      if (b.type === 'text' && typeof b.text === 'string') return b.text
      if (b.type === 'resource_link' && typeof b.uri === 'string') return `[${typeof b.name === 'string' ? b.name : b.uri}](${b.uri})`
      return mediaToMarkdown(block)
    })
    .join('\n\n')
}

/**
 * A tool's text output: fenced, unless the agent already sent it as one fenced block (Claude's Read sends the file so),
 * which is kept as it came rather than shown with its backticks inside another fence.
 */
function toolText(text: string): string {
  const lines = text.trimEnd().split('\n')
  const open = /^(`{3,}|~{3,})[^`]*$/.exec(lines[0] ?? '')?.[1]
  const closes = (line: string) => open !== undefined && line.trim().startsWith(open) && line.trim() === line.trim()[0]!.repeat(line.trim().length)
  const inner = lines.slice(1, -1)
  if (open !== undefined && lines.length >= 2 && closes(lines[lines.length - 1]!) && !inner.some(closes)) return lines.join('\n')
  return fence(text)
}

/** A v2 diff (`changes`, and the `patch` text when the agent sent one): what changed in which file, then the patch. */
function v2DiffToMarkdown(changes: unknown[], patch: unknown): string[] {
  const named = changes.flatMap((change) => {
    const c = change as { operation?: unknown; path?: unknown; oldPath?: unknown }
    if (typeof c.path !== 'string') return []
    const from = typeof c.oldPath === 'string' ? `\`${c.oldPath}\` → ` : ''
    return [`${from}\`${c.path}\`${typeof c.operation === 'string' ? ` (${c.operation})` : ''}`]
  })
  const text = typeof patch === 'object' && patch !== null ? (patch as { text?: unknown }).text : undefined
  return [`Diff of ${named.length > 0 ? named.join(', ') : 'files'}:`, ...(typeof text === 'string' ? [fence(text, 'diff')] : [])]
}

/** A terminal's raw stream as the text it leaves (no colour codes; a progress bar at its last frame). */
function plainOutput(output: string): string {
  const text = new TerminalText(Number.MAX_SAFE_INTEGER)
  text.append(output)
  return text.text()
}

function toolToMarkdown(tool: ToolCallEntry, state: SessionState): string {
  const lines = [`### Tool: ${tool.title ?? tool.toolCallId} (${tool.toolKind}, ${tool.status})`]
  if (tool.subagent !== undefined) lines.push(`- By: ${tool.subagent}`)
  for (const location of tool.locations) lines.push(`- \`${location.path}${location.line != null ? `:${location.line}` : ''}\``)
  if (tool.rawInput !== undefined) lines.push('', 'Input:', fence(JSON.stringify(tool.rawInput, null, 2), 'json'))
  for (const content of tool.content) {
    const c = content as {
      type: string
      content?: { type?: string; text?: unknown }
      path?: unknown
      oldText?: unknown
      newText?: unknown
      patch?: unknown
      changes?: unknown
      terminalId?: unknown
    }
    if (c.type === 'content' && typeof c.content?.text === 'string') lines.push('', toolText(c.content.text))
    else if (c.type === 'content') lines.push('', mediaToMarkdown(c.content))
    else if (c.type === 'diff' && typeof c.path === 'string') {
      lines.push('', `Diff of \`${c.path}\`:`)
      if (typeof c.patch === 'string') lines.push(fence(c.patch, 'diff'))
      else lines.push(fence(`--- old\n${typeof c.oldText === 'string' ? c.oldText : ''}\n+++ new\n${typeof c.newText === 'string' ? c.newText : ''}`, 'diff'))
    } else if (c.type === 'diff' && Array.isArray(c.changes)) lines.push('', ...v2DiffToMarkdown(c.changes, c.patch))
    else if (c.type === 'terminal' && typeof c.terminalId === 'string') {
      const terminal = state.terminals[c.terminalId]
      if (terminal) lines.push('', `Terminal${terminal.command ? ` \`${terminal.command}\`` : ''}:`, fence(plainOutput(terminal.output)))
    }
  }
  // What Bosun wrote for the call, of files the content shows no diff of (as the card shows them).
  const diffPaths = new Set(tool.content.filter((c) => c.type === 'diff').map((c) => (c as { path?: unknown }).path))
  for (const written of tool.writtenDiffs ?? []) {
    const w = written as { type: string; path?: unknown; oldText?: unknown; newText?: unknown }
    if (w.type !== 'diff' || typeof w.path !== 'string' || diffPaths.has(w.path)) continue
    lines.push('', `Written by Bosun for the agent, \`${w.path}\`:`)
    lines.push(fence(`--- old\n${typeof w.oldText === 'string' ? w.oldText : ''}\n+++ new\n${typeof w.newText === 'string' ? w.newText : ''}`, 'diff'))
  }
  // What Bosun read for the call: which lines of which files, not their text (as the card shows it).
  for (const read of tool.filesRead ?? []) lines.push('', `Read by Bosun for the agent, \`${read.path}\`: ${readRangeText(read)}`)
  for (const requestId of tool.permissionIds) {
    const request = state.permissions[requestId]
    if (!request) continue
    const option = request.options.find((o) => o.optionId === request.resolution?.optionId)
    lines.push('', `Permission “${request.title}”: ${request.status}${option ? ` (${option.name}, by ${request.resolution?.by ?? 'person'})` : ''}`)
  }
  return lines.join('\n')
}

function entryToMarkdown(entry: Entry, state: SessionState): string | null {
  switch (entry.kind) {
    case 'user_message':
      return `## You\n\n${blocksToMarkdown(entry.content)}`
    case 'agent_message':
      return `## Agent\n\n${blocksToMarkdown(entry.content)}`
    case 'agent_thought':
      return blocksToMarkdown(entry.content)
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n')
    case 'tool_call':
      return toolToMarkdown(entry, state)
    case 'permission': {
      const request = state.permissions[entry.requestId]
      return request ? `Permission “${request.title}”: ${request.status}` : null
    }
    case 'elicitation': {
      const elicitation = Object.values(state.elicitations).find((e) => e.elicitationRequestId === entry.elicitationId || e.elicitationId === entry.elicitationId)
      return elicitation ? `Question “${elicitation.message}”: ${elicitation.status}` : null
    }
    case 'turn_stop':
      return `_${stopNoteText(entry)}_`
    case 'turn_error':
      return `_${turnErrorText(entry.message, entry.code, false, entry.byBosun)}_`
    default:
      return `_(${entry.kind}${entry.kind === 'unknown' ? `: ${entry.sessionUpdate}` : ''})_`
  }
}

/** Whether the last turn's error is in the entries (after the last message the person sent). */
function turnErrorMarked(state: SessionState): boolean {
  for (let i = state.entries.length - 1; i >= 0; i--) {
    const kind = state.entries[i]!.kind
    if (kind === 'turn_error') return true
    if (kind === 'user_message') return false
  }
  return false
}

/** An export's title: the history's (a name the person gave it), else the session's own, else after its folder. */
export const exportTitle = (state: SessionState, summary: HistorySummary | undefined): string =>
  summary?.title ?? derivedTitle(state) ?? untitledName(state.cwd)

/** `agentName`: the agent's name as the person set it up (the id alone, `claude-4047ae`, tells a reader little). */
export function sessionToMarkdown(state: SessionState, summary: HistorySummary | undefined, agentName?: string): string {
  const title = exportTitle(state, summary)
  const out = [
    `# ${title}`,
    '',
    `- Agent: ${agentName && agentName !== state.agentId ? `${agentName} (${state.agentId})` : state.agentId}`,
    `- Folder: ${state.cwd}`,
    ...(summary ? [`- Started: ${new Date(summary.createdAt).toISOString()}`, `- Last activity: ${new Date(summary.updatedAt).toISOString()}`] : []),
    `- Protocol: ACP v${state.protocolVersion}`,
  ]
  for (const plan of state.plans) {
    out.push('', '## Plan', ...plan.entries.map((e) => `- [${e.status === 'completed' ? 'x' : ' '}] ${e.content}`))
  }
  for (const entry of state.entries) {
    const text = entryToMarkdown(entry, state)
    if (text) out.push('', text)
  }
  // The turn's error once: the transcript already marks it in the turn's place (a turn_error entry) unless it had none.
  if (state.turn.error && !turnErrorMarked(state)) out.push('', `_${state.turn.error.message}_`)
  return out.join('\n') + '\n'
}

export function sessionToJson(state: SessionState, summary: HistorySummary | undefined): string {
  const { seq: _seq, pendingEcho: _echo, notices: _notices, ...rest } = state
  return JSON.stringify({ format: 'bosun-session', version: 1, summary: summary ?? null, session: rest }, null, 2)
}

/** A file name from the title: letters, digits, dashes, at most 60 characters. */
export function exportFileName(title: string | null, format: 'markdown' | 'json'): string {
  const base = (title ?? 'session').normalize('NFKD').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'session'
  return `${base}.${format === 'markdown' ? 'md' : 'json'}`
}
