import { useEffect, useId, useMemo, useRef, useState } from 'react'
import type { BosunApi } from '../../../common/contract'
import type { AgentDefinitionView } from '../../../common/contract/agents'
import type { McpServerView } from '../../../common/contract/mcp'
import { emptyForm, formOf, usedBy, type SaveRequest } from './mcp-form'
import { McpServerEditor } from './McpServerEditor'
import './mcp.css'

/** `listAgentDefinitions` is optional: without it, every server is for all agents. */
export type McpApi = Pick<BosunApi, 'listMcpServers' | 'saveMcpServer' | 'removeMcpServer' | 'checkMcpServer'> & Partial<Pick<BosunApi, 'listAgentDefinitions' | 'getKeychainStatus'>>

type CheckState = { state: 'running' } | { state: 'ok'; tools: { name: string; description?: string }[] } | { state: 'failed'; message: string }

/**
 * MCP servers given to agents' sessions (as far as each agent takes the transport): add a stdio command or
 * an HTTP/SSE URL with its env variables or headers (plain or secret), for every agent or only some; edit,
 * check a stdio server (its tools are listed), remove one.
 */
export function McpSettings({ api }: { api: McpApi }) {
  const titleId = useId()
  const [servers, setServers] = useState<McpServerView[] | null>(null)
  const [agents, setAgents] = useState<Pick<AgentDefinitionView, 'id' | 'name'>[]>([])
  const [problem, setProblem] = useState<string | null>(null)
  const [checks, setChecks] = useState<Record<string, CheckState>>({})
  const [editing, setEditing] = useState<string | null>(null)
  // Each server's Edit button: where the keyboard goes back to when its form is cancelled (Cancel, Escape).
  const editButtons = useRef(new Map<string, HTMLButtonElement>())
  const [addKey, setAddKey] = useState(0)
  const [keychain, setKeychain] = useState<{ available: boolean; message?: string }>({ available: true })

  useEffect(() => {
    let live = true
    void api.listMcpServers(undefined).then((r) => live && (r.ok ? setServers(r.value.servers) : setProblem(r.error.message)))
    void api.listAgentDefinitions?.(undefined).then((r) => live && r.ok && setAgents(r.value.agents.map(({ id, name }) => ({ id, name }))))
    void api.getKeychainStatus?.(undefined).then((r) => live && r.ok && setKeychain(r.value))
    return () => {
      live = false
    }
  }, [api])

  const taken = useMemo(() => new Set((servers ?? []).map((s) => s.id)), [servers])
  const save = async (request: SaveRequest): Promise<string | null> => {
    const r = await api.saveMcpServer(request)
    if (!r.ok) return r.error.message
    const saved = r.value.server
    setServers((list) => {
      const current = list ?? []
      return current.some((s) => s.id === saved.id) ? current.map((s) => (s.id === saved.id ? saved : s)) : [...current, saved]
    })
    return null
  }
  const check = (id: string) => {
    setChecks((c) => ({ ...c, [id]: { state: 'running' } }))
    void api.checkMcpServer({ id }).then((r) =>
      setChecks((c) => ({ ...c, [id]: r.ok ? { state: 'ok', tools: r.value.tools } : { state: 'failed', message: r.error.message } })),
    )
  }
  const remove = (id: string) => void api.removeMcpServer({ id }).then((r) => (r.ok ? setServers((list) => (list ?? []).filter((s) => s.id !== id)) : setProblem(r.error.message)))

  return (
    <section className="settings-section" aria-labelledby={titleId}>
      <h2 id={titleId}>MCP servers</h2>
      <p className="muted small">Tools given to agents in their new sessions. An agent that cannot take a server’s transport is told so in the session.</p>
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      {!keychain.available && (
        <p className="mcp-keychain-off small" role="note">
          The system keychain is not available, so secret variables and headers cannot be stored (Bosun never keeps them in its files).
          {keychain.message ? <span className="muted"> {keychain.message}</span> : null}
        </p>
      )}
      {servers === null ? (
        <p className="muted small">Loading…</p>
      ) : servers.length === 0 ? (
        <p className="muted small">No MCP servers yet.</p>
      ) : (
        <ul className="mcp-list" aria-label="MCP servers">
          {servers.map((s) => {
            const c = checks[s.id]
            const secrets = s.transport === 'stdio' ? (s.secretEnv ?? []) : (s.secretHeaders ?? [])
            return (
              <li key={s.id} className="mcp-item" aria-label={s.name}>
                <div className="mcp-item-head">
                  <strong>{s.name}</strong>
                  <span className="badge badge-muted">{s.transport}</span>
                  <code className="mcp-target">{s.transport === 'stdio' ? [s.command, ...(s.args ?? [])].join(' ') : s.url}</code>
                  <button
                    ref={(el) => void (el ? editButtons.current.set(s.id, el) : editButtons.current.delete(s.id))}
                    type="button" className="button button-small button-secondary" aria-label={`Edit ${s.name}`} onClick={() => setEditing(editing === s.id ? null : s.id)} aria-expanded={editing === s.id}>
                    Edit
                  </button>
                  {s.transport === 'stdio' && (
                    <button type="button" className="button button-small button-secondary" onClick={() => check(s.id)} disabled={c?.state === 'running'}>
                      Check
                    </button>
                  )}
                  <button type="button" className="button button-small button-secondary" aria-label={`Remove ${s.name}`} onClick={() => remove(s.id)}>
                    Remove
                  </button>
                </div>
                <p className="mcp-item-facts small">
                  <span>{usedBy(s, agents)}</span>
                  {secrets.map((name) => (
                    <span key={name} className={`badge ${s.secretsSet[name] ? 'badge-muted' : 'badge-warn'}`} title={s.secretsSet[name] ? 'Stored in the keychain' : 'No value in the keychain'}>
                      {name}: secret
                      <span className="sr-only">{s.secretsSet[name] ? ', stored in the keychain' : ', no value in the keychain'}</span>
                      {!s.secretsSet[name] && <span aria-hidden="true">, not set</span>}
                    </span>
                  ))}
                </p>
                {c && (
                  <div className="mcp-check" role="status">
                    {c.state === 'running' ? 'Starting the server…' : c.state === 'failed' ? `Check failed: ${c.message}` : `${c.tools.length} tools: ${c.tools.map((t) => t.name).join(', ')}`}
                  </div>
                )}
                {editing === s.id && (
                  <McpServerEditor
                    label={`Edit ${s.name}`}
                    initial={formOf(s)}
                    agents={agents}
                    taken={taken}
                    keychainAvailable={keychain.available}
                    submitLabel="Save changes"
                    focusOnOpen
                    onSave={async (request) => {
                      const failed = await save(request)
                      if (!failed) {
                        setEditing(null)
                        // The form and its Save went away with the focus: it goes back to the Edit that opened it.
                        editButtons.current.get(s.id)?.focus()
                      }
                      return failed
                    }}
                    onCancel={() => {
                      setEditing(null)
                      editButtons.current.get(s.id)?.focus()
                    }}
                  />
                )}
              </li>
            )
          })}
        </ul>
      )}
      <h3 className="mcp-add-title">Add a server</h3>
      <McpServerEditor
        key={addKey}
        label="Add an MCP server"
        initial={emptyForm()}
        agents={agents}
        taken={taken}
        keychainAvailable={keychain.available}
        submitLabel="Add server"
        onSave={async (request) => {
          const failed = await save(request)
          // A fresh form (new row keys) for the next server.
          if (!failed) setAddKey((k) => k + 1)
          return failed
        }}
      />
    </section>
  )
}
