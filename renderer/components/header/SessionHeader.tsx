import { memo, useEffect, useRef, useState, type ReactNode } from 'react'
import type { ConfigOptionView, ModeView, ModelView, TurnView, UsageView } from '../../../common/session/types'
import { Icon } from '../common/icons'
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

/** What an option the agent reports as current but does not list is called: its raw id, marked. */
const unlistedLabel = (id: string) => `${id} (not listed by the agent)`
const UNLISTED_TITLE = 'The agent reports this as current, but it is not among the choices the agent lists'

/** One of the agent's lists outside config options (its modes, its models): the choices and the current one. */
interface Choices {
  current: string | null
  available: { id: string; name: string; description?: string | null }[]
}

/**
 * A choice the agent lists outside config options. A current one the agent does not list (or one it reports with
 * none listed at all) is shown as it is, by its id: a select would show its first option as if it were the current one.
 */
function ChoiceSelect({ label, choices, onChange }: { label: string; choices: Choices; onChange: (id: string) => void }) {
  const { current, available } = choices
  if (available.length === 0) {
    if (current === null) return null
    return (
      <span className="header-control" role="group" aria-label={label} title={`The agent reports this ${label.toLowerCase()} but lists none to switch to`}>
        <span className="header-control-label">{label}</span>
        <span className="header-control-value">{current}</span>
      </span>
    )
  }
  const listed = available.find((c) => c.id === current)
  const unlisted = current !== null && !listed
  return (
    <label className="header-control">
      <span className="header-control-label">{label}</span>
      <select
        className={unlisted ? 'select select-unlisted' : 'select'}
        aria-label={label}
        value={current ?? ''}
        title={unlisted ? UNLISTED_TITLE : (listed?.description ?? listed?.name ?? undefined)}
        onChange={(e) => onChange(e.target.value)}
      >
        {current === null && <option value="">—</option>}
        {unlisted && (
          <option value={current} title={UNLISTED_TITLE}>
            {unlistedLabel(current)}
          </option>
        )}
        {available.map((choice) => (
          <option key={choice.id} value={choice.id} title={choice.description ?? undefined}>
            {choice.name}
          </option>
        ))}
      </select>
    </label>
  )
}

/** The session mode (v1 `modes`, when no config option is the mode). */
export const ModeSelect = memo(function ModeSelect({
  modes,
  onChange,
}: {
  modes: { currentModeId: string | null; availableModes: ModeView[] }
  onChange: (modeId: string) => void
}) {
  return <ChoiceSelect label="Mode" choices={{ current: modes.currentModeId, available: modes.availableModes }} onChange={onChange} />
})

/** The session model (v1 `models`, the unstable session models API, when no config option is the model). */
export const ModelSelect = memo(function ModelSelect({
  models,
  onChange,
}: {
  models: { currentModelId: string | null; availableModels: ModelView[] }
  onChange: (modelId: string) => void
}) {
  return <ChoiceSelect label="Model" choices={{ current: models.currentModelId, available: models.availableModels }} onChange={onChange} />
})

/**
 * Select and boolean config options; unknown option types are hidden. A select's current value that is not among
 * its options is shown as it is, marked (the browser would otherwise show the first option as the current one).
 */
export const ConfigOptions = memo(function ConfigOptions({
  options,
  onChange,
}: {
  options: ConfigOptionView[]
  onChange: (configId: string, value: string | boolean) => void
}) {
  return (
    <>
      {options.map((option) => {
        if (option.type === 'select') {
          const groups = [...new Set(option.options.map((o) => o.group).filter((g): g is string => Boolean(g)))]
          const render = (opts: ConfigOptionView['options']) =>
            opts.map((o) => (
              <option key={o.value} value={o.value} title={o.description ?? undefined}>
                {o.name}
              </option>
            ))
          const value = typeof option.currentValue === 'string' ? option.currentValue : null
          const unlisted = value !== null && !option.options.some((o) => o.value === value)
          return (
            <label key={option.id} className="header-control">
              <span className="header-control-label">{option.name}</span>
              <select
                className={unlisted ? 'select select-unlisted' : 'select'}
                aria-label={option.name}
                title={unlisted ? UNLISTED_TITLE : (option.description ?? undefined)}
                value={value ?? ''}
                onChange={(e) => onChange(option.id, e.target.value)}
              >
                {value === null && <option value="">—</option>}
                {unlisted && (
                  <option value={value} title={UNLISTED_TITLE}>
                    {unlistedLabel(value)}
                  </option>
                )}
                {render(option.options.filter((o) => !o.group))}
                {groups.map((group) => (
                  <optgroup key={group} label={group}>
                    {render(option.options.filter((o) => o.group === group))}
                  </optgroup>
                ))}
              </select>
            </label>
          )
        }
        if (option.type === 'boolean') {
          const on = option.currentValue === true
          return (
            <button
              key={option.id}
              type="button"
              role="switch"
              aria-checked={on}
              className="switch"
              title={option.description ?? undefined}
              onClick={() => onChange(option.id, !on)}
            >
              <span className="switch-track" aria-hidden="true">
                <span className="switch-thumb" />
              </span>
              <span>{option.name}</span>
            </button>
          )
        }
        return null
      })}
    </>
  )
})

/** The approval inbox entry point: a button with the pending count; the panel is a seam (`inbox`). */
export function InboxButton({ pendingCount, inbox }: { pendingCount: number; inbox: (close: () => void) => ReactNode }) {
  const [open, setOpen] = useState(false)
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!open) return
    // Listeners only while the panel is open.
    const onDown = (e: PointerEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false)
    }
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false)
    }
    document.addEventListener('pointerdown', onDown)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('pointerdown', onDown)
      document.removeEventListener('keydown', onKey)
    }
  }, [open])
  return (
    <div className="inbox" ref={ref}>
      <button
        type="button"
        className={pendingCount > 0 ? 'button button-secondary inbox-button has-pending' : 'button button-secondary inbox-button'}
        // The visible words ("Approvals", the count) are part of the name.
        aria-label={`Approvals, ${pendingCount} pending`}
        aria-expanded={open}
        aria-haspopup="dialog"
        onClick={() => setOpen(!open)}
      >
        <Icon name="inbox" size={15} />
        <span>Approvals</span>
        {pendingCount > 0 && (
          <>
            {' '}
            <span className="count-badge">{pendingCount}</span>
          </>
        )}
      </button>
      {open && (
        <div className="popover" role="dialog" aria-label="Approval inbox">
          {inbox(() => setOpen(false))}
        </div>
      )}
    </div>
  )
}

export interface SessionHeaderProps {
  title: string
  subtitle: string
  turn: TurnView
  modes: { currentModeId: string | null; availableModes: ModeView[] } | null
  /** v1 session models (absent or null: none offered that way). */
  models?: { currentModelId: string | null; availableModels: ModelView[] } | null
  configOptions: ConfigOptionView[]
  onSetMode: (modeId: string) => void
  onSetModel?: (modelId: string) => void
  onSetConfigOption: (configId: string, value: string | boolean) => void
  inboxSlot: ReactNode
  /** Ends the session (cancels a running turn, answers its pending permissions `cancelled`). */
  onClose: () => void
  /** The agent's last usage report (context window, cost); nothing is shown until there is one. */
  usage?: UsageView | null
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
  const { title, subtitle, turn, modes, models, configOptions, onSetMode, onSetModel, onSetConfigOption, inboxSlot, onClose, usage } = props
  const busy = turn.state === 'running' || turn.state === 'unknown'
  return (
    <header className="session-header">
      <div className="session-heading">
        <h1 className="session-title" title={title}>
          {title}
        </h1>
        <div className="session-subtitle muted" title={subtitle}>
          {subtitle}
        </div>
      </div>
      <span className={`turn-state turn-${turn.state}`} role="status" aria-label={`Turn: ${turnLabel(turn)}`}>
        {busy && <span className="spinner" aria-hidden="true" />}
        {turnLabel(turn)}
      </span>
      <UsageMeter usage={usage ?? null} />
      <div className="header-controls">
        {/* The agent's selectors wrap among themselves; the app's own buttons stay together, always in view. */}
        <div className="header-options">
          {modes && <ModeSelect modes={modes} onChange={onSetMode} />}
          {models && onSetModel && <ModelSelect models={models} onChange={onSetModel} />}
          <ConfigOptions options={configOptions} onChange={onSetConfigOption} />
        </div>
        <div className="header-actions">
          {inboxSlot}
          <CloseSessionButton onClose={onClose} />
        </div>
      </div>
    </header>
  )
})
