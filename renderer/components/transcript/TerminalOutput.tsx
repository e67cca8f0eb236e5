import { memo } from 'react'
import type { TerminalView } from '../../../common/session/types'
import { JsonDisclosure } from '../common/JsonView'
import { CancelTerminalButton, KillTerminalButton } from './terminal-actions'
import { neutraliseEscapes, withoutEscapes } from './terminal-text'
import { insideErrorWrapper, stopNoteOf } from './tool-output'
import { AgentNote } from './agent-note'
import { LazyXtermView } from './LazyXterm'
import './terminal.css'

/** Rows a card's terminal shows before it scrolls: small outputs stay small. */
const MAX_ROWS = 16

export interface TerminalOutputProps {
  terminalId: string
  terminal?: TerminalView | undefined
  /** The card already shows this command (its raw input's): the header says "Output" instead of repeating it. */
  commandShown?: boolean
  /**
   * The tool call has not started (`pending`) and waits for the person's approval: a terminal the agent announced
   * with it, with no output and no exit status, is not running yet (claude-agent-acp announces it before asking).
   */
  awaitingApproval?: boolean
  /**
   * The call was rejected (by the person or a rule). An agent's own terminal that then reports an exit with neither
   * code nor signal never ran: claude-agent-acp reports a rejected command so, its refusal as the output ("exited").
   */
  rejected?: boolean
  /** Its call asked the person first, and every request ended unanswered: without output or exit status, it never ran. */
  askedUnanswered?: boolean
  /**
   * The call was cancelled (the person's Stop). A terminal that then ended by a signal was stopped with it: Bosun kills
   * the turn's commands at Stop, and a red "signal SIGTERM" read as a failure nobody asked about. So was an agent's own
   * terminal that then reports an exit with neither code nor signal (claude-agent-acp: "exited").
   */
  callCancelled?: boolean
  /**
   * The call failed. An agent's own terminal whose whole output is a `<tool_use_error>` (Claude Code's refusal before it
   * runs anything: "Blocked: sleep 25 followed by …") with an exit of neither code nor signal never ran: it says so, and
   * shows the text without the tags.
   */
  callFailed?: boolean
  /**
   * The agent may show a terminal of its own (v2 display terminals, default). On v1 every terminal is one Bosun
   * runs (`terminal/create`): an id it does not know will get no output here, whatever the agent says of it.
   */
  agentTerminals?: boolean
  /**
   * The tool call is over (completed, failed, cancelled…), or its v1 turn is. A v1 agent's own terminal (`_meta`
   * extension) ends with it: one that reported no exit (a command you rejected, one stopped with the turn) is not
   * shown as running.
   */
  toolEnded?: boolean
}

/** Whether a terminal has neither ended nor been stopped, the agent still there (what its "running" badge says, once started). */
export function terminalRuns(terminal: TerminalView): boolean {
  return !terminal.exitStatus && !terminal.agentGone && !terminal.cancelRequested && !terminal.cancelUnconfirmed
}

/**
 * A terminal on a tool call: the command, its live output in a read-only terminal emulator that follows
 * it, and the exit status. Commands Bosun runs for the agent (v1 `terminal/*`) and v2 display terminals alike.
 */
export const TerminalOutput = memo(function TerminalOutput({
  terminalId,
  terminal,
  commandShown = false,
  awaitingApproval = false,
  rejected = false,
  askedUnanswered = false,
  callCancelled = false,
  callFailed = false,
  agentTerminals = true,
  toolEnded = false,
}: TerminalOutputProps) {
  const exit = terminal?.exitStatus
  const endedWithCall = toolEnded && terminal?.agentRun === true && !exit
  // The agent's own terminal: v1 through its tool call's `_meta`, v2 every terminal (claude-agent-acp speaks v2 from
  // 0.101, and sends the same note and empty exit status at a Stop as a v2 `terminal_update`). Only a v1 terminal Bosun
  // runs has output and an exit status that are the command's own.
  const agentOwn = terminal?.agentRun === true || (agentTerminals && terminal !== undefined)
  const agentExitUnknown = agentOwn && !!exit && typeof exit.exitCode !== 'number' && !exit.signal
  const refusal = callFailed && agentExitUnknown ? insideErrorWrapper(terminal!.output) : null
  // Stopped by the person: what the agent then wrote for its model (claude-agent-acp) is not the command's output.
  const stopNote = callCancelled && agentOwn && !refusal ? stopNoteOf(terminal!.output) : null
  const output = refusal ?? stopNote?.output ?? terminal?.output ?? ''
  const lines = countLines(output)
  const command = terminal?.command ? neutraliseEscapes(terminal.command) : null
  const label = command ?? `terminal ${terminalId}`
  const stoppedWithCall = callCancelled && !!exit && ((typeof exit.signal === 'string' && exit.signal !== '') || agentExitUnknown)
  // Its call asked first and the request ended unanswered (the person restarted the agent while it asked): it did not
  // run, and "agent stopped" read as stopped midway.
  const neverRan = ((rejected || refusal !== null) && agentExitUnknown) || (askedUnanswered && !exit && output === '')
  const notStarted = awaitingApproval && !!terminal && !exit && output === '' && !terminal.cancelRequested && !terminal.agentGone
  return (
    <section className="terminal" aria-label={`Terminal ${terminalId}`}>
      <header className="terminal-header">
        <span className="terminal-command" title={terminal?.cwd ? `in ${neutraliseEscapes(terminal.cwd)}` : undefined}>
          {command !== null ? (commandShown ? 'Output' : `$ ${command}`) : `Terminal ${terminalId}`}
        </span>
        <span className="terminal-status">
          {neverRan ? (
            <span className="badge badge-muted" role="status">
              not run
            </span>
          ) : exit ? (
            <span className={`badge ${terminal?.cancelRequested || stoppedWithCall ? 'badge-muted' : exitClass(exit)}`} role="status">
              {terminal?.cancelRequested
                ? `${agentTerminals ? 'cancelled' : 'killed'} · ${exitText(exit)}`
                : stoppedWithCall
                  ? agentExitUnknown
                    ? 'stopped'
                    : `stopped · ${exitText(exit)}`
                  : exitText(exit)}
            </span>
          ) : endedWithCall ? null : terminal?.cancelRequested ? (
            <span className="badge badge-warn" role="status">
              stopping
            </span>
          ) : terminal?.agentGone ? (
            <span className="badge badge-muted" role="status" title="The agent stopped before this terminal reported an exit status">
              agent stopped
            </span>
          ) : terminal?.cancelUnconfirmed ? (
            <span className="badge badge-warn" role="status">
              stop not confirmed
            </span>
          ) : notStarted ? (
            <span className="badge badge-muted" role="status">
              not started
            </span>
          ) : terminal ? (
            <span className="badge badge-progress" role="status">
              running
            </span>
          ) : null}
          {agentTerminals ? (
            <CancelTerminalButton terminalId={terminalId} terminal={terminal} label={label} />
          ) : (
            <KillTerminalButton terminalId={terminalId} terminal={terminal} label={label} />
          )}
        </span>
      </header>
      {terminal?.cancelUnconfirmed && !exit && (
        <p className="muted terminal-note">The agent accepted Cancel but has not reported that this stopped. It may still be running.</p>
      )}
      {terminal?.truncated && <p className="muted terminal-note">Earlier output was dropped: Bosun keeps the end of a long output.</p>}
      {output ? (
        <LazyXtermView output={output} ariaLabel="Terminal output" rows={Math.max(2, Math.min(lines, MAX_ROWS))} cols={COLS} />
      ) : (
        <p className="muted terminal-empty">
          {stopNote
            ? 'No output. Stopped by you.'
            : notStarted
            ? 'Runs once you allow it'
            : terminal
              ? exit || terminal.agentGone || endedWithCall
                ? 'No output'
                : 'No output yet'
              : agentTerminals
                ? 'Output is shown by the agent'
                : 'No output: Bosun did not run this terminal'}
        </p>
      )}
      {stopNote && output ? <p className="muted terminal-note terminal-stopped">Stopped by you.</p> : null}
      {stopNote ? (
        <div className="terminal-agent-note">
          <AgentNote note={stopNote.note} />
        </div>
      ) : null}
      {terminal && otherFields(terminal) && <JsonDisclosure summary="Other terminal fields" value={otherFields(terminal)} />}
    </section>
  )
})

type ExitStatus = NonNullable<TerminalView['exitStatus']>

const KNOWN_EXIT_KEYS = new Set(['exitCode', 'signal', '_meta'])

/** What the agent sent that Bosun does not know: unknown `terminal_update` fields and unknown exit status fields. */
function otherFields(terminal: TerminalView): Record<string, unknown> | null {
  const exit = terminal.exitStatus
  const unknownExit = exit ? Object.keys(exit).some((key) => !KNOWN_EXIT_KEYS.has(key)) : false
  if (!terminal.extra && !unknownExit) return null
  return { ...terminal.extra, ...(unknownExit ? { exitStatus: exit } : {}) }
}

/** `exit 0`, `exit 130 (SIGINT)`, `signal SIGTERM`, or `exited` when the agent knows neither. */
export function exitText(exit: ExitStatus): string {
  const code = typeof exit.exitCode === 'number' ? exit.exitCode : null
  const signal = typeof exit.signal === 'string' ? neutraliseEscapes(exit.signal).slice(0, 40) : null
  if (code !== null) return signal ? `exit ${code} (${signal})` : `exit ${code}`
  return signal ? `signal ${signal}` : 'exited'
}

function exitClass(exit: ExitStatus): string {
  if (exit.exitCode === 0) return 'badge-ok'
  return typeof exit.exitCode === 'number' || exit.signal ? 'badge-danger' : 'badge-muted'
}

/** Columns of a card's terminal (XtermView's default): a longer line wraps onto the next row. */
const COLS = 120

/**
 * Rows the text takes in the terminal, counting at most MAX_ROWS + 1 (the row count only needs to know "more
 * than fits"). A final newline leaves the cursor on a row of its own: counting it keeps the first line in view.
 * A line longer than the terminal is wide takes a row per COLS characters: counted as one, the view (which follows
 * the output) started inside it (claude-agent-acp's one-line note after a Stop showed from "kground process)").
 * A line's width is what it shows: escape sequences take no room, and a carriage return starts the line again over
 * what was there (a progress bar of eleven frames is one frame wide, not eleven, and had three empty rows under it).
 */
export function countLines(text: string): number {
  let rows = 0
  let start = 0
  while (rows <= MAX_ROWS) {
    const end = text.indexOf('\n', start)
    rows += Math.max(1, Math.ceil(lineWidth(text.slice(start, end < 0 ? text.length : end)) / COLS))
    if (end < 0) break
    start = end + 1
  }
  return Math.min(rows, MAX_ROWS + 1)
}

/** Columns a line of output reaches: its longest stretch between carriage returns, without escape sequences. */
function lineWidth(line: string): number {
  // eslint-disable-next-line no-control-regex
  if (!/[\r\x1b\x9b]/.test(line)) return line.length
  return withoutEscapes(line).split('\r').reduce((widest, part) => Math.max(widest, part.length), 0)
}
