/**
 * The one list of every renderer → main call and main → renderer event. Main (`main/shell/ipc.ts`), the
 * preload bridge, the browser host and the renderer all read this object; there is no second list.
 *
 * Each domain declares its part in `preload/contract/<domain>.ts`; this file only assembles them.
 */
import type { z } from 'zod'
import type { CallResult, CallSpec, EventSpec } from './contract/define'
import { appCalls, appEvents } from './contract/app'
import { sessionCalls, sessionEvents } from './contract/sessions'
import { permissionsCalls, permissionsEvents } from './contract/permissions'
import { elicitationCalls, elicitationEvents } from './contract/elicitation'
import { agentsCalls, agentsEvents } from './contract/agents'
import { agentToolsCalls, agentToolsEvents } from './contract/agent-tools'
import { registryCalls, registryEvents } from './contract/registry'
import { historyCalls, historyEvents } from './contract/history'
import { clientCapsCalls, clientCapsEvents } from './contract/client-caps'
import { mcpCalls, mcpEvents } from './contract/mcp'
import { terminalCalls, terminalEvents } from './contract/terminals'
import { toolCallCalls, toolCallEvents } from './contract/tool-calls'
import { locationsCalls, locationsEvents } from './contract/locations'

export const calls = {
  ...appCalls,
  ...sessionCalls,
  ...permissionsCalls,
  ...elicitationCalls,
  ...agentsCalls,
  ...agentToolsCalls,
  ...registryCalls,
  ...historyCalls,
  ...clientCapsCalls,
  ...mcpCalls,
  ...terminalCalls,
  ...toolCallCalls,
  ...locationsCalls,
} as const

export const events = {
  ...appEvents,
  ...sessionEvents,
  ...permissionsEvents,
  ...elicitationEvents,
  ...agentsEvents,
  ...agentToolsEvents,
  ...registryEvents,
  ...historyEvents,
  ...clientCapsEvents,
  ...mcpEvents,
  ...terminalEvents,
  ...toolCallEvents,
  ...locationsEvents,
} as const

export type Calls = typeof calls
export type Events = typeof events
export type CallName = keyof Calls & string
export type EventName = keyof Events & string

export type CallInput<N extends CallName> = Calls[N] extends CallSpec<infer I, z.ZodType> ? z.input<I> : never
export type CallOutput<N extends CallName> = Calls[N] extends CallSpec<z.ZodType, infer O> ? z.output<O> : never
export type EventPayload<N extends EventName> = Events[N] extends EventSpec<infer P> ? z.output<P> : never

/** The IPC channel of a call or event: one prefix, so main can refuse anything else. */
export const callChannel = (name: CallName): string => `bosun:call:${name}`
export const eventChannel = (name: EventName): string => `bosun:event:${name}`

type Capitalize1<S extends string> = S extends `${infer F}${infer R}` ? `${Uppercase<F>}${R}` : S

/** `window.bosun`: one method per call, one `on…` subscription per event (returns an unsubscribe function). */
export type BosunApi = {
  readonly [N in CallName]: (arg: CallInput<N>) => Promise<CallResult<CallOutput<N>>>
} & {
  readonly [N in EventName as `on${Capitalize1<N>}`]: (listener: (payload: EventPayload<N>) => void) => () => void
}

export const subscriptionName = (name: EventName): string => `on${name[0]!.toUpperCase()}${name.slice(1)}`

/**
 * Who made a call: one page (a browser tab's socket; the window's page until it reloads, crashes or closes).
 * What main keeps only for a page that wants it (an inspector it watches) is tied to it and let go when it leaves.
 */
export interface CallClient {
  /** Calls `listener` once, when the page goes; dispose the result to stop listening. */
  onDidLeave(listener: () => void): { dispose(): void }
}

/**
 * Main's side: one async function per call, taking the parsed argument and the page that called (absent when
 * main calls a handler itself, or in tests). Throw only for bugs; return failures as values.
 */
export type CallHandlers = {
  [N in CallName]: (arg: z.output<Calls[N] extends CallSpec<infer I, z.ZodType> ? I : never>, client?: CallClient) => Promise<CallResult<CallOutput<N>>>
}

/** Main's side: how services publish events (the shell and the browser host implement it). */
export interface EventSink {
  emit<N extends EventName>(name: N, payload: EventPayload<N>): void
}

export * from './contract/define'
