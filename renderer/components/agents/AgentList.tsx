import { useState, type KeyboardEvent, type Ref } from 'react'
import type { AgentDefinitionView } from '../../../common/contract/agents'
import type { AgentRuntimeView } from '../../../common/session/types'
import { STATUS_LABEL } from './agent-status'

/** The command as the person would type it (the arguments keep their quoting). */
export const commandLine = (agent: { command: string; argsText: string }): string => [agent.command, agent.argsText].filter(Boolean).join(' ')

export interface AgentListProps {
  agents: readonly AgentDefinitionView[]
  runtime: Readonly<Record<string, AgentRuntimeView | undefined>>
  selectedId: string | null
  onSelect: (agentId: string) => void
  onAdd: () => void
  /** The add flow is open (the "Add agent" button shows as current). */
  adding: boolean
  /** The "Add agent" button, which gets the focus back when the add flow closes. */
  addRef?: Ref<HTMLButtonElement>
}

/**
 * The left column: every defined agent with its status dot and command, and "Add agent". The list is one Tab stop (the
 * agent the keyboard is on, else the one shown, else the first), its agents a step apart with the arrow keys, Home and End:
 * from "Add agent" Tab went through every agent before reaching the page beside it.
 */
export function AgentList({ agents, runtime, selectedId, onSelect, onAdd, adding, addRef }: AgentListProps) {
  // The agent the keyboard is on is the stop while it is there (Shift+Tab from it goes to "Add agent", not to the one shown).
  const [focusedId, setFocusedId] = useState<string | null>(null)
  const tabStop = [focusedId, selectedId].find((id) => id !== null && agents.some((a) => a.id === id)) ?? agents[0]?.id
  const onListKey = (event: KeyboardEvent<HTMLUListElement>) => {
    const items = Array.from(event.currentTarget.querySelectorAll<HTMLButtonElement>('.agents-list-item'))
    const at = items.indexOf(document.activeElement as HTMLButtonElement)
    const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 }[event.key]
    if (to === undefined || at < 0) return
    event.preventDefault()
    items[Math.max(0, Math.min(items.length - 1, to))]?.focus()
  }
  return (
    <nav className="agents-list" aria-label="Agents">
      <button ref={addRef} type="button" className={`button agents-add${adding ? ' is-current' : ''}`} aria-current={adding ? 'page' : undefined} onClick={onAdd}>
        <span aria-hidden="true" className="agents-add-plus">
          +
        </span>
        Add agent
      </button>
      {agents.length === 0 ? (
        // The page beside it says how to add one (found on this computer, a preset, the ACP Registry): this said only two of the three.
        <p className="agents-list-empty muted small">No agents yet.</p>
      ) : (
        <ul className="agents-list-items" onKeyDown={onListKey}>
          {agents.map((agent) => {
            const status = runtime[agent.id]?.status ?? 'stopped'
            const current = agent.id === selectedId
            return (
              <li key={agent.id}>
                <button
                  type="button"
                  className="agents-list-item"
                  aria-current={current ? 'page' : undefined}
                  tabIndex={agent.id === tabStop ? 0 : -1}
                  onFocus={() => setFocusedId(agent.id)}
                  onBlur={() => setFocusedId(null)}
                  onClick={() => onSelect(agent.id)}
                >
                  {/* Named by what it shows: "<name> <status> · <command>"; the status is in words, not only the dot's colour. */}
                  <span className={`status-dot status-${status}`} aria-hidden="true" />
                  <span className="agents-list-text">
                    {/* Cut to the list's width: the whole name and command line are their tooltips. */}
                    <span className="agents-list-name" title={agent.name}>
                      {agent.name}
                    </span>
                    <span className="agents-list-meta" title={commandLine(agent)}>
                      <span className="agents-list-status">{STATUS_LABEL[status]}</span>
                      {' · '}
                      <span className="mono">{commandLine(agent)}</span>
                    </span>
                  </span>
                </button>
              </li>
            )
          })}
        </ul>
      )}
    </nav>
  )
}
