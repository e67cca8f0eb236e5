import { useCallback, useEffect, useRef } from 'react'
import type { SessionState } from '../../../common/session/types'
import { Icon } from './icons'

/** How long an informational notice stays before it dismisses itself. */
const NOTICE_MS = 8000
/** At most this many notices are on screen (the newest); the rest are counted, with a way to dismiss them all. */
export const MAX_VISIBLE_NOTICES = 3

/**
 * Whether a notice dismisses itself: information does; a warning or an error stays until the person dismisses
 * it (an agent that cannot reach its service says so once, and the person may be looking elsewhere).
 */
export const dismissesItself = (severity: string) => severity !== 'warning' && severity !== 'error'

function Toast({ notice, onDismiss }: { notice: SessionState['notices'][number]; onDismiss: () => void }) {
  // One timer per visible informational toast, cleared when it goes: nothing runs when there are no notices.
  const timed = dismissesItself(notice.severity)
  useEffect(() => {
    if (!timed) return
    const timer = setTimeout(onDismiss, NOTICE_MS)
    return () => clearTimeout(timer)
  }, [onDismiss, timed])
  return (
    <div className={`toast toast-${notice.severity}`} role={notice.severity === 'error' ? 'alert' : 'status'}>
      <div className="toast-text">
        <strong>{notice.title}</strong>
        {notice.repeats ? <span className="toast-repeats">{notice.repeats} times</span> : null}
        {notice.description && <span>{notice.description}</span>}
      </div>
      <button type="button" className="icon-button" aria-label="Dismiss notice" onClick={onDismiss}>
        <Icon name="close" size={14} />
      </button>
    </div>
  )
}

/**
 * Notices, newest last. `window`: the app's own, in the window's corner; `session`: a session's, in the flow above
 * its transcript (below the session header and its controls, covering nothing).
 */
export function Toasts({ notices, onDismiss, placement = 'window' }: { notices: SessionState['notices']; onDismiss: (id: string) => void; placement?: 'window' | 'session' }) {
  if (notices.length === 0) return null
  const shown = notices.slice(-MAX_VISIBLE_NOTICES)
  const hidden = notices.slice(0, -MAX_VISIBLE_NOTICES)
  return (
    <div className={placement === 'session' ? 'toasts toasts-session' : 'toasts'} aria-label="Notices">
      {hidden.length > 0 && (
        <div className="toasts-more">
          <span className="muted small">
            {hidden.length} earlier {hidden.length === 1 ? 'notice' : 'notices'}
          </span>
          <button type="button" className="button button-secondary button-small" onClick={() => notices.forEach((n) => onDismiss(n.id))}>
            Dismiss all
          </button>
        </div>
      )}
      {shown.map((notice) => (
        <ToastItem key={notice.id} notice={notice} onDismiss={onDismiss} />
      ))}
    </div>
  )
}

function ToastItem({ notice, onDismiss }: { notice: SessionState['notices'][number]; onDismiss: (id: string) => void }) {
  const id = notice.id
  // Stable per notice so the timer is not restarted by unrelated re-renders.
  return <Toast notice={notice} onDismiss={useStableDismiss(onDismiss, id)} />
}

function useStableDismiss(onDismiss: (id: string) => void, id: string) {
  const ref = useRef(onDismiss)
  useEffect(() => {
    ref.current = onDismiss
  })
  return useCallback(() => ref.current(id), [id])
}
