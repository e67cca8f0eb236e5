import { useEffect, useId, useState } from 'react'
import type { BosunApi } from '../../../common/contract'
import type { McpServerConfig } from '../../../common/contract/mcp'

export type McpApi = Pick<BosunApi, 'listMcpServers' | 'saveMcpServer' | 'removeMcpServer' | 'checkMcpServer'>

type CheckState = { state: 'running' } | { state: 'ok'; tools: { name: string; description?: string }[] } | { state: 'failed'; message: string }

/**
 * MCP servers given to every agent's sessions (as far as each agent takes the transport): add a stdio
 * command or an HTTP/SSE URL, check a stdio server (its tools are listed), remove one.
 */
export function McpSettings({ api }: { api: McpApi }) {
  const titleId = useId()
  const [servers, setServers] = useState<McpServerConfig[] | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [checks, setChecks] = useState<Record<string, CheckState>>({})
  const [name, setName] = useState('')
  const [transport, setTransport] = useState<McpServerConfig['transport']>('stdio')
  const [command, setCommand] = useState('')
  const [args, setArgs] = useState('')
  const [url, setUrl] = useState('')

  useEffect(() => {
    void api.listMcpServers(undefined).then((r) => (r.ok ? setServers(r.value.servers) : setProblem(r.error.message)))
  }, [api])

  const add = () => {
    const id = name.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64) || `server-${Date.now()}`
    const server: McpServerConfig =
      transport === 'stdio'
        ? { id, name: name.trim(), transport, enabled: true, agents: null, command: command.trim(), args: args.trim() ? args.trim().split(/\s+/) : [] }
        : { id, name: name.trim(), transport, enabled: true, agents: null, url: url.trim() }
    void api.saveMcpServer({ server }).then((r) => {
      if (!r.ok) return setProblem(r.error.message)
      setProblem(null)
      setServers((list) => [...(list ?? []).filter((s) => s.id !== id), r.value.server])
      setName('')
      setCommand('')
      setArgs('')
      setUrl('')
    })
  }
  const check = (id: string) => {
    setChecks((c) => ({ ...c, [id]: { state: 'running' } }))
    void api.checkMcpServer({ id }).then((r) =>
      setChecks((c) => ({ ...c, [id]: r.ok ? { state: 'ok', tools: r.value.tools } : { state: 'failed', message: r.error.message } })),
    )
  }
  const remove = (id: string) => void api.removeMcpServer({ id }).then((r) => (r.ok ? setServers((list) => (list ?? []).filter((s) => s.id !== id)) : setProblem(r.error.message)))
  const canAdd = name.trim() !== '' && (transport === 'stdio' ? command.trim() !== '' : /^https?:\/\//.test(url.trim()))

  return (
    <section className="settings-section" aria-labelledby={titleId}>
      <h2 id={titleId}>MCP servers</h2>
      <p className="muted">Tools given to agents in every new session. An agent that cannot take a server’s transport is told so in the session.</p>
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      {servers === null ? (
        <p className="muted">Loading…</p>
      ) : servers.length === 0 ? (
        <p className="muted">No MCP servers yet.</p>
      ) : (
        <ul className="mcp-list" aria-label="MCP servers">
          {servers.map((s) => {
            const c = checks[s.id]
            return (
              <li key={s.id} className="mcp-item" aria-label={s.name}>
                <div className="mcp-item-head">
                  <strong>{s.name}</strong>
                  <span className="badge">{s.transport}</span>
                  <code className="mcp-target">{s.transport === 'stdio' ? [s.command, ...(s.args ?? [])].join(' ') : s.url}</code>
                  {s.transport === 'stdio' && (
                    <button type="button" className="button button-small button-secondary" onClick={() => check(s.id)} disabled={c?.state === 'running'}>
                      Check
                    </button>
                  )}
                  <button type="button" className="button button-small button-secondary" aria-label={`Remove ${s.name}`} onClick={() => remove(s.id)}>
                    Remove
                  </button>
                </div>
                {c && (
                  <div className="mcp-check" role="status">
                    {c.state === 'running' ? 'Starting the server…' : c.state === 'failed' ? `Check failed: ${c.message}` : `${c.tools.length} tools: ${c.tools.map((t) => t.name).join(', ')}`}
                  </div>
                )}
              </li>
            )
          })}
        </ul>
      )}
      <form
        className="mcp-form"
        aria-label="Add an MCP server"
        onSubmit={(e) => {
          e.preventDefault()
          if (canAdd) add()
        }}
      >
        <label>
          Name
          <input className="input" value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Transport
          <select className="input" value={transport} onChange={(e) => setTransport(e.target.value as McpServerConfig['transport'])}>
            <option value="stdio">stdio (a command)</option>
            <option value="http">HTTP</option>
            <option value="sse">SSE</option>
          </select>
        </label>
        {transport === 'stdio' ? (
          <>
            <label>
              Command
              <input className="input mono" value={command} onChange={(e) => setCommand(e.target.value)} spellCheck={false} />
            </label>
            <label>
              Arguments
              <input className="input mono" value={args} onChange={(e) => setArgs(e.target.value)} spellCheck={false} />
            </label>
          </>
        ) : (
          <label>
            URL
            <input className="input mono" value={url} onChange={(e) => setUrl(e.target.value)} spellCheck={false} placeholder="https://" />
          </label>
        )}
        <button type="submit" className="button button-primary" disabled={!canAdd}>
          Add server
        </button>
      </form>
    </section>
  )
}
