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

/** What the Electron application menu asks the window's page to do (the page's own shortcuts do the same). */
export const MENU_COMMANDS = ['newSession', 'openSettings', 'toggleInspector'] as const
export type MenuCommand = (typeof MENU_COMMANDS)[number]

export const appEvents = {
  /** An application menu item was chosen (Electron only; main checked it was chosen for the Bosun window). */
  menuCommand: event(z.object({ command: z.enum(MENU_COMMANDS) })),
  /** Main asks the renderer to bring a request (permission or elicitation) into view, e.g. after a notification click. */
  focusRequest: event(z.object({ requestId: z.string() })),
  /** Something the person should know that belongs to no session (shown as a toast), e.g. a question Bosun refused. */
  appNotice: event(
    z.object({ severity: z.enum(['info', 'warning', 'error']), title: z.string().max(512), description: z.string().max(4096).optional() }),
  ),
} as const
