import type { ReactNode } from 'react'

/**
 * The changed value of an input or select. Read through a narrow type because these files are also compiled
 * (by the tests) without the DOM library, where React's element types are empty.
 */
export const valueOf = (e: { target: unknown }): string => (e.target as { value: string }).value

/** The id of the message under a control: what its `aria-describedby` names. */
export const errorIdOf = (id: string) => `${id}-error`

/** A field's message, or nothing. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p className="field-error" id={errorIdOf(id)}>
      {message}
    </p>
  ) : null
}

/** A labelled field: the label names the control with `id`, which the children render. */
export function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children}
    </div>
  )
}

export interface TextFieldProps {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  /** Shown under the input, which is then marked invalid and described by it. */
  error?: string
  /** A command, path or the like: monospace and not spell-checked. */
  code?: boolean
  placeholder?: string
  /** The id of more text that describes the input (after the error). */
  describedBy?: string
  /** Shown after the error. */
  children?: ReactNode
}

/** A labelled one-line text input with its error message. */
export function TextField({ id, label, value, onChange, error, code = false, placeholder, describedBy, children }: TextFieldProps) {
  const description = [error ? errorIdOf(id) : '', describedBy ?? ''].filter(Boolean).join(' ')
  return (
    <Field id={id} label={label}>
      <input
        id={id}
        className={code ? 'input mono' : 'input'}
        type="text"
        value={value}
        placeholder={placeholder}
        spellCheck={code ? false : undefined}
        autoComplete="off"
        onChange={(e) => onChange(valueOf(e))}
        aria-invalid={error ? true : undefined}
        aria-describedby={description || undefined}
      />
      <FieldError id={id} message={error} />
      {children}
    </Field>
  )
}
