/**
 * The flood: `count` mixed `session/update` notifications (text and thought chunks, tool_call and
 * tool_call_update with a diff, plan), the same bytes for every client. Shared by the flood agent and the
 * benchmark (which counts the transcript's text with {@link transcriptTextChars}).
 */

export const FLOOD_SESSION_ID = 'flood-1'

export function buildFloodUpdates(count: number): Record<string, unknown>[] {
  const updates: Record<string, unknown>[] = []
  let toolCall = 0
  let message = 0
  for (let i = 0; i < count; i++) {
    const slot = i % 20
    if (slot < 12) {
      if (slot === 0) message++
      updates.push({ sessionUpdate: 'agent_message_chunk', messageId: `m${message}`, content: { type: 'text', text: `token ${i} with some **markdown** and \`code\` ` } })
    } else if (slot < 15) {
      updates.push({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: `thinking about step ${i} ` } })
    } else if (slot === 15) {
      toolCall++
      updates.push({ sessionUpdate: 'tool_call', toolCallId: `call-${toolCall}`, title: `Edit file ${toolCall}`, kind: 'edit', status: 'pending', locations: [{ path: `/project/src/file-${toolCall}.ts`, line: 10 }] })
    } else if (slot < 18) {
      updates.push({
        sessionUpdate: 'tool_call_update',
        toolCallId: `call-${toolCall}`,
        status: slot === 16 ? 'in_progress' : 'completed',
        ...(slot === 17 ? { content: [{ type: 'diff', path: `/project/src/file-${toolCall}.ts`, oldText: 'const a = 1\n'.repeat(5), newText: 'const a = 2\n'.repeat(5) }] } : {}),
      })
    } else if (slot === 18) {
      updates.push({ sessionUpdate: 'plan', entries: [0, 1, 2, 3, 4].map((n) => ({ content: `Step ${n} of ${i}`, priority: 'medium', status: n < i % 5 ? 'completed' : 'pending' })) })
    } else {
      updates.push({ sessionUpdate: 'agent_message_chunk', messageId: `m${message}`, content: { type: 'text', text: '\n' } })
    }
  }
  return updates
}

/** The NDJSON lines of the flood for `sessionId`, one Buffer. */
export function serialiseFlood(updates: Record<string, unknown>[], sessionId = FLOOD_SESSION_ID): Buffer {
  return Buffer.from(updates.map((update) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update } })).join('\n') + '\n', 'utf8')
}

/** Characters of text the transcript shows: message and thought chunks, tool titles, diff texts (not the plan, which is replaced). */
export function transcriptTextChars(updates: Record<string, unknown>[]): number {
  let chars = 0
  for (const update of updates) {
    const content = update.content as { text?: string } | { oldText?: string; newText?: string }[] | undefined
    if (content && !Array.isArray(content) && typeof content.text === 'string') chars += content.text.length
    if (typeof update.title === 'string') chars += update.title.length
    if (Array.isArray(content)) for (const c of content) chars += (c.oldText?.length ?? 0) + (c.newText?.length ?? 0)
  }
  return chars
}
