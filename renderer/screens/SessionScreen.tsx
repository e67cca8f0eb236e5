import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react'
import type { BosunApi, CallResult } from '../../common/contract'
import type { ContentBlock } from '../../common/session/types'
import { AgentErrorBanner } from '../components/common/AgentErrorBanner'
import { useSeams } from '../components/common/seams'
import { Toasts } from '../components/common/Toasts'
import { Composer, type ComposerContext } from '../components/composer/Composer'
import { SessionHeader } from '../components/header/SessionHeader'
import { baseName } from '../components/sidebar/Sidebar'
import { PlanPanel } from '../components/transcript/PlanPanel'
import { Transcript } from '../components/transcript/Transcript'
import type { AppStore } from '../state/app-store'
import { useAppSelector } from './use-app-selector'

/** The calls the session screen makes. */
export type SessionApi = Pick<BosunApi, 'prompt' | 'cancel' | 'setMode' | 'setConfigOption' | 'restartAgent' | 'closeSession' | 'setAutoApprove'> &
  Partial<Pick<BosunApi, 'promptCapabilities' | 'listSessionFiles'>>

export interface SessionScreenProps {
  store: AppStore
  api: SessionApi
  sessionId: string
  /** The approval inbox entry point (header, right). */
  inboxSlot: ReactNode
  /** Scroll this permission/elicitation request into view (a new `nonce` scrolls again). */
  focusRequest?: { requestId: string; nonce: number } | null
  /** Failures of calls are shown as toasts. */
  onCallFailed?: (what: string, result: CallResult<unknown>) => void
}

/** One session: header, transcript, plan, agent error, composer. Subscribes to this session and its agent only. */
export function SessionScreen({ store, api, sessionId, inboxSlot, focusRequest, onCallFailed }: SessionScreenProps) {
  const session = useAppSelector(store, (view) => view.sessions[sessionId])
  const agentId = session?.agentId
  const agent = useAppSelector(store, (view) => (agentId ? view.agents[agentId] : undefined))
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set())

  const report = useCallback(
    (what: string) => (result: CallResult<unknown>) => {
      if (!result.ok) onCallFailed?.(what, result)
    },
    [onCallFailed],
  )
  const onSend = useCallback(
    (text: string, attachments: ContentBlock[] = []) =>
      void api.prompt({ sessionId, prompt: [{ type: 'text', text }, ...(attachments as Parameters<SessionApi['prompt']>[0]['prompt'])] }).then((result) => {
        // An agent that died mid-turn is already shown in the transcript (the turn's error) and by the agent banner.
        if (!result.ok && result.error.kind === 'agent-exited') return
        report('Sending the message')(result)
      }),
    [api, sessionId, report],
  )
  const onStop = useCallback(() => void api.cancel({ sessionId }).then(report('Stopping the turn')), [api, sessionId, report])
  const onSetMode = useCallback((modeId: string) => void api.setMode({ sessionId, modeId }).then(report('Changing the mode')), [api, sessionId, report])
  const onSetConfigOption = useCallback(
    (configId: string, value: string | boolean) => void api.setConfigOption({ sessionId, configId, value }).then(report('Changing the option')),
    [api, sessionId, report],
  )
  const onRestart = useCallback(async () => {
    if (agentId) report('Restarting the agent')(await api.restartAgent({ agentId }))
  }, [api, agentId, report])
  const onClose = useCallback(() => void api.closeSession({ sessionId }).then(report('Closing the session')), [api, sessionId, report])
  const onSetAutoApprove = useCallback(
    (value: boolean) => void api.setAutoApprove({ sessionId, value }).then(report('Changing auto-approve')),
    [api, sessionId, report],
  )
  // Attachments and @ mentions, as far as the agent takes them (main checks again when sending).
  const [images, setImages] = useState(false)
  const agentStatus = agent?.status
  useEffect(() => {
    let live = true
    if (!api.promptCapabilities || agentStatus !== 'ready') return
    void api.promptCapabilities({ sessionId }).then((r) => live && setImages(r.ok && r.value.image))
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
  const { AutoApprove } = useSeams()
  const onDismiss = useCallback((id: string) => setDismissed((prev) => new Set(prev).add(id)), [])
  const notices = useMemo(() => (session?.notices ?? []).filter((n) => !dismissed.has(n.id)), [session?.notices, dismissed])

  if (!session) return <EmptyScreen inboxSlot={inboxSlot} message="This session has ended." />
  const agentName = agent?.name ?? session.agentId
  const busy = session.turn.state !== 'idle'
  // A stopped agent is started again by the next message (the session reattaches); a crashed one waits for Restart.
  const agentDown = agent ? agent.status === 'crashed' || agent.status === 'failed' : false
  return (
    <main className="session-screen" aria-label={`Session ${session.title ?? baseName(session.cwd)}`}>
      <SessionHeader
        title={session.title ?? baseName(session.cwd)}
        subtitle={`${agentName} · ${session.cwd}`}
        turn={session.turn}
        modes={session.modes}
        configOptions={session.configOptions}
        onSetMode={onSetMode}
        onSetConfigOption={onSetConfigOption}
        inboxSlot={inboxSlot}
        onClose={onClose}
      />
      <Transcript key={session.sessionId} session={session} agentName={agentName} focusRequest={focusRequest ?? null} />
      <div className="session-bottom">
        <PlanPanel plans={session.plans} />
        {agent && <AgentErrorBanner agent={agent} onRestart={onRestart} />}
        <Composer
          busy={busy}
          disabled={agentDown && !busy}
          commands={session.availableCommands}
          agentName={agentName}
          onSend={onSend}
          onStop={onStop}
          context={composerContext}
        />
        <div className="session-footer">
          <AutoApprove checked={session.autoApprove} onChange={onSetAutoApprove} />
        </div>
      </div>
      <Toasts notices={notices} onDismiss={onDismiss} />
    </main>
  )
}

export function EmptyScreen({ message, inboxSlot }: { message: string; inboxSlot?: ReactNode }) {
  return (
    <main className="session-screen empty-screen" aria-label="No session">
      <header className="session-header">
        <div className="session-heading">
          <h1 className="session-title">Bosun</h1>
        </div>
        <div className="header-controls">{inboxSlot}</div>
      </header>
      <div className="empty-state">
        <p>{message}</p>
        <p className="muted">Start one with “New session” in the sidebar.</p>
      </div>
    </main>
  )
}

