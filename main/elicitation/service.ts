/**
 * The elicitation domain as the composition root sees it: one broker, the chokepoint opener and the
 * IPC call handlers.
 */
import type { CallHandlers, EventSink } from '../../common/contract'
import { fail, toFailure, type Result } from '../base/errors'
import type { Logger } from '../base/log'
import type { SessionAction, SessionState } from '../../common/session/types'
import { ElicitationBroker, type ElicitationBrokerOptions } from './broker'
import { linkOccursIn } from './link-provenance'
import { createExternalOpener, type ExternalOpener } from './open-external'

export type ElicitationCallName =
  | 'respondElicitation'
  | 'openElicitationUrl'
  | 'retryElicitationUrl'
  | 'dismissElicitationUrl'
  | 'listRequestScopedElicitations'
  | 'openLink'

export interface ElicitationServiceOptions {
  sink: (sessionId: string, action: SessionAction) => void
  /** Electron `shell.openExternal`; omitted in the browser host (the page opens the tab). */
  openExternal?: (url: string) => Promise<void>
  /** OS notification hook (the permissions attention service). */
  onArrived?: ElicitationBrokerOptions['onArrived']
  onResolved?: ElicitationBrokerOptions['onResolved']
  onRefused?: ElicitationBrokerOptions['onRefused']
  /** Publishes `requestScopedElicitation`. */
  events?: Pick<EventSink, 'emit'>
  resolveSession?: ElicitationBrokerOptions['resolveSession']
  /**
   * The session as main holds it: `openLink` opens only a link that occurs in the agent's content of that
   * session. Without it no link is opened (fail closed).
   */
  sessionState?: (sessionId: string) => SessionState | undefined
  getBackground?: ElicitationBrokerOptions['getBackground']
  log?: Logger
  redact?: ElicitationBrokerOptions['redact']
}

export interface ElicitationService {
  broker: ElicitationBroker
  opener: ExternalOpener
  handlers: Pick<CallHandlers, ElicitationCallName>
  dispose(): void
}

export function createElicitationService(options: ElicitationServiceOptions): ElicitationService {
  const opener = createExternalOpener(options.openExternal)
  const broker = new ElicitationBroker({
    sink: options.sink,
    opener,
    ...(options.onArrived ? { onArrived: options.onArrived } : {}),
    ...(options.onResolved ? { onResolved: options.onResolved } : {}),
    ...(options.onRefused ? { onRefused: options.onRefused } : {}),
    ...(options.resolveSession ? { resolveSession: options.resolveSession } : {}),
    ...(options.getBackground ? { getBackground: options.getBackground } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(options.redact ? { redact: options.redact } : {}),
    onRequestScoped: ({ change, item }) => options.events?.emit('requestScopedElicitation', { change, ...item }),
  })
  // Results cross IPC as values; a bug becomes an `internal` failure, never a rejected promise.
  const guard = async <T>(fn: () => Result<T> | Promise<Result<T>>) => {
    try {
      return await fn()
    } catch (error) {
      return { ok: false as const, error: toFailure(error) }
    }
  }
  const handlers: Pick<CallHandlers, ElicitationCallName> = {
    respondElicitation: (arg) =>
      guard(() =>
        broker.respond(
          arg.elicitationRequestId,
          arg.action === 'accept' ? { action: 'accept', content: arg.content ?? {} } : { action: arg.action },
        ),
      ),
    openElicitationUrl: (arg) => guard(() => broker.openUrl(arg.elicitationRequestId)),
    retryElicitationUrl: (arg) => guard(() => broker.retryUrl(arg.elicitationRequestId)),
    dismissElicitationUrl: (arg) => guard(() => broker.dismissUrl(arg.elicitationRequestId)),
    openLink: (arg) =>
      guard(() => {
        // Main vouches for the link, not the renderer: it must be in what the agent wrote in that session.
        const state = options.sessionState?.(arg.sessionId)
        if (!state) return fail({ kind: 'not-found', message: 'There is no such session to open a link from.' })
        if (!linkOccursIn(state, arg.url)) {
          options.log?.warn(`refused to open a link that is not in the agent's content of ${arg.sessionId}: ${arg.url.slice(0, 200)}`)
          return fail({ kind: 'invalid-argument', message: 'Bosun opens only links that the agent wrote in this session.' })
        }
        return opener.openLink(arg.url)
      }),
    listRequestScopedElicitations: () =>
      guard(() => ({
        ok: true as const,
        value: broker.listRequestScoped().map((item) => ({ ...item, scopeRequestId: item.scopeRequestId })),
      })),
  }
  return { broker, opener, handlers, dispose: () => broker.dispose() }
}
