import { useCallback, useEffect, useId, useRef, useState } from 'react'
import type { BosunApi, IpcFailure } from '../../../common/contract'
import { useModalFocus } from '../common/modal-focus'
import { LoginPanel } from './LoginPanel'
import './sign-in-dialog.css'

export interface SignInDialogProps {
  api: BosunApi
  agentId: string
  agentName: string
  /** What the agent answered when it refused to start the session (its auth-required message). */
  reason: string
  /**
   * Asks for the session again; resolves to null once it exists, else why not. Without it, the dialog is for a
   * message the agent refused (auth required): a login that goes through ends it, and the person sends again.
   */
  retry?: () => Promise<IpcFailure | null>
  /** The session exists. */
  onDone: () => void
  /** Closed without a session; `problem` is the last failure shown, if any. */
  onCancel: (problem: string | null) => void
}

/**
 * "Sign in to start a session": shown when `session/new` failed with auth required. Offers the agent's own
 * sign-in methods (the Agents screen's Sign in panel: agent-driven, an env-var key stored in the keychain, or a
 * terminal) and the agent's own key variables that have no value yet (an agent such as Gemini CLI accepts a
 * login and then wants its key in the environment), then asks for the session again by itself once a login
 * went through or a key was saved. A modal `<dialog>`:
 * Escape and Cancel give up.
 */
export function SignInDialog({ api, agentId, agentName, reason, retry, onDone, onCancel }: SignInDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null)
  const headingRef = useRef<HTMLHeadingElement>(null)
  const [keychainAvailable, setKeychainAvailable] = useState(true)
  const [retrying, setRetrying] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const live = useRef(true)
  const ids = useId()
  // Tab stays in the dialog; closed, the focus goes back to what opened it (Start session, a message's Sign in).
  useModalFocus(dialogRef)

  useEffect(() => {
    live.current = true
    const dialog = dialogRef.current
    if (dialog && !dialog.open) dialog.showModal()
    headingRef.current?.focus()
    void api.getKeychainStatus(undefined).then((r) => {
      if (live.current && r.ok) setKeychainAvailable(r.value.available)
    })
    return () => {
      live.current = false
      if (dialog?.open) dialog.close()
    }
  }, [api])

  const attempt = useCallback(async () => {
    if (!retry) return onDone()
    setRetrying(true)
    setProblem(null)
    const failure = await retry()
    if (!live.current) return
    setRetrying(false)
    if (!failure) return onDone()
    setProblem(failure.kind === 'auth-required' ? `${agentName} still asks you to sign in: ${failure.message}` : `The session could not start: ${failure.message}`)
  }, [retry, onDone, agentName])

  return (
    <dialog
      ref={dialogRef}
      className="sign-in-dialog"
      aria-labelledby={`${ids}-title`}
      aria-describedby={`${ids}-why`}
      onCancel={(event) => {
        event.preventDefault()
        if (!retrying) onCancel(problem)
      }}
    >
      <header className="sign-in-head">
        <h2 id={`${ids}-title`} className="sign-in-title" tabIndex={-1} ref={headingRef}>
          Sign in to {agentName}
        </h2>
        <p id={`${ids}-why`} className="sign-in-why">
          {retry
            ? `${agentName} needs you to sign in before it can start a session. Choose how; Bosun starts the session as soon as you are signed in.`
            : `${agentName} needs you to sign in before it takes your message. Choose how, then send the message again.`}
        </p>
        <p className="muted small sign-in-reason">
          The agent said: <q>{reason}</q>
        </p>
      </header>

      <div className="sign-in-body">
        <LoginPanel
          api={api}
          agentId={agentId}
          agentName={agentName}
          keychainAvailable={keychainAvailable}
          showLogout={false}
          onLoggedIn={() => void attempt()}
          onTerminalSucceeded={() => void attempt()}
          keySubmitLabel={retry ? 'Save key and start' : 'Save key and restart'}
          onKeySaved={() => void attempt()}
          busy={retrying}
          refused
        />
      </div>

      <footer className="sign-in-foot">
        <div className="sign-in-status" aria-live="polite">
          {retrying ? (
            <span className="muted" role="status">
              <span className="spinner small" aria-hidden="true" /> Starting the session…
            </span>
          ) : problem ? (
            <span className="field-error" role="alert">
              {problem}
            </span>
          ) : null}
        </div>
        {retry && (
          <button type="button" className="button button-secondary" onClick={() => void attempt()} disabled={retrying}>
            Try again
          </button>
        )}
        <button type="button" className="button button-secondary" onClick={() => onCancel(problem)} disabled={retrying}>
          {retry ? 'Cancel' : 'Close'}
        </button>
      </footer>
    </dialog>
  )
}
