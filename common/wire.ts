/**
 * The browser host's WebSocket messages (JSON text frames), shared by `main/web/server.ts` and the renderer's
 * socket client. The calls and events themselves are the IPC contract's; this is only the envelope.
 */
import type { CallResult, EventName } from './contract'

/** The path the browser host accepts WebSocket upgrades on (with `?token=`). */
export const WS_PATH = '/bosun-ws'

/** Client → host: run one call. `id` pairs the answer with the request. */
export interface WireCall {
  type: 'call'
  id: number
  name: string
  arg?: unknown
}

/** Host → client: the answer to one call. */
export interface WireResult {
  type: 'result'
  id: number
  result: CallResult<unknown>
}

/** Host → client: one event, as the EventSink emitted it. */
export interface WireEvent {
  type: 'event'
  name: EventName
  payload: unknown
}

export type WireFromHost = WireResult | WireEvent
