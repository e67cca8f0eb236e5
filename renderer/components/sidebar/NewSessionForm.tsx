import { useId, useState } from 'react'

export interface NewSessionFormProps {
  agents: { agentId: string; name: string }[]
  initialAgentId?: string | undefined
  /** The agent's default folder, pre-filled when the agent is picked (seam: agent definitions). */
  defaultCwdFor: (agentId: string) => string
  /** Resolves to an error message, or `null` on success. */
  onCreate: (agentId: string, cwd: string) => Promise<string | null>
  onCancel: () => void
}

const isAbsolute = (p: string) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p)

/** Pick an agent and an absolute working folder. */
export function NewSessionForm({ agents, initialAgentId, defaultCwdFor, onCreate, onCancel }: NewSessionFormProps) {
  const [agentId, setAgentId] = useState(initialAgentId ?? agents[0]?.agentId ?? '')
  const [cwd, setCwd] = useState(() => (agentId ? defaultCwdFor(agentId) : ''))
  const [error, setError] = useState<string | null>(null)
  const [pending, setPending] = useState(false)
  const errorId = useId()

  const submit = async () => {
    const folder = cwd.trim()
    if (!agentId) return setError('Choose an agent.')
    if (!isAbsolute(folder)) return setError('The working folder must be an absolute path.')
    setPending(true)
    setError(null)
    const failure = await onCreate(agentId, folder)
    setPending(false)
    if (failure) setError(failure)
  }

  return (
    <form
      className="new-session-form"
      aria-label="New session"
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onCancel()
      }}
    >
      <label className="field">
        <span className="field-label">Agent</span>
        <select
          className="select"
          value={agentId}
          onChange={(e) => {
            setAgentId(e.target.value)
            setCwd(defaultCwdFor(e.target.value))
          }}
        >
          {agents.map((a) => (
            <option key={a.agentId} value={a.agentId}>
              {a.name}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field-label">Working folder</span>
        <input
          className="input mono"
          type="text"
          value={cwd}
          placeholder="/path/to/project"
          spellCheck={false}
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => setCwd(e.target.value)}
        />
      </label>
      {error && (
        <p className="field-error" id={errorId} role="alert">
          {error}
        </p>
      )}
      <div className="button-row">
        <button type="submit" className="button button-primary" disabled={pending || agents.length === 0}>
          {pending ? 'Starting…' : 'Start session'}
        </button>
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
