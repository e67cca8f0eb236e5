import type { AgentDefinitionView } from '../../../common/contract/agents'
import type { AgentRuntimeView } from '../../../common/session/types'
import { AgentMcpServers, type AgentMcpApi } from '../mcp/AgentMcpServers'
import { runtimeActions, STATUS_LABEL } from './agent-status'

export interface AgentOverviewProps {
  agent: AgentDefinitionView
  runtime?: AgentRuntimeView
  /** Start (from stopped/failed) and Restart both go through `restartAgent`. */
  onRestart: () => void
  onStop: () => void
  onEdit: () => void
  /** A start/stop request is on its way. */
  busy?: boolean
  /** The last start/stop failure, if any. */
  problem?: string | null
  /** With it, the definition lists the MCP servers the agent gets. */
  mcpApi?: AgentMcpApi
}

const STATUS_BADGE: Record<AgentRuntimeView['status'], string> = {
  stopped: 'badge-muted',
  starting: 'badge-progress',
  restarting: 'badge-progress',
  ready: 'badge-ok',
  crashed: 'badge-danger',
  failed: 'badge-danger',
}

/** The Overview tab: what the definition says, what is running now, and Start/Restart/Stop. */
export function AgentOverview({ agent, runtime, onRestart, onStop, onEdit, busy, problem, mcpApi }: AgentOverviewProps) {
  const status = runtime?.status ?? 'stopped'
  const actions = runtimeActions(status)
  const envNames = Object.keys(agent.env)
  return (
    <div className="agent-overview">
      <section className="agents-card" aria-labelledby={`${agent.id}-runtime`}>
        <div className="agents-card-head">
          <h3 id={`${agent.id}-runtime`} className="agents-card-title">
            Runtime
          </h3>
          <span className={`badge ${STATUS_BADGE[status]}`}>
            <span className={`status-dot status-${status}`} aria-hidden="true" />
            &nbsp;{STATUS_LABEL[status]}
          </span>
        </div>
        <dl className="agents-facts">
          {runtime?.pid ? (
            <>
              <dt>Process</dt>
              <dd className="mono">pid {runtime.pid}</dd>
            </>
          ) : null}
          {runtime?.agentInfo ? (
            <>
              <dt>Reports itself as</dt>
              <dd>
                {runtime.agentInfo.title ?? runtime.agentInfo.name}
                {runtime.agentInfo.version ? <span className="muted"> {runtime.agentInfo.version}</span> : null}
              </dd>
            </>
          ) : null}
          {runtime?.protocolVersion ? (
            <>
              <dt>Protocol</dt>
              <dd>
                ACP version {runtime.protocolVersion}
                {runtime.withoutClientCapabilities ? (
                  <p className="muted small agents-limited-run">
                    This run reads and writes files and runs commands by itself: it answered version 1 to Bosun’s version 2 offer, so it
                    never saw what Bosun serves. From its next start (Restart), Bosun serves its files, terminals and forms.
                  </p>
                ) : null}
              </dd>
            </>
          ) : null}
          {runtime?.crashCount ? (
            <>
              <dt>Crashes</dt>
              <dd>{runtime.crashCount} recently</dd>
            </>
          ) : null}
          {runtime?.nextRestartAt ? (
            <>
              <dt>Next restart</dt>
              <dd>Automatically at {new Date(runtime.nextRestartAt).toLocaleTimeString()}</dd>
            </>
          ) : null}
        </dl>
        {runtime?.definitionChanged && actions.restart ? (
          <p className="agents-definition-changed" role="status">
            Runs the definition it started with: your changes apply when {agent.name} restarts (Restart ends a turn in progress).
          </p>
        ) : null}
        {runtime?.error && (
          <div className="agents-failure" role="status">
            <p className="agents-failure-message">{runtime.error.message}</p>
            {runtime.error.stderrTail && (
              <pre className="stderr-tail" tabIndex={0} aria-label="Agent error output">
                {runtime.error.stderrTail}
              </pre>
            )}
          </div>
        )}
        {problem && problem !== runtime?.error?.message && (
          <p className="field-error" role="alert">
            {problem}
          </p>
        )}
        <div className="button-row">
          {actions.start && (
            <button type="button" className="button button-primary" onClick={onRestart} disabled={busy}>
              Start
            </button>
          )}
          {actions.restart && (
            <button type="button" className="button" onClick={onRestart} disabled={busy}>
              Restart
            </button>
          )}
          {actions.stop && (
            <button type="button" className="button button-secondary" onClick={onStop} disabled={busy}>
              Stop
            </button>
          )}
        </div>
      </section>

      <section className="agents-card" aria-labelledby={`${agent.id}-definition`}>
        <div className="agents-card-head">
          <h3 id={`${agent.id}-definition`} className="agents-card-title">
            Definition
          </h3>
          <button type="button" className="link-button" onClick={onEdit}>
            Change definition…
          </button>
        </div>
        <dl className="agents-facts">
          <dt>Command</dt>
          <dd className="mono">{agent.command}</dd>
          <dt>Arguments</dt>
          <dd>
            {agent.args.length === 0 ? (
              <span className="muted">None</span>
            ) : (
              <ol className="agent-editor-argv-list" aria-label="Arguments">
                {agent.args.map((arg, i) => (
                  <li key={i} className="agent-editor-arg mono">
                    {arg === '' ? <span className="muted">(empty)</span> : arg}
                  </li>
                ))}
              </ol>
            )}
          </dd>
          <dt>Environment</dt>
          <dd>
            {envNames.length === 0 ? (
              <span className="muted">Nothing added</span>
            ) : (
              <ul className="agents-inline-list" aria-label="Environment variables">
                {envNames.map((name) => (
                  <li key={name} className="mono">
                    {name}={agent.env[name]}
                  </li>
                ))}
              </ul>
            )}
          </dd>
          <dt>Secrets</dt>
          <dd>
            {agent.secretEnv.length === 0 ? (
              <span className="muted">None</span>
            ) : (
              <ul className="agents-inline-list" aria-label="Secrets">
                {agent.secretEnv.map((name) => (
                  <li key={name}>
                    <span className="mono">{name}</span>{' '}
                    {agent.secretsSet[name] ? <span className="badge badge-ok">set</span> : <span className="badge badge-warn">not set</span>}
                  </li>
                ))}
              </ul>
            )}
          </dd>
          <dt>Default folder</dt>
          <dd className={agent.defaultCwd ? 'mono' : 'muted'}>{agent.defaultCwd || 'Asked each time'}</dd>
          <dt>Protocol</dt>
          <dd>{agent.protocolVersion ? `Offer version ${agent.protocolVersion}` : 'Automatic'}</dd>
          {mcpApi && <AgentMcpServers api={mcpApi} agentId={agent.id} refreshKey={status} />}
        </dl>
      </section>
    </div>
  )
}
