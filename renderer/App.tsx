import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ComponentType } from 'react'
import { derivedTitle, untitledName } from '../common/session/title'
import { turnFailed } from '../common/session/turn-stop'
import type { BosunApi, CallResult } from '../common/contract'
import type { MenuCommand } from '../common/contract/app'
import { selectInbox, waitingOnPerson, type AppSnapshot, type AppState, type AppStore, type InboxItem } from './state/app-store'
import { defaultSeams, SessionSeamsProvider, useSeams, type SessionSeams } from './components/common/seams'
import { Toasts } from './components/common/Toasts'
import { RenderGuard } from './components/common/RenderGuard'
import { InboxButton, NavButton } from './components/header/SessionHeader'
import { Sidebar, type SessionSummary } from './components/sidebar/Sidebar'
import type { NewSessionFailure } from './components/sidebar/NewSessionForm'
import { newSessionFailure } from './components/sidebar/new-session-failure'
import { EmptyScreen, SessionScreen } from './screens/SessionScreen'
import { AgentsScreen } from './screens/agents/AgentsScreen'
import { SignInDialog } from './components/agents/SignInDialog'
import { lastMessageId, type SignInMark } from './components/session/ReopenAfterSignIn'
import type { AgentTabId } from './components/agents/AgentTabs'
import { SettingsScreen } from './screens/settings/SettingsScreen'
import { requestPromptFocus } from './components/permissions/prompt-focus'
import { startPageAttention } from './notifications/page-attention'
import { shallowArrayEqual, useAppSelector } from './screens/use-app-selector'
import { isNewSessionKey, isSettingsKey, newSessionShortcut, settingsShortcut } from './components/common/shortcuts'
import { moveToRegion, regionKey } from './components/common/regions'

/** The props of `components/permissions/ApprovalInbox.tsx`. */
export interface InboxProps {
  items: InboxItem[]
  onOpen: (requestId: string) => void
}

export interface AppProps {
  api: BosunApi
  store: AppStore
  /** Seams for the permission/elicitation components and the link consent path (placeholders by default). */
  seams?: Partial<SessionSeams>
  /** The agent's default working folder (from agent definitions, once the agents contract lands). */
  defaultCwdFor?: (agentId: string) => string
  /** The approval inbox panel (`ApprovalInbox`); a placeholder list until it lands. */
  Inbox?: ComponentType<InboxProps>
  /** The browser transport reconnected with a fresh snapshot (`bridge.onDidRehydrate`). */
  onDidRehydrate?: (listener: (snapshot: AppSnapshot) => void) => () => void
  /**
   * Where the page runs, for notifications and the badge (`notifications/page-attention.ts`): the browser host
   * reports focus to main and shows Web Notifications; Electron only shows what main asks. Absent: neither (previews).
   */
  host?: 'browser' | 'electron'
}

/** What fills the window: the sessions, or one of the settings pages over them. */
type Page = { kind: 'sessions' } | { kind: 'settings' } | { kind: 'agents'; agentId?: string; tab?: AgentTabId; nonce?: number }

/** A new session the agent refused until the person signs in; `resolve` answers the "New session" form. */
interface SignInRequest {
  agentId: string
  cwd: string
  folders: string[]
  reason: string
  resolve: (error: string | null) => void
}

function selectSummaries(view: AppState): SessionSummary[] {
  return Object.values(view.sessions).map((s) => ({
    sessionId: s.sessionId,
    agentId: s.agentId,
    // Before the history names it: the agent's title, else the first prompt (as the history will).
    title: derivedTitle(s),
    cwd: s.cwd,
    turnState: s.turn.state,
    pending: waitingOnPerson(s),
    failed: turnFailed(s.turn),
  }))
}

function sessionOfRequest(view: AppState, requestId: string): string | null {
  for (const session of Object.values(view.sessions)) {
    if (session.permissions[requestId]) return session.sessionId
    if (Object.values(session.elicitations).some((e) => e.elicitationRequestId === requestId)) return session.sessionId
  }
  return null
}

/** Placeholder until `components/permissions/ApprovalInbox.tsx` lands (same props). */
function PlaceholderInbox({ items, onOpen }: InboxProps) {
  if (items.length === 0) return <p className="muted inbox-empty">Nothing waits for you.</p>
  return (
    <ul className="inbox-list">
      {items.map((item) => (
        <li key={item.id}>
          <button type="button" className="inbox-item" onClick={() => onOpen(item.id)}>
            <span className="inbox-item-title">{item.kind === 'permission' ? item.request.title : item.elicitation.message}</span>
            <span className="muted small">
              {item.agentName}
              {item.sessionTitle ? ` · ${item.sessionTitle}` : ''}
            </span>
          </button>
        </li>
      ))}
    </ul>
  )
}

/** The agent of the session shown (the selected one, else the first): whose inspector the menu opens. */
function currentAgentId(view: AppState): string | null {
  const id = view.selectedSessionId ?? Object.keys(view.sessions)[0]
  return id ? (view.sessions[id]?.agentId ?? null) : null
}

const selectRequestScoped = (state: AppState) => Object.values(state.requestScopedElicitations).filter((e) => e.status === 'pending')

/** Questions an agent asks before its session exists (e.g. while starting): shown above everything. */
function RequestScopedElicitations({ store }: { store: AppStore }) {
  const pending = useAppSelector(store, selectRequestScoped, shallowArrayEqual)
  const { renderElicitation } = useSeams()
  if (pending.length === 0) return null
  return (
    <section className="request-scoped" aria-label="Questions from agents">
      {pending.map((elicitation) => (
        <div key={elicitation.elicitationRequestId} className="request-scoped-item">
          {/* The card says "<agent> asks while starting" itself. */}
          <RenderGuard what={`${elicitation.agentName}'s question`} resetKey={elicitation}>
            {renderElicitation(elicitation)}
          </RenderGuard>
        </div>
      ))}
    </section>
  )
}

interface AppNotice {
  id: string
  severity: string
  title: string
  description?: string | null
  /** A failed call of the page's is Bosun's to say, shown with the session's notices (which say who sent theirs). */
  fromBosun?: true
}

/** How many app notices are kept (the newest). */
const MAX_APP_NOTICES = 50
/** How many failed calls of one session are kept for it (the newest), and for how many sessions (the latest). */
const MAX_SESSION_FAILURES = 20
const MAX_SESSIONS_WITH_FAILURES = 50

/** The renderer root: loads the snapshot, feeds events into the store, lays out sidebar + session. */
export function App({ api, store, seams, defaultCwdFor, Inbox = PlaceholderInbox, onDidRehydrate, host }: AppProps) {
  const [notices, setNotices] = useState<AppNotice[]>([])
  const noticeCount = useRef(0)
  /** Adds a notice; the app keeps the newest {@link MAX_APP_NOTICES} (warnings and errors stay until dismissed). */
  const addNotice = useCallback((notice: Omit<AppNotice, 'id'>) => {
    const id = `app-${++noticeCount.current}`
    setNotices((prev) => [...prev, { id, ...notice }].slice(-MAX_APP_NOTICES))
  }, [])

  // An old session its agent cannot continue: the "New session" form opens for the same agent and folder.
  const [offerNewSession, setOfferNewSession] = useState<{ agentId: string; cwd: string; nonce: number } | null>(null)
  // The empty window's New session: the sidebar opens its form, as from its own button.
  const [newSessionRequest, setNewSessionRequest] = useState(0)
  // The sidebar's New session form is open: the empty window's New session is not a second blue button beside its Start session.
  const [newSessionFormOpen, setNewSessionFormOpen] = useState(false)
  // A session's failed calls (a message, a mode, Stop): shown with its own notices, in the flow above its transcript,
  // not in the window's corner over the transcript (where the person's last message is). Kept while it is not shown.
  const [sessionFailures, setSessionFailures] = useState<Record<string, AppNotice[]>>({})
  /** Whether the failure offers a new session (the form opens for it): the session says why where the person types. */
  const offeredNewSession = useCallback((result: CallResult<unknown>): boolean => {
    if (result.ok) return false
    const offer = (result.error.data as { offerNewSession?: { agentId?: unknown; cwd?: unknown } } | undefined)?.offerNewSession
    if (typeof offer?.agentId !== 'string' || typeof offer.cwd !== 'string') return false
    setOfferNewSession((prev) => ({ agentId: offer.agentId as string, cwd: offer.cwd as string, nonce: (prev?.nonce ?? 0) + 1 }))
    return true
  }, [])
  const notifyFailure = useCallback(
    (what: string, result: CallResult<unknown>) => {
      if (result.ok || offeredNewSession(result)) return
      addNotice({ severity: 'error', title: `${what} failed`, description: result.error.message })
    },
    [addNotice, offeredNewSession],
  )
  const notifySessionFailure = useCallback(
    (sessionId: string, what: string, result: CallResult<unknown>) => {
      if (result.ok || offeredNewSession(result)) return
      const notice: AppNotice = { id: `call-${++noticeCount.current}`, severity: 'error', title: `${what} failed`, description: result.error.message, fromBosun: true }
      setSessionFailures((prev) => {
        const { [sessionId]: own = [], ...others } = prev
        const kept = Object.entries(others).slice(-(MAX_SESSIONS_WITH_FAILURES - 1))
        return { ...Object.fromEntries(kept), [sessionId]: [...own, notice].slice(-MAX_SESSION_FAILURES) }
      })
    },
    [offeredNewSession],
  )
  const dismissSessionFailure = useCallback((sessionId: string, id: string) => {
    setSessionFailures((prev) => {
      const left = (prev[sessionId] ?? []).filter((n) => n.id !== id)
      const { [sessionId]: _gone, ...others } = prev
      return left.length > 0 ? { ...others, [sessionId]: left } : others
    })
  }, [])

  // Bring a request into view (inbox click, notification click): select its session, scroll to its entry.
  const [focus, setFocus] = useState<{ requestId: string; nonce: number } | null>(null)
  const openRequest = useCallback(
    (requestId: string) => {
      const sessionId = sessionOfRequest(store.getSnapshot(), requestId)
      if (!sessionId) return
      setPage({ kind: 'sessions' })
      store.selectSession(sessionId)
      setFocus((prev) => ({ requestId, nonce: (prev?.nonce ?? 0) + 1 }))
      // The prompt takes the keyboard focus once its row is rendered (the transcript is virtualized).
      requestPromptFocus(requestId)
    },
    [store],
  )
  const [page, setPage] = useState<Page>({ kind: 'sessions' })
  // A "turn ended" notification was clicked (page-attention: the page's own, or main's `focusSession`).
  const openSession = useCallback(
    (sessionId: string) => {
      if (!store.getSnapshot().sessions[sessionId]) return
      setPage({ kind: 'sessions' })
      store.selectSession(sessionId)
    },
    [store],
  )
  // A page (Settings, Agents) covers the window: the app behind it is inert, and closing it gives focus back to what opened it.
  const opener = useRef<HTMLElement | null>(null)
  const restoreFocus = useRef<HTMLElement | null>(null)
  const openPage = useCallback((next: Page) => {
    if (document.activeElement instanceof HTMLElement && document.activeElement !== document.body) opener.current = document.activeElement
    setPage(next)
  }, [])
  const closePage = useCallback(() => {
    restoreFocus.current = opener.current
    setPage({ kind: 'sessions' })
  }, [])
  useEffect(() => {
    if (page.kind !== 'sessions') return
    const target = restoreFocus.current
    restoreFocus.current = opener.current = null
    if (target?.isConnected) target.focus()
  }, [page])
  const openAgents = useCallback(() => openPage({ kind: 'agents' }), [openPage])
  // New session (Ctrl/⌘+N, Ctrl/⌘+Shift+O, the menu's File › New Session): from any page, the sidebar's form.
  const requestNewSession = useCallback(() => {
    restoreFocus.current = opener.current = null
    setPage({ kind: 'sessions' })
    setNewSessionRequest((n) => n + 1)
  }, [])
  // The app's keys (components/common/shortcuts.ts). Ctrl+, (⌘, on macOS) opens Settings, as in VS Code, Zed and
  // GitHub Desktop; pressed on Settings, it closes them.
  const pageKind = page.kind
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return
      if (isSettingsKey(event)) {
        event.preventDefault()
        if (pageKind === 'settings') closePage()
        else openPage({ kind: 'settings' })
      } else if (isNewSessionKey(event)) {
        event.preventDefault()
        requestNewSession()
      } else {
        const direction = regionKey(event)
        if (direction && moveToRegion(document, direction)) event.preventDefault()
      }
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [pageKind, openPage, closePage, requestNewSession])
  // A turn that ended with an error offers its agent's log (the Agents page, on that agent's Logs tab).
  const openAgentLog = useCallback((agentId: string) => openPage({ kind: 'agents', agentId, tab: 'logs' }), [openPage])
  const openAgent = useCallback((agentId: string) => openPage({ kind: 'agents', agentId, tab: 'overview' }), [openPage])
  // The history (sidebar): a session not open is loaded from the database first; a search result scrolls to its entry.
  const openStored = useCallback(
    async (sessionId: string, entryId?: string) => {
      setPage({ kind: 'sessions' })
      if (!store.getSnapshot().sessions[sessionId]) {
        const result = await api.historyOpen({ sessionId })
        if (!result.ok) return notifyFailure('Opening the session', result)
      }
      store.selectSession(sessionId)
      if (entryId) setFocus((prev) => ({ requestId: entryId, nonce: (prev?.nonce ?? 0) + 1 }))
    },
    [api, store, notifyFailure],
  )

  const onDidReconnect = useMemo(() => (onDidRehydrate ? (listener: () => void) => onDidRehydrate(() => listener()) : undefined), [onDidRehydrate])
  useEffect(() => {
    if (!host) return
    return startPageAttention({
      api,
      openRequest,
      openSession,
      reportToMain: host === 'browser',
      ...(onDidReconnect ? { onDidReconnect } : {}),
    })
  }, [api, host, openRequest, openSession, onDidReconnect])

  useEffect(() => {
    let disposed = false
    const load = () =>
      void api.getSnapshot(undefined).then((result) => {
        if (disposed) return
        if (result.ok) store.applySnapshot(result.value)
        else notifyFailure('Loading sessions', result)
      })
    const unsubscribe = [
      // Applied over animation frames; a gap means batches were lost (e.g. across a reload): rebuild from a fresh snapshot.
      api.onSessionActions((batch) => store.enqueueSessionActions(batch, load)),
      api.onSessionAdded(({ session }) => store.addSession(session)),
      // A session main resends whole because this page fell behind on it (main/web/view-flow.ts).
      api.onSessionState(({ session }) => store.resyncSession(session)),
      // Main sends only so much the page has not applied: it hears what was.
      store.onDidApply((applied) => void api.sessionActionsApplied({ applied })),
      api.onSessionRemoved(({ sessionId }) => store.removeSession(sessionId)),
      api.onAgentStatus((agent) => store.setAgentStatus(agent)),
      // An agent added, renamed or removed on the Agents page: the sidebar lists agents from the snapshot.
      api.onAgentDefinitionsChanged(() => load()),
      api.onFocusRequest(({ requestId }) => openRequest(requestId)),
      api.onMenuCommand(({ command }) => menuCommand.current(command)),
      api.onAppNotice(({ severity, title, description }) => addNotice({ severity, title, description: description ?? null })),
      onDidRehydrate?.((snapshot) => store.applySnapshot(snapshot)),
      // Request-scoped elicitations (asked before a session exists, e.g. during session/new).
      api.onRequestScopedElicitation(({ change, elicitation }) => {
        if (change === 'added') store.addRequestScopedElicitation(elicitation)
        else store.resolveRequestScopedElicitation(elicitation.elicitationRequestId, elicitation.status)
      }),
    ]
    load()
    void api.listRequestScopedElicitations(undefined).then((result) => {
      if (!disposed && result.ok) for (const { elicitation } of result.value) store.addRequestScopedElicitation(elicitation)
    })
    return () => {
      disposed = true
      for (const off of unsubscribe) off?.()
    }
  }, [api, store, onDidRehydrate, notifyFailure, openRequest, addNotice])
  // The Electron menu's app actions (main/shell/menu.ts): what the page's own shortcuts and buttons do.
  const menuCommand = useRef<(command: MenuCommand) => void>(() => {})
  // Each opening from the menu starts the Agents page afresh, on the Inspector tab.
  const inspectorOpenings = useRef(0)
  useLayoutEffect(() => {
    menuCommand.current = (command) => {
      if (command === 'newSession') requestNewSession()
      else if (command === 'openSettings') {
        if (page.kind !== 'settings') openPage({ kind: 'settings' })
      } else if (page.kind === 'agents' && page.tab === 'inspector') closePage()
      else {
        // The current session's agent's inspector (what it and Bosun said to each other), else the first agent's.
        const agentId = currentAgentId(store.getSnapshot())
        openPage({ kind: 'agents', tab: 'inspector', nonce: ++inspectorOpenings.current, ...(agentId ? { agentId } : {}) })
      }
    }
  })

  const agents = useAppSelector(store, (view) => Object.values(view.agents), shallowArrayEqual)
  const loaded = useAppSelector(store, (view) => view.loaded)
  const summaries = useAppSelector(store, selectSummaries, shallowArrayEqual)
  // selectInbox builds fresh items per state; compare field by field so streaming text does not re-render the app.
  const inboxItems = useAppSelector(store, selectInbox, shallowArrayEqual)
  // Untitled sessions are named by their folder, as in the sidebar, so two of them can be told apart.
  const namedInboxItems = useMemo(() => {
    const cwdOf = new Map(summaries.map((s) => [s.sessionId, s.cwd]))
    return inboxItems.map((item) => {
      const cwd = item.sessionId ? cwdOf.get(item.sessionId) : undefined
      return item.sessionTitle || !cwd ? item : { ...item, sessionTitle: untitledName(cwd) }
    })
  }, [inboxItems, summaries])
  const selected = useAppSelector(store, (state) => state.selectedSessionId)
  const current = selected ?? summaries[0]?.sessionId ?? null

  const cwdFor = useCallback(
    (agentId: string) => {
      const fromDefinitions = defaultCwdFor?.(agentId)
      if (fromDefinitions) return fromDefinitions
      // Until agent definitions arrive: the folder of this agent's latest session.
      return [...summaries].reverse().find((s) => s.agentId === agentId)?.cwd ?? ''
    },
    [defaultCwdFor, summaries],
  )
  const [signIn, setSignIn] = useState<SignInRequest | null>(null)
  /** Signing in after the agent refused a message (auth required): nothing is asked again, the person resends. */
  const [messageSignIn, setMessageSignIn] = useState<{ agentId: string; reason: string; sessionId: string } | null>(null)
  const onSignIn = useCallback((agentId: string, reason: string, sessionId: string) => setMessageSignIn({ agentId, reason, sessionId }), [])
  const endMessageSignIn = useCallback(() => setMessageSignIn(null), [])
  // The sessions a sign-in went through from: one the agent still refuses afterwards is offered to be reopened.
  const [signInMarks, setSignInMarks] = useState<Readonly<Record<string, SignInMark>>>({})
  const markSession = useCallback(
    (sessionId: string, mark: (last: string | null) => SignInMark) => {
      const last = lastMessageId(store.getSnapshot().sessions[sessionId])
      // One per session; the oldest go past 64 (a session refused then is long done with).
      setSignInMarks((prev) => Object.fromEntries([...Object.entries(prev).filter(([id]) => id !== sessionId), [sessionId, mark(last)] as const].slice(-64)))
    },
    [store],
  )
  const messageSignedIn = useCallback(() => {
    if (messageSignIn) markSession(messageSignIn.sessionId, (last) => ({ signedInAt: last }))
    setMessageSignIn(null)
  }, [messageSignIn, markSession])
  const onReopened = useCallback((sessionId: string) => markSession(sessionId, (last) => ({ signedInAt: last, reopenedAt: last })), [markSession])
  const startSession = useCallback(
    async (agentId: string, cwd: string, folders: string[] = []) => {
      const result = await api.newSession({ agentId, cwd, ...(folders.length > 0 ? { additionalDirectories: folders } : {}) })
      if (result.ok) store.selectSession(result.value.sessionId)
      return result
    },
    [api, store],
  )
  // Auth required (issue 6 item 5): offer the agent's sign-in methods, then ask again. The form keeps
  // waiting ("Starting…") until the dialog ends, with the session or with why not.
  const onCreateSession = useCallback(
    async (agentId: string, cwd: string, folders: string[] = []): Promise<string | NewSessionFailure | null> => {
      const result = await startSession(agentId, cwd, folders)
      if (result.ok) return null
      if (result.error.kind !== 'auth-required') return newSessionFailure(agents.find((a) => a.agentId === agentId)?.name ?? agentId, result.error)
      const reason = result.error.message
      return new Promise<string | null>((resolve) => setSignIn({ agentId, cwd, folders, reason, resolve }))
    },
    [startSession, agents],
  )
  const retrySignIn = useCallback(async () => {
    if (!signIn) return null
    const result = await startSession(signIn.agentId, signIn.cwd, signIn.folders)
    return result.ok ? null : result.error
  }, [signIn, startSession])
  const endSignIn = useCallback(
    (error: string | null) => {
      signIn?.resolve(error)
      setSignIn(null)
    },
    [signIn],
  )
  const allSeams = useMemo(() => {
    const merged = { ...defaultSeams, ...seams }
    // Electron blocks downloads (main/shell/window.ts): main saves the image it holds (`saveImage`, its dialog). The
    // browser host (and the dev preview) downloads the page's copy (main has no dialog there).
    if (host === 'electron') merged.onSaveImage = null
    else merged.onSaveSessionImage = null
    const respond = merged.onRespondPermission
    // An answer main did not carry out (an "always" the person declined in its dialog) says so; the request stays.
    merged.onRespondPermission = (requestId, optionId) => {
      const result = respond(requestId, optionId)
      if (result) void result.then((r) => notifyFailure('Remembering the answer', r))
      return result
    }
    return merged
  }, [seams, notifyFailure, host])
  const settings = settingsShortcut()
  const newSession = newSessionShortcut(host ?? 'electron')
  const inboxSlot = (
    <>
      <InboxButton
        pendingCount={inboxItems.length}
        inbox={(close) => (
          <Inbox
            items={namedInboxItems}
            onOpen={(id) => {
              openRequest(id)
              close()
            }}
          />
        )}
      />
      <NavButton label="Agents" icon="agents" onClick={() => openPage({ kind: 'agents' })} />
      <NavButton label="Settings" icon="settings" keyShortcuts={settings.keys} shortcutLabel={settings.label} onClick={() => openPage({ kind: 'settings' })} />
    </>
  )

  // The app's own notices: in the window's corner, or on a page that fills the window, under its header (in the
  // corner they covered the page's controls, and the page is a modal dialog: what is outside it is not for use).
  const windowNotices = (placement: 'window' | 'page') => (
    <Toasts notices={notices} placement={placement} onDismiss={(id) => setNotices((prev) => prev.filter((n) => n.id !== id))} />
  )
  const pageNotices = windowNotices('page')
  return (
    <SessionSeamsProvider value={allSeams}>
      <div className="app">
        <div className="app-behind" inert={page.kind !== 'sessions'}>
          <Sidebar
            agents={agents}
            sessions={summaries}
            selectedSessionId={current}
            onSelect={store.selectSession}
            defaultCwdFor={cwdFor}
            onCreateSession={onCreateSession}
            onOpenAgents={openAgents}
            onOpenAgent={openAgent}
            agentsLoaded={loaded}
            api={api}
            onOpenStored={(sessionId, entryId) => void openStored(sessionId, entryId)}
            onCallFailed={notifyFailure}
            offerNewSession={offerNewSession}
            newSessionRequest={newSessionRequest}
            newSessionShortcut={newSession}
            onFormOpenChange={setNewSessionFormOpen}
          />
          {current ? (
            // A session that cannot be shown says so; the sidebar stays, to open another.
            <RenderGuard key={current} what="this session">
              <SessionScreen
                store={store}
                api={api}
                sessionId={current}
                inboxSlot={inboxSlot}
                focusRequest={focus}
                onCallFailed={notifySessionFailure}
                callFailures={sessionFailures[current]}
                onDismissCallFailure={dismissSessionFailure}
                onSignIn={onSignIn}
                signInMark={signInMarks[current]}
                onReopened={onReopened}
                onOpenAgentLog={openAgentLog}
                onOpenAgent={openAgent}
              />
            </RenderGuard>
          ) : (
            <EmptyScreen
              message="No session is open"
              inboxSlot={inboxSlot}
              onSetUpAgent={loaded && agents.length === 0 ? openAgents : undefined}
              onNewSession={() => setNewSessionRequest((n) => n + 1)}
              newSessionFormOpen={newSessionFormOpen}
              settingsKey={settings.label}
            />
          )}
        </div>
        {page.kind === 'settings' ? <SettingsScreen api={api} onClose={closePage} host={host ?? 'electron'} notices={pageNotices} /> : null}
        {page.kind === 'agents' ? <AgentsScreen key={page.nonce} api={api} onClose={closePage} sessions={summaries} notices={pageNotices} {...(page.agentId ? { initialAgentId: page.agentId } : {})} {...(page.tab ? { initialTab: page.tab } : {})} {...(onDidReconnect ? { onDidReconnect } : {})} /> : null}
        {signIn ? (
          <SignInDialog
            key={`${signIn.agentId}:${signIn.cwd}`}
            api={api}
            agentId={signIn.agentId}
            agentName={agents.find((a) => a.agentId === signIn.agentId)?.name ?? signIn.agentId}
            reason={signIn.reason}
            retry={retrySignIn}
            onDone={() => endSignIn(null)}
            onCancel={(problem) => endSignIn(problem ?? `Not signed in, so the session did not start (the agent said: ${signIn.reason}). Start session to sign in again.`)}
          />
        ) : null}
        {messageSignIn && !signIn ? (
          <SignInDialog
            key={`message:${messageSignIn.agentId}`}
            api={api}
            agentId={messageSignIn.agentId}
            agentName={agents.find((a) => a.agentId === messageSignIn.agentId)?.name ?? messageSignIn.agentId}
            reason={messageSignIn.reason}
            onDone={messageSignedIn}
            onCancel={endMessageSignIn}
          />
        ) : null}
        <RequestScopedElicitations store={store} />
        {page.kind === 'sessions' ? windowNotices('window') : null}
      </div>
    </SessionSeamsProvider>
  )
}
