import { memo, useMemo } from 'react'
import type { TerminalView } from '../../../common/session/types'
import { neutraliseEscapes } from './terminal-text'

/** Keep the DOM small: only the tail of very long output is shown. */
const MAX_CHARS = 64_000

/** A terminal reference on a tool call: its id, and the output Bosun knows of (v2 display terminals). */
export const TerminalOutput = memo(function TerminalOutput({ terminalId, terminal }: { terminalId: string; terminal?: TerminalView | undefined }) {
  const text = useMemo(() => {
    const clean = neutraliseEscapes(terminal?.output ?? '')
    return clean.length > MAX_CHARS ? `…\n${clean.slice(-MAX_CHARS)}` : clean
  }, [terminal?.output])
  const exit = terminal?.exitStatus
  return (
    <section className="terminal" aria-label={`Terminal ${terminalId}`}>
      <header className="terminal-header">
        <span className="terminal-command">{terminal?.command ? `$ ${neutraliseEscapes(terminal.command)}` : `Terminal ${terminalId}`}</span>
        {exit ? (
          <span className={`badge ${exit.exitCode === 0 ? 'badge-ok' : 'badge-danger'}`}>
            {exit.signal ? `signal ${exit.signal}` : `exit ${exit.exitCode ?? '?'}`}
          </span>
        ) : terminal ? (
          <span className="badge badge-progress">running</span>
        ) : null}
      </header>
      {text ? (
        <pre className="terminal-output" tabIndex={0} aria-label="Terminal output">
          {text}
        </pre>
      ) : (
        <p className="muted terminal-empty">{terminal ? 'No output yet' : 'Output is shown by the agent'}</p>
      )}
    </section>
  )
})
