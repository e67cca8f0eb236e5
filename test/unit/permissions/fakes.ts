import type { ClientRequestContext, ClientRequestHandler, JsonRpcId, ProtocolVersion } from '../../../main/acp/types'
import { Emitter } from '../../../main/base/event'
import { toDisposable } from '../../../main/base/lifecycle'
import type { PermissionRule } from '../../../main/permissions/rules'
import type { SessionAction } from '../../../common/session/types'

/** A connection stand-in: the handler registry plus a way to send requests as the agent would. */
export class FakeConnection {
  readonly requestHandlers = new Map<string, ClientRequestHandler>()
  private readonly closeEmitter = new Emitter<{ error?: Error }>()
  readonly onDidClose = this.closeEmitter.event
  private readonly controllers = new Map<JsonRpcId, AbortController>()
  readonly answers: { id: JsonRpcId; result?: unknown; error?: { code: number; message: string; data?: unknown } }[] = []

  constructor(private readonly version: ProtocolVersion = 1) {}

  readonly handlers = {
    registerRequest: (method: string, handler: ClientRequestHandler) => {
      this.requestHandlers.set(method, handler)
      return toDisposable(() => {
        if (this.requestHandlers.get(method) === handler) this.requestHandlers.delete(method)
      })
    },
    registerNotification: () => toDisposable(() => {}),
  }

  /** Sends a request; resolves with what the client answered (result or error), recording it. */
  async request(id: JsonRpcId, params: unknown, method = 'session/request_permission'): Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }> {
    const handler = this.requestHandlers.get(method)
    if (!handler) {
      const answer = { id, error: { code: -32601, message: 'Method not found' } }
      this.answers.push(answer)
      return answer
    }
    const controller = new AbortController()
    this.controllers.set(id, controller)
    const context: ClientRequestContext = { protocolVersion: this.version, requestId: id, method, signal: controller.signal }
    try {
      const result = await handler(params, context)
      this.answers.push({ id, result })
      return { result }
    } catch (error) {
      const e = error as { code: number; message: string; data?: unknown }
      const answer = { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) }
      this.answers.push({ id, error: answer })
      return { error: answer }
    } finally {
      this.controllers.delete(id)
    }
  }

  /** The agent's `$/cancel_request`. */
  cancelRequest(id: JsonRpcId): void {
    this.controllers.get(id)?.abort()
  }

  /** The stream ended: abort everything, then fire close (what connection.ts does). */
  close(error?: Error): void {
    for (const c of this.controllers.values()) c.abort(new Error('closed'))
    this.closeEmitter.fire(error ? { error } : {})
  }
}

export function recordingSink(): { actions: { sessionId: string; action: SessionAction }[]; sink: (sessionId: string, action: SessionAction) => void } {
  const actions: { sessionId: string; action: SessionAction }[] = []
  return { actions, sink: (sessionId, action) => actions.push({ sessionId, action }) }
}

export class MemoryRules {
  rules: PermissionRule[] = []
  list(): readonly PermissionRule[] {
    return this.rules
  }
  async add(rule: PermissionRule): Promise<void> {
    this.rules.push(rule)
  }
}

/** Lets pending handler promises register before the test continues (no timers involved). */
export const flushMicrotasks = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve()
}

export const standardOptions = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
  { optionId: 'never', name: 'Never', kind: 'reject_always' },
]

/** A remembered decision as Bosun writes it: always allow `npm test` in /proj for agent A. */
export const npmTestRule: PermissionRule = {
  ruleId: 'r1',
  format: 2,
  agentId: 'a',
  agentName: 'A',
  cwd: '/proj',
  toolKind: 'execute',
  decision: 'allow_always',
  command: { type: 'exact', value: 'npm test' },
  argv: null,
  workdir: '/proj',
  paths: null,
  origin: null,
  tool: null,
  extras: null,
  sessionId: null,
  retired: null,
  label: 'Always allow `npm test` in /proj (A)',
  createdAt: 1,
}
