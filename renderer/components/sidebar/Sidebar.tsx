import { memo, useEffect, useMemo, useRef, useState } from 'react'
import type { BosunApi, CallResult } from '../../../common/contract'
import type { HistoryHit, HistorySummary } from '../../../common/contract/history'
import type { AgentRuntimeView, TurnState } from '../../../common/session/types'
import { folderName } from '../../../common/session/title'
import { CutText, FolderTitle } from '../common/MiddleCut'
import type { Shortcut } from '../common/shortcuts'
import { Icon } from '../common/icons'
import { HistoryList, SessionMark, SearchResults, type LiveInfo } from './HistoryList'
import { NewSessionForm, type NewSessionFailure } from './NewSessionForm'
import { useHistory } from './use-history'

/** What the sidebar shows of a session (selected narrowly so streaming text does not re-render it). */
export interface SessionSummary {
  sessionId: string
  agentId: string
  title: string | null
  cwd: string
  turnState: TurnState
  pending: number
  /** The last turn ended with an error (the agent crashed, its API failed): marked, as it may have happened out of sight. */
  failed: boolean
}

export interface SidebarProps {
  agents: AgentRuntimeView[]
  sessions: SessionSummary[]
  selectedSessionId: string | null
  onSelect: (sessionId: string) => void
  defaultCwdFor: (agentId: string) => string
  onCreateSession: (agentId: string, cwd: string, folders?: string[]) => Promise<string | NewSessionFailure | null>
  /** Opens the Agents page (first run: New session with no agent leads there instead of an empty list). */
  onOpenAgents?: () => void
  /** Opens one agent's page on Agents (the new-session form offers it when the agent failed to start). */
  onOpenAgent?: (agentId: string) => void
  /**
   * The agents are known (main's first snapshot arrived; default true). Before that, an empty list is not "no agents":
   * New session opens its form, which fills in when they come, instead of sending the person to the Agents page.
   */
  agentsLoaded?: boolean
  /** The history (stored sessions, search, rename, archive, export, delete); absent in previews without a backend. */
  api?: BosunApi
  /** Opens a session (from the history when it is not open), at an entry when given (a search result). */
  onOpenStored?: (sessionId: string, entryId?: string) => void
  onCallFailed?: (what: string, result: CallResult<unknown>) => void
  /** Opens the "New session" form for this agent and folder (an old session its agent cannot continue); a new nonce opens it again. */
  offerNewSession?: { agentId: string; cwd: string; nonce: number } | null
  /** Opens the "New session" form as its button does (the empty window's own button); a new number opens it again. */
  newSessionRequest?: number
  /** New session's shortcut in this host, for the button's tooltip and `aria-keyshortcuts` (the app handles the key). */
  newSessionShortcut?: Shortcut
  /** Told when the New session form opens or closes (the empty window's own New session is not blue beside it). */
  onFormOpenChange?: (open: boolean) => void
}

const ignoreFailure = () => {}
/** Search waits this long after the last keystroke. */
const SEARCH_DEBOUNCE_MS = 150

const STATUS_LABEL: Record<AgentRuntimeView['status'], string> = {
  stopped: 'Stopped',
  starting: 'Starting',
  ready: 'Ready',
  restarting: 'Restarting',
  crashed: 'Crashed',
  failed: 'Failed',
}


export const Sidebar = memo(function Sidebar({
  agents,
  sessions,
  selectedSessionId,
  onSelect,
  defaultCwdFor,
  onCreateSession,
  api,
  onOpenStored,
  onCallFailed,
  onOpenAgents,
  onOpenAgent,
  agentsLoaded = true,
  offerNewSession,
  newSessionRequest = 0,
  newSessionShortcut,
  onFormOpenChange,
}: SidebarProps) {
  // Each request to open the form is numbered: one made while the form is open (another agent's +, a folder's +, the
  // empty window's New session) gives a form of its own, with its agent and folder and the focus; the open form stayed
  // as it was, and the button seemed to do nothing.
  const [creating, setCreating] = useState<{ agentId?: string; cwd?: string; request: number } | null>(null)
  const requests = useRef(0)
  const formOpen = creating !== null
  useEffect(() => onFormOpenChange?.(formOpen), [formOpen, onFormOpenChange])
  const ask = (value: { agentId?: string; cwd?: string }) => setCreating({ ...value, request: ++requests.current })
  // The control that opened the form (New session, an agent's +, a folder's +): the focus goes back to it when the form
  // is cancelled (Escape, Cancel), where it fell to the page.
  const opener = useRef<HTMLElement | null>(null)
  const openForm = (value: { agentId?: string; cwd?: string }) => {
    opener.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null
    ask(value)
  }
  const cancelForm = () => {
    setCreating(null)
    if (opener.current?.isConnected) opener.current.focus()
    opener.current = null
  }
  useEffect(() => {
    if (offerNewSession) ask({ agentId: offerNewSession.agentId, cwd: offerNewSession.cwd })
  }, [offerNewSession])
  // New session starts from the agent of the session in view, while Bosun has it (the form picked the first agent, so
  // someone working with the third one changed the agent at each new session).
  const viewedAgentId = sessions.find((s) => s.sessionId === selectedSessionId)?.agentId
  const fromView: { agentId?: string } = viewedAgentId !== undefined && agents.some((a) => a.agentId === viewedAgentId) ? { agentId: viewedAgentId } : {}
  useEffect(() => {
    // The control that asked (the empty window's New session, the shortcut) gets the focus back when the form is cancelled.
    if (newSessionRequest > 0) openForm(fromView)
  }, [newSessionRequest]) // eslint-disable-line react-hooks/exhaustive-deps -- a new request opens the form, not a new view
  // Opened while the agents were loading, and there are none: where New session leads with no agents.
  const waitingForAgents = creating !== null && creating.agentId === undefined && agents.length === 0
  useEffect(() => {
    if (!agentsLoaded || !waitingForAgents || !onOpenAgents) return
    setCreating(null)
    onOpenAgents()
  }, [agentsLoaded, waitingForAgents, onOpenAgents])
  const [history, actions] = useHistory(api, onCallFailed ?? ignoreFailure)
  const [dismissedProblem, setDismissedProblem] = useState<string | null>(null)
  const [query, setQuery] = useState('')
  const searchRef = useRef<HTMLInputElement>(null)
  const [hits, setHits] = useState<HistoryHit[] | null>(null)
  const trimmed = query.trim()
  useEffect(() => {
    if (!trimmed) return
    setHits(null)
    let current = true
    const timer = setTimeout(() => void actions.search(trimmed).then((found) => current && setHits(found)), SEARCH_DEBOUNCE_MS)
    return () => {
      current = false
      clearTimeout(timer)
    }
    // `actions` is rebuilt every render; the search depends on the text only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [trimmed])
  const live = useMemo(() => new Map<string, LiveInfo>(sessions.map((s) => [s.sessionId, { turnState: s.turnState, pending: s.pending, title: s.title, failed: s.failed }])), [sessions])
  // Open sessions not written yet (just created, or history off) are listed too.
  const [firstSeen] = useState(() => new Map<string, number>())
  const listed = useMemo(() => {
    const stored = new Set(history.sessions.map((s) => s.sessionId))
    const extra: HistorySummary[] = sessions
      .filter((s) => !stored.has(s.sessionId))
      .map((s) => {
        if (!firstSeen.has(s.sessionId)) firstSeen.set(s.sessionId, Date.now())
        const at = firstSeen.get(s.sessionId)!
        return { sessionId: s.sessionId, agentId: s.agentId, acpSessionId: s.sessionId, cwd: s.cwd, title: s.title, createdAt: at, updatedAt: at, protocolVersion: 1, archived: false, interrupted: false }
      })
    return extra.length ? [...extra, ...history.sessions] : history.sessions
  }, [history.sessions, sessions, firstSeen])
  // The history's title (the person's, the agent's, else the first prompt) names open sessions too.
  const storedTitles = useMemo(() => new Map(history.sessions.map((h) => [h.sessionId, h.title])), [history.sessions])
  const titleOf = (s: SessionSummary) => storedTitles.get(s.sessionId) ?? s.title
  const agentName = (agentId: string) => agents.find((a) => a.agentId === agentId)?.name ?? agentId
  const open = onOpenStored ?? ((sessionId: string) => onSelect(sessionId))
  // The session shown is in the list's view when it changes (a new one joins at the end of a long list; one opened
  // from elsewhere may sit far down): the list scrolls the least that shows its row.
  const scrollRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (selectedSessionId === null) return
    const row = scrollRef.current?.querySelector<HTMLElement>('.session-list .session-item[aria-current="page"]:not(.history-item)')
    row?.scrollIntoView({ block: 'nearest' })
  }, [selectedSessionId])
  const noAgents = agentsLoaded && agents.length === 0 && onOpenAgents !== undefined
  return (
    <nav className="sidebar" aria-label="Agents and sessions">
      <div className="sidebar-top">
        <span className="app-name">Bosun</span>
        <button
          type="button"
          // Secondary always: the view beside it has the window's one primary action (the empty window's own New
          // session or Set up an agent, a session's Send), and two blue New session buttons side by side said the same
          // thing twice. With no agent it leads to the Agents page, as Set up an agent does.
          className="button button-secondary button-small"
          aria-expanded={creating !== null}
          title={newSessionShortcut ? `New session (${newSessionShortcut.label})` : undefined}
          aria-keyshortcuts={newSessionShortcut?.keys}
          onClick={() => (noAgents && onOpenAgents ? onOpenAgents() : creating ? setCreating(null) : openForm(fromView))}
        >
          <Icon name="plus" size={14} />
          New session
        </button>
      </div>
      {creating && (
        <NewSessionForm
          key={creating.request}
          agents={agents.map((a) => ({ agentId: a.agentId, name: a.name }))}
          initialAgentId={creating.agentId}
          defaultCwdFor={creating.cwd !== undefined ? () => creating.cwd! : defaultCwdFor}
          onCreate={async (agentId, cwd, folders) => {
            const failure = await onCreateSession(agentId, cwd, folders)
            if (!failure) setCreating(null)
            return failure
          }}
          onCancel={cancelForm}
          onOpenAgent={onOpenAgent}
        />
      )}
      {api && (
        <div className="sidebar-search" role="search">
          <Icon name="search" size={14} />
          <input
            ref={searchRef}
            type="search"
            className="input"
            aria-label="Search sessions"
            placeholder="Search sessions"
            value={query}
            maxLength={512}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setQuery('')
            }}
          />
        </div>
      )}
      {history.problem && history.problem !== dismissedProblem && (
        // Said once it is read: it stayed over the sidebar's lists for the whole run (a long path in it).
        <div className="sidebar-problem" role="alert">
          <p>{history.problem}</p>
          <button type="button" className="link-button" onClick={() => setDismissedProblem(history.problem)}>
            Dismiss
          </button>
        </div>
      )}
      <div className="sidebar-scroll" ref={scrollRef}>
        {api && trimmed ? (
          <SearchResults hits={hits} query={trimmed} onOpen={(sessionId, entryId) => open(sessionId, entryId)} />
        ) : (
          <>
        {agents.length === 0 && !agentsLoaded && <p className="muted sidebar-empty">Loading agents…</p>}
        {agents.length === 0 &&
          agentsLoaded &&
          (onOpenAgents ? (
            <div className="sidebar-empty sidebar-first-run">
              <p className="muted">No agents yet.</p>
              <button type="button" className="button button-secondary button-small" onClick={onOpenAgents}>
                Set up an agent
              </button>
            </div>
          ) : (
            <p className="muted sidebar-empty">No agents configured.</p>
          ))}
        {agents.map((agent) => {
          const own = sessions.filter((s) => s.agentId === agent.agentId)
          return (
            <section key={agent.agentId} className="agent-group" aria-label={agent.name}>
              {/* The heading is the agent's name alone: its status and its button sit beside it, not inside it. */}
              <div className="agent-name">
                <span className={`status-dot status-${agent.status}`} role="img" aria-label={STATUS_LABEL[agent.status] ?? agent.status} />
                <h2 className="agent-label">{agent.name}</h2>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`New session with ${agent.name}`}
                  onClick={() => openForm({ agentId: agent.agentId })}
                >
                  <Icon name="plus" size={14} />
                </button>
              </div>
              {own.length === 0 ? (
                <p className="muted sidebar-empty">No sessions</p>
              ) : (
                <ul className="session-list">
                  {own.map((s) => (
                    <li key={s.sessionId}>
                      <button
                        type="button"
                        className="session-item"
                        aria-current={s.sessionId === selectedSessionId ? 'page' : undefined}
                        onClick={() => onSelect(s.sessionId)}
                        title={s.cwd}
                      >
                        <span className="session-item-title">{titleOf(s) ?? <FolderTitle cwd={s.cwd} />}</span>
                        {/* Untitled sessions are named after their folder: then the full path tells them apart. Folders
                            are cut in their middle: their names' ends tell them apart as often as their starts. */}
                        <span className="session-item-meta muted">
                          <CutText text={titleOf(s) ? folderName(s.cwd) : s.cwd} />
                        </span>
                        <SessionMark live={s} />
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          )
        })}
        {api && (
          <HistoryList
            sessions={listed}
            live={live}
            agentName={agentName}
            hasAgent={(agentId) => agents.some((a) => a.agentId === agentId)}
            listsSessions={(agentId) => agents.find((a) => a.agentId === agentId)?.listsSessions}
            selectedSessionId={selectedSessionId}
            showArchived={history.showArchived}
            actions={actions}
            onOpen={open}
            onNoRowLeft={() => searchRef.current?.focus()}
            onNewSessionIn={(cwd) => {
              const newest = listed.find((s) => s.cwd === cwd)
              openForm({ cwd, ...(newest ? { agentId: newest.agentId } : {}) })
            }}
          />
        )}
          </>
        )}
      </div>
    </nav>
  )
})
