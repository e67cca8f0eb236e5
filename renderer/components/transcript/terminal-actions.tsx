import { createContext, useContext, useMemo, useState } from 'react'
import type { BosunApi, CallResult } from '../../../common/contract'
import { canCancelTerminal, itemHandle } from '../../../common/session/background'
import type { TerminalView } from '../../../common/session/types'

/** What a session's terminals can ask of main, which checks again: v2 `terminal/cancel` (E16), and killing a v1 terminal Bosun runs. */
export interface TerminalActions {
  /** Resolves `true` when the agent accepted the cancel (failures are reported by the session screen). */
  cancel(terminalId: string): Promise<boolean>
  /** Kills a terminal Bosun runs for the agent (v1 `terminal/create`), that one only; resolves `true` once killed. */
  kill?(terminalId: string): Promise<boolean>
}

/** Provided by the session screen; absent (dev fixtures, history without an agent), no Cancel is offered. */
export const TerminalActionsContext = createContext<TerminalActions | null>(null)

/**
 * The session screen's {@link TerminalActions}: only with a host that has the calls; failures are reported. A terminal
 * is named by {@link itemHandle}: the agent's id, or a long one by its hash, which the contract takes.
 */
export function useTerminalActions(
  cancelTerminal: BosunApi['cancelTerminal'] | undefined,
  killTerminal: BosunApi['killTerminal'] | undefined,
  sessionId: string,
  report: (what: string) => (result: CallResult<unknown>) => void,
): TerminalActions | null {
  return useMemo(() => {
    if (!cancelTerminal) return null
    return {
      cancel: (terminalId) =>
        cancelTerminal({ sessionId, terminalId: itemHandle(terminalId) }).then((result) => {
          report('Cancelling the terminal')(result)
          return result.ok
        }),
      ...(killTerminal
        ? {
            kill: (terminalId: string) =>
              killTerminal({ sessionId, terminalId }).then((result) => {
                report('Killing the terminal')(result)
                return result.ok
              }),
          }
        : {}),
    }
  }, [cancelTerminal, killTerminal, sessionId, report])
}

/**
 * Cancel for an agent-owned terminal, offered only while its latest `terminal_update` advertises
 * `capabilities.cancel`. After a click it says "Cancelling…" until the agent answers and, once it accepted,
 * until the terminal's exit status arrives (the only confirmation, E16) or main's deadline for it passes
 * (then Cancel is offered again while advertised). Nothing once the agent is gone.
 */
export function CancelTerminalButton({ terminalId, terminal, label }: { terminalId: string; terminal: TerminalView | undefined; label: string }) {
  const actions = useContext(TerminalActionsContext)
  const [asking, setAsking] = useState(false)
  if (!actions || !terminal || terminal.exitStatus || terminal.agentGone) return null
  const cancelling = asking || terminal.cancelRequested === true
  if (!cancelling && !canCancelTerminal(terminal)) return null
  return (
    <button
      type="button"
      className="button button-small button-secondary terminal-cancel"
      disabled={cancelling}
      aria-label={cancelling ? `Cancelling ${label}` : `Cancel ${label}`}
      onClick={() => {
        setAsking(true)
        void actions.cancel(terminalId).finally(() => setAsking(false))
      }}
    >
      {cancelling ? 'Cancelling…' : 'Cancel'}
    </button>
  )
}

/**
 * Kill for a running terminal Bosun runs for a v1 agent (`terminal/create`): main kills that command's process tree
 * only (Stop kills them all with the turn), and the agent gets its exit status. "Killing…" until main answers or the
 * terminal shows it is stopping.
 */
export function KillTerminalButton({ terminalId, terminal, label }: { terminalId: string; terminal: TerminalView | undefined; label: string }) {
  const actions = useContext(TerminalActionsContext)
  const [asking, setAsking] = useState(false)
  const kill = actions?.kill
  if (!kill || !terminal || terminal.agentRun === true || terminal.exitStatus || terminal.agentGone || terminal.cancelRequested) return null
  return (
    <button
      type="button"
      className="button button-small button-secondary terminal-cancel"
      disabled={asking}
      aria-label={asking ? `Killing ${label}` : `Kill ${label}`}
      title="Kill this command and what it started (the agent is told its exit status)"
      onClick={() => {
        setAsking(true)
        void kill(terminalId).finally(() => setAsking(false))
      }}
    >
      {asking ? 'Killing…' : 'Kill'}
    </button>
  )
}
