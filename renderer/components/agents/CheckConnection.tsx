import { useEffect, useRef } from 'react'
import type { AuthMethodView, CapabilityView, CheckResult } from '../../screens/agents/agent-tools-api'
import { CodeText } from './CodeText'
import { apiName } from './GatewayForm'
import type { IpcFailure } from '../../../common/contract'
import { revealAsText } from '../permissions/reveal-text'
import { VisibleText } from '../permissions/VisibleText'
import { neutraliseEscapes } from '../transcript/terminal-text'

export interface CheckConnectionProps {
  agentName: string
  /** The last result, or the call's own failure; null before the first check. */
  result: { check: CheckResult } | { failure: IpcFailure } | null
  checking: boolean
  onCheck: () => void
  /** Open the Sign in tab (offered when the agent lists auth methods). */
  onLogin?: () => void
}

/** "Can Bosun talk to this agent?": spawn, initialize, report, stop. */
export function CheckConnection({ agentName, result, checking, onCheck, onLogin }: CheckConnectionProps) {
  const failure = result === null ? null : 'failure' in result ? result.failure : result.check.ok ? null : (result.check.error ?? { kind: 'failed', message: 'The check failed.' })
  const check = result && 'check' in result ? result.check : null
  // The button is disabled while the check runs, and a disabled button loses the focus to the page: when the check is
  // over it takes the focus back (if nothing else took it), so the keyboard carries on from where it was.
  const buttonRef = useRef<HTMLButtonElement>(null)
  const wasChecking = useRef(checking)
  useEffect(() => {
    const ended = wasChecking.current && !checking
    wasChecking.current = checking
    const active = document.activeElement
    if (ended && (!active || active === document.body)) buttonRef.current?.focus()
  }, [checking])
  return (
    <div className="check-connection">
      <div className="check-connection-intro">
        <p className="muted">
          Starts {agentName} exactly as a session would, asks it to introduce itself (<span className="mono">initialize</span>), shows what it
          answered, then stops it.
        </p>
        <button ref={buttonRef} type="button" className="button button-primary" onClick={onCheck} disabled={checking}>
          {checking ? (
            <>
              <span className="spinner small" aria-hidden="true" /> Checking…
            </>
          ) : (
            'Check connection'
          )}
        </button>
      </div>

      <div aria-live="polite">
        {failure && !checking && (
          <section className="agents-card check-failed" aria-label="Check failed">
            <h3 className="agents-card-title check-title">
              <span className="check-icon check-icon-bad" aria-hidden="true">
                ✕
              </span>
              Could not connect
            </h3>
            {/* The agent's words, its hidden characters shown as markers. */}
            <p className="agents-failure-message">{revealAsText(failure.message, { prose: true })}</p>
            {'details' in failure && failure.details ? <p className="agents-failure-message">{revealAsText(failure.details, { prose: true })}</p> : null}
            {'data' in failure && typeof failure.data === 'string' && failure.data !== '' ? (
              <details className="disclosure">
                <summary>Details</summary>
                <pre className="stderr-tail">
                  <VisibleText text={failure.data} prose code />
                </pre>
              </details>
            ) : null}
            {failure.stderrTail ? (
              <>
                <p className="field-label">What the agent printed before it stopped</p>
                <pre className="stderr-tail" tabIndex={0} aria-label="Agent error output">
                  <VisibleText text={neutraliseEscapes(failure.stderrTail)} prose code />
                </pre>
              </>
            ) : null}
            {/* Bosun gave up only on an agent that did not answer in time: one that refused or exited failed on its own. */}
            {check && check.durationMs > 0 && (
              <p className="muted small">
                {failure.kind === 'timeout' ? 'Gave up after' : 'Failed after'} {formatDuration(check.durationMs)}.
              </p>
            )}
          </section>
        )}

        {check && check.ok && !checking && (
          <section className="agents-card check-ok" aria-label="Check result">
            <h3 className="agents-card-title check-title">
              <span className="check-icon check-icon-ok" aria-hidden="true">
                ✓
              </span>
              Connected
              <span className="muted small check-duration">in {formatDuration(check.durationMs)}</span>
            </h3>
            <dl className="agents-facts">
              <dt>Agent</dt>
              <dd>{check.agentInfo ? revealAsText(check.agentInfo.title ?? check.agentInfo.name) : <span className="muted">Did not say</span>}</dd>
              {check.agentInfo?.title && check.agentInfo.title !== check.agentInfo.name ? (
                <>
                  <dt>Name</dt>
                  <dd className="mono">{revealAsText(check.agentInfo.name)}</dd>
                </>
              ) : null}
              <dt>Version</dt>
              <dd>{check.agentInfo?.version != null ? revealAsText(check.agentInfo.version) : <span className="muted">Did not say</span>}</dd>
              <dt>Protocol</dt>
              <dd>{check.protocolVersion ? `ACP version ${check.protocolVersion}` : <span className="muted">Unknown</span>}</dd>
            </dl>
            <h4 className="check-subtitle">What it can do</h4>
            <CapabilityList capabilities={check.capabilities} />
            <h4 className="check-subtitle">How it signs in</h4>
            <AuthMethodList methods={check.authMethods} />
            {check.authMethods.length > 0 && onLogin && (
              <div className="button-row">
                <button type="button" className="button" onClick={onLogin}>
                  Go to Sign in
                </button>
              </div>
            )}
          </section>
        )}
      </div>
    </div>
  )
}

/** Capabilities as a checklist in plain words; the mark is repeated in words for screen readers. */
export function CapabilityList({ capabilities }: { capabilities: readonly CapabilityView[] }) {
  if (capabilities.length === 0) return <p className="muted small">The agent listed no optional capabilities.</p>
  return (
    <ul className="capability-list" aria-label="Capabilities">
      {capabilities.map((c) => (
        <li key={c.label} className={c.supported ? 'capability-yes' : 'capability-no'}>
          <span className="capability-mark" aria-hidden="true">
            {c.supported ? '✓' : '–'}
          </span>
          <span className="capability-label">{c.label}</span>
          <span className="sr-only">{c.supported ? ': supported' : ': not supported'}</span>
        </li>
      ))}
    </ul>
  )
}

export const AUTH_TYPE_LABEL: Record<string, string> = {
  agent: 'The agent signs you in',
  env_var: 'An API key or token Bosun passes in',
  terminal: 'A command you run in a terminal',
}

export const authTypeLabel = (type: string): string => AUTH_TYPE_LABEL[type] ?? 'The agent signs you in'

/** What a gateway method is, by the API its gateway speaks (two of claude-agent-acp's have the same name). */
export const gatewayLabel = (protocol: string | undefined) => (protocol ? `Through your gateway, ${apiName(protocol)}` : 'Through your gateway')

export function AuthMethodList({ methods }: { methods: readonly AuthMethodView[] }) {
  if (methods.length === 0) return <p className="muted small">No sign-in needed (the agent listed no auth methods).</p>
  return (
    <ul className="auth-method-summary" aria-label="Auth methods">
      {methods.map((m) => (
        <li key={m.id}>
          <span className="auth-method-name">{revealAsText(m.name)}</span> <span className="muted small">— {m.unsupported ? 'Not usable in Bosun' : m.gateway ? gatewayLabel(m.gatewayProtocol) : authTypeLabel(m.type)}</span>
          {m.description ? (
            <div className="muted small">
              <CodeText text={m.description} />
            </div>
          ) : null}
        </li>
      ))}
    </ul>
  )
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`
}
