import { memo } from 'react'
import type { TerminalView } from '../../../common/session/types'
import { neutraliseEscapes } from './terminal-text'
import { XtermView } from './XtermView'

/** Rows a card's terminal shows before it scrolls: small outputs stay small. */
const MAX_ROWS = 16

/**
 * A terminal on a tool call: the command, its live output in a read-only terminal emulator that follows
 * it, and the exit status. Commands Bosun runs for the agent (v1 `terminal/*`) and v2 display terminals alike.
 */
export const TerminalOutput = memo(function TerminalOutput({ terminalId, terminal }: { terminalId: string; terminal?: TerminalView | undefined }) {
  const exit = terminal?.exitStatus
  const output = terminal?.output ?? ''
  const lines = countLines(output)
  return (
    <section className="terminal" aria-label={`Terminal ${terminalId}`}>
      <header className="terminal-header">
        <span className="terminal-command">{terminal?.command ? `$ ${neutraliseEscapes(terminal.command)}` : `Terminal ${terminalId}`}</span>
        {exit ? (
          <span className={`badge ${exit.exitCode === 0 ? 'badge-ok' : 'badge-danger'}`} role="status">
            {exit.signal ? `signal ${exit.signal}` : `exit ${exit.exitCode ?? '?'}`}
          </span>
        ) : terminal ? (
          <span className="badge badge-progress" role="status">
            running
          </span>
        ) : null}
      </header>
      {output ? (
        <XtermView output={output} ariaLabel="Terminal output" rows={Math.max(2, Math.min(lines, MAX_ROWS))} />
      ) : (
        <p className="muted terminal-empty">{terminal ? 'No output yet' : 'Output is shown by the agent'}</p>
      )}
    </section>
  )
})

/** Lines in the text, counting at most MAX_ROWS + 1 (the row count only needs to know "more than fits"). */
function countLines(text: string): number {
  let lines = 1
  for (let i = text.indexOf('\n'); i >= 0 && lines <= MAX_ROWS; i = text.indexOf('\n', i + 1)) lines++
  return text.endsWith('\n') ? lines - 1 : lines
}
