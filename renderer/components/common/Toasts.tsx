import { memo, useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react'
import type { SessionState } from '../../../common/session/types'
import { Icon } from './icons'
import { VisibleText } from '../permissions/VisibleText'

/** How long an informational notice stays before it dismisses itself. */
const NOTICE_MS = 8000
/** At most this many notices are on screen (the newest); the rest are counted, with a way to dismiss them all. */
export const MAX_VISIBLE_NOTICES = 3

/**
 * Whether a notice dismisses itself: information does; a warning or an error stays until the person dismisses
 * it (an agent that cannot reach its service says so once, and the person may be looking elsewhere).
 */
export const dismissesItself = (severity: string) => severity !== 'warning' && severity !== 'error'

/**
 * `speaker`: the agent of a session's notices. One it sent (any notice main did not mark as Bosun's) says so, and shows
 * its hidden characters as markers: an agent's notice titled "Bosun: auto-approve is on for this session" read as
 * Bosun's own words, in the place where Bosun's own notices show.
 */
function Toast({ notice, onDismiss, inFlow, speaker }: { notice: SessionState['notices'][number]; onDismiss: () => void; inFlow: boolean; speaker?: string | undefined }) {
  const fromAgent = speaker !== undefined && notice.fromBosun !== true
  // Above a transcript (or a page), a warning stays until dismissed: folded, it keeps the transcript's top lines in
  // view (Claude's four-line warning about auto mode took a fifth of a 900 px window until the person dismissed it).
  // Folded by the lines it shows (a line clamp), not by its length: "Show all" only when the clamp hides some.
  const [open, setOpen] = useState(false)
  const { ref: descriptionRef, cut } = useClampCut(inFlow && !open, notice.description)
  const foldable = inFlow && (open || cut)
  const descriptionId = useId()
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
        {fromAgent ? <span className="toast-source">{speaker || 'The agent'} says</span> : null}
        <strong>{fromAgent ? <VisibleText text={notice.title} /> : notice.title}</strong>
        {notice.repeats ? <span className="toast-repeats">{notice.repeats} times</span> : null}
        {notice.description && (
          <span ref={descriptionRef} id={descriptionId} className={inFlow && !open ? 'toast-description toast-folded' : 'toast-description'}>
            {fromAgent ? <VisibleText text={notice.description} prose /> : notice.description}
          </span>
        )}
        {foldable && (
          <button type="button" className="link-button toast-fold" aria-expanded={open} aria-controls={descriptionId} onClick={() => setOpen(!open)}>
            {open ? 'Show less' : 'Show all'}
          </button>
        )}
      </div>
      <button type="button" className="icon-button" aria-label="Dismiss notice" onClick={onDismiss}>
        <Icon name="close" size={14} />
      </button>
    </div>
  )
}

/**
 * Notices, newest last. `window`: the app's own, in the window's corner; `session`: a session's, in the flow above
 * its transcript (below the session header and its controls, covering nothing); `page`: the app's own while a page
 * that fills the window (Agents, Settings) is open, in its flow under its header: in the corner they sat over the
 * page's own controls. A session's notices stay the same object while its text streams, so a flood's batches do not
 * render them again.
 */
export const Toasts = memo(function Toasts({
  notices,
  onDismiss,
  placement = 'window',
  speaker,
}: {
  notices: SessionState['notices']
  onDismiss: (id: string) => void
  placement?: 'window' | 'session' | 'page'
  /** A session's notices: its agent's name, said on each notice the agent sent (see {@link Toast}). */
  speaker?: string | undefined
}) {
  const overflow = useOverflow(placement !== 'window', notices)
  if (notices.length === 0) return null
  const shown = notices.slice(-MAX_VISIBLE_NOTICES)
  const hidden = notices.slice(0, -MAX_VISIBLE_NOTICES)
  if (placement !== 'window') {
    // Taller than their share of the column (a narrow window, long descriptions): they scroll, the edge with more
    // below fades out instead of cutting a card off, and the box takes the keyboard (arrows, Page Down) too.
    const className = ['toasts', 'toasts-session', placement === 'page' ? 'toasts-page' : '', overflow.scrolls ? 'toasts-scrolls' : '', overflow.below ? 'toasts-more-below' : ''].filter(Boolean).join(' ')
    return (
      <div ref={overflow.ref} className={className} role="region" aria-label="Notices" tabIndex={overflow.scrolls ? 0 : undefined}>
        <NoticeList notices={notices} shown={shown} hidden={hidden} onDismiss={onDismiss} inFlow speaker={speaker} />
      </div>
    )
  }
  return (
    <div className="toasts" aria-label="Notices">
      <NoticeList notices={notices} shown={shown} hidden={hidden} onDismiss={onDismiss} speaker={speaker} />
    </div>
  )
})

/**
 * Whether a line-clamped element hides some of its text (`watch` changes with the text). Measured when it is drawn and
 * when its size changes (the window, the font size), with one observer while it is clamped, none otherwise.
 */
function useClampCut(clamped: boolean, watch: unknown) {
  const ref = useRef<HTMLSpanElement>(null)
  const [cut, setCut] = useState(false)
  useLayoutEffect(() => {
    const el = ref.current
    if (!clamped || !el) return
    const check = () => setCut(el.scrollHeight > el.clientHeight + 1)
    check()
    const observer = new ResizeObserver(check)
    observer.observe(el)
    return () => observer.disconnect()
  }, [clamped, watch])
  return { ref, cut }
}

/** Whether a box scrolls, and whether some of it is below what shows; `watch` changes when its content does. */
function useOverflow(enabled: boolean, watch: unknown) {
  const ref = useRef<HTMLDivElement>(null)
  const [state, setState] = useState({ scrolls: false, below: false })
  useLayoutEffect(() => {
    const el = ref.current
    if (!enabled || !el) return
    const check = () => {
      const scrolls = el.scrollHeight > el.clientHeight + 1
      const below = scrolls && el.scrollHeight - el.scrollTop - el.clientHeight > 1
      setState((old) => (old.scrolls === scrolls && old.below === below ? old : { scrolls, below }))
    }
    check()
    const observer = new ResizeObserver(check)
    observer.observe(el)
    el.addEventListener('scroll', check, { passive: true })
    return () => {
      observer.disconnect()
      el.removeEventListener('scroll', check)
    }
  }, [enabled, watch])
  return { ref, ...state }
}

function NoticeList({
  notices,
  shown,
  hidden,
  onDismiss,
  inFlow = false,
  speaker,
}: {
  notices: SessionState['notices']
  shown: SessionState['notices']
  hidden: SessionState['notices']
  onDismiss: (id: string) => void
  inFlow?: boolean
  speaker?: string | undefined
}) {
  return (
    <>
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
        <ToastItem key={notice.id} notice={notice} onDismiss={onDismiss} inFlow={inFlow} speaker={speaker} />
      ))}
    </>
  )
}

function ToastItem({ notice, onDismiss, inFlow, speaker }: { notice: SessionState['notices'][number]; onDismiss: (id: string) => void; inFlow: boolean; speaker?: string | undefined }) {
  const id = notice.id
  // Stable per notice so the timer is not restarted by unrelated re-renders.
  return <Toast notice={notice} onDismiss={useStableDismiss(onDismiss, id)} inFlow={inFlow} speaker={speaker} />
}

function useStableDismiss(onDismiss: (id: string) => void, id: string) {
  const ref = useRef(onDismiss)
  useEffect(() => {
    ref.current = onDismiss
  })
  return useCallback(() => ref.current(id), [id])
}
