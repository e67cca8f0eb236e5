import type { AgentRuntimeView } from '../../../common/session/types'

export type AgentStatus = AgentRuntimeView['status']

export const STATUS_LABEL: Record<AgentStatus, string> = {
  stopped: 'Not running',
  starting: 'Starting',
  ready: 'Running',
  restarting: 'Restarting',
  crashed: 'Crashed',
  failed: 'Failed to start',
}

/** Start when nothing runs; Restart and Stop when something does (or is about to). */
export function runtimeActions(status: AgentStatus): { start: boolean; restart: boolean; stop: boolean } {
  const running = status === 'ready' || status === 'starting' || status === 'restarting'
  return { start: !running, restart: running, stop: running || status === 'crashed' }
}
