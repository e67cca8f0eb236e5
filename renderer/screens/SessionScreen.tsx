import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { setTranscriptBehind } from '../state/render-progress'
import type { BosunApi, CallResult } from '../../common/contract'
import type { ContentBlock, SessionState } from '../../common/session/types'
import { AgentErrorBanner } from '../components/common/AgentErrorBanner'
import { SessionSeamsProvider, useSeams, type SessionSeams, type ToolLocation } from '../components/common/seams'
import { Toasts } from '../components/common/Toasts'
import { Composer, type ComposerContext } from '../components/composer/Composer'
import { SessionHeader } from '../components/header/SessionHeader'
import { CutLine, FolderTitle, MiddleCut } from '../components/common/MiddleCut'
import { SessionOptions } from '../components/session/SessionOptions'
import { StallNotice, useSilence, useStallThreshold } from '../components/session/StallNotice'
import { waitingOnAgent } from '../components/session/stall'
import { PlanPanel } from '../components/transcript/PlanPanel'
import { Transcript } from '../components/transcript/Transcript'
import { NotSentContext, type NotSentActions } from '../components/transcript/not-sent'
import { TerminalActionsContext, useTerminalActions } from '../components/transcript/terminal-actions'
import { ToolCallActionsContext, useToolCallActions } from '../components/transcript/tool-call-actions'
import { BackgroundWork } from '../components/background/BackgroundWork'
import { waitingOnPerson, type AppStore } from '../state/app-store'
import { isInputStallNotice, isStopOverdueNotice } from '../../common/session/stop-watchdog'
import { derivedTitle, folderName, untitledName } from '../../common/session/title'
import { useAppSelector } from './use-app-selector'
import { useTranscriptSession } from './transcript-session'
import { Icon } from '../components/common/icons'
import { cancelFocusHandoff, handFocusOn, takeHandedFocus } from '../components/common/focus-handoff'
import { ReopenAfterSignIn, afterSignIn, type SignInMark } from '../components/session/ReopenAfterSignIn'
import { carriedDraft, carryDraft, forgetCarriedDraft } from './carried-draft'

/** The calls the session screen makes. */
export type SessionApi = Pick<BosunApi, 'prompt' | 'cancel' | 'setMode' | 'setModel' | 'setConfigOption' | 'restartAgent' | 'closeSession' | 'setAutoApprove' | 'newSession'> &
  Partial<Pick<BosunApi, 'stopAgent' | 'promptCapabilities' | 'listSessionFiles' | 'appInfo' | 'dismissNotice' | 'reopenSession'>>

export interface SessionScreenProps {
  store: AppStore
  /** With `cancelTerminal`, v2 agent terminals that offer it can be cancelled; with `killTerminal`, v1 terminals Bosun runs can be killed one by one. */
  api: SessionApi & Partial<Pick<BosunApi, 'cancelTerminal' | 'killTerminal' | 'cancelToolCall'>>
  sessionId: string
  /** The approval inbox entry point (header, right). */
  inboxSlot: ReactNode
  /** Scroll this permission/elicitation request into view (a new `nonce` scrolls again). */
  focusRequest?: { requestId: string; nonce: number } | null
  /** A call this screen made failed: the app keeps it for the session (`callFailures`), or opens what it offers. */
  onCallFailed?: (sessionId: string, what: string, result: CallResult<unknown>) => void
  /** This session's failed calls, shown with its notices above the transcript until dismissed. */
  callFailures?: readonly SessionState['notices'][number][] | undefined
  onDismissCallFailure?: (sessionId: string, id: string) => void
  /** A message the agent refused because the person is not signed in: offer the agent's sign-in methods. */
  onSignIn?: (agentId: string, reason: string, sessionId: string) => void
  /** A sign-in from this session went through (and perhaps the session was reopened since): see {@link afterSignIn}. */
  signInMark?: SignInMark
  /** The session was reopened after a sign-in that did not reach it. */
  onReopened?: (sessionId: string) => void
  /** Opens the agent's log (a turn that ended with an error offers it). */
  onOpenAgentLog?: (agentId: string) => void
  /** Opens an agent on the Agents page (where its keys are set). */
  onOpenAgent?: (agentId: string) => void
}

/** One session: header, transcript, plan, agent error, composer. Subscribes to this session and its agent only. */
export function SessionScreen({ store, api, sessionId, inboxSlot, focusRequest, onCallFailed, callFailures, onDismissCallFailure, onSignIn, signInMark, onReopened, onOpenAgentLog, onOpenAgent }: SessionScreenProps) {
  const session = useAppSelector(store, (view) => view.sessions[sessionId])
  const agentId = session?.agentId
  const agent = useAppSelector(store, (view) => (agentId ? view.agents[agentId] : undefined))
  const agentDisplayName = agent?.name ?? agentId ?? ''
  const agentsLoaded = useAppSelector(store, (view) => view.loaded)
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set())
  // "Show" on a background item scrolls to its card (negative nonces: never equal to the app's focus requests,
  // and a newer request from the app takes over again).
  const [shown, setShown] = useState<{ requestId: string; nonce: number } | null>(null)
  useEffect(() => setShown(null), [focusRequest?.nonce])
  const onShowEntry = useCallback((entryId: string) => setShown((prev) => ({ requestId: entryId, nonce: (prev?.nonce ?? 0) - 1 })), [])
  const transcriptFocus = shown ?? focusRequest ?? null
  // The transcript renders a deferred copy of the session: React slices that render and lets the person's input
  // and the rest of the screen go first, so a flood of updates never makes one long task (see render-progress.ts).
  // The person's own message is the exception (transcript-session.ts).
  const transcriptSession = useTranscriptSession(session)
  const transcriptBehind = transcriptSession !== session
  useLayoutEffect(() => setTranscriptBehind(transcriptBehind), [transcriptBehind])
  useEffect(() => () => setTranscriptBehind(false), [])

  const report = useCallback(
    (what: string) => (result: CallResult<unknown>) => {
      if (!result.ok) onCallFailed?.(sessionId, what, result)
    },
    [onCallFailed, sessionId],
  )
  // The text of the last send that failed, shown where the composer was if the session cannot continue.
  const [unsent, setUnsent] = useState<string | null>(null)
  // A message sent while the agent is not running: main starts it and reattaches the session (session/load or resume)
  // before the message becomes the transcript's, seconds later. Meanwhile it is shown here, and no second one goes.
  // With its agent running, a session that main is still building (opened from the history, or reopened) takes the
  // message once the agent loaded it: shown as waiting too, once it has not become a turn within a moment.
  const [startingWith, setStartingWith] = useState<{ text: string; reopening: boolean } | null>(null)
  const waitTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => () => clearTimeout(waitTimer.current), [])
  const turnRuns = session !== undefined && session.turn.state !== 'idle'
  useEffect(() => {
    if (turnRuns) setStartingWith(null)
  }, [turnRuns])
  const send = useCallback(
    (prompt: ContentBlock[]) => {
      const snapshot = store.getSnapshot()
      const agentStatus = snapshot.agents[snapshot.sessions[sessionId]?.agentId ?? '']?.status
      const text = promptText(prompt)
      clearTimeout(waitTimer.current)
      let answered = false
      if (agentStatus !== 'ready') setStartingWith({ text, reopening: false })
      else {
        waitTimer.current = setTimeout(() => {
          if (!answered && store.getSnapshot().sessions[sessionId]?.turn.state === 'idle') setStartingWith({ text, reopening: true })
        }, SHOW_WAITING_AFTER_MS)
      }
      return api.prompt({ sessionId, prompt: prompt as Parameters<SessionApi['prompt']>[0]['prompt'] }).then((result) => {
        answered = true
        clearTimeout(waitTimer.current)
        setStartingWith(null)
        if (!result.ok && result.error.kind === 'cancelled') {
          // Withdrawn by Stop before it went: the message box has it again (the composer puts it back in an empty box),
          // before what the person typed meanwhile.
          const meanwhile = typed.current
          if (meanwhile.trim() !== '' && text !== '') setDraftRequest((prev) => ({ text: `${text}\n\n${meanwhile}`, nonce: (prev?.nonce ?? 0) + 1 }))
          return false
        }
        // An agent that answered and then died ran the turn (main says so): the message was sent, not offered again.
        const sent = result.ok || (result.error.kind === 'agent-exited' && (result.error.data as { answered?: unknown } | undefined)?.answered === true)
        setUnsent(sent ? null : text)
        // An agent that died mid-turn is already shown in the transcript (the turn's error) and by the agent banner;
        // a session that cannot continue says so where the person types.
        // A message the agent refused (a JSON-RPC error) is shown in the transcript as not sent, with the details.
        const shownInTranscript = !result.ok && (result.error.kind === 'agent-exited' || result.error.code !== undefined)
        // An offer of a new session goes up whatever arrived first, the answer or the session's cannot-continue state.
        const data = result.ok ? undefined : (result.error.data as { offerNewSession?: unknown; cannotContinue?: unknown } | undefined)
        const offersNewSession = data?.offerNewSession !== undefined
        // Main says the failure is the session's cannot-continue state, which the composer shows: the answer may come
        // before the window has applied that state, and the reason was said twice (here and where the person types).
        const saidInComposer = data?.cannotContinue === true
        if (!result.ok && !shownInTranscript && !saidInComposer && (offersNewSession || !store.getSnapshot().sessions[sessionId]?.cannotContinue)) {
          report('Sending the message')({ ok: false, error: { ...result.error, message: withDetails(result.error) } })
        }
        return sent
      })
    },
    [api, sessionId, report, store],
  )
  const onSend = useCallback((text: string, attachments: ContentBlock[] = []) => send([{ type: 'text', text }, ...attachments]), [send])
  // A new session started from another one's "New session here" opens with the text the person had typed there.
  const [draftRequest, setDraftRequest] = useState<{ text: string; nonce: number; onlyIf?: string } | null>(() => {
    const carried = carriedDraft(sessionId)
    return carried === null ? null : { text: carried, nonce: 1 }
  })
  useEffect(() => forgetCarriedDraft(sessionId), [sessionId])
  // What the message box holds now (kept without a render at each key), for "New session here" to carry over.
  const typed = useRef('')
  const onDraftChange = useCallback((text: string) => {
    typed.current = text
  }, [])
  // After a sign-in that did not reach this session, the way on is the notice's (Reopen session, or a new session):
  // the refused message no longer offers Sign in, which would only sign in again to the same refusal.
  const refusedAgain = session !== undefined && session.turn.state === 'idle' && afterSignIn(session, signInMark) === 'refused-again'
  const cannotGoOn = session?.cannotContinue != null
  const notSentActions = useMemo<NotSentActions>(
    () => ({
      onEdit: (text) => setDraftRequest((prev) => ({ text, nonce: (prev?.nonce ?? 0) + 1 })),
      onResend: (content) =>
        void send(content).then((sent) => {
          // The failed send left its text in the composer: now that it went, the composer no longer offers it (unless
          // the person changed it since).
          const text = promptText(content)
          if (sent && text !== '') setDraftRequest((prev) => ({ text: '', nonce: (prev?.nonce ?? 0) + 1, onlyIf: text }))
        }),
      ...(onSignIn && agentId && !refusedAgain ? { onSignIn: (reason: string) => onSignIn(agentId, reason, sessionId) } : {}),
      ...(onOpenAgentLog && agentId ? { onOpenLog: () => onOpenAgentLog(agentId) } : {}),
      ...(onOpenAgent && agentId ? { onOpenAgent: () => onOpenAgent(agentId), agentName: agentDisplayName } : {}),
      sending: turnRuns || startingWith !== null,
      ...(cannotGoOn ? { cannotContinue: true } : {}),
    }),
    [send, onSignIn, onOpenAgentLog, onOpenAgent, agentDisplayName, agentId, sessionId, refusedAgain, turnRuns, startingWith, cannotGoOn],
  )
  const onStop = useCallback(() => void api.cancel({ sessionId }).then(report('Stopping the turn')), [api, sessionId, report])
  const onSetMode = useCallback((modeId: string) => void api.setMode({ sessionId, modeId }).then(report('Changing the mode')), [api, sessionId, report])
  const onSetModel = useCallback((modelId: string) => void api.setModel({ sessionId, modelId }).then(report('Changing the model')), [api, sessionId, report])
  const onSetConfigOption = useCallback(
    (configId: string, value: string | boolean) => void api.setConfigOption({ sessionId, configId, value }).then(report('Changing the option')),
    [api, sessionId, report],
  )
  const onRestart = useCallback(async () => {
    if (agentId) report('Restarting the agent')(await api.restartAgent({ agentId }))
  }, [api, agentId, report])
  // The new session's message box gets `draft`: what the person had typed here is not lost on the way.
  const onNewSessionHere = useCallback(
    async (draft: string | null) => {
      if (!agentId || !session) return
      const created = await api.newSession({ agentId, cwd: session.cwd })
      if (!created.ok) return report('Starting a new session')(created)
      if (draft !== null) carryDraft(created.value.sessionId, draft)
      store.selectSession(created.value.sessionId)
    },
    [api, agentId, session, store, report],
  )
  // A sign-in the agent applies only to sessions built after it: the session is built again (as from the history).
  const reopenSession = api.reopenSession
  const onReopen = useCallback(async (): Promise<string | null> => {
    if (!reopenSession) return 'Bosun cannot reopen sessions here.'
    const result = await reopenSession({ sessionId })
    if (!result.ok) return withDetails(result.error)
    onReopened?.(sessionId)
    return null
  }, [reopenSession, sessionId, onReopened])
  // Closed from its header: the view shown next (no session) takes the keyboard, which left with the header's button.
  const onClose = useCallback(() => {
    handFocusOn()
    void api.closeSession({ sessionId }).then((result) => {
      if (!result.ok) cancelFocusHandoff()
      report('Closing the session')(result)
    })
  }, [api, sessionId, report])
  const onSetAutoApprove = useCallback(
    (value: boolean) => void api.setAutoApprove({ sessionId, value }).then(report('Changing auto-approve')),
    [api, sessionId, report],
  )
  // Attachments and @ mentions, as far as the agent takes them (main checks again when sending).
  // Whose answer it is, so another session's never offers images here while this one's is on its way.
  const [imagesFor, setImagesFor] = useState<string | null>(null)
  const images = imagesFor === sessionId
  const agentStatus = agent?.status
  useEffect(() => {
    let live = true
    if (!api.promptCapabilities || agentStatus !== 'ready') return
    void api.promptCapabilities({ sessionId }).then((r) => live && setImagesFor(r.ok && r.value.image ? sessionId : null))
    return () => {
      live = false
    }
  }, [api, sessionId, agentStatus])
  const cwd = session?.cwd
  const composerContext = useMemo<ComposerContext | undefined>(() => {
    const list = api.listSessionFiles
    if (!list || cwd === undefined) return undefined
    return { images, root: cwd, listFiles: () => list({ sessionId }).then((r) => (r.ok ? r.value.entries : [])) }
  }, [api, sessionId, cwd, images])
  const seams = useSeams()
  const { AutoApprove } = seams
  // Links in this transcript are opened as links of this session: main checks they occur in its agent content.
  const sessionSeams = useMemo<SessionSeams>(() => {
    const saveSessionImage = seams.onSaveSessionImage
    return {
      ...seams,
      onOpenLink: (url: string) => seams.onOpenSessionLink(sessionId, url),
      onOpenLocation: (location: ToolLocation) => seams.onOpenSessionLocation(sessionId, location),
      // Electron: main saves this session's image from what it holds; the browser host downloads the page's copy.
      onSaveImage: saveSessionImage ? (image) => saveSessionImage(sessionId, image) : seams.onSaveImage,
    }
  }, [seams, sessionId])
  // v2 agent-owned terminals: Cancel asks main, which sends terminal/cancel only where the terminal offers it (E16).
  const terminalActions = useTerminalActions(api.cancelTerminal, api.killTerminal, sessionId, report)
  // v2 tool calls that offer it: Cancel asks main, which sends tool_call/cancel only where the call offers it (E15).
  const toolCallActions = useToolCallActions(api.cancelToolCall, sessionId, session?.protocolVersion === 2, report)
  // Hidden here at once; main drops it from the session, so no other window or later visit shows it again.
  // A failed call of this screen's (the app keeps those) goes back to the app.
  const onDismiss = useCallback(
    (id: string) => {
      if (callFailures?.some((n) => n.id === id)) return onDismissCallFailure?.(sessionId, id)
      setDismissed((prev) => new Set(prev).add(id))
      void api.dismissNotice?.({ sessionId, noticeId: id })
    },
    [api, sessionId, callFailures, onDismissCallFailure],
  )
  const notices = useMemo(() => {
    const own = (session?.notices ?? []).filter((n) => !dismissed.has(n.id))
    return callFailures && callFailures.length > 0 ? [...own, ...callFailures] : own
  }, [session?.notices, dismissed, callFailures])
  // The Stop watchdog's notices of turns that already ended no longer offer anything.
  const [spentOverdue, setSpentOverdue] = useState<ReadonlySet<string>>(new Set())
  const turnRunning = session !== undefined && session.turn.state !== 'idle'
  const overdueIds = useMemo(() => (session?.notices ?? []).filter(isStopOverdueNotice).map((n) => n.id), [session?.notices])
  useEffect(() => {
    if (!turnRunning && overdueIds.some((id) => !spentOverdue.has(id))) setSpentOverdue(new Set([...spentOverdue, ...overdueIds]))
  }, [turnRunning, overdueIds, spentOverdue])
  const stopOverdue = turnRunning && overdueIds.some((id) => !spentOverdue.has(id))
  const onStopAgent = useCallback(async () => {
    if (agentId && api.stopAgent) report('Stopping the agent')(await api.stopAgent({ agentId }))
  }, [api, agentId, report])
  // Stall detection: the silence since the last news from the agent, while the turn waits on it.
  const lastActivityAt = useAppSelector(store, (view) => view.lastActivityAt[sessionId])
  const otherBusySessions = useAppSelector(store, (view) => countBusySessions(view.sessions, agentId, sessionId))
  const waiting = session !== undefined && !stopOverdue && waitingOnAgent(session, agent?.status === 'ready')
  const silentMs = useSilence(waiting ? (lastActivityAt ?? null) : null, useStallThreshold(api.appInfo))
  // Main said the agent reads none of its input: said at once under the message box, with the restart, not as a toast.
  const notReading = turnRunning && (session?.notices ?? []).some(isInputStallNotice)

  // The header's title and subtitle views are made when what they show changes, not at each render of the screen (one per
  // batch of a flood): new elements each time made the header render again with every batch.
  const headerCwd = session?.cwd ?? ''
  const extraFolders = session?.additionalDirectories
  const agentName = agent?.name ?? session?.agentId ?? ''
  // Named as the sidebar and the history name it: the agent's title, else the first prompt, else the folder.
  const derived = session ? derivedTitle(session) : null
  const titled = derived !== null
  const folders = useMemo(() => [headerCwd, ...(extraFolders ?? [])], [headerCwd, extraFolders])
  const folderNames = useMemo(() => folders.map(folderName).join(' + '), [folders])
  const titleView = useMemo(() => (titled ? undefined : <FolderTitle cwd={headerCwd} />), [titled, headerCwd])
  const subtitleView = useMemo(
    () => (
      <CutLine text={`${folderNames} · ${agentName}`}>
        <MiddleCut text={folderNames} />
        <span className="cut-words-first">{` · ${agentName}`}</span>
      </CutLine>
    ),
    [folderNames, agentName],
  )

  if (!session) return <EmptyScreen inboxSlot={inboxSlot} message="This session has ended" />
  const busy = session.turn.state !== 'idle'
  // Once the turn runs, the message is the transcript's (and stays so when the turn ends before the answer arrives).
  const waitingToSend = busy ? null : startingWith
  // A stopped agent is started again by the next message (the session reattaches); a crashed one waits for Restart.
  const agentDown = agent ? agent.status === 'crashed' || agent.status === 'failed' : false
  const reopenState = busy ? null : afterSignIn(session, signInMark)
  const stopped = whyCannotContinue(session, agentsLoaded && !agent)
  const title = derived ?? untitledName(session.cwd)
  return (
    <main className="session-screen" aria-label={derived ? `Session ${derived}` : title}>
      <SessionHeader
        title={title}
        // A folder's name is cut in its middle, so a narrow window still shows how it ends (the full text is the tooltip).
        titleView={titleView}
        // Where the session runs, by the folders' names and first (a narrow window cuts the agent's name first: it is
        // named in the sidebar and the message box); the full paths are the tooltip.
        subtitle={`${folderNames} · ${agentName}`}
        subtitleView={subtitleView}
        subtitleTooltip={`${folders.join(' + ')} · ${agentName}`}
        turn={session.turn}
        inboxSlot={inboxSlot}
        onClose={onClose}
        usage={session.usage}
        waitingOnYou={waitingOnPerson(session)}
        startingAgent={waitingToSend !== null ? agentName : null}
        reopening={waitingToSend?.reopening === true}
      />
      {/* The agent's notices sit above the transcript, in its column: they cover neither the header nor the transcript. */}
      <div className="session-middle">
        <Toasts notices={notReading ? notices.filter((n) => !isInputStallNotice(n)) : notices} onDismiss={onDismiss} placement="session" speaker={agentName} />
        <SessionSeamsProvider value={sessionSeams}>
          <NotSentContext.Provider value={notSentActions}>
            <TerminalActionsContext.Provider value={terminalActions}>
              <ToolCallActionsContext.Provider value={toolCallActions}>
                <Transcript key={session.sessionId} session={transcriptSession ?? session} agentName={agentName} focusRequest={transcriptFocus} />
              </ToolCallActionsContext.Provider>
            </TerminalActionsContext.Provider>
          </NotSentContext.Provider>
        </SessionSeamsProvider>
      </div>
      <div className="session-bottom">
        <TerminalActionsContext.Provider value={terminalActions}>
          <ToolCallActionsContext.Provider value={toolCallActions}>
            <BackgroundWork session={session} onShowEntry={onShowEntry} />
          </ToolCallActionsContext.Provider>
        </TerminalActionsContext.Provider>
        <PlanPanel plans={session.plans} />
        {agent && <AgentErrorBanner agent={agent} onRestart={onRestart} />}
        {(notReading || silentMs !== null) && (
          <StallNotice
            agentName={agentName}
            silentMs={silentMs ?? 0}
            otherBusySessions={otherBusySessions}
            onStop={onStop}
            onRestart={() => void onRestart()}
            notReading={notReading}
          />
        )}
        {stopOverdue && api.stopAgent && (
          <section className="agent-error stop-overdue" role="alert" aria-label={`${agentName} has not stopped`}>
            <div className="agent-error-head">
              <div className="agent-error-text">
                <strong>{agentName} has not stopped</strong>
                <span>It did not end the turn after Stop. Stopping the agent ends the turn (and its other sessions’ turns).</span>
              </div>
              <button type="button" className="button button-secondary" onClick={() => void onStopAgent()}>
                Stop the agent
              </button>
            </div>
          </section>
        )}
        {stopped ? (
          <CannotContinue
            reason={stopped.reason}
            cwd={session.cwd}
            unsent={unsent}
            {...(stopped.agentRemoved ? {} : { onNewSession: () => onNewSessionHere(unsent) })}
            {...(agentDown ? { agentName, onRestart } : {})}
          />
        ) : (
          <>
            {reopenState && (
              <ReopenAfterSignIn
                agentName={agentName}
                state={reopenState}
                {...(agent?.reopensSessions && api.reopenSession ? { onReopen } : { onNewSession: () => void onNewSessionHere(typed.current) })}
              />
            )}
            {waitingToSend !== null && (
              <div className="session-waiting-send">
                <p role="status" aria-label="Message waiting to be sent">
                  <span>
                    {waitingToSend.reopening ? `${agentName} is opening this session again; this goes as soon as it is ready:` : `Starting ${agentName}; this goes as soon as it is ready:`}
                  </span>{' '}
                  <q>{waitingToSend.text}</q>
                </p>
                <button type="button" className="button button-small button-secondary" title="Keep this message in the message box instead of sending it" onClick={onStop}>
                  Don’t send
                </button>
              </div>
            )}
            <Composer
              busy={busy}
              held={waitingToSend !== null}
              disabled={agentDown && !busy}
              commands={session.availableCommands}
              agentName={agentName}
              onSend={onSend}
              onStop={onStop}
              draftRequest={draftRequest}
              onDraftChange={onDraftChange}
              context={composerContext}
            />
          </>
        )}
        {/* A session that cannot go on has nothing left to approve or to set: no switch, no selectors that would fail. */}
        {!stopped && (
          <div className="session-footer">
            <AutoApprove checked={session.autoApprove} onChange={onSetAutoApprove} />
            <SessionOptions
              modes={session.modes}
              models={session.models}
              configOptions={session.configOptions}
              onSetMode={onSetMode}
              onSetModel={onSetModel}
              onSetConfigOption={onSetConfigOption}
            />
          </div>
        )}
      </div>
    </main>
  )
}

/** A prompt's text, as the composer held it (its text blocks, one per line). */
/** A send that has not become a turn by then waits for main to build the session again (a reopen, a `session/load`). */
const SHOW_WAITING_AFTER_MS = 500

const promptText = (prompt: ContentBlock[]): string => prompt.map((b) => (b.type === 'text' ? (b as { text: string }).text : '')).join('\n')

/** Sessions of `agentId` other than `sessionId` with a turn under way (a restart of the agent ends them too). */
function countBusySessions(sessions: Record<string, SessionState>, agentId: string | undefined, sessionId: string): number {
  let count = 0
  for (const session of Object.values(sessions)) if (session.agentId === agentId && session.sessionId !== sessionId && session.turn.state !== 'idle') count++
  return count
}

/** The message and, when the agent gave them, its details (`data.details`…) on the next line. */
function withDetails(error: { message: string; data?: unknown }): string {
  const data = error.data
  const details =
    typeof data === 'string' ? data : typeof data === 'object' && data !== null && typeof (data as { details?: unknown }).details === 'string' ? (data as { details: string }).details : null
  return details ? `${error.message}\n${details.slice(0, 4096)}` : error.message
}

/**
 * Why the session cannot go on, if it cannot: the agent said so (`cannotContinue`), or its agent was removed from
 * Bosun (every send would fail "No agent with id …", and a new session here would too).
 */
export function whyCannotContinue(session: Pick<SessionState, 'cannotContinue'>, agentRemoved: boolean): { reason: string; agentRemoved: boolean } | null {
  if (agentRemoved) return { reason: 'The agent of this session was removed from Bosun, so it cannot go on.', agentRemoved: true }
  return session.cannotContinue ? { reason: session.cannotContinue.reason, agentRemoved: false } : null
}

/**
 * In place of the composer when the agent cannot continue this session (it restarted and can neither resume
 * nor load it…): every send would fail, so say why and offer the ways forward.
 */
function CannotContinue(props: {
  reason: string
  cwd: string
  unsent: string | null
  /** Absent when no new session can start here (the agent was removed). */
  onNewSession?: () => Promise<void>
  agentName?: string
  onRestart?: () => Promise<void>
}) {
  const { reason, cwd, unsent, onNewSession, agentName, onRestart } = props
  const [starting, setStarting] = useState(false)
  return (
    <section className="cannot-continue" role="region" aria-label="This session cannot continue">
      <p className="cannot-continue-reason">{reason}</p>
      <p className="muted">
        Its transcript stays here to read. To go on working, start a new session {onNewSession ? 'in the same folder' : `in ${folderName(cwd)} with another agent`}.
      </p>
      {unsent && (
        <div className="cannot-continue-unsent">
          <div className="field-label">Your message was not sent:</div>
          <pre className="unsent-text">{unsent}</pre>
        </div>
      )}
      <div className="button-row">
        {onNewSession && (
          <button
            type="button"
            className="button button-primary"
            disabled={starting}
            onClick={() => {
              setStarting(true)
              void onNewSession().finally(() => setStarting(false))
            }}
          >
            New session in {folderName(cwd)}
          </button>
        )}
        {onRestart && (
          <button type="button" className="button button-secondary" onClick={() => void onRestart()}>
            Restart {agentName}
          </button>
        )}
      </div>
    </section>
  )
}

export function EmptyScreen({
  message,
  inboxSlot,
  onSetUpAgent,
  onNewSession,
  newSessionFormOpen = false,
  settingsKey,
}: {
  message: string
  inboxSlot?: ReactNode
  onSetUpAgent?: (() => void) | undefined
  /** Opens the sidebar's "New session" form: the way forward offered as a button, not only named. */
  onNewSession?: (() => void) | undefined
  /** The sidebar's New session form is open: its Start session is the blue button, this one (it goes to the form) is not. */
  newSessionFormOpen?: boolean
  /** The Settings key as this computer shows it ("Ctrl+,"): Settings list every keyboard shortcut. */
  settingsKey?: string | undefined
}) {
  // Where a new person learns the keys: said once, under whichever way forward the window offers.
  const keysHint = settingsKey ? (
    <p className="muted small empty-state-keys">
      Keyboard shortcuts are listed in Settings (<kbd>{settingsKey}</kbd>).
    </p>
  ) : null
  // A session closed from the keyboard hands it the focus: its way forward takes it (see focus-handoff.ts).
  const actionRef = useRef<HTMLButtonElement>(null)
  useEffect(() => takeHandedFocus(actionRef.current), [])
  return (
    <main className="session-screen empty-screen" aria-label="No session">
      {/* The app's name is the window's title and the sidebar's: the page's heading says what is (not) here instead. */}
      <header className="session-header">
        <div className="header-actions">{inboxSlot}</div>
      </header>
      {/* With no agent, "New session" has nothing to start: the way forward is setting one up. */}
      {onSetUpAgent ? (
        <div className="empty-state">
          <h1 className="empty-state-title">No agent is set up yet</h1>
          <p className="muted">Add one found on this computer, from a preset, or from the ACP Registry.</p>
          <button ref={actionRef} type="button" className="button button-primary empty-state-action" onClick={onSetUpAgent}>
            Set up an agent
          </button>
          {keysHint}
        </div>
      ) : (
        <div className="empty-state">
          <h1 className="empty-state-title">{message}</h1>
          <p className="muted">Start one with “New session” in the sidebar{onNewSession ? ', or here' : ''}.</p>
          {onNewSession && (
            <button ref={actionRef} type="button" className={`button ${newSessionFormOpen ? 'button-secondary' : 'button-primary'} empty-state-action`} onClick={onNewSession}>
              <Icon name="plus" size={14} />
              New session
            </button>
          )}
          {keysHint}
        </div>
      )}
    </main>
  )
}

