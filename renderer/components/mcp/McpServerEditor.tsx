import { useEffect, useId, useRef, useState } from 'react'
import type { AgentDefinitionView } from '../../../common/contract/agents'
import type { McpServerConfig } from '../../../common/contract/mcp'
import { submitOnEnter } from '../agents/fields'
import { emptyRow, toRequest, type McpForm, type PairRow, type SaveRequest } from './mcp-form'

export interface McpServerEditorProps {
  /** The form's accessible name ("Add an MCP server", "Edit web search"). */
  label: string
  initial: McpForm
  /** The configured agents, for "Only these agents" (by name). */
  agents: readonly Pick<AgentDefinitionView, 'id' | 'name'>[]
  /** Ids already used by other servers (a new server's id is made from its name). */
  taken: ReadonlySet<string>
  submitLabel: string
  /** Without a keychain, a row cannot become secret (main would refuse to store the value). */
  keychainAvailable?: boolean
  /** `saveMcpServer`; a message when it failed (the form keeps what was typed). */
  onSave: (request: SaveRequest) => Promise<string | null>
  onCancel?: () => void
  /** Opened in place by a button (an Edit): its first field takes the keyboard as it opens. */
  focusOnOpen?: boolean
}

/**
 * Adds or edits one MCP server: the command or address, env variables or headers (each plain or secret),
 * and which agents use it. A secret's value goes out once, on save, to the keychain through main; a stored
 * one shows only "stored in the keychain", with Replace and Remove.
 */
export function McpServerEditor({ label, initial, agents, taken, submitLabel, keychainAvailable = true, onSave, onCancel, focusOnOpen = false }: McpServerEditorProps) {
  const uid = useId()
  const nameRef = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (focusOnOpen) nameRef.current?.focus()
    // On opening only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  const [form, setForm] = useState<McpForm>(initial)
  const [problem, setProblem] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const update = (patch: Partial<McpForm>) => setForm((f) => ({ ...f, ...patch }))
  const updateRow = (key: number, patch: Partial<PairRow>) => setForm((f) => ({ ...f, rows: f.rows.map((r) => (r.key === key ? { ...r, ...patch } : r)) }))
  const removeRow = (key: number) => setForm((f) => ({ ...f, rows: f.rows.filter((r) => r.key !== key) }))
  const stdio = form.transport === 'stdio'
  const what = stdio ? 'variable' : 'header'
  const canSubmit = form.name.trim() !== '' && (stdio ? form.command.trim() !== '' : /^https?:\/\//i.test(form.url.trim()))

  const submit = async () => {
    const built = toRequest(form, taken, agents)
    if (!built.ok) return setProblem(built.message)
    setSaving(true)
    const failed = await onSave(built.request)
    setSaving(false)
    setProblem(failed)
    if (!failed && form.id === null) setForm(initial)
  }

  return (
    <form
      className="mcp-editor"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault()
        if (canSubmit && !saving) void submit()
      }}
      // An edit form (one with Cancel) closes on Escape, not the Settings page around it.
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || e.defaultPrevented || !onCancel) return
        e.preventDefault()
        onCancel()
      }}
    >
      <div className="mcp-form">
        <label>
          <span className="field-label">Name</span>
          <input ref={nameRef} className="input" value={form.name} onChange={(e) => update({ name: e.target.value })} />
        </label>
        <label>
          <span id={`${uid}-transport`} className="field-label">
            Transport
          </span>
          <select
            aria-labelledby={`${uid}-transport`}
            className="input"
            value={form.transport}
            // Env variables and headers are not interchangeable: switching keeps only the rows typed as plain text.
            onChange={(e) => update({ transport: e.target.value as McpServerConfig['transport'], rows: form.rows.filter((r) => !r.stored) })}
          >
            <option value="stdio">stdio (a command)</option>
            <option value="http">HTTP</option>
            <option value="sse">SSE</option>
          </select>
        </label>
        {stdio ? (
          <>
            <label>
              <span className="field-label">Command</span>
              <input className="input mono" value={form.command} onChange={(e) => update({ command: e.target.value })} spellCheck={false} />
            </label>
            {/* The whole row, wrapping and growing with its text: a long argument list read a few words at a time. */}
            <label className="mcp-form-wide">
              <span className="field-label">Arguments</span>
              <textarea
                className="input input-multiline mono"
                rows={1}
                value={form.args}
                onChange={(e) => update({ args: e.target.value })}
                onKeyDown={submitOnEnter}
                spellCheck={false}
              />
            </label>
          </>
        ) : (
          <label>
            <span className="field-label">URL</span>
            <input className="input mono" value={form.url} onChange={(e) => update({ url: e.target.value })} spellCheck={false} placeholder="https://" />
          </label>
        )}
      </div>

      <fieldset className="mcp-fieldset">
        <legend>{stdio ? 'Environment' : 'Headers'}</legend>
        {form.rows.length === 0 && <p className="muted small mcp-none">None. A {what} marked secret is kept in the system keychain, never in Bosun’s files.</p>}
        {form.rows.map((row, i) => {
          const rowLabel = row.name.trim() || `${what} ${i + 1}`
          return (
            <div className="mcp-row" key={row.key}>
              <input
                className="input mono"
                aria-label={`${stdio ? 'Variable' : 'Header'} ${i + 1} name`}
                placeholder={stdio ? 'NAME' : 'Header-Name'}
                value={row.name}
                spellCheck={false}
                autoComplete="off"
                // A stored value belongs to its name: renaming would orphan it.
                readOnly={row.stored}
                onChange={(e) => updateRow(row.key, { name: e.target.value })}
              />
              {row.stored && !row.replacing ? (
                <span className="mcp-stored">
                  <span className="sr-only">{rowLabel}: </span>
                  {row.isSet ? <span className="badge badge-ok">stored in the keychain</span> : <span className="badge badge-warn">no value in the keychain</span>}
                </span>
              ) : (
                <input
                  className="input mono"
                  type={row.secret ? 'password' : 'text'}
                  aria-label={`Value of ${rowLabel}`}
                  placeholder={row.secret ? (row.stored ? 'New value' : 'Secret value') : 'value'}
                  value={row.value}
                  spellCheck={false}
                  autoComplete={row.secret ? 'new-password' : 'off'}
                  onChange={(e) => updateRow(row.key, { value: e.target.value })}
                />
              )}
              <label className="mcp-secret-toggle">
                <input
                  type="checkbox"
                  checked={row.secret}
                  // A stored secret stays one: Remove it and add a plain row to make it plain.
                  disabled={row.stored || (!keychainAvailable && !row.secret)}
                  aria-label={`${rowLabel} is secret`}
                  onChange={(e) => updateRow(row.key, { secret: e.target.checked })}
                />
                Secret
              </label>
              <div className="mcp-row-actions">
                {row.stored && !row.replacing && (
                  <button type="button" className="button button-small" disabled={!keychainAvailable} aria-label={`Replace ${rowLabel}`} onClick={() => updateRow(row.key, { replacing: true, value: '' })}>
                    Replace
                  </button>
                )}
                {row.stored && row.replacing && (
                  <button type="button" className="button button-small button-secondary" aria-label={`Keep the stored ${rowLabel}`} onClick={() => updateRow(row.key, { replacing: false, value: '' })}>
                    Keep
                  </button>
                )}
                <button type="button" className="button button-small button-secondary" aria-label={`Remove ${rowLabel}`} onClick={() => removeRow(row.key)}>
                  Remove
                </button>
              </div>
            </div>
          )
        })}
        <button type="button" className="button button-small" onClick={() => update({ rows: [...form.rows, emptyRow()] })}>
          Add {what}
        </button>
      </fieldset>

      <fieldset className="mcp-fieldset">
        <legend>Use with</legend>
        <div className="mcp-use-with">
          <label>
            <input type="radio" name={`${uid}-use`} checked={form.useWith === 'all'} onChange={() => update({ useWith: 'all' })} />
            All agents
          </label>
          <label>
            <input type="radio" name={`${uid}-use`} checked={form.useWith === 'only'} onChange={() => update({ useWith: 'only' })} disabled={agents.length === 0} />
            Only these agents
          </label>
        </div>
        {form.useWith === 'only' && (
          <ul className="mcp-agent-list" aria-label="Agents that use this server">
            {agents.map((agent) => (
              <li key={agent.id}>
                <label>
                  <input
                    type="checkbox"
                    checked={form.agents.includes(agent.id)}
                    onChange={(e) => update({ agents: e.target.checked ? [...form.agents, agent.id] : form.agents.filter((id) => id !== agent.id) })}
                  />
                  {agent.name}
                </label>
              </li>
            ))}
          </ul>
        )}
      </fieldset>

      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      <div className="button-row">
        <button type="submit" className="button button-primary" disabled={!canSubmit || saving} aria-describedby={canSubmit ? undefined : `${uid}-needs`}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="button button-secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
        {/* Why the button cannot be pressed yet: a disabled button said nothing. */}
        {!canSubmit && (
          <span id={`${uid}-needs`} className="muted small mcp-needs">
            {stdio ? 'Needs a name and a command.' : 'Needs a name and an http:// or https:// URL.'}
          </span>
        )}
      </div>
    </form>
  )
}
