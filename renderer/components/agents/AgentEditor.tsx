import { useEffect, useId, useRef, useState } from 'react'
import type {
  AgentDefinitionView,
  AgentDraft,
  AgentFieldErrors,
  AgentPresetView,
  KeychainStatus,
} from '../../../common/contract/agents'
import {
  applyPreset,
  emptyEnvRow,
  emptySecretRow,
  formFromAgent,
  secretsToStore,
  toDraft,
  type AgentFormState,
  type SecretRow,
} from './agent-form'
import { PageBanner } from '../common/PageBanner'
import { CodeText } from './CodeText'
import { Field, FieldError, TextField, errorIdOf, valueOf } from './fields'
import './agents.css'

export interface AgentValidation {
  errors: AgentFieldErrors
  /** The arguments as main split them; null when they do not split. */
  argv: string[] | null
}

export type AgentSaveOutcome = { ok: true } | { ok: false; message: string; errors?: AgentFieldErrors }

export interface AgentEditorProps {
  presets: readonly AgentPresetView[]
  /** The agent being edited; absent to add one. */
  agent?: AgentDefinitionView
  /** When adding: the preset picked before the form opened (fills the form once). */
  initialPresetId?: string
  keychain: KeychainStatus
  /** As-you-type checks (`validateAgentDefinition`). */
  validate: (draft: AgentDraft) => Promise<AgentValidation>
  /** `saveAgentDefinition`; `secrets` holds only values typed in this form. */
  onSave: (request: { draft: AgentDraft; secrets: Record<string, string> }) => Promise<AgentSaveOutcome>
  onCancel: () => void
  onRemove?: (agentId: string) => void
  /** `deleteAgentSecret`: unset a stored value now (the name stays). */
  onDeleteSecret?: (agentId: string, name: string) => void
  /** Pause after a keystroke before validating. */
  validateDelayMs?: number
}

/**
 * The add/edit agent form. Props in, callbacks out: it never talks to main itself. Secret values typed
 * here go out once through `onSave` and are never shown back; a stored secret only shows as "set".
 */
export function AgentEditor(props: AgentEditorProps) {
  const { presets, agent, initialPresetId, keychain, validate, onSave, onCancel, onRemove, onDeleteSecret, validateDelayMs = 250 } = props
  const [form, setForm] = useState<AgentFormState>(() => {
    const preset = agent ? undefined : presets.find((p) => p.id === initialPresetId)
    return preset ? applyPreset(formFromAgent(), preset, presets) : formFromAgent(agent)
  })
  const [validation, setValidation] = useState<AgentValidation>({ errors: {}, argv: null })
  const [serverErrors, setServerErrors] = useState<AgentFieldErrors>({})
  const [formError, setFormError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const [confirmRemove, setConfirmRemove] = useState(false)
  const [touched, setTouched] = useState(Boolean(agent) || (Boolean(initialPresetId) && initialPresetId !== 'custom'))
  const ids = useId()
  const removeNoteId = `${ids}-remove-note`
  // The button that opened the form (Edit, a preset) went away with the view it was in: the form's first field takes
  // the focus, so the keyboard carries on here (it was the title: one more Tab to type) and Escape reaches the form.
  const titleRef = useRef<HTMLHeadingElement>(null)
  const formRef = useRef<HTMLFormElement>(null)
  useEffect(() => {
    const active = document.activeElement
    if (!active || active === document.body) (formRef.current?.querySelector<HTMLElement>('input[type="text"]') ?? titleRef.current)?.focus()
  }, [])
  // A Save that did not go through takes the keyboard to the first field it marked (else to its message): Save itself
  // is disabled by the errors it revealed, and the focus fell to the page.
  const [failedSaves, setFailedSaves] = useState(0)
  useEffect(() => {
    if (failedSaves === 0) return
    const form = formRef.current
    const target = form?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? form?.querySelector<HTMLElement>('.agent-editor-form-error')
    // In the middle of the view, with its label above it (scrolled just into view, it sat under the page's edge).
    target?.focus({ preventScroll: true })
    target?.scrollIntoView({ block: 'center' })
  }, [failedSaves])
  // Remove… asks again in place: the keyboard goes to Keep (the safe answer), and back to Remove… when it is kept.
  const removeRef = useRef<HTMLButtonElement>(null)
  const keepRef = useRef<HTMLButtonElement>(null)
  const askedRemove = useRef(false)
  useEffect(() => {
    if (confirmRemove) keepRef.current?.focus()
    else if (askedRemove.current) removeRef.current?.focus()
    askedRemove.current = confirmRemove
  }, [confirmRemove])

  // Follow "set" changes from main (e.g. after onDeleteSecret) without losing what is being typed.
  useEffect(() => {
    if (!agent) return
    setForm((f) => ({ ...f, secrets: f.secrets.map((s) => ({ ...s, isSet: agent.secretsSet[s.name.trim()] === true })) }))
  }, [agent])

  // Validate after a pause in typing; a later answer replaces an earlier one, a stale one is dropped.
  // The latest callback lives in a ref so a parent passing a new function each render does not re-validate.
  const validateRef = useRef(validate)
  useEffect(() => {
    validateRef.current = validate
  }, [validate])
  const generation = useRef(0)
  const draftKey = JSON.stringify(toDraft(form))
  useEffect(() => {
    const mine = ++generation.current
    const timer = setTimeout(() => {
      validateRef.current(JSON.parse(draftKey) as AgentDraft).then(
        (result) => {
          if (mine === generation.current) setValidation(result)
        },
        () => undefined,
      )
    }, validateDelayMs)
    return () => clearTimeout(timer)
  }, [draftKey, validateDelayMs])

  const errors: AgentFieldErrors = { ...validation.errors, ...serverErrors }
  // A blank new form is not an error yet: hold messages back until the person has typed something.
  const shown = (field: string): string | undefined => (touched ? errors[field] : undefined)
  const update = (patch: Partial<AgentFormState>) => {
    setTouched(true)
    setServerErrors({})
    setFormError(null)
    setForm((f) => ({ ...f, ...patch }))
  }
  const updateSecret = (index: number, patch: Partial<SecretRow>) =>
    update({ secrets: form.secrets.map((s, i) => (i === index ? { ...s, ...patch } : s)) })

  const hasErrors = Object.keys(validation.errors).length > 0
  const submit = async () => {
    setTouched(true)
    setSaving(true)
    setFormError(null)
    try {
      const outcome = await onSave({ draft: toDraft(form), secrets: secretsToStore(form) })
      if (!outcome.ok) {
        setFormError(outcome.message)
        setServerErrors(outcome.errors ?? {})
        setFailedSaves((n) => n + 1)
      } else {
        // Typed values are gone once handed over; what was sent now shows as set.
        setForm((f) => ({
          ...f,
          secrets: f.secrets.map((s) => (s.newValue && s.editing ? { ...s, newValue: '', editing: false, isSet: true } : { ...s, newValue: '' })),
        }))
      }
    } finally {
      setSaving(false)
    }
  }

  const fieldId = (name: string) => `${ids}-${name}`
  // For the env and secret rows, whose inputs are named by aria-label rather than a <Field>.
  const errorProps = (name: string) =>
    shown(name) ? { 'aria-invalid': true as const, 'aria-describedby': errorIdOf(fieldId(name)) } : {}
  const errorText = (name: string) => <FieldError id={fieldId(name)} message={shown(name)} />

  const title = agent ? `Edit ${agent.name}` : 'Add agent'
  return (
    <form
      ref={formRef}
      className="agent-editor"
      aria-label={title}
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
      onKeyDown={(e) => {
        // Handled here: a screen around the form must not also close on this Escape.
        if (e.key === 'Escape' && !e.defaultPrevented) {
          e.preventDefault()
          onCancel()
        }
      }}
    >
      <h2 ref={titleRef} className="agent-editor-title" tabIndex={-1}>
        {title}
      </h2>

      {!keychain.available && (
        <PageBanner className="agent-editor-banner">
          <strong>The system keychain is not available.</strong> Bosun cannot store secret values (it never keeps them in
          plain text), so the agent starts without them: sign in to the agent its own way instead.{' '}
          {keychain.message ? <span className="muted">{keychain.message}</span> : null}
        </PageBanner>
      )}

      {!agent && presets.length > 0 && (
        <Field id={fieldId('preset')} label="Start from">
          <select
            id={fieldId('preset')}
            className="select"
            value={form.presetId ?? ''}
            onChange={(e) => {
              const preset = presets.find((p) => p.id === valueOf(e))
              if (preset) {
                setTouched(true)
                setForm((f) => applyPreset(f, preset, presets))
              }
            }}
          >
            <option value="" disabled>
              Choose a preset…
            </option>
            {presets.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
          {form.presetId && (
            <p className="muted small">
              <CodeText text={presets.find((p) => p.id === form.presetId)?.description ?? ''} />
            </p>
          )}
        </Field>
      )}

      <TextField id={fieldId('name')} label="Name" value={form.name} onChange={(name) => update({ name })} error={shown('name')} />

      <TextField
        id={fieldId('command')}
        label="Command"
        code
        value={form.command}
        placeholder="npx, /usr/local/bin/my-agent"
        onChange={(command) => update({ command })}
        error={shown('command')}
      />

      <TextField
        id={fieldId('args')}
        label="Arguments"
        code
        multiline
        value={form.argsText}
        placeholder={`--acp "a value with spaces"`}
        onChange={(argsText) => update({ argsText })}
        error={shown('args')}
        describedBy={`${fieldId('args')}-argv`}
      >
        <div className="agent-editor-argv" id={`${fieldId('args')}-argv`} aria-live="polite">
          {validation.argv && validation.argv.length > 0 ? (
            <>
              <span className="muted small">Runs as</span>
              <ol className="agent-editor-argv-list" aria-label="Arguments as passed">
                {validation.argv.map((arg, i) => (
                  <li key={i} className="agent-editor-arg mono">
                    {arg === '' ? <span className="muted">(empty)</span> : arg}
                  </li>
                ))}
              </ol>
            </>
          ) : validation.argv ? (
            <span className="muted small">No arguments</span>
          ) : null}
        </div>
      </TextField>

      <fieldset className="agent-editor-group">
        <legend className="field-label">Environment</legend>
        {/* Empty, a group said nothing above its button (the MCP form says "None."). */}
        {form.env.length === 0 && <p className="muted small agent-editor-none">None added.</p>}
        {form.env.map((row, i) => (
          <div className="agent-editor-row" key={row.key}>
            <input
              className="input mono"
              type="text"
              aria-label={`Variable ${i + 1} name`}
              placeholder="NAME"
              value={row.name}
              spellCheck={false}
              autoComplete="off"
              onChange={(e) => update({ env: form.env.map((r, j) => (j === i ? { ...r, name: valueOf(e) } : r)) })}
              {...errorProps(`env.${i}`)}
            />
            <input
              className="input mono"
              type="text"
              aria-label={`Variable ${i + 1} value`}
              placeholder="value"
              value={row.value}
              spellCheck={false}
              autoComplete="off"
              onChange={(e) => update({ env: form.env.map((r, j) => (j === i ? { ...r, value: valueOf(e) } : r)) })}
            />
            <button
              type="button"
              className="button button-small button-secondary"
              aria-label={`Remove variable ${row.name || i + 1}`}
              onClick={() => update({ env: form.env.filter((_, j) => j !== i) })}
            >
              Remove
            </button>
            {errorText(`env.${i}`)}
          </div>
        ))}
        <button type="button" className="button button-small" onClick={() => update({ env: [...form.env, emptyEnvRow()] })}>
          Add variable
        </button>
      </fieldset>

      <fieldset className="agent-editor-group">
        <legend className="field-label">Secrets (stored in the system keychain)</legend>
        {form.secrets.length === 0 && <p className="muted small agent-editor-none">None added. A secret’s value is kept in the system keychain, never in Bosun’s files.</p>}
        {form.secrets.map((row, i) => {
          const label = row.name.trim() || `secret ${i + 1}`
          return (
            <div className="agent-editor-row" key={row.key}>
              <input
                className="input mono"
                type="text"
                aria-label={`Secret ${i + 1} name`}
                placeholder="API_KEY"
                value={row.name}
                spellCheck={false}
                autoComplete="off"
                // A stored value belongs to its name: renaming would orphan it, so a set name is fixed.
                readOnly={row.isSet}
                onChange={(e) => updateSecret(i, { name: valueOf(e) })}
                {...errorProps(`secretEnv.${i}`)}
              />
              {!keychain.available ? (
                // Without a keychain no value can be typed, set, replaced or unset: the row says what happens instead
                // (a disabled field with a Cancel, or a disabled Set, offered what did not work).
                <span className="agent-editor-secret-state agent-editor-secret-off" aria-label={`${label} ${row.isSet ? 'is set; it cannot be changed without the keychain' : 'is not set; the agent starts without it'}`}>
                  {row.isSet ? <span className="badge badge-ok">set</span> : <span className="badge badge-muted">not set</span>}
                  <span className="muted small">{row.isSet ? 'cannot change without the keychain' : 'the agent starts without it'}</span>
                </span>
              ) : row.editing ? (
                <input
                  className="input mono"
                  type="password"
                  aria-label={`Value for ${label}`}
                  placeholder={row.isSet ? 'New value' : 'Value'}
                  value={row.newValue}
                  autoComplete="new-password"
                  onChange={(e) => updateSecret(i, { newValue: valueOf(e) })}
                  {...errorProps(`secrets.${row.name.trim()}`)}
                />
              ) : (
                <span className="agent-editor-secret-state" aria-label={`${label} is ${row.isSet ? 'set' : 'not set'}`}>
                  {row.isSet ? <span className="badge badge-ok">set</span> : <span className="badge badge-muted">not set</span>}
                </span>
              )}
              <div className="agent-editor-row-actions">
                {keychain.available && row.editing && (
                  // Back out of typing a value: nothing is stored, the name stays (Remove drops the name too). Said as what
                  // it leaves ("Cancel" beside the form's own Cancel read as leaving the form).
                  <button
                    type="button"
                    className="button button-small button-secondary"
                    aria-label={row.isSet ? `Keep the stored ${label}` : `Leave ${label} unset`}
                    onClick={() => updateSecret(i, { editing: false, newValue: '' })}
                  >
                    {row.isSet ? 'Keep current' : 'Leave unset'}
                  </button>
                )}
                {keychain.available && !row.editing && (
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={`${row.isSet ? 'Replace' : 'Set'} ${label}`}
                    onClick={() => updateSecret(i, { editing: true })}
                  >
                    {row.isSet ? 'Replace' : 'Set'}
                  </button>
                )}
                {keychain.available && row.isSet && agent && onDeleteSecret && (
                  <button
                    type="button"
                    className="button button-small button-secondary"
                    aria-label={`Unset ${label}`}
                    onClick={() => onDeleteSecret(agent.id, row.name.trim())}
                  >
                    Unset
                  </button>
                )}
                <button
                  type="button"
                  className="button button-small button-secondary"
                  aria-label={`Remove secret ${label}`}
                  onClick={() => update({ secrets: form.secrets.filter((_, j) => j !== i) })}
                >
                  Remove
                </button>
              </div>
              {errorText(`secretEnv.${i}`)}
              {errorText(`secrets.${row.name.trim()}`)}
            </div>
          )
        })}
        <button type="button" className="button button-small" onClick={() => update({ secrets: [...form.secrets, emptySecretRow()] })}>
          Add secret
        </button>
      </fieldset>

      <TextField
        id={fieldId('defaultCwd')}
        label="Default folder"
        code
        value={form.defaultCwd}
        placeholder="/path/to/project (optional)"
        onChange={(defaultCwd) => update({ defaultCwd })}
        error={shown('defaultCwd')}
      />

      <Field id={fieldId('protocol')} label="Protocol version to offer">
        <select
          id={fieldId('protocol')}
          className="select"
          value={form.protocolVersion}
          onChange={(e) => update({ protocolVersion: valueOf(e) as AgentFormState['protocolVersion'] })}
        >
          <option value="">Automatic</option>
          <option value="1">Version 1</option>
          <option value="2">Version 2 (preview)</option>
        </select>
      </Field>

      {formError && (
        <p className="field-error agent-editor-form-error" role="alert" tabIndex={-1}>
          {formError}
        </p>
      )}

      <div className="button-row agent-editor-actions">
        <button type="submit" className="button button-primary" disabled={saving || (touched && hasErrors)}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
        {agent && onRemove && (
          <span
            className="agent-editor-remove"
            onKeyDown={(e) => {
              // Escape while Remove… asks takes the question back, not the whole form.
              if (e.key === 'Escape' && confirmRemove) {
                e.preventDefault()
                setConfirmRemove(false)
              }
            }}
          >
            {confirmRemove ? (
              <>
                <span className="muted small agent-editor-remove-note" id={removeNoteId}>
                  Its sessions cannot go on once it is removed; their transcripts stay in the history.
                </span>
                <button type="button" className="button button-danger" aria-describedby={removeNoteId} onClick={() => onRemove(agent.id)}>
                  Remove {agent.name} and its secrets
                </button>
                <button ref={keepRef} type="button" className="button button-secondary" aria-describedby={removeNoteId} onClick={() => setConfirmRemove(false)}>
                  Keep
                </button>
              </>
            ) : (
              <button ref={removeRef} type="button" className="button button-secondary agent-editor-danger-text" onClick={() => setConfirmRemove(true)}>
                Remove…
              </button>
            )}
          </span>
        )}
      </div>
    </form>
  )
}
