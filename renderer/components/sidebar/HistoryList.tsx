import { memo, useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react'
import type { HistoryHit, HistorySummary } from '../../../common/contract/history'
import { folderName, untitledName } from '../../../common/session/title'
import { CutLine, FolderTitle, MiddleCut } from '../common/MiddleCut'
import { Icon } from '../common/icons'
import { keepTabInside } from '../common/modal-focus'
import type { AgentSession, HistoryActions } from './use-history'
import './history.css'

/** What the history shows of an open session on top of the stored row (live turn, requests waiting on the person). */
export interface LiveInfo {
  turnState: string
  pending: number
  title: string | null
  /** The last turn ended with an error. */
  failed?: boolean
}

/**
 * What a session's row shows at its end, the live sidebar's and the history's alike: how many requests wait for the
 * person, else a spinner while a turn runs, else a mark when the last turn ended with an error; nothing for a session
 * not open or idle and well.
 */
export function SessionMark({ live }: { live: Pick<LiveInfo, 'turnState' | 'pending' | 'failed'> | undefined }) {
  if (!live) return null
  if (live.pending > 0) {
    return (
      <span className="count-badge" aria-label={`${live.pending} waiting for you`}>
        {live.pending}
      </span>
    )
  }
  if (live.turnState !== 'idle') return <span className="spinner small" role="img" aria-label="Working" />
  if (!live.failed) return null
  return (
    <span className="session-failed" role="img" aria-label="The last turn ended with an error" title="The last turn ended with an error">
      <Icon name="alert" size={14} />
    </span>
  )
}

export interface HistoryListProps {
  sessions: HistorySummary[]
  live: ReadonlyMap<string, LiveInfo>
  agentName: (agentId: string) => string
  /** Whether Bosun still has this agent (default: yes): a removed one is not offered to list its own sessions. */
  hasAgent?: (agentId: string) => boolean
  /**
   * Whether the agent's current run lists its sessions (`session/list`): false when it said it cannot, and "More from"
   * is then not offered (undefined: not known before it runs; an answer already shown stays).
   */
  listsSessions?: (agentId: string) => boolean | undefined
  selectedSessionId: string | null
  showArchived: boolean
  actions: HistoryActions
  onOpen: (sessionId: string, entryId?: string) => void
  onNewSessionIn: (cwd: string) => void
  /** Where focus goes when the last row the person archived or deleted was the only one (the search field). */
  onNoRowLeft?: () => void
}


function when(ms: number): string {
  const date = new Date(ms)
  const now = new Date()
  return date.toDateString() === now.toDateString()
    ? date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleDateString(undefined, { day: 'numeric', month: 'short', ...(date.getFullYear() !== now.getFullYear() ? { year: 'numeric' } : {}) })
}

/** Sessions grouped by working folder; folders ordered by their newest session, sessions newest first. */
export function groupByFolder(sessions: HistorySummary[]): { cwd: string; sessions: HistorySummary[] }[] {
  const groups = new Map<string, HistorySummary[]>()
  for (const session of [...sessions].sort((a, b) => b.updatedAt - a.updatedAt)) {
    const list = groups.get(session.cwd)
    if (list) list.push(session)
    else groups.set(session.cwd, [session])
  }
  return [...groups].map(([cwd, list]) => ({ cwd, sessions: list }))
}

const untitled = (s: HistorySummary) => s.title ?? untitledName(s.cwd)

const HistoryItem = memo(function HistoryItem({
  session,
  live,
  agentName,
  selected,
  actions,
  onOpen,
  onLeaving,
}: {
  session: HistorySummary
  live: LiveInfo | undefined
  agentName: string
  selected: boolean
  actions: HistoryActions
  onOpen: (sessionId: string) => void
  /** The row may leave the list (archived, deleted): the list moves focus to a neighbour when it does. */
  onLeaving: (sessionId: string) => void
}) {
  const [mode, setMode] = useState<'idle' | 'menu' | 'rename' | 'delete'>('idle')
  const title = session.title ?? live?.title ?? untitled(session)
  const [draft, setDraft] = useState(title)
  const renameRef = useRef<HTMLInputElement>(null)
  const confirmId = useId()
  // Leaving the title field or the delete question from the keyboard puts focus back on the row's actions button,
  // not on the page's body (the field and the question go away).
  const moreRef = useRef<HTMLButtonElement>(null)
  const refocus = useRef(false)
  const backToRow = () => {
    refocus.current = true
    setMode('idle')
  }
  useEffect(() => {
    if (mode === 'rename') renameRef.current?.select()
    else if (mode === 'idle' && refocus.current) {
      refocus.current = false
      moreRef.current?.focus()
    }
  }, [mode])

  if (mode === 'rename') {
    return (
      <form
        className="history-rename"
        aria-label={`Rename ${title}`}
        onSubmit={(e) => {
          e.preventDefault()
          backToRow()
          void actions.rename(session.sessionId, draft.trim() || null)
        }}
      >
        <input
          ref={renameRef}
          className="input"
          aria-label="Session title"
          value={draft}
          maxLength={512}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return
            e.preventDefault()
            backToRow()
          }}
        />
        <button type="submit" className="button button-primary button-small">
          Save
        </button>
      </form>
    )
  }
  const metaTail = `${when(session.updatedAt)}${session.archived ? ' · archived' : ''}${session.interrupted && !live ? ' · interrupted' : ''}`
  return (
    <div className="history-item-wrap">
      <div className="history-item-row">
        <button
          type="button"
          className="session-item history-item"
          data-session-id={session.sessionId}
          aria-current={selected ? 'page' : undefined}
          onClick={() => onOpen(session.sessionId)}
          title={`${title}\n${session.cwd}`}
        >
          <span className="session-item-title">{session.title ?? live?.title ?? <FolderTitle cwd={session.cwd} />}</span>
          <span className="session-item-meta muted">
            {/* A long agent name keeps its line and the time goes onto the next (at the sidebar's width the name was cut to
                a few letters: "Waiti… · 02:48 PM · interrupted"); a name longer than the line gives way, not the time.
                Isolated: a right-to-left name took the time after it into its own run ("04:26 · סוכן PM"). */}
            <CutLine text={`${agentName} · ${metaTail}`} wraps>
              <bdi className="cut-words-first">{agentName}</bdi>
              <span className="cut-words">
                <span className="cut-sep">·</span>
                {metaTail}
              </span>
            </CutLine>
          </span>
          <SessionMark live={live} />
        </button>
        <button
          ref={moreRef}
          type="button"
          className="icon-button history-more"
          aria-label={`Actions for ${title}`}
          aria-expanded={mode === 'menu'}
          onClick={() => setMode(mode === 'menu' ? 'idle' : 'menu')}
          onKeyDown={(e) => {
            if (e.key !== 'Escape' || mode !== 'menu') return
            e.preventDefault()
            setMode('idle')
          }}
        >
          <Icon name="chevron" size={14} className={mode === 'menu' ? 'rotated' : undefined} />
        </button>
      </div>
      {mode === 'menu' && (
        <div
          className="history-actions"
          role="group"
          aria-label={`Actions for ${title}`}
          // Escape folds the actions away, the focus back on the row's actions button (as from the rename field).
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return
            e.preventDefault()
            backToRow()
          }}
        >
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => {
              setDraft(title)
              setMode('rename')
            }}
          >
            Rename
          </button>
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => {
              onLeaving(session.sessionId)
              // Still listed (archived ones shown, or restored): focus goes back to the row's actions button.
              void actions.archive(session.sessionId, !session.archived).then(backToRow)
            }}
          >
            {session.archived ? 'Unarchive' : 'Archive'}
          </button>
          <button type="button" className="button button-secondary button-small" onClick={() => void actions.exportAs(session.sessionId, 'markdown')}>
            Export Markdown
          </button>
          <button type="button" className="button button-secondary button-small" onClick={() => void actions.exportAs(session.sessionId, 'json')}>
            Export JSON
          </button>
          <button type="button" className="button button-danger button-small" onClick={() => setMode('delete')}>
            Delete…
          </button>
        </div>
      )}
      {mode === 'delete' && (
        <div
          className="history-confirm"
          role="alertdialog"
          aria-label={`Delete ${title}?`}
          aria-describedby={confirmId}
          onKeyDown={(e) => {
            // A question to answer: Tab goes between its two answers (it went on to the rest of the list).
            keepTabInside(e.nativeEvent, e.currentTarget)
            if (e.key !== 'Escape') return
            e.preventDefault()
            backToRow()
          }}
        >
          <p id={confirmId}>Delete “{title}” and its transcript from this computer? This cannot be undone.</p>
          <div className="history-confirm-buttons">
            <button
              type="button"
              className="button button-danger button-small"
              onClick={() => {
                onLeaving(session.sessionId)
                void actions.remove(session.sessionId).then(() => setMode('idle'))
              }}
            >
              Delete
            </button>
            <button type="button" className="button button-secondary button-small" autoFocus onClick={backToRow}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </div>
  )
})

/**
 * "More from <agent>": the sessions the agent itself has for the folder (its `session/list`), opened through `session/load`.
 * The agent's name ends the link, so a long one is cut at the end of the line and the words before it stay whole (a name
 * in mid-sentence was cut mid-word: "Scripted age…’s own sessions here…"); the tooltip says it all.
 */
function MoreFrom({ agentName }: { agentName: string }) {
  return (
    <CutLine text={`More from ${agentName}`}>
      <span className="cut-words">More from </span>
      <bdi className="cut-words-first">{agentName}</bdi>
    </CutLine>
  )
}

function AgentSessions({
  agentId,
  agentName,
  listable,
  cwd,
  actions,
  onOpen,
}: {
  agentId: string
  agentName: string
  listable: boolean
  cwd: string
  actions: HistoryActions
  onOpen: (sessionId: string) => void
}) {
  const [state, setState] = useState<'closed' | 'loading' | 'cancelled' | AgentSession[] | null>('closed')
  // The newest refresh wins: an older answer arriving late is dropped.
  const generation = useRef(0)
  const open = (listed: AgentSession) =>
    void actions.openAgentSession(agentId, cwd, listed).then((sessionId) => {
      if (!sessionId) return
      onOpen(sessionId)
      // It is Bosun's now (the history lists it): gone from here at once, and the agent's list is asked again.
      setState((list) => (Array.isArray(list) ? list.filter((s) => s.acpSessionId !== listed.acpSessionId) : list))
      const mine = ++generation.current
      void actions.agentSessions(agentId, cwd).then((fresh) => {
        if (fresh && fresh !== 'cancelled' && mine === generation.current) setState(fresh)
      })
    })
  const ask = () => {
    setState('loading')
    const mine = ++generation.current
    void actions.agentSessions(agentId, cwd).then((fresh) => {
      if (mine === generation.current) setState(fresh)
    })
  }
  if (state === 'closed') {
    if (!listable) return null
    return (
      <button type="button" className="link-button history-agent-sessions-toggle" title={`${agentName}’s own sessions in this folder, those started outside Bosun too`} onClick={ask}>
        <MoreFrom agentName={agentName} />
      </button>
    )
  }
  // The person may stop waiting for a slow agent (B16): main withdraws the request; its answer, if it comes, is dropped.
  const cancel = () => {
    ++generation.current
    setState('cancelled')
    void actions.cancelAgentSessions(agentId, cwd)
  }
  if (state === 'loading')
    return (
      <div className="history-agent-sessions-waiting">
        <p className="muted sidebar-empty">Asking {agentName}…</p>
        <button type="button" className="link-button" aria-label={`Cancel asking ${agentName}`} onClick={cancel}>
          Cancel
        </button>
      </div>
    )
  // The answer is of the moment it was asked: a session started since (in a terminal, say) shows once asked again.
  const again = (
    <button type="button" className="link-button history-agent-sessions-toggle" title={`Ask ${agentName} again`} onClick={ask}>
      Ask again
    </button>
  )
  if (state === null) return <p className="muted sidebar-empty">{agentName} does not list its sessions.</p>
  if (state === 'cancelled')
    return (
      <div className="history-agent-sessions-waiting">
        <p className="muted sidebar-empty">Cancelled</p>
        <button type="button" className="link-button" title={`Ask ${agentName} again`} onClick={ask}>
          Try again
        </button>
      </div>
    )
  if (state.length === 0)
    return (
      <>
        <p className="muted sidebar-empty">{agentName} has no other sessions here.</p>
        {again}
      </>
    )
  return (
    <>
      <ul className="session-list" aria-label={`${agentName}’s own sessions in ${cwd}`}>
        {state.map((s) => (
          <li key={s.acpSessionId}>
            <button
              type="button"
              className="session-item history-item"
              onClick={() => open(s)}
            >
              <span className="session-item-title">{s.title ?? s.acpSessionId}</span>
              <span className="session-item-meta muted">
                from {agentName}
                {s.updatedAt && Number.isFinite(Date.parse(s.updatedAt)) ? ` · ${when(Date.parse(s.updatedAt))}` : ''}
                {s.additionalDirectories?.length ? (
                  <span title={s.additionalDirectories.join('\n')}>
                    {` · + ${s.additionalDirectories.map(folderName).join(', ')}`}
                  </span>
                ) : null}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {again}
    </>
  )
}

/** The agents of `sessions`, each once, in the order of their first session. */
export function agentsOf(sessions: readonly HistorySummary[]): string[] {
  return [...new Set(sessions.map((s) => s.agentId))]
}

/**
 * The sessions the history lists: every open one, and every closed one that has a title (a prompt was sent,
 * or the agent or the person named it). A session closed before anything was said in it is not listed.
 */
export function listedSessions(sessions: HistorySummary[], live: ReadonlyMap<string, LiveInfo>): HistorySummary[] {
  return sessions.filter((s) => s.title !== null || live.has(s.sessionId))
}

/** The history: every stored (and open) session, grouped by working folder. */
export function HistoryList({ sessions, live, agentName, hasAgent = () => true, listsSessions, selectedSessionId, showArchived, actions, onOpen, onNewSessionIn, onNoRowLeft }: HistoryListProps) {
  const groups = groupByFolder(listedSessions(sessions, live))
  const order = groups.flatMap((group) => group.sessions.map((s) => s.sessionId))
  const listRef = useRef<HTMLElement>(null)
  // A row archived or deleted from its actions leaves the list; focus (on the page's body by then, the row gone)
  // goes to the row that took its place, else the one above it, else the search field, as in a list of files.
  const leaving = useRef<{ sessionId: string; order: string[] } | null>(null)
  const orderRef = useRef(order)
  orderRef.current = order
  const onLeaving = useCallback((sessionId: string) => {
    leaving.current = { sessionId, order: orderRef.current }
  }, [])
  useLayoutEffect(() => {
    const left = leaving.current
    if (!left || order.includes(left.sessionId)) return
    leaving.current = null
    // The person went on elsewhere meanwhile: their focus stays where they put it.
    if (document.activeElement && document.activeElement !== document.body) return
    const at = left.order.indexOf(left.sessionId)
    const next = [...left.order.slice(at + 1), ...left.order.slice(0, at).reverse()].find((id) => order.includes(id))
    const row = next === undefined ? null : listRef.current?.querySelector<HTMLElement>(`[data-session-id="${CSS.escape(next)}"]`)
    if (row) row.focus()
    else onNoRowLeft?.()
  })
  return (
    <section className="history" aria-label="History" ref={listRef}>
      <div className="agent-name history-heading">
        <h2 className="agent-label">History</h2>
        <label className="history-archived-toggle">
          <input type="checkbox" checked={showArchived} onChange={(e) => actions.setShowArchived(e.target.checked)} />
          Archived
        </label>
      </div>
      {/* What it is and what fills it, not only that it is empty. */}
      {groups.length === 0 && <p className="muted sidebar-empty">No past sessions yet. The sessions you start stay here, by folder, to reopen and search.</p>}
      {groups.map((group) => (
        <section key={group.cwd} className="history-folder" aria-label={`Folder ${group.cwd}`}>
          <div className="history-folder-name" title={group.cwd}>
            <Icon name="folder" size={13} />
            {/* Named by its label (its text is the name's pieces, shown; a heading reads its label whole). */}
            <h3 className="agent-label" aria-label={folderName(group.cwd)}>
              <span className="cut-line" aria-hidden="true">
                <MiddleCut text={folderName(group.cwd)} />
              </span>
            </h3>
            <button type="button" className="icon-button" aria-label={`New session in ${group.cwd}`} onClick={() => onNewSessionIn(group.cwd)}>
              <Icon name="plus" size={13} />
            </button>
          </div>
          <ul className="session-list">
            {group.sessions.map((s) => (
              <li key={s.sessionId}>
                <HistoryItem
                  session={s}
                  live={live.get(s.sessionId)}
                  agentName={agentName(s.agentId)}
                  selected={s.sessionId === selectedSessionId}
                  actions={actions}
                  onOpen={onOpen}
                  onLeaving={onLeaving}
                />
              </li>
            ))}
          </ul>
          {/* Each agent with a session here, newest first: the folder's newest session alone named one agent, and another's own sessions could not be reached. */}
          {agentsOf(group.sessions)
            .filter(hasAgent)
            .map((agentId) => (
              <AgentSessions
                key={agentId}
                agentId={agentId}
                agentName={agentName(agentId)}
                listable={listsSessions?.(agentId) !== false}
                cwd={group.cwd}
                actions={actions}
                onOpen={onOpen}
              />
            ))}
        </section>
      ))}
    </section>
  )
}

/**
 * A snippet as alternating plain and matched text (main puts the matched words between \u0002 and \u0003). An agent's
 * message or thought is Markdown: its emphasis and code marks (`**`, `__`, `~~`, backticks) are left out, as the
 * transcript shows them; single `*` and `_` stay (snake_case, globs).
 */
export function snippetParts(text: string, markdown: boolean): string[] {
  const parts = text.split('\u0002').flatMap((piece, i) => (i === 0 ? [piece] : piece.split('\u0003').concat(['']).slice(0, 2)))
  return markdown ? parts.map((part) => part.replace(/\*\*|__|~~|`/g, '')) : parts
}

/** Marks the matched words of a snippet. */
function Snippet({ text, markdown }: { text: string; markdown: boolean }) {
  return (
    <>
      {snippetParts(text, markdown).map((part, i) =>
        i % 2 === 1 ? (
          <mark key={i} className="history-mark">
            {part}
          </mark>
        ) : (
          <span key={i}>{part}</span>
        ),
      )}
    </>
  )
}

const KIND_LABEL: Record<string, string> = { user_message: 'You', agent_message: 'Agent', agent_thought: 'Thought', tool_call: 'Tool' }

export function SearchResults({ hits, query, onOpen }: { hits: HistoryHit[] | null; query: string; onOpen: (sessionId: string, entryId: string) => void }) {
  if (hits === null) return <p className="muted sidebar-empty">Searching…</p>
  if (hits.length === 0) return <p className="muted sidebar-empty">Nothing found for “{query}”.</p>
  return (
    <section className="history" aria-label="Search results">
      <ul className="session-list">
        {hits.map((hit) => (
          <li key={`${hit.sessionId}:${hit.entryId}`}>
            <button type="button" className="session-item history-hit" onClick={() => onOpen(hit.sessionId, hit.entryId)}>
              <span className="session-item-title">{hit.title ?? <FolderTitle cwd={hit.cwd} />}</span>
              <span className="history-hit-snippet">
                <span className="history-hit-kind">{KIND_LABEL[hit.kind] ?? hit.kind}</span> <Snippet text={hit.snippet} markdown={hit.kind === 'agent_message' || hit.kind === 'agent_thought'} />
              </span>
              <span className="session-item-meta muted">
                <CutLine text={`${folderName(hit.cwd)}${hit.archived ? ' · archived' : ''}`}>
                  <MiddleCut text={folderName(hit.cwd)} />
                  {hit.archived && <span className="cut-words">{' · archived'}</span>}
                </CutLine>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  )
}
