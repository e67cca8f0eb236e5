import { useCallback, useEffect, useRef } from 'react'
import type { SessionState } from '../../../common/session/types'
import { Icon } from './icons'

/** How long a notice stays before it dismisses itself. */
const NOTICE_MS = 8000

function Toast({ notice, onDismiss }: { notice: SessionState['notices'][number]; onDismiss: () => void }) {
  // One timer per visible toast, cleared when it goes: nothing runs when there are no notices.
  useEffect(() => {
    const timer = setTimeout(onDismiss, NOTICE_MS)
    return () => clearTimeout(timer)
  }, [onDismiss])
  return (
    <div className={`toast toast-${notice.severity}`} role={notice.severity === 'error' ? 'alert' : 'status'}>
      <div className="toast-text">
        <strong>{notice.title}</strong>
        {notice.description && <span>{notice.description}</span>}
      </div>
      <button type="button" className="icon-button" aria-label="Dismiss notice" onClick={onDismiss}>
        <Icon name="close" size={14} />
      </button>
    </div>
  )
}

export function Toasts({ notices, onDismiss }: { notices: SessionState['notices']; onDismiss: (id: string) => void }) {
  if (notices.length === 0) return null
  return (
    <div className="toasts" aria-label="Notices">
      {notices.map((notice) => (
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
