import { useId, useRef, useState } from 'react'
import type { GatewayLogin } from '../../../common/contract/agent-tools'
import { HEADER_NAME_PATTERN } from '../../../common/http-header'
import { Icon } from '../common/icons'
import { refInto } from '../common/ref-into'

export interface GatewayFormProps {
  agentName: string
  /** The form's accessible name. */
  label: string
  /** The API the gateway must speak (the method's `_meta.gateway.protocol`), when the agent says. */
  protocol?: string | undefined
  /** Another action is running: the form waits. */
  disabled: boolean
  /** This form's own login is running. */
  busy: boolean
  onSubmit: (gateway: GatewayLogin) => void
}

/** "Google API" for the protocol `google`. */
export const apiName = (protocol: string) => `${protocol.charAt(0).toUpperCase()}${protocol.slice(1)} API`

const MAX_HEADERS = 32

/**
 * A model gateway for an agent's login: its address and the headers the agent adds (a team token, say). Header
 * values are password fields read at submit and emptied, as keys are: they never sit in React state.
 */
export function GatewayForm({ agentName, label, protocol, disabled, busy, onSubmit }: GatewayFormProps) {
  const ids = useId()
  const [address, setAddress] = useState('')
  const [rows, setRows] = useState<{ key: number; name: string }[]>([])
  const [problem, setProblem] = useState<string | null>(null)
  const nextKey = useRef(0)
  const values = useRef(new Map<number, HTMLInputElement>())
  return (
    <form
      className="login-env login-gateway"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault()
        const baseUrl = address.trim()
        if (!/^https?:\/\/\S+$/i.test(baseUrl)) return setProblem('Enter the gateway’s full address, starting with https:// or http://.')
        const headers: { name: string; value: string }[] = []
        for (const row of rows) {
          const name = row.name.trim()
          const value = values.current.get(row.key)?.value ?? ''
          if (!name && !value) continue
          if (!HEADER_NAME_PATTERN.test(name)) return setProblem(`“${name || '(empty)'}” is not a header name.`)
          headers.push({ name, value })
        }
        setProblem(null)
        for (const input of values.current.values()) input.value = ''
        onSubmit({ baseUrl, ...(headers.length > 0 ? { headers } : {}) })
      }}
    >
      <label className="field-label" htmlFor={`${ids}-url`}>
        Gateway address{protocol ? ` (${apiName(protocol)})` : ''}
      </label>
      <input
        id={`${ids}-url`}
        className="input mono"
        type="url"
        placeholder="https://gateway.example.com"
        spellCheck={false}
        value={address}
        disabled={disabled}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${ids}-problem` : undefined}
        onChange={(e) => {
          setAddress(e.target.value)
          setProblem(null)
        }}
      />
      {rows.map((row, i) => (
        <div className="login-env-row" key={row.key}>
          <input
            className="input mono"
            type="text"
            aria-label={`Header ${i + 1} name`}
            placeholder="Header name"
            spellCheck={false}
            value={row.name}
            disabled={disabled}
            onChange={(e) => {
              const name = e.target.value
              setRows((all) => all.map((r) => (r.key === row.key ? { ...r, name } : r)))
            }}
          />
          <input
            ref={refInto(values.current, row.key)}
            className="input mono"
            type="password"
            autoComplete="new-password"
            aria-label={`Header ${i + 1} value`}
            placeholder="Value"
            disabled={disabled}
            defaultValue=""
          />
          <button type="button" className="icon-button" aria-label={`Remove header ${i + 1}`} title="Remove" disabled={disabled} onClick={() => setRows((all) => all.filter((r) => r.key !== row.key))}>
            <Icon name="close" size={14} />
          </button>
        </div>
      ))}
      {rows.length < MAX_HEADERS && (
        <div>
          <button type="button" className="link-button login-gateway-add" disabled={disabled} onClick={() => setRows((all) => [...all, { key: nextKey.current++, name: '' }])}>
            <Icon name="plus" size={13} /> Add header
          </button>
        </div>
      )}
      <div className="button-row">
        <button type="submit" className="button button-primary" disabled={disabled}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </div>
      {problem && (
        <p className="field-error" id={`${ids}-problem`} role="alert">
          {problem}
        </p>
      )}
      <p className="muted small">
        Given to {agentName} with this sign-in, and not stored: {agentName} sends its model requests there. Header values are hidden in Bosun’s logs and
        inspector.
      </p>
    </form>
  )
}
