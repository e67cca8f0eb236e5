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
  /**
   * A long value (an agent's arguments): a text box that wraps and grows with its text, so all of it reads at once.
   * Enter still submits the form, as in a one-line input; Shift+Enter starts a new line.
   */
  multiline?: boolean
}

/**
 * A wrapping text box's Enter: submits its form, as Enter in a one-line input does (Shift+Enter starts a new line). Its
 * text is whitespace-separated words (arguments), so a line break is only one more separator.
 */
export function submitOnEnter(e: { key: string; shiftKey: boolean; nativeEvent: { isComposing: boolean }; currentTarget: unknown; preventDefault(): void }): void {
  if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return
  e.preventDefault()
  ;(e.currentTarget as { form: { requestSubmit(): void } | null }).form?.requestSubmit()
}

/** A labelled text input (one line, or {@link TextFieldProps.multiline}) with its error message. */
export function TextField({ id, label, value, onChange, error, code = false, placeholder, describedBy, children, multiline = false }: TextFieldProps) {
  const description = [error ? errorIdOf(id) : '', describedBy ?? ''].filter(Boolean).join(' ')
  const common = {
    id,
    value,
    placeholder,
    spellCheck: code ? false : undefined,
    autoComplete: 'off',
    'aria-invalid': error ? true : undefined,
    'aria-describedby': description || undefined,
  }
  return (
    <Field id={id} label={label}>
      {multiline ? (
        <textarea
          {...common}
          className={code ? 'input input-multiline mono' : 'input input-multiline'}
          rows={1}
          onChange={(e) => onChange(valueOf(e))}
          onKeyDown={submitOnEnter}
        />
      ) : (
        <input {...common} className={code ? 'input mono' : 'input'} type="text" onChange={(e) => onChange(valueOf(e))} />
      )}
      <FieldError id={id} message={error} />
      {children}
    </Field>
  )
}
