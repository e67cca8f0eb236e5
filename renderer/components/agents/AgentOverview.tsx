import { useEffect, useId, useRef, useState } from 'react'
import type { AgentDefinitionView } from '../../../common/contract/agents'
import type { AgentRuntimeView } from '../../../common/session/types'
import { AgentMcpServers, type AgentMcpApi } from '../mcp/AgentMcpServers'
import { runtimeActions, STATUS_LABEL } from './agent-status'
import { keepTabInside } from '../common/modal-focus'
import { revealAsText } from '../permissions/reveal-text'
import { VisibleText } from '../permissions/VisibleText'
import { neutraliseEscapes } from '../transcript/terminal-text'

export interface AgentOverviewProps {
  agent: AgentDefinitionView
  runtime?: AgentRuntimeView
  /** Start (from stopped/failed) and Restart both go through `restartAgent`. */
  onRestart: () => void
  onStop: () => void
  /** A start/stop request is on its way. */
  busy?: boolean
  /** The last start/stop failure, if any. */
  problem?: string | null
  /** With it, the definition lists the MCP servers the agent gets. */
  mcpApi?: AgentMcpApi
  /**
   * The agent's open sessions that a restart or a stop would cut into (the window's state): turns running and
   * questions waiting on the person. With any, Restart and Stop ask first; main still decides what runs.
   */
  activity?: AgentActivity
}

export interface AgentActivity {
  /** Sessions with a turn running. */
  running: number
  /** Permission requests and questions waiting on the person. */
  waiting: number
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** What restarting or stopping does to the sessions' work, in words. */
export function interruptionText(action: 'restart' | 'stop', agentName: string, activity: AgentActivity): string {
  const parts: string[] = []
  if (activity.running > 0) parts.push(`ends the turn running in ${plural(activity.running, 'session', 'sessions')}`)
  if (activity.waiting > 0) parts.push(`drops ${plural(activity.waiting, 'request', 'requests')} waiting for your answer`)
  const doing = action === 'restart' ? 'Restarting' : 'Stopping'
  const after = action === 'restart' ? ' Open sessions reconnect to the restarted agent where it can continue them.' : ''
  // The work ended while the question was open: it still asks, and says there is nothing left to cut into.
  if (parts.length === 0) return `No session of ${agentName} is at work now.${after}`
  return `${doing} ${agentName} ${parts.join(', and ')}.${after}`
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
export function AgentOverview({ agent, runtime, onRestart, onStop, busy, problem, mcpApi, activity }: AgentOverviewProps) {
  const status = runtime?.status ?? 'stopped'
  const actions = runtimeActions(status)
  const envNames = Object.keys(agent.env)
  // Restart or Stop with work under way asks first, in place; leaving the question puts focus back on its button.
  const [asking, setAsking] = useState<'restart' | 'stop' | null>(null)
  const questionId = useId()
  const restartRef = useRef<HTMLButtonElement>(null)
  const stopRef = useRef<HTMLButtonElement>(null)
  const refocus = useRef<'restart' | 'stop' | null>(null)
  useEffect(() => {
    if (asking !== null || refocus.current === null) return
    ;(refocus.current === 'restart' ? restartRef : stopRef).current?.focus()
    refocus.current = null
  }, [asking])
  const interrupts = activity !== undefined && (activity.running > 0 || activity.waiting > 0)
  const ask = (action: 'restart' | 'stop') => {
    if (!interrupts) return action === 'restart' ? onRestart() : onStop()
    setAsking(action)
  }
  const leave = () => {
    refocus.current = asking
    setAsking(null)
  }
  const confirm = () => {
    const action = asking
    setAsking(null)
    if (action === 'restart') onRestart()
    else if (action === 'stop') onStop()
  }
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
                {revealAsText(runtime.agentInfo.title ?? runtime.agentInfo.name)}
                {runtime.agentInfo.version ? <span className="muted"> {revealAsText(runtime.agentInfo.version)}</span> : null}
              </dd>
            </>
          ) : null}
          {runtime?.protocolVersion ? (
            <>
              <dt>Protocol</dt>
              <dd>
                ACP version {runtime.protocolVersion}
                {agent.protocolVersion && agent.protocolVersion !== runtime.protocolVersion && !runtime.withoutClientCapabilities ? (
                  <p className="muted small agents-limited-run">
                    Set to offer version {agent.protocolVersion}: from its next start (Restart). A run speaks the version it started with.
                  </p>
                ) : null}
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
            {restartApplies(agent.name, runtime.definitionChanges)}
          </p>
        ) : null}
        {runtime?.error && (
          <div className="agents-failure" role="status">
            {/* The agent's last words and output: their hidden and direction-changing characters show as markers. */}
            <p className="agents-failure-message">{revealAsText(runtime.error.message, { prose: true })}</p>
            {runtime.error.stderrTail && (
              <pre className="stderr-tail" tabIndex={0} aria-label="Agent error output">
                <VisibleText text={neutraliseEscapes(runtime.error.stderrTail)} prose code />
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
            <button ref={restartRef} type="button" className="button" aria-expanded={asking === 'restart' ? true : undefined} onClick={() => ask('restart')} disabled={busy}>
              Restart
            </button>
          )}
          {actions.stop && (
            <button ref={stopRef} type="button" className="button button-secondary" aria-expanded={asking === 'stop' ? true : undefined} onClick={() => ask('stop')} disabled={busy}>
              Stop
            </button>
          )}
        </div>
        {asking && activity && (
          <div
            className="agents-confirm"
            role="alertdialog"
            aria-label={`${asking === 'restart' ? 'Restart' : 'Stop'} ${agent.name}?`}
            aria-describedby={questionId}
            onKeyDown={(e) => {
              // A question to answer: Tab goes between its two answers (it went on to the rest of the page).
              keepTabInside(e.nativeEvent, e.currentTarget)
              if (e.key !== 'Escape') return
              e.preventDefault()
              e.stopPropagation()
              leave()
            }}
          >
            <p id={questionId}>{interruptionText(asking, agent.name, activity)}</p>
            <div className="button-row">
              <button type="button" className="button button-danger" onClick={confirm}>
                {asking === 'restart' ? 'Restart anyway' : 'Stop anyway'}
              </button>
              <button type="button" className="button button-secondary" autoFocus onClick={leave}>
                Cancel
              </button>
            </div>
          </div>
        )}
      </section>

      <section className="agents-card" aria-labelledby={`${agent.id}-definition`}>
        <div className="agents-card-head">
          <h3 id={`${agent.id}-definition`} className="agents-card-title">
            Definition
          </h3>
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
              <span className="muted">None</span>
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

/**
 * What a running agent's page says of the saved changes it has not taken up: which ones ("Claude uses the new arguments
 * and 2 changed environment variables from its next start"), or that there are some when main did not name them.
 */
export function restartApplies(name: string, changes: readonly string[] | undefined): string {
  const named = (changes ?? []).filter((c) => c !== '')
  if (named.length === 0) return `Runs the definition it started with: your changes apply when ${name} restarts (Restart ends a turn in progress).`
  const list = named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`
  return `Runs the definition it started with: ${name} uses ${list} from its next start (Restart ends a turn in progress).`
}
