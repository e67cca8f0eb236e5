import type { SessionState } from './types'

/**
 * Whether the agent answered the person's last message (a message, a thought or a tool call after it): that message
 * was sent and its turn ran, even when the send then failed because the agent died. The composer does not offer it
 * again; a message the agent never answered is put back, to send once the agent is back.
 */
export function answeredLastPrompt(session: Pick<SessionState, 'entries'> | undefined): boolean {
  if (!session) return false
  let answered = false
  for (let i = session.entries.length - 1; i >= 0; i--) {
    const entry = session.entries[i]!
    if (entry.kind === 'user_message' && entry.local) return answered
    if (entry.kind === 'agent_message' || entry.kind === 'agent_thought' || entry.kind === 'tool_call') answered = true
  }
  return false
}
