import { useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react'
import type { ElicitationView } from '../../../common/session/types'
import { clearPromptFocus, promptFocusTarget, subscribePromptFocus } from '../permissions/prompt-focus'
import { useFocusOnArrival } from '../permissions/use-answer-focus'
import { cutText } from '../../../common/bounded'
import type { CallResult } from '../../../common/contract/define'
import { ElicitationForm, type ElicitationAnswer, type ElicitationSubmitResult } from './ElicitationForm'
import { UrlConsentDialog, type UrlOpenResult } from './UrlConsentDialog'

/** The slice of `window.bosun` the elicitation UI calls (the same for the Electron and the browser host). */
export interface ElicitationApi {
  respondElicitation(arg: { elicitationRequestId: string; action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string | number | boolean | string[]> }): Promise<CallResult<undefined>>
  openElicitationUrl(arg: { elicitationRequestId: string }): Promise<CallResult<{ openedBy: 'main' | 'page'; href: string }>>
  retryElicitationUrl(arg: { elicitationRequestId: string }): Promise<CallResult<{ openedBy: 'main' | 'page'; href: string }>>
  dismissElicitationUrl(arg: { elicitationRequestId: string }): Promise<CallResult<undefined>>
}

export interface ElicitationCardProps {
  elicitation: ElicitationView
  api: ElicitationApi
  autoFocus?: boolean
  /** Browser host: how the page opens a tab (default `window.open(href, '_blank', 'noopener,noreferrer')`). */
  openInPage?: (href: string) => void
}

/**
 * One elicitation, form or URL, wired to the IPC calls: the thing `SessionSeams.renderElicitation` and the
 * request-scoped inbox render. Keyed by request id so a new request never inherits another's draft.
 */
export function ElicitationCard(props: ElicitationCardProps) {
  return <FocusOnRequest elicitation={props.elicitation}>{renderCard(props)}</FocusOnRequest>
}

/**
 * "Bring this request to the person" (inbox or notification click, `requestPromptFocus`): the first control
 * of the card takes the keyboard focus when the card is, or becomes, mounted — the same path permission
 * prompts use.
 */
function FocusOnRequest({ elicitation, children }: { elicitation: ElicitationView; children: ReactNode }) {
  const requestId = elicitation.elicitationRequestId
  const target = useSyncExternalStore(subscribePromptFocus, promptFocusTarget, promptFocusTarget)
  const scope = useRef<HTMLDivElement>(null)
  // Appearing, it takes the focus as a permission prompt does when the person is not using it (the card itself, ringed,
  // never a field: Enter there would accept), else it is announced (see onArrival).
  // (A focus that scrolled would bring a tall form's middle into view: the transcript keeps its title in view instead.)
  const { agentName, message, mode } = elicitation
  useFocusOnArrival(
    requestId,
    elicitation.status === 'pending',
    () => scope.current?.querySelector<HTMLElement>('.eli-card')?.focus({ preventScroll: true }),
    () => (mode === 'url' ? `${agentName} asks you to open a page in your browser` : `${agentName} asks: ${cutText(message, 200)}`),
  )
  useEffect(() => {
    if (target?.requestId !== requestId) return
    const first = scope.current?.querySelector<HTMLElement>('input:not(:disabled), select:not(:disabled), textarea:not(:disabled), button:not(:disabled)')
    if (!first) return
    first.focus()
    clearPromptFocus(requestId)
  }, [target, requestId])
  return (
    <div ref={scope} className="eli-focus-scope">
      {children}
    </div>
  )
}

function renderCard({ elicitation, api, autoFocus, openInPage }: ElicitationCardProps) {
  const elicitationRequestId = elicitation.elicitationRequestId
  if (elicitation.mode === 'url') {
    const opened = async (call: Promise<CallResult<{ openedBy: 'main' | 'page'; href: string }>>): Promise<UrlOpenResult> => {
      const result = await call
      return result.ok ? { ok: true, ...result.value } : { ok: false, message: result.error.message }
    }
    return (
      <UrlConsentDialog
        key={elicitationRequestId}
        elicitation={elicitation}
        onOpen={() => opened(api.openElicitationUrl({ elicitationRequestId }))}
        onRetry={() => opened(api.retryElicitationUrl({ elicitationRequestId }))}
        onDecline={() => void api.respondElicitation({ elicitationRequestId, action: 'decline' })}
        onCancel={() => void api.respondElicitation({ elicitationRequestId, action: 'cancel' })}
        onDismiss={() => void api.dismissElicitationUrl({ elicitationRequestId })}
        {...(openInPage ? { openInPage } : {})}
      />
    )
  }
  const respond = async (answer: ElicitationAnswer): Promise<ElicitationSubmitResult> => {
    const result = await api.respondElicitation(
      answer.action === 'accept'
        ? { elicitationRequestId, action: 'accept', content: answer.content as Record<string, string | number | boolean | string[]> }
        : { elicitationRequestId, action: answer.action },
    )
    if (result.ok) return { ok: true }
    const errors = (result.error.data as { errors?: Record<string, string> } | undefined)?.errors
    return { ok: false, message: result.error.message, ...(errors ? { errors } : {}) }
  }
  return <ElicitationForm key={elicitationRequestId} elicitation={elicitation} onRespond={respond} {...(autoFocus !== undefined ? { autoFocus } : {})} />
}
