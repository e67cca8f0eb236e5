import { useId } from 'react'
import './permissions.css'

export interface AutoApproveSwitchProps {
  /** Off by default. */
  checked: boolean
  onChange: (value: boolean) => void
  disabled?: boolean
}

/** Under the switch, or (a narrow window hides it) its tooltip. */
const HINT = 'Answers “allow once” for this session without asking.'

/**
 * The per-session auto-approve switch. While on, Bosun picks "allow once" whenever the agent offers it
 * (never an option of an unknown kind, never for an unrecognised request).
 */
export function AutoApproveSwitch({ checked, onChange, disabled = false }: AutoApproveSwitchProps) {
  const labelId = useId()
  const hintId = useId()
  return (
    <div className={`perm-switch-row${checked ? ' perm-switch-on' : ''}`} title={HINT}>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-labelledby={labelId}
        aria-describedby={hintId}
        disabled={disabled}
        className="perm-switch"
        onClick={() => onChange(!checked)}
      >
        <span className="perm-switch-thumb" aria-hidden="true" />
      </button>
      <span id={labelId} className="perm-switch-label">
        Auto-approve {checked ? 'on' : 'off'}
      </span>
      <span id={hintId} className="perm-muted perm-switch-hint">
        {HINT}
      </span>
    </div>
  )
}
