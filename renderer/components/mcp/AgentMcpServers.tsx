import { useEffect, useState } from 'react'
import type { BosunApi } from '../../../common/contract'
import type { AgentMcpServer } from '../../../common/contract/mcp'
import './mcp.css'

export type AgentMcpApi = Pick<BosunApi, 'listAgentMcpServers'>

/**
 * The "MCP servers" fact of an agent's overview (a `<dt>`/`<dd>` pair for its definition list), read-only:
 * the servers the agent gets in its sessions, and those its transports rule out once its handshake is known.
 * `refreshKey` (the agent's status) reloads it when the agent starts.
 */
export function AgentMcpServers({ api, agentId, refreshKey }: { api: AgentMcpApi; agentId: string; refreshKey?: string }) {
  // Each answer remembers whose it is: while another agent's list is on its way, this one's is not shown as theirs.
  const [answer, setAnswer] = useState<{ agentId: string; servers: AgentMcpServer[] | null; problem: string | null } | null>(null)
  useEffect(() => {
    let live = true
    void api.listAgentMcpServers({ agentId }).then((r) => {
      if (!live) return
      // A problem is shown instead of the list, so a failed answer keeps no list.
      setAnswer(r.ok ? { agentId, servers: r.value.servers, problem: null } : { agentId, servers: null, problem: r.error.message })
    })
    return () => {
      live = false
    }
  }, [api, agentId, refreshKey])
  const current = answer?.agentId === agentId ? answer : null
  const servers = current?.servers ?? null
  const problem = current?.problem ?? null

  const unknown = servers?.some((s) => s.passed === null) ?? false
  return (
    <>
      <dt>MCP servers</dt>
      <dd>
        {problem ? (
          <span className="muted">{problem}</span>
        ) : servers === null ? (
          <span className="muted">…</span>
        ) : servers.length === 0 ? (
          <span className="muted">None (add them in Settings)</span>
        ) : (
          <>
            <ul className="agents-inline-list mcp-agent-servers" aria-label="MCP servers this agent gets">
              {servers.map((s) => (
                <li key={s.id}>
                  <span className={s.passed === false ? 'mcp-not-taken' : undefined}>{s.name}</span> <span className="badge badge-muted">{s.transport}</span>
                  {s.passed === false && (
                    <>
                      {' '}
                      <span className="badge badge-warn">not passed</span>
                      <span className="muted small mcp-agent-server-reason">{s.reason}</span>
                    </>
                  )}
                </li>
              ))}
            </ul>
            {unknown && <p className="muted small mcp-agent-note">Whether it takes each transport is known once it has started.</p>}
          </>
        )}
      </dd>
    </>
  )
}
