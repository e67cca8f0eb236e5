import { useEffect, useRef, useState } from 'react'
import { LazyXtermView } from '../transcript/LazyXterm'
import { failureText, type AgentToolsApi } from '../../screens/agents/agent-tools-api'
import { appendTail } from './log-tail'

const TERMINAL_CHARS = 128 * 1024
const valueOf = (e: { target: unknown }): string => (e.target as { value: string }).value

export interface TerminalExit {
  code: number | null
  signal?: string | null
}

export interface AuthTerminalViewProps {
  title: string
  /** Raw output as received; escape sequences are removed here, so nothing can move the cursor or add a link. */
  output: string
  exit: TerminalExit | null
  problem?: string | null
  onSend: (line: string) => void
  onClose: () => void
}

/**
 * The sign-in terminal: a terminal emulator over the login command's PTY (keys go straight to it, so typed
 * input is echoed by the PTY and Ctrl-C interrupts), plus one input line for pasting a code and Enter.
 */
export function AuthTerminalView({ title, output, exit, problem, onSend, onClose }: AuthTerminalViewProps) {
  const [line, setLine] = useState('')
  return (
    <section className="auth-terminal" aria-label={`Terminal: ${title}`}>
      <header className="auth-terminal-head">
        <span className="mono auth-terminal-title">{title}</span>
        <span className={`badge ${exit ? (exit.code === 0 ? 'badge-ok' : 'badge-danger') : 'badge-progress'}`} role="status">
          {exit ? exitText(exit) : 'Running'}
        </span>
        <button type="button" className="button button-small button-secondary" onClick={onClose}>
          {exit ? 'Close terminal' : 'Stop and close'}
        </button>
      </header>
      <LazyXtermView output={output} ariaLabel="Terminal output" rows={16} cols={100} onInput={exit ? undefined : onSend} autoFocus />
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      <form
        className="auth-terminal-input"
        onSubmit={(e) => {
          e.preventDefault()
          onSend(line + '\n')
          setLine('')
        }}
      >
        <span className="mono muted" aria-hidden="true">
          ›
        </span>
        <input
          className="input mono"
          type="text"
          aria-label="Type a line"
          placeholder={exit ? 'The command has ended' : 'Type here and press Enter'}
          value={line}
          disabled={exit !== null}
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => setLine(valueOf(e))}
        />
      </form>
    </section>
  )
}

export const exitText = (exit: TerminalExit): string =>
  exit.code === 0 ? 'Finished' : exit.code !== null ? `Exited with code ${exit.code}` : `Ended by ${exit.signal ?? 'a signal'}`

export interface AuthTerminalProps {
  tools: AgentToolsApi
  terminalId: string
  title: string
  onClosed: (exit: TerminalExit | null) => void
  /** The command ended (before the person closes the terminal). */
  onExit?: (exit: TerminalExit) => void
}

/** The terminal wired to main: follows `onAuthTerminalOutput`, sends input, closes (killing it if still running). */
export function AuthTerminal({ tools, terminalId, title, onClosed, onExit }: AuthTerminalProps) {
  const [output, setOutput] = useState('')
  const [exit, setExit] = useState<TerminalExit | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const closed = useRef(false)
  const onExitRef = useRef(onExit)
  useEffect(() => {
    onExitRef.current = onExit
  }, [onExit])

  useEffect(() => {
    const off = tools.onAuthTerminalOutput((payload) => {
      if (payload.terminalId !== terminalId) return
      if (payload.data) setOutput((current) => appendTail(current, payload.data, TERMINAL_CHARS).text)
      if (payload.exit) {
        const ended = { code: payload.exit.code, signal: payload.exit.signal ?? null }
        setExit(ended)
        onExitRef.current?.(ended)
      }
    })
    return () => {
      off()
      // Leaving the tab ends the terminal: it has no other owner.
      if (!closed.current) void tools.closeAuthTerminal({ terminalId })
    }
  }, [tools, terminalId])

  return (
    <AuthTerminalView
      title={title}
      output={output}
      exit={exit}
      problem={problem}
      onSend={(data) => {
        void tools.authTerminalInput({ terminalId, data }).then((r) => setProblem(r.ok ? null : failureText(r.error)))
      }}
      onClose={() => {
        closed.current = true
        void tools.closeAuthTerminal({ terminalId })
        onClosed(exit)
      }}
    />
  )
}
