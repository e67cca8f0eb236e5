import { memo, useState } from 'react'
import type { AgentRuntimeView, TurnState } from '../../../common/session/types'
import { Icon } from '../common/icons'
import { NewSessionForm } from './NewSessionForm'

/** What the sidebar shows of a session (selected narrowly so streaming text does not re-render it). */
export interface SessionSummary {
  sessionId: string
  agentId: string
  title: string | null
  cwd: string
  turnState: TurnState
  pending: number
}

export interface SidebarProps {
  agents: AgentRuntimeView[]
  sessions: SessionSummary[]
  selectedSessionId: string | null
  onSelect: (sessionId: string) => void
  defaultCwdFor: (agentId: string) => string
  onCreateSession: (agentId: string, cwd: string) => Promise<string | null>
  /** Opens the Agents page (first run: New session with no agent leads there instead of an empty list). */
  onOpenAgents?: () => void
}

const STATUS_LABEL: Record<AgentRuntimeView['status'], string> = {
  stopped: 'Stopped',
  starting: 'Starting',
  ready: 'Ready',
  restarting: 'Restarting',
  crashed: 'Crashed',
  failed: 'Failed',
}

export const baseName = (path: string) => path.replace(/[\\/]+$/, '').split(/[\\/]/).pop() || path

export const Sidebar = memo(function Sidebar({ agents, sessions, selectedSessionId, onSelect, defaultCwdFor, onCreateSession, onOpenAgents }: SidebarProps) {
  const [creating, setCreating] = useState<{ agentId?: string } | null>(null)
  return (
    <nav className="sidebar" aria-label="Agents and sessions">
      <div className="sidebar-top">
        <span className="app-name">Bosun</span>
        <button
          type="button"
          className="button button-primary button-small"
          aria-expanded={creating !== null}
          onClick={() => (agents.length === 0 && onOpenAgents ? onOpenAgents() : setCreating(creating ? null : {}))}
        >
          <Icon name="plus" size={14} />
          New session
        </button>
      </div>
      {creating && (
        <NewSessionForm
          agents={agents.map((a) => ({ agentId: a.agentId, name: a.name }))}
          initialAgentId={creating.agentId}
          defaultCwdFor={defaultCwdFor}
          onCreate={async (agentId, cwd) => {
            const failure = await onCreateSession(agentId, cwd)
            if (!failure) setCreating(null)
            return failure
          }}
          onCancel={() => setCreating(null)}
        />
      )}
      <div className="sidebar-scroll">
        {agents.length === 0 &&
          (onOpenAgents ? (
            <div className="sidebar-empty sidebar-first-run">
              <p className="muted">No agents yet.</p>
              <button type="button" className="button button-primary button-small" onClick={onOpenAgents}>
                Set up an agent
              </button>
            </div>
          ) : (
            <p className="muted sidebar-empty">No agents configured.</p>
          ))}
        {agents.map((agent) => {
          const own = sessions.filter((s) => s.agentId === agent.agentId)
          return (
            <section key={agent.agentId} className="agent-group" aria-label={agent.name}>
              <h2 className="agent-name">
                <span className={`status-dot status-${agent.status}`} role="img" aria-label={STATUS_LABEL[agent.status] ?? agent.status} />
                <span className="agent-label">{agent.name}</span>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`New session with ${agent.name}`}
                  onClick={() => setCreating({ agentId: agent.agentId })}
                >
                  <Icon name="plus" size={14} />
                </button>
              </h2>
              {own.length === 0 ? (
                <p className="muted sidebar-empty">No sessions</p>
              ) : (
                <ul className="session-list">
                  {own.map((s) => (
                    <li key={s.sessionId}>
                      <button
                        type="button"
                        className="session-item"
                        aria-current={s.sessionId === selectedSessionId ? 'page' : undefined}
                        onClick={() => onSelect(s.sessionId)}
                        title={s.cwd}
                      >
                        <span className="session-item-title">{s.title ?? baseName(s.cwd)}</span>
                        {/* Untitled sessions are named after their folder: then the full path tells them apart. */}
                        <span className="session-item-meta muted">{s.title ? baseName(s.cwd) : s.cwd}</span>
                        {s.pending > 0 ? (
                          <span className="count-badge" aria-label={`${s.pending} pending approvals`}>
                            {s.pending}
                          </span>
                        ) : s.turnState !== 'idle' ? (
                          <span className="spinner small" role="img" aria-label="Working" />
                        ) : null}
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          )
        })}
      </div>
    </nav>
  )
})
