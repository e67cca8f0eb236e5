import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react'
import type { ElicitationView } from '../../../common/session/types'
import type { EnumChoice } from '../../../common/elicitation/schema'
import { ownValue } from '../../../common/own-keys'
import { checkDraft, initialDraft, parseFormSchema, unanswerableFields, type Draft, type DraftValue, type FieldSpec } from './validate'
import { useFocusAfterAnswer } from '../permissions/use-answer-focus'
import { revealAsText } from '../permissions/reveal-text'
import { VisibleText } from '../permissions/VisibleText'
import { forgetDraft, rememberDraft, rememberedDraft } from './draft-memory'
import { looksSecret, sentDraft } from '../../../common/elicitation/answer'
import './elicitation.css'

/** What the person chose. `accept` carries the form content (checked again in main). */
export type ElicitationAnswer = { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' }

/** Main's verdict on a submitted answer: field errors come back when main's re-validation disagrees. */
export type ElicitationSubmitResult = { ok: true } | { ok: false; message: string; errors?: Record<string, string> }

export interface ElicitationFormProps {
  elicitation: ElicitationView
  onRespond: (answer: ElicitationAnswer) => Promise<ElicitationSubmitResult> | void
  /** Move focus to the first field when the form appears. */
  autoFocus?: boolean
}

const statusText: Record<ElicitationView['status'], string> = {
  pending: 'Waiting for your answer',
  accepted: 'Answered',
  declined: 'Declined',
  cancelled: 'Cancelled',
  completed: 'Completed',
  dismissed: 'Dismissed',
  gone: 'The agent stopped waiting',
}

/**
 * A form-mode elicitation (checklist G13–G18): every field of the restricted schema, defaults pre-filled,
 * errors next to their field, and explicit Accept / Decline / Cancel. Escape cancels an untouched form; once the
 * person changed a field it first asks, in the form, whether to discard the answers (Escape again keeps editing), so
 * one key never throws typed input away. All agent text is rendered as plain text; nothing in a form is ever a
 * clickable link (G19).
 */
export function ElicitationForm({ elicitation, onRespond, autoFocus = false }: ElicitationFormProps) {
  const parsed = useMemo(() => parseFormSchema(elicitation.requestedSchema), [elicitation.requestedSchema])
  const schema = parsed.ok ? parsed.schema : null
  const initial = useMemo<Draft>(() => (schema ? initialDraft(schema) : {}), [schema])
  const requestId = elicitation.elicitationRequestId
  // Back as the person left it when the form was unmounted while waiting (another session shown, scrolled away); an
  // accepted form shows what was sent (from this page's memory, else as main kept it: a reload showed the defaults).
  const sent = elicitation.status === 'accepted' ? elicitation.answer : undefined
  // A declined or cancelled form starts from the agent's defaults (its draft is forgotten once the person gives up).
  const [remembered] = useState(() => (elicitation.status === 'pending' || elicitation.status === 'accepted' ? rememberedDraft(requestId) : undefined))
  // Set once the person declined or cancelled and main took it: the draft is not remembered again while the form
  // still shows as waiting (main's update saying so may come after the form left the page).
  const gaveUp = useRef(false)
  const [draft, setDraft] = useState<Draft>(() => remembered ?? (sent && schema ? sentDraft(schema, sent) : initial))
  // Accepted, and what was sent is known neither here nor to main (a session stored by an older Bosun): the fields
  // would only show the agent's defaults, so they are not shown.
  const sentUnknown = elicitation.status === 'accepted' && !sent && !remembered
  const withheld = useMemo(() => new Set(sent?.withheld ?? []), [sent])
  // Escape on a changed form: "Discard your answers?" in place of the actions, until Discard or Keep editing.
  const [confirmingDiscard, setConfirmingDiscard] = useState(false)
  const keepEditingRef = useRef<HTMLButtonElement>(null)
  const focusBeforeConfirm = useRef<HTMLElement | null>(null)
  const [submitted, setSubmitted] = useState(false)
  const [busy, setBusy] = useState(false)
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({})
  const [formError, setFormError] = useState<string | null>(null)
  const formRef = useRef<HTMLFormElement>(null)
  const baseId = useId()
  const titleId = `${baseId}-title`
  const messageId = `${baseId}-message`
  const askerId = `${baseId}-asker`
  const pending = elicitation.status === 'pending'

  const check = useMemo(() => (schema ? checkDraft(schema, draft) : null), [schema, draft])
  // Required fields Bosun cannot show: the form is explained, and can be declined or cancelled, never accepted.
  const unanswerable = useMemo(() => (schema ? unanswerableFields(schema) : []), [schema])
  // Errors show after the first submit attempt, then follow the person's edits live; only while the form waits (a form
  // declined or cancelled after a failed Accept still said "Required." in red under its fields, answered).
  const errors: Record<string, string> = !pending ? {} : submitted && check ? { ...serverErrors, ...check.errors } : serverErrors

  useEffect(() => {
    if (!autoFocus || !pending) return
    formRef.current?.querySelector<HTMLElement>('input, select, textarea, button')?.focus()
  }, [autoFocus, pending])

  const changed = useMemo(() => !sameDraft(draft, initial), [draft, initial])
  const status = elicitation.status
  useEffect(() => {
    if ((status === 'pending' && !gaveUp.current) || status === 'accepted') {
      if (changed) rememberDraft(requestId, draft)
      else forgetDraft(requestId)
    } else forgetDraft(requestId)
  }, [requestId, status, draft, changed])

  const setValue = (key: string, value: DraftValue) => {
    setDraft((d) => ({ ...d, [key]: value }))
    // Editing again answers the question: the person keeps editing.
    setConfirmingDiscard(false)
    setServerErrors(({ [key]: _dropped, ...rest }) => rest)
  }

  // Answered from inside the card (Accept, Decline, Cancel, Escape): its buttons go, and the focus with them; it goes
  // on to the next request waiting on the page, else the message box, as after a permission prompt.
  const cardRef = useRef<HTMLElement>(null)
  const noteAnswered = useFocusAfterAnswer(pending, cardRef)

  const answer = async (value: ElicitationAnswer) => {
    if (busy || !pending) return
    noteAnswered()
    setBusy(true)
    setFormError(null)
    try {
      const result = await onRespond(value)
      if (result && !result.ok) {
        setServerErrors(result.errors ?? {})
        setFormError(result.message)
      } else if (value.action !== 'accept') {
        gaveUp.current = true
        forgetDraft(requestId)
      }
    } finally {
      setBusy(false)
    }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setConfirmingDiscard(false)
    setSubmitted(true)
    if (!schema || !check) return
    if (Object.keys(check.errors).length > 0) {
      const first = schema.fields.find((f) => ownValue(check.errors, f.key))
      if (first) formRef.current?.querySelector<HTMLElement>(`[data-field="${CSS.escape(first.key)}"]`)?.focus()
      return
    }
    void answer({ action: 'accept', content: check.content })
  }

  // The question takes the focus on its safe answer; Keep editing gives it back where the person was (a field,
  // usually; an action button the question replaced is gone, so then the first field).
  const refocusAfterConfirm = useRef(false)
  useEffect(() => {
    if (!pending) return
    if (confirmingDiscard) {
      keepEditingRef.current?.focus()
      return
    }
    if (!refocusAfterConfirm.current) return
    refocusAfterConfirm.current = false
    const back = focusBeforeConfirm.current
    focusBeforeConfirm.current = null
    if (back?.isConnected && !back.matches(':disabled')) back.focus()
    else formRef.current?.querySelector<HTMLElement>('input:not(:disabled), select:not(:disabled), textarea:not(:disabled), button:not(:disabled)')?.focus()
  }, [confirmingDiscard, pending])

  const keepEditing = () => {
    refocusAfterConfirm.current = true
    setConfirmingDiscard(false)
  }

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !pending) return
    event.preventDefault()
    event.stopPropagation()
    if (confirmingDiscard) return keepEditing()
    if (changed && !busy) {
      const active = document.activeElement
      focusBeforeConfirm.current = active instanceof HTMLElement && cardRef.current?.contains(active) ? active : null
      setConfirmingDiscard(true)
      return
    }
    void answer({ action: 'cancel' })
  }

  return (
    <section
      ref={cardRef}
      className={`eli-card eli-status-${elicitation.status}`}
      // The transcript stops following at a form waiting for the person, once per request.
      data-request-id={requestId}
      // Focusable from script only: where the focus goes on to after another request is answered (never a field: Enter
      // there would accept the form).
      tabIndex={pending ? -1 : undefined}
      aria-labelledby={titleId} aria-describedby={`${askerId} ${messageId}`} onKeyDown={onKeyDown}>
      <header className="eli-header">
        <span className="eli-agent" id={askerId}>
          {elicitation.agentName} asks{elicitation.sessionId === null ? ' while starting' : ''}
        </span>
        <h2 id={titleId} className="eli-title">
          {schema?.title ? <VisibleText text={schema.title} prose /> : 'A question from the agent'}
        </h2>
        <p id={messageId} className="eli-message">
          <VisibleText text={elicitation.message} prose />
        </p>
        {schema?.description && (
          <p className="eli-muted">
            <VisibleText text={schema.description} prose />
          </p>
        )}
      </header>

      {!pending && (
        <p className="eli-status" role="status">
          {statusText[elicitation.status]}
          {sentUnknown && schema && schema.fields.length > 0 && <span className="eli-muted"> · What was sent is not kept.</span>}
        </p>
      )}

      {pending && schema && schema.fields.some(looksSecretText) && (
        <p className="eli-warning" role="note">
          This form seems to ask for a password or key. Agents must not collect secrets in forms; prefer a sign-in in
          your browser, or decline.
        </p>
      )}

      {pending && unanswerable.length > 0 && (
        <p className="eli-error" role="alert">
          This form requires {unanswerable.length === 1 ? 'a field' : 'fields'} Bosun cannot show ({unanswerable.map((f) => revealAsText(f.title)).join(', ')}), so it
          cannot be accepted. You can decline or cancel; the agent is told which.
        </p>
      )}

      {!parsed.ok && (
        <p className="eli-error" role="alert">
          Bosun cannot show this form: {parsed.message} You can decline or cancel.
        </p>
      )}

      <form ref={formRef} className="eli-form" noValidate onSubmit={submit} aria-label={`Answer to ${elicitation.agentName}`}>
        {schema && !sentUnknown && (
          <fieldset className="eli-fields" disabled={!pending || busy}>
            <legend className="eli-visually-hidden">Fields</legend>
            {schema.fields.map((field) => (
              <Field
                key={field.key}
                baseId={baseId}
                field={field}
                value={ownValue(draft, field.key)}
                error={ownValue(errors, field.key)}
                onChange={(v) => setValue(field.key, v)}
                locked={!pending}
                withheld={withheld.has(field.key)}
              />
            ))}
            {schema.fields.length === 0 && <p className="eli-muted">No details are needed; accept to confirm.</p>}
          </fieldset>
        )}
        {(formError || errors['']) && (
          <p className="eli-error" role="alert">
            {formError ?? errors['']}
          </p>
        )}
        {pending && confirmingDiscard && (
          <div key="confirm" className="eli-actions eli-confirm" role="group" aria-labelledby={`${baseId}-discard`}>
            <span id={`${baseId}-discard`} className="eli-confirm-question">
              Discard your answers?
            </span>
            <button ref={keepEditingRef} type="button" className="eli-button eli-primary" disabled={busy} onClick={keepEditing}>
              Keep editing
            </button>
            <button
              type="button"
              className="eli-button eli-danger"
              disabled={busy}
              onClick={() => {
                setConfirmingDiscard(false)
                void answer({ action: 'cancel' })
              }}>
              Discard
            </button>
          </div>
        )}
        {pending && !confirmingDiscard && (
          <div key="actions" className="eli-actions">
            <button type="submit" className="eli-button eli-primary" disabled={!schema || busy || unanswerable.length > 0}>
              Accept
            </button>
            <button type="button" className="eli-button" disabled={busy} onClick={() => void answer({ action: 'decline' })}>
              Decline
            </button>
            <button type="button" className="eli-button eli-quiet" disabled={busy} onClick={() => void answer({ action: 'cancel' })} aria-keyshortcuts="Escape">
              Cancel
            </button>
          </div>
        )}
      </form>
    </section>
  )
}

interface FieldProps {
  baseId: string
  field: FieldSpec
  value: DraftValue
  error: string | undefined
  onChange: (value: DraftValue) => void
  /** The form is answered (or gone): its fields show what was sent, and offer nothing to change. */
  locked: boolean
  /** Answered, but what was sent is not kept (the field looks like it holds a secret). */
  withheld?: boolean
}

function Field({ baseId, field, value, error, onChange, locked, withheld = false }: FieldProps) {
  const id = `${baseId}-f-${field.key}`
  const descId = field.description ? `${id}-desc` : undefined
  const errId = error ? `${id}-err` : undefined
  const hintId = field.kind === 'text' && (field.format || field.formatHint) ? `${id}-hint` : undefined
  const patternId = field.kind === 'text' && field.uncheckedPattern !== undefined ? `${id}-pattern` : undefined
  const omitted = field.kind === 'select' || field.kind === 'multi-select' ? (field.omittedChoices ?? 0) : 0
  const omittedId = omitted > 0 ? `${id}-omitted` : undefined
  const withheldId = withheld ? `${id}-withheld` : undefined
  const describedBy = [descId, hintId, patternId, omittedId, withheldId, errId].filter(Boolean).join(' ') || undefined
  const common = {
    id,
    'data-field': field.key,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    'aria-required': field.required || undefined,
  }
  const label = (
    <>
      <VisibleText text={field.title} prose />
      {field.required && (
        <span className="eli-required" aria-hidden="true">
          {' '}
          *
        </span>
      )}
      {field.required && <span className="eli-visually-hidden"> (required)</span>}
    </>
  )
  const after: ReactNode = (
    <>
      {field.description && (
        <p id={descId} className="eli-muted eli-field-desc">
          <VisibleText text={field.description} prose />
        </p>
      )}
      {hintId && field.kind === 'text' && (
        <p id={hintId} className="eli-muted eli-field-desc">
          {field.format ? formatHint[field.format] : `Format: ${field.formatHint} (not checked by Bosun)`}
        </p>
      )}
      {patternId && field.kind === 'text' && (
        <p id={patternId} className="eli-muted eli-field-desc eli-field-note">
          Not checked by Bosun: the agent’s pattern <code className="eli-pattern">{cutPattern(field.uncheckedPattern ?? '')}</code> needs features
          Bosun does not run (such as lookahead or backreferences). The agent may still refuse the answer.
        </p>
      )}
      {omittedId && (
        <p id={omittedId} className="eli-muted eli-field-desc eli-field-note">
          {omitted === 1 ? 'One choice' : `${omitted} choices`} the agent offered could not be shown (not text), so
          {omitted === 1 ? ' it is' : ' they are'} left out.
        </p>
      )}
      {withheldId && (
        <p id={withheldId} className="eli-muted eli-field-desc">
          Answered. Not shown: Bosun does not keep what may be a secret.
        </p>
      )}
      {error && (
        <p id={errId} className="eli-field-error">
          {error}
        </p>
      )}
    </>
  )

  switch (field.kind) {
    case 'text': {
      const long = !field.format && (field.maxLength === undefined || field.maxLength > 200)
      const text = typeof value === 'string' ? value : ''
      return (
        <div className="eli-field">
          <label htmlFor={id} className="eli-label">
            {label}
          </label>
          {long ? (
            <textarea {...common} className="eli-input" rows={2} value={text} onChange={(e) => onChange(e.target.value)} />
          ) : (
            <input
              {...common}
              className="eli-input"
              type={field.format === 'email' ? 'email' : field.format === 'uri' ? 'url' : field.format === 'date' ? 'date' : 'text'}
              placeholder={field.format === 'date-time' ? '2026-01-31T09:30:00Z' : undefined}
              autoComplete="off"
              spellCheck={field.format ? false : undefined}
              value={text}
              onChange={(e) => onChange(e.target.value)}
            />
          )}
          {after}
        </div>
      )
    }
    case 'number':
      return (
        <div className="eli-field">
          <label htmlFor={id} className="eli-label">
            {label}
          </label>
          <input
            {...common}
            className="eli-input eli-number"
            type="number"
            inputMode={field.integer ? 'numeric' : 'decimal'}
            step={field.integer ? 1 : 'any'}
            min={field.minimum}
            max={field.maximum}
            value={typeof value === 'string' ? value : ''}
            onChange={(e) => onChange(e.target.value)}
          />
          {after}
        </div>
      )
    case 'boolean':
      return (
        <div className="eli-field eli-field-inline">
          <input {...common} className="eli-checkbox" type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
          <label htmlFor={id} className="eli-label">
            {label}
          </label>
          {after}
        </div>
      )
    case 'select': {
      const selected = typeof value === 'string' ? value : ''
      // A few choices read best as radios; many fit a list box.
      if (field.options.length <= 5) {
        return (
          // A radio group may carry required/invalid (a plain group may not).
          <fieldset role="radiogroup" className="eli-field eli-group" aria-describedby={describedBy} aria-invalid={error ? true : undefined} aria-required={field.required || undefined}>
            <legend className="eli-label">{label}</legend>
            {field.options.map((option, i) => (
              <label key={option.value} className="eli-choice">
                <input
                  type="radio"
                  name={id}
                  value={option.value}
                  data-field={i === 0 ? field.key : undefined}
                  checked={selected === option.value}
                  onChange={() => onChange(option.value)}
                />
                <ChoiceText option={option} />
              </label>
            ))}
            {!locked && !field.required && selected !== '' && (
              <button
                type="button"
                className="eli-link-button"
                onClick={(e) => {
                  // The button goes with the choice, and the focus would fall to the page: it goes to the choices.
                  e.currentTarget.closest('fieldset')?.querySelector('input')?.focus()
                  onChange('')
                }}
              >
                Clear choice
              </button>
            )}
            {after}
          </fieldset>
        )
      }
      return (
        <div className="eli-field">
          <label htmlFor={id} className="eli-label">
            {label}
          </label>
          <select {...common} className="eli-input" value={selected} onChange={(e) => onChange(e.target.value)}>
            <option value="">{field.required ? 'Choose…' : '(none)'}</option>
            {field.options.map((option) => (
              <option key={option.value} value={option.value} title={option.description === undefined ? undefined : revealAsText(option.description)}>
                {revealAsText(option.title)}
              </option>
            ))}
          </select>
          {after}
        </div>
      )
    }
    case 'multi-select': {
      const chosen = Array.isArray(value) ? value : []
      const toggle = (v: string, on: boolean) => {
        const next = on ? [...chosen, v] : chosen.filter((x) => x !== v)
        // Keep the schema's order, whatever the click order.
        onChange(field.options.map((o) => o.value).filter((x) => next.includes(x)))
      }
      const counts =
        field.minItems !== undefined || field.maxItems !== undefined
          ? `Choose ${field.minItems !== undefined && field.maxItems !== undefined ? `${field.minItems}–${field.maxItems}` : field.minItems !== undefined ? `at least ${field.minItems}` : `at most ${field.maxItems}`}.`
          : null
      return (
        // A group of checkboxes cannot be required or invalid as a whole (ARIA): each box says it is invalid; the legend says required.
        <fieldset className="eli-field eli-group" aria-describedby={describedBy}>
          <legend className="eli-label">{label}</legend>
          {counts && <p className="eli-muted eli-field-desc">{counts}</p>}
          {field.options.map((option, i) => (
            <label key={option.value} className="eli-choice">
              <input
                type="checkbox"
                aria-invalid={error ? true : undefined}
                value={option.value}
                data-field={i === 0 ? field.key : undefined}
                checked={chosen.includes(option.value)}
                onChange={(e) => toggle(option.value, e.target.checked)}
              />
              <ChoiceText option={option} />
            </label>
          ))}
          {after}
        </fieldset>
      )
    }
    case 'unsupported':
      return (
        <div className="eli-field eli-unsupported" role="note" aria-label={`${revealAsText(field.title)}: not supported`}>
          <span className="eli-label">
            <VisibleText text={field.title} prose />
          </span>
          <p className="eli-muted eli-field-desc">
            {field.required
              ? `Bosun cannot show this kind of field (${field.type}), and the agent requires it.`
              : `Bosun cannot show this kind of field (${field.type}); it is optional and is left out of your answer.`}
          </p>
          {field.description && (
            <p className="eli-muted eli-field-desc">
              <VisibleText text={field.description} prose />
            </p>
          )}
        </div>
      )
  }
}

/** An agent's pattern shown as text: long enough to read, never a wall. */
/** A radio's or a checkbox's words: its title and, when given, its description, hidden characters shown as markers. */
function ChoiceText({ option }: { option: EnumChoice }) {
  return (
    <>
      <span>
        <VisibleText text={option.title} prose />
      </span>
      {option.description && (
        <span className="eli-muted">
          {' — '}
          <VisibleText text={option.description} prose />
        </span>
      )}
    </>
  )
}

/** Whether two drafts hold the same answers (values are strings, booleans or lists of strings). */
function sameDraft(a: Draft, b: Draft): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)])
  for (const key of keys) {
    const x = ownValue(a, key)
    const y = ownValue(b, key)
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length || x.some((v, i) => v !== y[i])) return false
    } else if (x !== y) return false
  }
  return true
}

const cutPattern = (pattern: string) => (pattern.length > 120 ? `${pattern.slice(0, 120)}…` : pattern)

/** G21: the client MAY warn on password/token-like fields (the same rule decides which answers main does not keep). */
const looksSecretText = (field: FieldSpec): boolean => field.kind === 'text' && looksSecret(field)

/** An example kept on one line: a narrow form broke "2026-01-31T09:30:00Z" at its hyphen, as if it were two. */
const Example = ({ children }: { children: string }) => <span className="eli-example">{children}</span>

const formatHint = {
  email: 'An email address.',
  uri: (
    <>
      A full address, such as <Example>https://example.com</Example> (shown as text, never opened).
    </>
  ),
  // The field is the browser's date field, which shows the system's order (mm/dd/yyyy, dd.mm.yyyy …): an example in
  // another order (2026-01-31) said to type what it does not take.
  date: 'A date: type it as the field shows, or pick it from its calendar.',
  'date-time': (
    <>
      A date and time with a time zone, such as <Example>2026-01-31T09:30:00Z</Example>.
    </>
  ),
} as const
