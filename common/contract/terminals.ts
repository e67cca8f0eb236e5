import { z } from 'zod'
import { call, id } from './define'

/**
 * v2 agent-owned terminals (issue 14 §2). The renderer only asks: main sends `terminal/cancel` only when the
 * terminal exists in that session and its latest `terminal_update` advertises `capabilities.cancel` (E16);
 * otherwise the answer is an error value and nothing reaches the agent.
 */
export const terminalCalls = {
  cancelTerminal: call(z.object({ sessionId: id, terminalId: id }), z.undefined()),
  /**
   * A v1 terminal Bosun runs for the agent (`terminal/create`), killed at the person's asking: main kills its process
   * tree only when the terminal is running in that very session; the agent still gets its exit status.
   */
  killTerminal: call(z.object({ sessionId: id, terminalId: id }), z.undefined()),
} as const

export const terminalEvents = {} as const
