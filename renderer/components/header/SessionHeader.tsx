import { memo, useEffect, useRef, useState, type ReactNode } from 'react'
import type { TurnView, UsageView } from '../../../common/session/types'
import { Icon, type IconName } from '../common/icons'
import { UsageMeter } from '../session/UsageMeter'

const TURN_LABEL: Record<string, string> = {
  idle: 'Idle',
  running: 'Working…',
  requires_action: 'Needs you',
  unknown: 'Busy',
}

export function turnLabel(turn: TurnView): string {
  return TURN_LABEL[turn.state] ?? 'Busy'
}

/**
 * The inbox's entry point: "Waiting for you" (permissions and questions both, as the sidebar's counts say) with how many
 * wait; the panel is a seam (`inbox`).
 */
export function InboxButton({ pendingCount, inbox }: { pendingCount: number; inbox: (close: () => void) => ReactNode }) {
  const [open, setOpen] = useState(false)
  const ref = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const panelRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!open) return
    // The keyboard goes into the panel it opened (Tab then reaches its items), as in any dialog.
    panelRef.current?.focus()
    // Listeners only while the panel is open.
    const onDown = (e: PointerEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false)
    }
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return
      // Closed from the keyboard: the focus goes back to the button that opened it.
      const inside = ref.current?.contains(document.activeElement) ?? false
      setOpen(false)
      if (inside) buttonRef.current?.focus()
    }
    // Tab past its last item (or Shift+Tab past the button) leaves it: it closes, as a click outside does, instead of
    // staying open over the transcript with the keyboard elsewhere.
    const onFocus = (e: FocusEvent) => {
      if (ref.current && e.target instanceof Node && !ref.current.contains(e.target)) setOpen(false)
    }
    document.addEventListener('pointerdown', onDown)
    document.addEventListener('keydown', onKey)
    document.addEventListener('focusin', onFocus)
    return () => {
      document.removeEventListener('pointerdown', onDown)
      document.removeEventListener('keydown', onKey)
      document.removeEventListener('focusin', onFocus)
    }
  }, [open])
  return (
    <div className="inbox" ref={ref}>
      <button
        ref={buttonRef}
        type="button"
        className={pendingCount > 0 ? 'button button-secondary inbox-button has-pending' : 'button button-secondary inbox-button'}
        // The visible words and the count are the name.
        aria-label={`Waiting for you, ${pendingCount}`}
        aria-expanded={open}
        aria-haspopup="dialog"
        // Its word is hidden in a narrow window (app.css), as Agents' and Settings' are: the tooltip still says it.
        title="Waiting for you"
        onClick={() => setOpen(!open)}
      >
        <Icon name="inbox" size={15} />
        <span className="inbox-label">Waiting for you</span>
        {pendingCount > 0 && (
          <>
            {' '}
            <span className="count-badge">{pendingCount}</span>
          </>
        )}
      </button>
      {open && (
        <div className="popover" role="dialog" aria-label="Waiting for you" tabIndex={-1} ref={panelRef}>
          {inbox(() => setOpen(false))}
        </div>
      )}
    </div>
  )
}

/**
 * A page the header opens (Agents, Settings): its icon and its name. In a narrow window (app.css) the name is hidden
 * from sight but stays the button's accessible name, and the tooltip says it, so the session's title keeps its room.
 */
export function NavButton({
  label,
  icon,
  onClick,
  keyShortcuts,
  shortcutLabel,
}: {
  label: string
  icon: IconName
  onClick: () => void
  keyShortcuts?: string
  /** The shortcut as shown in the tooltip ("Ctrl+,"). */
  shortcutLabel?: string
}) {
  return (
    <button
      type="button"
      className="button button-secondary app-nav-button"
      title={shortcutLabel ? `${label} (${shortcutLabel})` : label}
      aria-keyshortcuts={keyShortcuts}
      onClick={onClick}
    >
      <Icon name={icon} size={15} />
      <span className="app-nav-label">{label}</span>
    </button>
  )
}

export interface SessionHeaderProps {
  /** The title as text: the tooltip, and what is shown when `titleView` is not given. */
  title: string
  /** The title as shown, when it is more than text (a folder's name cut in its middle, {@link MiddleCut}). */
  titleView?: ReactNode
  subtitle: string
  /** The subtitle as shown, when it is more than text. */
  subtitleView?: ReactNode
  /** The subtitle's tooltip when it says more than the subtitle (full folder paths); else the subtitle itself. */
  subtitleTooltip?: string
  turn: TurnView
  inboxSlot: ReactNode
  /** Ends the session (cancels a running turn, answers its pending permissions `cancelled`). */
  onClose: () => void
  /** The agent's last usage report (context window, cost); nothing is shown until there is one. */
  usage?: UsageView | null
  /**
   * Permission requests and questions of this session waiting on the person: a running turn then says "Needs you",
   * not "Working…" (a v1 agent blocked on an answer never says so itself), and the status announces the change.
   */
  waitingOnYou?: number
  /**
   * The agent being started for a message the person sent to this session (its name), while no turn runs yet: the
   * status says "Starting…", not "Idle", as the line above the composer says the message waits for it.
   */
  startingAgent?: string | null
  /** The agent runs and is building the session again (a reopen, `session/load`) before the waiting message goes. */
  reopening?: boolean
}

/** Two-step close: the first click asks, the second closes; leaving the button resets it. */
function CloseSessionButton({ onClose }: { onClose: () => void }) {
  const [armed, setArmed] = useState(false)
  return (
    <button
      type="button"
      className={armed ? 'button button-danger button-small' : 'icon-button'}
      aria-label={armed ? 'Confirm close session' : 'Close session'}
      title="Close session"
      onClick={() => (armed ? onClose() : setArmed(true))}
      onBlur={() => setArmed(false)}
    >
      {armed ? 'Close session?' : <Icon name="close" size={15} />}
    </button>
  )
}

export const SessionHeader = memo(function SessionHeader(props: SessionHeaderProps) {
  const { title, titleView, subtitle, subtitleView, subtitleTooltip, inboxSlot, onClose, usage, waitingOnYou = 0, startingAgent, reopening = false } = props
  const turn: TurnView = (props.turn.state === 'running' || props.turn.state === 'unknown') && waitingOnYou > 0 ? { ...props.turn, state: 'requires_action' } : props.turn
  const starting = turn.state === 'idle' && startingAgent != null
  const busy = turn.state === 'running' || turn.state === 'unknown' || starting
  // What the message waits for: the agent starting, or a running agent opening the session again.
  const waitsFor = !starting
    ? null
    : reopening
      ? { label: 'Opening…', status: `${startingAgent} opening the session`, what: `${startingAgent} is opening this session again` }
      : { label: 'Starting…', status: `starting ${startingAgent}`, what: `Starting ${startingAgent}` }
  const label = waitsFor?.label ?? turnLabel(turn)
  return (
    <header className="session-header">
      <div className="session-heading">
        <h1 className="session-title" title={title}>
          {titleView ?? title}
        </h1>
        <div className="session-subtitle muted" title={subtitleTooltip ?? subtitle}>
          {subtitleView ?? subtitle}
        </div>
      </div>
      <span
        className={`turn-state turn-${starting ? 'starting' : turn.state}`}
        role="status"
        aria-label={`Turn: ${waitsFor?.status ?? label}`}
        title={waitsFor ? `${waitsFor.what}; your message goes as soon as it is ready` : label}
      >
        {busy && <span className="spinner" aria-hidden="true" />}
        <span className="turn-label">{label}</span>
      </span>
      <UsageMeter usage={usage ?? null} />
      {/* The agent's selectors are under the composer (SessionOptions): the header is one row, its buttons always in view. */}
      <div className="header-actions">
        {inboxSlot}
        <CloseSessionButton onClose={onClose} />
      </div>
    </header>
  )
})
