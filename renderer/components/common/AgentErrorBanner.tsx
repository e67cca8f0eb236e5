import { memo, useState } from 'react'
import type { AgentRuntimeView } from '../../../common/session/types'
import { neutraliseEscapes } from '../transcript/terminal-text'
import { revealAsText } from '../permissions/reveal-text'
import { VisibleText } from '../permissions/VisibleText'
import { Icon } from './icons'

/** Whether the agent is down with an error the person should see (a crash waiting for its automatic restart included). */
export function agentHasError(agent: AgentRuntimeView): boolean {
  return agent.status === 'crashed' || agent.status === 'failed' || (agent.status === 'restarting' && Boolean(agent.error))
}

/**
 * Shown inline when the session's agent crashed or failed: the reason, the stderr tail, and Restart. A crash
 * that will be restarted automatically shows too (the supervisor waits a backoff first); Restart skips the wait.
 */
export const AgentErrorBanner = memo(function AgentErrorBanner({ agent, onRestart }: { agent: AgentRuntimeView; onRestart: () => Promise<void> }) {
  const [restarting, setRestarting] = useState(false)
  if (!agentHasError(agent)) return null
  const tail = agent.error?.stderrTail ? neutraliseEscapes(agent.error.stderrTail) : ''
  return (
    <section className="agent-error" role="alert" aria-label={`${agent.name} ${agent.status}`}>
      <div className="agent-error-head">
        <Icon name="alert" />
        <div className="agent-error-text">
          <strong>
            {agent.name} {agent.status === 'failed' ? (agent.error?.kind === 'agent-exited' ? 'stopped working' : 'failed to start') : 'crashed'}
          </strong>
          {/* It quotes the agent's last words: their hidden and direction-changing characters show as markers. */}
          <span>{agent.error ? revealAsText(agent.error.message, { prose: true }) : 'The agent process exited.'}</span>
          {agent.status === 'restarting' ? <span className="muted small">Bosun restarts it in a moment.</span> : null}
        </div>
        <button
          type="button"
          className="button button-secondary"
          disabled={restarting}
          onClick={() => {
            setRestarting(true)
            void onRestart().finally(() => setRestarting(false))
          }}
        >
          <Icon name="restart" size={14} />
          Restart
        </button>
      </div>
      {tail && (
        <pre className="stderr-tail" tabIndex={0} aria-label="Agent error output">
          <VisibleText text={tail} prose code />
        </pre>
      )}
    </section>
  )
})
