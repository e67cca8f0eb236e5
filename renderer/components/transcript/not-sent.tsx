import { AUTH_REQUIRED_CODE, keyProblemOf } from '../../../common/acp-errors'
import { interruptedByBosun } from '../../../common/session/turn-stop'
import { createContext, useContext } from 'react'
import type { ContentBlock, MessageEntry, PromptError } from '../../../common/session/types'
import { VisibleText } from '../permissions/VisibleText'

/** What the session screen does with a message the agent refused (or, on v1, answered with an error only): put it back in the composer, or send it again. */
export interface NotSentActions {
  onEdit: (text: string) => void
  onResend: (content: ContentBlock[]) => void
  /** The agent refused it because the person is not signed in (-32000, with auth methods listed): offer them. */
  onSignIn?: (reason: string) => void
  /** Opens the agent's log (its stderr): what a turn that ended with an error offers to read. */
  onOpenLog?: () => void
  /** Opens the agent on the Agents page (its keys and environment): offered when its error says a key is missing or refused. */
  onOpenAgent?: () => void
  /** The session's agent, as the window names it (for "Open <agent> on the Agents page"). */
  agentName?: string
  /**
   * A message is on its way (a turn runs, or one waits for the agent to start): sending another now would only be
   * refused ("a turn is already running"), so Resend and Send again wait, and say why.
   */
  sending?: boolean
  /**
   * The session cannot go on (its agent cannot continue it; said where the person types, with the way forward):
   * nothing is offered to send again, which could only fail.
   */
  cannotContinue?: boolean
}

/** What a disabled Resend or Send again says while a message is on its way. */
const WAIT_FOR_SENT = 'A message is on its way: send again once it has gone'

export const NotSentContext = createContext<NotSentActions | null>(null)

const textOf = (content: ContentBlock[]) =>
  content
    .filter((b): b is ContentBlock & { type: 'text'; text: string } => b.type === 'text' && typeof (b as { text?: unknown }).text === 'string')
    .map((b) => b.text)
    .join('\n')

/** The agent's error in words: its message, then its details (kept as the agent wrote them, line breaks included). */
export function PromptErrorText({ error }: { error: PromptError }) {
  return (
    <>
      <span className="prompt-error-message">
        <VisibleText text={error.message} prose />
      </span>
      {error.code !== undefined && <span className="muted"> (error {error.code})</span>}
      {error.details && (
        <span className="prompt-error-details">
          <VisibleText text={error.details} prose />
        </span>
      )}
    </>
  )
}

/** The rest of an agent error's `data`, as the agent sent it, folded: reachable, not in the way of its words. */
export function ErrorData({ data }: { data: string | undefined }) {
  if (!data) return null
  return (
    <details className="disclosure prompt-error-data">
      <summary>Details</summary>
      <pre className="turn-error-mark-text">
        <VisibleText text={data} prose code />
      </pre>
    </details>
  )
}

/**
 * Under a user message the agent refused (v2: never inserted): why, and the way to send it again, until a later
 * message went through (`sentLater`: resent, or the conversation went on): then only why.
 */
export function NotSentNote({ entry, sentLater = false }: { entry: MessageEntry & { notSent: PromptError }; sentLater?: boolean }) {
  const actions = useContext(NotSentContext)
  const text = textOf(entry.content)
  const authRequired = entry.notSent.code === AUTH_REQUIRED_CODE
  // B10: only an agent that listed auth methods Bosun can run (or whose keys it can ask for) can be signed in to; a transcript from before `signIn` says so by the code alone.
  const signIn = authRequired && entry.notSent.signIn !== false
  // A key the agent says is missing or refused (not as "authentication required"): where to set it.
  const key = !authRequired && actions?.onOpenAgent ? keyProblemOf(entry.notSent.message) : null
  // v1 answers a message its model failed on as it answers one it refused: say only what is known.
  // One Bosun could not even write to the agent was refused by nobody: its reason says what happened.
  const [label, lead] = entry.notSent.mayHaveTaken
    ? ['Failed', 'The agent answered this message with an error: ']
    : entry.notSent.undelivered
      ? ['Not sent', '']
      : ['Not sent', 'The agent refused this message: ']
  return (
    <div className="not-sent" role="note" aria-label={label}>
      <p className="not-sent-reason">
        <strong>{label}.</strong> {lead}
        <PromptErrorText error={entry.notSent} />
      </p>
      <ErrorData data={entry.notSent.data} />
      {key && <p className="muted small not-sent-hint">{keyHint(key.name)} Then resend.</p>}
      {authRequired && !signIn && (
        <p className="muted small not-sent-hint">
          It asks for a sign-in but listed no way to sign in that Bosun can use, so Bosun has none to offer: sign in the agent’s own way (often its
          command in a terminal), then resend.
        </p>
      )}
      {actions && !sentLater && !actions.cannotContinue && (
        <div className="button-row">
          {signIn && actions.onSignIn && (
            <button type="button" className="button button-small button-primary" onClick={() => actions.onSignIn?.(entry.notSent.message)}>
              Sign in…
            </button>
          )}
          {key && <OpenAgentButton actions={actions} />}
          <button type="button" className="button button-small button-secondary" disabled={text === ''} onClick={() => actions.onEdit(text)}>
            Edit
          </button>
          <button
            type="button"
            className="button button-small button-secondary"
            disabled={actions.sending === true}
            title={actions.sending ? WAIT_FOR_SENT : undefined}
            onClick={() => actions.onResend(entry.content)}
          >
            Resend
          </button>
        </div>
      )}
    </div>
  )
}

/**
 * Under the alert of a turn that just ended with an error: what the person can do next. Send the last message again
 * (a rate limit or an overloaded model often passes), put it back in the message box to change it, or read the
 * agent's log (its stderr often says more than the error did).
 */
export function TurnErrorActions({ lastMessage, code, message, byBosun }: { lastMessage: MessageEntry | null; code: number | null | undefined; message: string; byBosun?: true | undefined }) {
  const actions = useContext(NotSentContext)
  if (!actions) return null
  // A session that cannot go on offers nothing to send again (the composer says why, and the way forward): only the log.
  if (actions.cannotContinue) lastMessage = null
  const text = lastMessage ? textOf(lastMessage.content) : ''
  const signIn = !actions.cannotContinue && code === AUTH_REQUIRED_CODE && actions.onSignIn !== undefined
  // Bosun closed (or died) mid-turn and stopped the agent: nothing went wrong that its log could explain.
  const openLog = interruptedByBosun({ message, byBosun }) ? undefined : actions.onOpenLog
  // The agent says a key is missing or refused, in words rather than "authentication required": where to set it.
  const key = !signIn && !actions.cannotContinue && actions.onOpenAgent ? keyProblemOf(message) : null
  const hint = signIn
    ? 'Sign in, then send the message again.'
    : key
      ? `${keyHint(key.name)} Then send the message again.`
    : lastMessage
      ? `You can send the message again${openLog ? ', or read the agent’s log for what went wrong' : ''}.`
      : openLog
        ? 'The agent’s log may say what went wrong.'
        : null
  if (!hint) return null
  return (
    <div className="turn-error-next">
      <p className="turn-error-hint">{hint}</p>
      <div className="button-row">
        {signIn && (
          <button type="button" className="button button-small button-primary" onClick={() => actions.onSignIn?.(message)}>
            Sign in…
          </button>
        )}
        {key && <OpenAgentButton actions={actions} />}
        {lastMessage && (
          <>
            <button
              type="button"
              className={signIn ? 'button button-small button-secondary' : 'button button-small button-primary'}
              disabled={actions.sending === true}
              title={actions.sending ? WAIT_FOR_SENT : undefined}
              onClick={() => actions.onResend(lastMessage.content)}
            >
              Send again
            </button>
            <button type="button" className="button button-small button-secondary" disabled={text === ''} onClick={() => actions.onEdit(text)}>
              Edit message
            </button>
          </>
        )}
        {openLog && (
          <button type="button" className="button button-small button-secondary" onClick={openLog}>
            Agent’s log
          </button>
        )}
      </div>
    </div>
  )
}

/** Where a key the agent says is missing or refused is set: its entry on the Agents page. */
function keyHint(name: string | null): string {
  return name
    ? `The agent says ${name} is not set: add it to the agent on the Agents page (Edit, then Secrets for a key or Environment for a setting).`
    : 'The agent says its API key is missing or was refused: set it on the Agents page (Edit, then Secrets).'
}

function OpenAgentButton({ actions }: { actions: NotSentActions }) {
  if (!actions.onOpenAgent) return null
  return (
    <button type="button" className="button button-small button-secondary" onClick={actions.onOpenAgent}>
      Open {actions.agentName || 'the agent'} on the Agents page
    </button>
  )
}
