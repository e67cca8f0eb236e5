import { useId, useRef, useState, type ReactNode } from 'react'

export interface KeyFormProps {
  /** The variables the key may go under; the first is chosen until the person picks another. */
  names: readonly string[]
  keychainAvailable: boolean
  /** Another action is running: the form waits. */
  disabled: boolean
  /** This form's own save is running. */
  busy: boolean
  submitLabel: string
  busyLabel: string
  /** The form's accessible name. */
  label: string
  /** Said above the field (what the key is for). */
  intro?: ReactNode
  /**
   * Said under the field instead of where the key is kept (a key that is only sent, not stored). With it, the
   * form does not need the keychain.
   */
  footnote?: ReactNode
  onSubmit: (name: string, value: string) => void
}

/**
 * One key for an agent, kept in the system keychain: a password field read at submit and emptied, so the
 * value never sits in React state or a DOM attribute. Several possible names (an agent that reads either of
 * two variables) are offered as a choice.
 */
export function KeyForm({ names, keychainAvailable: keychain, disabled, busy, submitLabel, busyLabel, label, intro, footnote, onSubmit }: KeyFormProps) {
  const keychainAvailable = keychain || footnote !== undefined
  const ids = useId()
  const field = useRef<HTMLInputElement>(null)
  const [picked, setPicked] = useState<string | null>(null)
  const name = picked !== null && names.includes(picked) ? picked : names[0]
  if (name === undefined) return null
  const off = !keychainAvailable || disabled
  return (
    <form
      className="login-env"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault()
        const value = field.current?.value ?? ''
        if (!value) return
        if (field.current) field.current.value = ''
        onSubmit(name, value)
      }}
    >
      {intro}
      {names.length > 1 && (
        <div className="login-env-row">
          <label className="field-label" htmlFor={`${ids}-name`}>
            Variable
          </label>
          <select id={`${ids}-name`} className="input mono" value={name} onChange={(e) => setPicked(e.target.value)} disabled={off}>
            {names.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
      )}
      <label className="field-label mono" htmlFor={`${ids}-value`}>
        {name}
      </label>
      <div className="login-env-row">
        <input
          id={`${ids}-value`}
          ref={field}
          className="input mono"
          type="password"
          autoComplete="new-password"
          placeholder={keychainAvailable ? 'Paste the key' : 'Keychain unavailable'}
          disabled={off}
          defaultValue=""
        />
        <button type="submit" className="button button-primary" disabled={off}>
          {busy ? busyLabel : submitLabel}
        </button>
      </div>
      <p className="muted small">
        {footnote ??
          (keychainAvailable
            ? 'Stored in the system keychain and given only to this agent. The agent restarts to pick it up.'
            : 'The system keychain is not available, and Bosun will not store the key in plain text.')}
      </p>
    </form>
  )
}
