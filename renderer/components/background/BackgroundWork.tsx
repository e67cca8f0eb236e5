import { memo, useMemo, useState } from 'react'
import { runningBackgroundWork, type BackgroundItem } from '../../../common/session/background'
import type { Entry, SessionState } from '../../../common/session/types'
import { Icon } from '../common/icons'
import { JsonDisclosure } from '../common/JsonView'
import { VisibleText } from '../permissions/VisibleText'
import { CancelTerminalButton, KillTerminalButton } from '../transcript/terminal-actions'
import { CancelToolCallButton } from '../transcript/tool-call-actions'
import { neutraliseEscapes } from '../transcript/terminal-text'
import './background-work.css'

/** Items listed before "and N more" (an agent may list thousands). */
const MAX_SHOWN = 20

/**
 * v2 background work (F10): what the agent reports still running after its turn ended (terminals, tool calls,
 * work Bosun does not know), from its latest `background` snapshot; and a v1 agent's terminals Bosun still runs after
 * the turn. Shown above the composer while anything runs; a terminal that advertises cancel can be cancelled from
 * here as from its card, and one Bosun runs can be killed from here as from its card. An item with a card in
 * the transcript (the tool call, or the tool call that shows the terminal) has Show, which scrolls to it. A tool call
 * that advertises cancel can be cancelled from here as from its card (E15).
 */
export const BackgroundWork = memo(function BackgroundWork({
  session,
  onShowEntry,
}: {
  session: Pick<SessionState, 'turn' | 'terminals' | 'entries' | 'protocolVersion'>
  /** Scrolls the transcript to the entry with this id. */
  onShowEntry?: (entryId: string) => void
}) {
  const { turn, terminals, entries, protocolVersion } = session
  const items = useMemo(() => runningBackgroundWork({ turn, terminals, entries, protocolVersion }), [turn, terminals, entries, protocolVersion])
  const cards = useMemo(() => (onShowEntry ? cardsOf(items, entries) : null), [items, entries, onShowEntry])
  const [open, setOpen] = useState(true)
  if (items.length === 0) return null
  const summary = items.length === 1 ? '1 task still running in the background' : `${items.length} tasks still running in the background`
  return (
    <section className="background-work" aria-label="Background work">
      <button type="button" className="background-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        <Icon name="chevron" size={14} className={open ? 'rotate-90' : undefined} />
        <span className="spinner small" aria-hidden="true" />
        <span role="status">{summary}</span>
      </button>
      {open && (
        <ul className="background-list">
          {items.slice(0, MAX_SHOWN).map((item) => (
            <BackgroundRow key={item.key} item={item} cardId={cards?.get(item.key)} onShowEntry={onShowEntry} />
          ))}
          {items.length > MAX_SHOWN && <li className="background-item muted">and {items.length - MAX_SHOWN} more</li>}
        </ul>
      )}
    </section>
  )
})

/** The transcript card of each item that has one, by item key: the tool call itself, or the latest tool call that shows the terminal. */
function cardsOf(items: BackgroundItem[], entries: readonly Entry[]): Map<string, string> {
  const cards = new Map<string, string>()
  const wanted = new Map<string, string>()
  for (const item of items) {
    if ((item.type === 'tool_call' || item.type === 'subagent') && item.toolCall) cards.set(item.key, item.toolCall.id)
    else if (item.type === 'terminal' && item.terminalId !== null) wanted.set(item.terminalId, item.key)
  }
  for (let i = entries.length - 1; i >= 0 && wanted.size > 0; i--) {
    const entry = entries[i]!
    if (entry.kind !== 'tool_call' || !Array.isArray(entry.content)) continue
    for (const content of entry.content) {
      const terminalId = content.type === 'terminal' ? (content as { terminalId?: unknown }).terminalId : undefined
      const key = typeof terminalId === 'string' ? wanted.get(terminalId) : undefined
      if (key === undefined) continue
      cards.set(key, entry.id)
      wanted.delete(terminalId as string)
    }
  }
  return cards
}

/** Show: scrolls the transcript to the item's card; nothing when it has none. */
function ShowButton({ cardId, label, onShowEntry }: { cardId: string | undefined; label: string; onShowEntry: ((entryId: string) => void) | undefined }) {
  if (cardId === undefined || !onShowEntry) return null
  return (
    <button type="button" className="button button-small button-secondary background-show" aria-label={`Show ${label} in the transcript`} onClick={() => onShowEntry(cardId)}>
      Show
    </button>
  )
}

function BackgroundRow({ item, cardId, onShowEntry }: { item: BackgroundItem; cardId: string | undefined; onShowEntry: ((entryId: string) => void) | undefined }) {
  switch (item.type) {
    case 'terminal': {
      const command = item.terminal?.command ? neutraliseEscapes(item.terminal.command) : null
      const name = command ?? (item.terminalId !== null ? `Terminal ${item.terminalId}` : 'A terminal')
      return (
        <li className="background-item">
          <Icon name="execute" size={14} />
          <span className="background-kind">Terminal</span>
          <code className="background-name">
            <VisibleText text={name} />
          </code>
          {item.terminal?.ranOnAfterStop && !item.bosunRuns && (
            <span className="badge badge-warn" title="The agent did not stop it when you pressed Stop; only the agent can stop it">
              running after Stop
            </span>
          )}
          <ShowButton cardId={cardId} label={name} onShowEntry={onShowEntry} />
          {item.terminalId !== null && <CancelTerminalButton terminalId={item.terminalId} terminal={item.terminal} label={command ?? `terminal ${item.terminalId}`} />}
          {/* Kill only what Bosun runs: main has no process for an agent's own terminal, and would refuse. */}
          {item.terminalId !== null && item.bosunRuns && <KillTerminalButton terminalId={item.terminalId} terminal={item.terminal} label={command ?? `terminal ${item.terminalId}`} />}
        </li>
      )
    }
    case 'tool_call': {
      const title = item.toolCall?.title ?? item.toolCall?.name ?? (item.toolCallId !== null ? `Tool call ${item.toolCallId}` : 'A tool call')
      return (
        <li className="background-item">
          <Icon name="other" size={14} />
          <span className="background-kind">Tool call</span>
          <span className="background-name">
            <VisibleText text={title} />
          </span>
          {item.toolCall && <span className="badge badge-muted">{item.toolCall.status.replaceAll('_', ' ').slice(0, 40)}</span>}
          <ShowButton cardId={cardId} label={title} onShowEntry={onShowEntry} />
          {item.toolCall && <CancelToolCallButton entry={item.toolCall} label={title} />}
        </li>
      )
    }
    case 'subagent': {
      // Its card's title says "Subagent: …" already; the kind says it here.
      const cardTitle = item.toolCall?.title ?? null
      const title = cardTitle?.replace(/^Subagent: /, '') ?? (item.sessionId !== null ? `Session ${item.sessionId}` : 'A subagent')
      return (
        <li className="background-item">
          <Icon name="other" size={14} />
          <span className="background-kind">Subagent</span>
          <span className="background-name">
            <VisibleText text={title} />
          </span>
          <ShowButton cardId={cardId} label={`subagent ${title}`} onShowEntry={onShowEntry} />
        </li>
      )
    }
    default:
      // Custom or future work: Bosun cannot say what it is, only that the agent says it runs (I4).
      return (
        <li className="background-item background-other">
          <Icon name="other" size={14} />
          <span className="background-kind">Other work</span>
          <code className="background-name">
            <VisibleText text={item.kind.slice(0, 80)} />
          </code>
          <JsonDisclosure summary="Details" value={item.raw} />
        </li>
      )
  }
}
