/** `TerminalHandlers` attached to a stand-in connection of agent `a`: the agent's requests called directly. */
import type { ClientRequestHandler } from '../../../main/acp/types'
import type { IDisposable } from '../../../main/base/lifecycle'
import type { TerminalHandlers } from '../../../main/terminals/terminal-handlers'

export interface AttachedTerminals extends IDisposable {
  /** Calls a registered method as the agent would; `signal` stands for `$/cancel_request`. */
  call(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<unknown>
}

export function attachAgent(handlers: TerminalHandlers): AttachedTerminals {
  const registered = new Map<string, ClientRequestHandler>()
  const attachment = handlers.attach(
    { handlers: { registerRequest: (method, handler) => (registered.set(method, handler), { dispose: () => registered.delete(method) }), registerNotification: () => ({ dispose: () => undefined }) } },
    { agentId: 'a', agentName: 'Agent' },
  )
  let requestId = 0
  return {
    call: async (method, params, signal = new AbortController().signal) => registered.get(method)!(params, { protocolVersion: 1, requestId: ++requestId, method, signal }),
    dispose: () => attachment.dispose(),
  }
}
