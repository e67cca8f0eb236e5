import { z } from 'zod'
import { call, id } from './define'

/**
 * v2 tool calls the agent lets the person stop one by one. The renderer only asks: main sends `tool_call/cancel`
 * only when the tool call exists in that session, is not final and its latest update advertises
 * `capabilities.cancel` (E15); otherwise the answer is an error value and nothing reaches the agent. `accepted:
 * false` is the agent's -32602 (unknown, already final or not cancellable), which the card notes quietly.
 */
export const toolCallCalls = {
  cancelToolCall: call(z.object({ sessionId: id, toolCallId: id }), z.object({ accepted: z.boolean() })),
} as const

export const toolCallEvents = {} as const
