import { useEffect, useRef, useState } from 'react'
import { AUTH_REQUIRED_CODE } from '../../../common/acp-errors'
import './session.css'
import type { SessionState } from '../../../common/session/types'

/**
 * A sign-in that went through from this session (a message the agent refused, or a turn that ended, for want of
 * one): the id of the session's last message then, and once the session was reopened, its last message then.
 */
export interface SignInMark {
  /** The last user message when the sign-in went through (`null`: none). */
  signedInAt: string | null
  /** Reopened (`reopenSession`) when this was its last user message: said until another message goes. */
  reopenedAt?: string | null
}

/** The id of the session's last user message (a refused one included), or null. */
export function lastMessageId(session: Pick<SessionState, 'entries'> | undefined): string | null {
  const entries = session?.entries ?? []
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!
    if (entry.kind === 'user_message') return entry.id
  }
  return null
}

/**
 * What the session says after a sign-in: `refused-again` when a message sent after it was refused for want of a sign-in
 * again (an agent that applies a login only to sessions built after it: claude-agent-acp's gateway login), `reopened`
 * right after a reopen until the next message, else nothing.
 */
export function afterSignIn(session: Pick<SessionState, 'entries' | 'turn'>, mark: SignInMark | undefined): 'refused-again' | 'reopened' | null {
  if (!mark) return null
  const last = lastMessageId(session)
  if (mark.reopenedAt !== undefined) return mark.reopenedAt === last ? 'reopened' : null
  if (last === mark.signedInAt || last === null) return null
  const entry = session.entries.findLast((e) => e.kind === 'user_message')
  const refused = entry !== undefined && 'notSent' in entry && entry.notSent?.code === AUTH_REQUIRED_CODE
  // A v1 turn that ended with the refusal (after the message became the transcript's).
  const turnRefused = session.turn.state === 'idle' && session.turn.error?.code === AUTH_REQUIRED_CODE
  return refused || turnRefused ? 'refused-again' : null
}

export interface ReopenAfterSignInProps {
  agentName: string
  state: 'refused-again' | 'reopened'
  /** The agent can resume or load sessions: offer Reopen session. Without it, say how to go on instead. */
  onReopen?: () => Promise<string | null>
  /** Without `onReopen`: start a new session in the same folder (the agent builds it signed in). */
  onNewSession?: () => void
}

/**
 * Where the person types, after a sign-in that did not reach this session: why the agent still refuses, and
 * Reopen session (what closing it and opening it from the history does: the transcript stays). Then: resend.
 */
export function ReopenAfterSignIn({ agentName, state, onReopen, onNewSession }: ReopenAfterSignInProps) {
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const live = useRef(true)
  useEffect(
    () => () => {
      live.current = false
    },
    [],
  )
  if (state === 'reopened') {
    return (
      <p className="session-reopen-note" role="status">
        Session reopened: send the message again (Resend under it, or from the message box).
      </p>
    )
  }
  const reopen = async () => {
    if (!onReopen) return
    setBusy(true)
    setProblem(null)
    const failure = await onReopen()
    if (!live.current) return
    setBusy(false)
    setProblem(failure)
  }
  return (
    <section className="agent-error session-reopen" role="alert" aria-label="Signed in, but this session still refuses">
      <div className="agent-error-head">
        <div className="agent-error-text">
          <strong>Signed in, but this session was started before</strong>
          <span>
            {onReopen
              ? `${agentName} may apply a sign-in only to sessions it builds after it: reopen this one (its transcript stays), then send the message again.`
              : `${agentName} may apply a sign-in only to sessions it builds after it, and it cannot reopen this one: start a new session to go on.`}
          </span>
          {problem && <span className="field-error">Reopening failed: {problem}</span>}
        </div>
        {onReopen ? (
          <button type="button" className="button button-primary" disabled={busy} onClick={() => void reopen()}>
            {busy ? 'Reopening…' : 'Reopen session'}
          </button>
        ) : (
          onNewSession && (
            <button type="button" className="button button-primary" onClick={onNewSession}>
              New session here
            </button>
          )
        )}
      </div>
    </section>
  )
}
