import type { SessionState } from './types'

/**
 * Whether the agent answered the person's last message (a message, a thought or a tool call after it): that message
 * was sent and its turn ran, even when the send then failed because the agent died. The composer does not offer it
 * again; a message the agent never answered is put back, to send once the agent is back.
 */
export function answeredLastPrompt(session: Pick<SessionState, 'entries'> | undefined): boolean {
  if (!session) return false
  const entries = session.entries
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!
    if (entry.kind === 'user_message' && entry.local) return false
    if (entry.kind === 'agent_message' || entry.kind === 'agent_thought' || entry.kind === 'tool_call') {
      // Answered, if a message of the person's comes before it at all.
      for (let j = i - 1; j >= 0; j--) if (entries[j]!.kind === 'user_message' && (entries[j] as { local?: boolean }).local) return true
      return false
    }
  }
  return false
}
