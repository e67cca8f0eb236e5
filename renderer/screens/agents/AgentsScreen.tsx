import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import type { BosunApi, IpcFailure } from '../../../common/contract'
import type { AgentDefinitionView, AgentFieldErrors, AgentPresetView, DefinitionsLoadWarning, KeychainStatus } from '../../../common/contract/agents'
import type { AgentRuntimeView, TurnState } from '../../../common/session/types'
import { AgentEditor, type AgentSaveOutcome } from '../../components/agents/AgentEditor'
import { AgentList, commandLine } from '../../components/agents/AgentList'
import { AgentOverview, type AgentActivity } from '../../components/agents/AgentOverview'
import { AgentTabs, type AgentTabId } from '../../components/agents/AgentTabs'
import { CheckConnection } from '../../components/agents/CheckConnection'
import { LoginPanel } from '../../components/agents/LoginPanel'
import { LogsPanel } from '../../components/agents/LogsPanel'
import { AddAgentPane } from '../../components/agents/AddAgentPane'
import { InspectorPanel } from '../../components/inspector/InspectorPanel'
import { useModalFocus } from '../../components/common/modal-focus'
import { scrollForKey } from '../../components/common/page-scroll-keys'
import { PageBanner } from '../../components/common/PageBanner'
import { agentTools, failureText, type CheckResult } from './agent-tools-api'
import { registryApi } from './registry-api'
import './agents-screen.css'

export interface AgentsScreenProps {
  api: BosunApi
  onClose: () => void
  /** Open this agent's details first (e.g. from "Sign in" after a session failed with auth required). */
  initialAgentId?: string
  /** …on this tab. */
  initialTab?: AgentTabId
  /**
   * The open sessions as the window knows them (whose agent, its turn, how many requests wait on the person): Restart
   * and Stop ask first when they would cut into one.
   */
  sessions?: readonly { agentId: string; turnState: TurnState; pending: number }[]
  /** The browser transport reconnected (the inspector watches again). */
  onDidReconnect?: (listener: () => void) => () => void
  /** The app's own notices, shown under the header (in the window's corner they covered the page's controls). */
  notices?: ReactNode
}

/** An agent's sessions at work: turns running (or waiting on the person) and the requests waiting on them. */
export function activityOf(sessions: NonNullable<AgentsScreenProps['sessions']>, agentId: string): AgentActivity {
  let running = 0
  let waiting = 0
  for (const s of sessions) {
    if (s.agentId !== agentId) continue
    if (s.turnState === 'running' || s.turnState === 'requires_action') running++
    waiting += s.pending
  }
  return { running, waiting }
}

/** What the right-hand side shows. */
type Pane =
  | { kind: 'detail'; agentId: string }
  /** `focus`: the flow was opened (or gone back to) from the keyboard's place: that preset's card (or the first) takes it. */
  | { kind: 'pick'; focus?: string | true }
  | { kind: 'add'; presetId: string | null }
  | { kind: 'edit'; agentId: string }
  | { kind: 'none' }

type CheckState = { check: CheckResult } | { failure: IpcFailure }

/**
 * The Agents settings page: the list of agents on the left; on the right the add flow (preset picker, then
 * the form), the edit form, or one agent's tabs (overview, connection check, login, logs, inspector).
 *
 * Mount it anywhere while it is open: it covers the window itself (`position: fixed`, a modal dialog that
 * focuses its heading, closes on Escape or "Close"), loads everything from `api` and unsubscribes on
 * unmount. The host should make the app behind it `inert` and give focus back to its opener on close.
 */
export function AgentsScreen({ api, onClose, initialAgentId, initialTab = 'overview', sessions = [], onDidReconnect, notices }: AgentsScreenProps) {
  const tools = useMemo(() => agentTools(api), [api])
  const registry = useMemo(() => registryApi(api), [api])
  const [agents, setAgents] = useState<readonly AgentDefinitionView[] | null>(null)
  const [warning, setWarning] = useState<DefinitionsLoadWarning | null>(null)
  const [presets, setPresets] = useState<readonly AgentPresetView[]>([])
  const [keychain, setKeychain] = useState<KeychainStatus>({ available: true })
  const [runtime, setRuntime] = useState<Record<string, AgentRuntimeView | undefined>>({})
  const [pane, setPane] = useState<Pane>(initialAgentId ? { kind: 'detail', agentId: initialAgentId } : { kind: 'none' })
  const [tab, setTab] = useState<AgentTabId>(initialTab)
  const [problem, setProblem] = useState<string | null>(null)
  const [checks, setChecks] = useState<Record<string, CheckState | undefined>>({})
  const [checking, setChecking] = useState<Record<string, boolean>>({})
  const [runtimeBusy, setRuntimeBusy] = useState<string | null>(null)
  const [runtimeProblem, setRuntimeProblem] = useState<Record<string, string | undefined>>({})
  const headingRef = useRef<{ focus(): void } | null>(null)
  // Tab stays on the page (the window behind it is inert: from its last control Tab went to the browser, or nowhere).
  const rootRef = useRef<HTMLDivElement>(null)
  const paneRef = useRef<HTMLElement>(null)
  useModalFocus(rootRef)
  // Closing the add flow or the edit form gives the keyboard back to what opened it ("Add agent", "Edit").
  const addButtonRef = useRef<HTMLButtonElement>(null)
  const editButtonRef = useRef<HTMLButtonElement>(null)
  const [refocus, setRefocus] = useState<{ to: 'add' | 'edit'; nonce: number } | null>(null)
  // The agent shown when the add flow opened: closing the flow shows it again.
  const shownBeforeAdd = useRef<string | null>(null)
  useEffect(() => {
    if (!refocus) return
    ;(refocus.to === 'add' ? addButtonRef : editButtonRef).current?.focus()
  }, [refocus])
  const back = (to: 'add' | 'edit') => setRefocus((prev) => ({ to, nonce: (prev?.nonce ?? 0) + 1 }))
  /** Leaves the add flow (Cancel, Escape) for the agent shown before it. */
  const closeAdd = () => {
    const before = shownBeforeAdd.current
    setPane(before !== null && agents?.some((a) => a.id === before) ? { kind: 'detail', agentId: before } : { kind: 'none' })
    back('add')
  }

  useEffect(() => {
    let live = true
    const offDefs = api.onAgentDefinitionsChanged((list) => {
      setAgents(list.agents)
      setWarning(list.warning)
    })
    const offStatus = api.onAgentStatus((agent) => setRuntime((r) => ({ ...r, [agent.agentId]: agent })))
    void Promise.all([api.listAgentDefinitions(undefined), api.listPresets(undefined), api.getKeychainStatus(undefined), api.getSnapshot(undefined)]).then(
      ([defs, pre, key, snap]) => {
        if (!live) return
        if (defs.ok) {
          setAgents(defs.value.agents)
          setWarning(defs.value.warning)
        } else {
          setAgents([])
          setProblem(`Could not load the agents: ${failureText(defs.error)}`)
        }
        if (pre.ok) setPresets(pre.value)
        if (key.ok) setKeychain(key.value)
        if (snap.ok) setRuntime((r) => ({ ...Object.fromEntries(snap.value.agents.map((a) => [a.agentId, a])), ...r }))
      },
    )
    headingRef.current?.focus()
    return () => {
      live = false
      offDefs()
      offStatus()
    }
  }, [api])

  // With nothing chosen, show the first agent (or the preset picker when there are none).
  useEffect(() => {
    if (agents === null || pane.kind !== 'none') return
    setPane(agents.length > 0 ? { kind: 'detail', agentId: agents[0]!.id } : { kind: 'pick' })
  }, [agents, pane.kind])
  // A shown agent that was removed elsewhere: fall back.
  useEffect(() => {
    if (agents === null) return
    if ((pane.kind === 'detail' || pane.kind === 'edit') && !agents.some((a) => a.id === pane.agentId)) setPane({ kind: 'none' })
  }, [agents, pane])

  const validate = useCallback(
    async (draft: Parameters<BosunApi['validateAgentDefinition']>[0]['draft']) => {
      const r = await api.validateAgentDefinition({ draft })
      return r.ok ? r.value : { errors: {}, argv: null }
    },
    [api],
  )

  const save = async (request: { draft: Parameters<BosunApi['saveAgentDefinition']>[0]['draft']; secrets: Record<string, string> }): Promise<AgentSaveOutcome> => {
    const r = await api.saveAgentDefinition(Object.keys(request.secrets).length > 0 ? request : { draft: request.draft })
    if (!r.ok) {
      const errors = r.error.kind === 'invalid-argument' && isFieldErrors(r.error.data) ? r.error.data : undefined
      return errors ? { ok: false, message: r.error.message, errors } : { ok: false, message: r.error.message }
    }
    const saved = r.value.agent
    setAgents((list) => (list ? upsert(list, saved) : [saved]))
    setPane({ kind: 'detail', agentId: saved.id })
    setTab('overview')
    // The form and its Save went away with the focus: it goes to the saved agent's Edit, as after Escape in an edit.
    back('edit')
    return { ok: true }
  }

  const remove = async (agentId: string) => {
    const r = await api.removeAgentDefinition({ agentId })
    if (!r.ok) {
      setProblem(`Could not remove the agent: ${failureText(r.error)}`)
      return
    }
    setAgents((list) => (list ? list.filter((a) => a.id !== agentId) : list))
    setPane({ kind: 'none' })
  }

  const runCheck = async (agentId: string) => {
    setChecking((c) => ({ ...c, [agentId]: true }))
    const r = await tools.checkAgentConnection({ agentId })
    setChecking((c) => ({ ...c, [agentId]: false }))
    setChecks((c) => ({ ...c, [agentId]: r.ok ? { check: r.value } : { failure: r.error } }))
  }

  const runtimeCall = async (agentId: string, call: 'restartAgent' | 'stopAgent') => {
    setRuntimeBusy(agentId)
    setRuntimeProblem((p) => ({ ...p, [agentId]: undefined }))
    const r = await api[call]({ agentId })
    setRuntimeBusy(null)
    if (!r.ok) setRuntimeProblem((p) => ({ ...p, [agentId]: failureText(r.error) }))
  }

  /**
   * Escape closes the innermost thing open: the add flow (back to the agent shown before), the add form (back to the
   * add flow, on the preset that opened it), the edit form (back to the agent); only then the page. From the list too:
   * "Add agent" keeps the focus.
   */
  const escape = () => {
    if (pane.kind === 'pick' && agents !== null && agents.length > 0) closeAdd()
    else if (pane.kind === 'add') setPane({ kind: 'pick', focus: pane.presetId ?? true })
    else if (pane.kind === 'edit') {
      setPane({ kind: 'detail', agentId: pane.agentId })
      back('edit')
    } else onClose()
  }
  const escapeRef = useRef(escape)
  useLayoutEffect(() => {
    escapeRef.current = escape
  })
  // Escape also works when focus fell back to the body (the form or button that had it went away), as in Settings.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || event.target !== document.body) return
      event.preventDefault()
      escapeRef.current()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])

  const selectedAgent = pane.kind === 'detail' || pane.kind === 'edit' ? agents?.find((a) => a.id === pane.agentId) : undefined
  const check = selectedAgent ? checks[selectedAgent.id] : undefined

  return (
    <div
      ref={rootRef}
      className="agents-screen"
      role="dialog"
      aria-modal="true"
      aria-labelledby="agents-screen-title"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !e.defaultPrevented) {
          e.preventDefault()
          escape()
        }
      }}
    >
      <header className="agents-screen-header">
        <h1
          id="agents-screen-title"
          className="agents-screen-title"
          tabIndex={-1}
          ref={(el) => void (headingRef.current = el as unknown as { focus(): void } | null)}
          // The page opens with the focus here: the scroll keys scroll the agent's pane (they did nothing).
          onKeyDown={(e) => {
            if (scrollForKey(scrollerIn(paneRef.current), e)) e.preventDefault()
          }}
        >
          Agents
        </h1>
        <span className="muted small agents-screen-subtitle">The coding agents Bosun can start, how they sign in, and what they say.</span>
        <button type="button" className="button button-secondary agents-screen-close" onClick={onClose}>
          Close
        </button>
      </header>
      {notices}

      {warning && (
        <PageBanner>
          <strong>{warning.status === 'corrupt' ? 'The agents file could not be read.' : 'Some agents could not be loaded.'}</strong> {warning.message}
          {warning.backupPath ? (
            <span className="muted">
              {' '}
              A copy was kept at <span className="mono">{warning.backupPath}</span>.
            </span>
          ) : null}
        </PageBanner>
      )}
      {problem && <PageBanner onDismiss={() => setProblem(null)}>{problem}</PageBanner>}

      <div className="agents-screen-body">
        <AgentList
          agents={agents ?? []}
          runtime={runtime}
          selectedId={selectedAgent?.id ?? null}
          adding={pane.kind === 'pick' || pane.kind === 'add'}
          onSelect={(agentId) => setPane({ kind: 'detail', agentId })}
          onAdd={() => {
            if (pane.kind === 'detail' || pane.kind === 'edit') shownBeforeAdd.current = pane.agentId
            // The flow takes the keyboard (it stayed on "Add agent" and the person had to Tab into the page).
            setPane({ kind: 'pick', focus: true })
          }}
          addRef={addButtonRef}
        />

        <section ref={paneRef} className="agents-pane" aria-label="Agent details">
          {agents === null ? (
            <p className="muted agents-loading" role="status">
              <span className="spinner small" aria-hidden="true" /> Loading agents…
            </p>
          ) : pane.kind === 'pick' ? (
            <AddAgentPane
              api={registry}
              presets={presets}
              firstRun={agents.length === 0}
              {...(pane.focus !== undefined ? { focusPreset: pane.focus } : {})}
              onPickPreset={(presetId) => setPane({ kind: 'add', presetId })}
              onAdded={(agent) => {
                setAgents((list) => (list ? upsert(list, agent) : [agent]))
                setPane({ kind: 'detail', agentId: agent.id })
                setTab('overview')
              }}
              onOpenAgent={(agentId) => {
                setPane({ kind: 'detail', agentId })
                setTab('overview')
              }}
              {...(agents.length > 0 ? { onCancel: closeAdd } : {})}
            />
          ) : pane.kind === 'add' ? (
            <AgentEditor
              key={`add-${pane.presetId ?? ''}`}
              presets={presets}
              initialPresetId={pane.presetId ?? undefined}
              keychain={keychain}
              validate={validate}
              onSave={save}
              onCancel={() => setPane({ kind: 'pick', focus: pane.presetId ?? true })}
            />
          ) : pane.kind === 'edit' && selectedAgent ? (
            <AgentEditor
              key={`edit-${selectedAgent.id}`}
              presets={presets}
              agent={selectedAgent}
              keychain={keychain}
              validate={validate}
              onSave={save}
              onCancel={() => {
                setPane({ kind: 'detail', agentId: selectedAgent.id })
                back('edit')
              }}
              onRemove={(agentId) => void remove(agentId)}
              onDeleteSecret={(agentId, name) =>
                void api.deleteAgentSecret({ agentId, name }).then((r) => {
                  if (!r.ok) setProblem(`Could not unset ${name}: ${failureText(r.error)}`)
                })
              }
            />
          ) : pane.kind === 'detail' && selectedAgent ? (
            <div className="agent-detail">
              <header className="agent-detail-header">
                <span className={`status-dot status-${runtime[selectedAgent.id]?.status ?? 'stopped'}`} aria-hidden="true" />
                <h2 className="agents-pane-title">{selectedAgent.name}</h2>
                <span className="mono muted small agent-detail-command" title={commandLine(selectedAgent)}>
                  {commandLine(selectedAgent)}
                </span>
                <button ref={editButtonRef} type="button" className="button button-small" onClick={() => setPane({ kind: 'edit', agentId: selectedAgent.id })}>
                  Edit
                </button>
              </header>
              <AgentTabs agentName={selectedAgent.name} selected={tab} onSelect={setTab}>
                {tab === 'overview' ? (
                  <AgentOverview
                    // Its Restart/Stop question is about this agent: another agent chosen starts without one.
                    key={selectedAgent.id}
                    agent={selectedAgent}
                    runtime={runtime[selectedAgent.id]}
                    busy={runtimeBusy === selectedAgent.id}
                    problem={runtimeProblem[selectedAgent.id] ?? null}
                    onRestart={() => void runtimeCall(selectedAgent.id, 'restartAgent')}
                    onStop={() => void runtimeCall(selectedAgent.id, 'stopAgent')}
                    mcpApi={api}
                    activity={activityOf(sessions, selectedAgent.id)}
                  />
                ) : tab === 'check' ? (
                  <CheckConnection
                    agentName={selectedAgent.name}
                    result={check ?? null}
                    checking={checking[selectedAgent.id] === true}
                    onCheck={() => void runCheck(selectedAgent.id)}
                    onLogin={() => setTab('login')}
                  />
                ) : tab === 'login' ? (
                  <LoginPanel
                    key={selectedAgent.id}
                    api={api}
                    agentId={selectedAgent.id}
                    agentName={selectedAgent.name}
                    keychainAvailable={keychain.available}
                    {...(check && 'check' in check && check.check.ok
                      ? { knownMethods: check.check.authMethods, ...logoutSupport(check.check) }
                      : {})}
                    onCheckConnection={() => void runCheck(selectedAgent.id)}
                    checkingConnection={checking[selectedAgent.id] === true}
                  />
                ) : tab === 'logs' ? (
                  <LogsPanel key={selectedAgent.id} api={api} agentId={selectedAgent.id} />
                ) : (
                  <InspectorPanel key={selectedAgent.id} api={api} agentId={selectedAgent.id} {...(onDidReconnect ? { onDidReconnect } : {})} />
                )}
              </AgentTabs>
            </div>
          ) : null}
        </section>
      </div>
    </div>
  )
}

const upsert = (list: readonly AgentDefinitionView[], agent: AgentDefinitionView): AgentDefinitionView[] =>
  list.some((a) => a.id === agent.id) ? list.map((a) => (a.id === agent.id ? agent : a)) : [...list, agent]

const isFieldErrors = (data: unknown): data is AgentFieldErrors =>
  typeof data === 'object' && data !== null && Object.values(data).every((v) => typeof v === 'string')

/** The check's "Signs out" capability, when it listed one. */
const logoutSupport = (check: CheckResult): { logoutSupported?: boolean } => {
  const entry = check.capabilities.find((c) => c.label === 'Signs out')
  return entry ? { logoutSupported: entry.supported } : {}
}

/** The box that scrolls the pane: the pane itself (the add flow), else the first inside it (an agent's tab). */
function scrollerIn(pane: HTMLElement | null): HTMLElement | null {
  const scrolls = (el: HTMLElement) => el.scrollHeight > el.clientHeight + 1 && /auto|scroll/.test(getComputedStyle(el).overflowY)
  if (!pane) return null
  return scrolls(pane) ? pane : (Array.from(pane.querySelectorAll<HTMLElement>('*')).find(scrolls) ?? null)
}
