import type { SessionState } from './types'

/**
 * Whether the agent answered the person's last message (a message, a thought or a tool call after it): that message
 * was sent and its turn ran, even when the send then failed because the agent died. The composer does not offer it
 * again; a message the agent never answered is put back, to send once the agent is back.
 */
export function answeredLastPrompt(session: Pick<SessionState, 'entries'> | undefined): boolean {
  if (!session) return false
  const at = lastPromptAt(session.entries)
  if (at < 0) return false
  for (let i = at + 1; i < session.entries.length; i++) {
    const kind = session.entries[i]!.kind
    if (kind === 'agent_message' || kind === 'agent_thought' || kind === 'tool_call') return true
  }
  return false
}

/** Where the person's last message is (a local prompt, not one an agent replayed), or -1. */
export function lastPromptAt(entries: SessionState['entries']): number {
  return entries.findLastIndex((entry) => entry.kind === 'user_message' && entry.local === true)
}
