/**
 * What the scripted agent reports of Bosun's answers to its requests: a `client` step writes
 * `client response (<method>): <json>` into the agent's message (`test/agents/scripted-agent.ts`). This reads
 * them back out of a session's transcript, oldest first, each as the JSON that followed.
 */
import type { SessionState } from '../../common/session/types'

export function clientReports(session: SessionState): unknown[] {
  return agentText(session)
    .split(/(?=client response \()/)
    .filter((s) => s.startsWith('client response ('))
    .map((s) => JSON.parse(s.slice(s.indexOf(': ') + 2)) as unknown)
}

/** Every text the agent said in the session's messages, joined. */
export function agentText(session: SessionState): string {
  return session.entries
    .flatMap((e) => (e.kind === 'agent_message' ? e.content : []))
    .map((b) => ('text' in b && typeof b.text === 'string' ? b.text : ''))
    .join('')
}
