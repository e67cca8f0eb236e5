import { memo, useState } from 'react'
import type { AgentRuntimeView } from '../../state/types'
import { neutraliseEscapes } from '../transcript/terminal-text'
import { Icon } from './icons'

/** Shown inline when the session's agent crashed or failed: the reason, the stderr tail, and Restart. */
export const AgentErrorBanner = memo(function AgentErrorBanner({ agent, onRestart }: { agent: AgentRuntimeView; onRestart: () => Promise<void> }) {
  const [restarting, setRestarting] = useState(false)
  if (agent.status !== 'crashed' && agent.status !== 'failed') return null
  const tail = agent.error?.stderrTail ? neutraliseEscapes(agent.error.stderrTail) : ''
  return (
    <section className="agent-error" role="alert" aria-label={`${agent.name} ${agent.status}`}>
      <div className="agent-error-head">
        <Icon name="alert" />
        <div className="agent-error-text">
          <strong>
            {agent.name} {agent.status === 'crashed' ? 'crashed' : 'failed to start'}
          </strong>
          <span>{agent.error?.message ?? 'The agent process exited.'}</span>
          {agent.nextRestartAt ? <span className="muted small">An automatic restart is scheduled.</span> : null}
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
          {tail}
        </pre>
      )}
    </section>
  )
})
