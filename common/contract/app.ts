import { z } from 'zod'
import { call, event } from './define'

/** App-level calls: version and host information. */
export const appCalls = {
  appInfo: call(
    z.undefined(),
    z.object({
      name: z.string(),
      version: z.string(),
      host: z.enum(['electron', 'web']),
      platform: z.string(),
      /** After this much silence from the agent during a turn the session says so (absent: the renderer's 30 s). */
      stallNoticeMs: z.number().int().positive().optional(),
    }),
  ),
} as const

export const appEvents = {
  /** Main asks the renderer to bring a request (permission or elicitation) into view, e.g. after a notification click. */
  focusRequest: event(z.object({ requestId: z.string() })),
  /** Something the person should know that belongs to no session (shown as a toast), e.g. a question Bosun refused. */
  appNotice: event(
    z.object({ severity: z.enum(['info', 'warning', 'error']), title: z.string().max(512), description: z.string().max(4096).optional() }),
  ),
} as const
