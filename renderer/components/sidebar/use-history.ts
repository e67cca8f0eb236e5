/**
 * The sidebar's view of the history: the stored sessions (fetched again whenever main says the list
 * changed) and the actions on them. Works against any `BosunApi`; one without history calls (a preview)
 * simply has an empty history.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import type { BosunApi, CallResult } from '../../../common/contract'
import type { HistoryHit, HistorySummary } from '../../../common/contract/history'
import { downloadBlob } from '../common/download'

export interface HistoryState {
  sessions: HistorySummary[]
  problem: string | null
  showArchived: boolean
}

export interface HistoryActions {
  setShowArchived(value: boolean): void
  rename(sessionId: string, title: string | null): Promise<void>
  archive(sessionId: string, archived: boolean): Promise<void>
  remove(sessionId: string): Promise<void>
  exportAs(sessionId: string, format: 'markdown' | 'json'): Promise<void>
  search(query: string): Promise<HistoryHit[]>
  /**
   * The agent's own sessions for a folder not stored yet; null when it does not list them (or the call failed);
   * `'cancelled'` when the person cancelled the listing ({@link cancelAgentSessions}).
   */
  agentSessions(agentId: string, cwd: string): Promise<AgentSession[] | null | 'cancelled'>
  /** Cancels that listing (B16): main withdraws its `session/list`, and the listing answers `'cancelled'`. */
  cancelAgentSessions(agentId: string, cwd: string): Promise<void>
  /** Opens one of them (with the folders and title the list gave it); resolves with Bosun's id for it, or null. */
  openAgentSession(agentId: string, cwd: string, listed: AgentSession): Promise<string | null>
}

export interface AgentSession {
  acpSessionId: string
  title: string | null
  updatedAt: string | null
  /** Its folders beyond the working folder, the complete list the agent gave (E17). */
  additionalDirectories?: string[]
}

/** Saves text as a file through the page (the browser host; Electron saves in main). */
function download(fileName: string, mimeType: string, content: string): void {
  downloadBlob(fileName, new Blob([content], { type: `${mimeType};charset=utf-8` }))
}

export function useHistory(api: BosunApi | undefined, onFailed: (what: string, result: CallResult<unknown>) => void): [HistoryState, HistoryActions] {
  const [sessions, setSessions] = useState<HistorySummary[]>([])
  const [problem, setProblem] = useState<string | null>(null)
  const [showArchived, setShowArchived] = useState(false)
  const available = typeof api?.historyList === 'function'
  // The newest request wins: an older answer arriving late is dropped.
  const generation = useRef(0)

  const load = useCallback(() => {
    if (!api || !available) return
    const mine = ++generation.current
    void api.historyList(showArchived ? { includeArchived: true } : {}).then((result) => {
      if (mine !== generation.current) return
      if (!result.ok) return onFailed('Loading the history', result)
      setSessions(result.value.sessions)
      setProblem(result.value.problem?.message ?? null)
    })
  }, [api, available, showArchived, onFailed])

  useEffect(() => {
    if (!api || !available) return
    load()
    return api.onHistoryChanged(() => load())
  }, [api, available, load])

  const run = useCallback(
    async (what: string, call: () => Promise<CallResult<unknown>>) => {
      const result = await call()
      if (!result.ok) onFailed(what, result)
      load()
    },
    [load, onFailed],
  )

  const actions: HistoryActions = {
    setShowArchived,
    rename: (sessionId, title) => run('Renaming the session', () => api!.historyRename({ sessionId, title })),
    archive: (sessionId, archived) => run(archived ? 'Archiving the session' : 'Restoring the session', () => api!.historyArchive({ sessionId, archived })),
    remove: (sessionId) => run('Deleting the session', () => api!.historyDelete({ sessionId })),
    exportAs: async (sessionId, format) => {
      const result = await api!.historyExport({ sessionId, format })
      if (!result.ok) return onFailed('Exporting the session', result)
      if (result.value.content !== undefined) download(result.value.fileName, result.value.mimeType, result.value.content)
    },
    agentSessions: async (agentId, cwd) => {
      if (!api || !available) return null
      const result = await api.historyAgentSessions({ agentId, cwd })
      if (!result.ok && result.error.kind === 'cancelled') return 'cancelled'
      if (!result.ok) {
        onFailed('Listing the agent’s sessions', result)
        return null
      }
      return result.value.supported ? result.value.sessions.filter((s) => !s.stored) : null
    },
    cancelAgentSessions: async (agentId, cwd) => {
      if (!api || !available) return
      const result = await api.historyCancelAgentSessions({ agentId, cwd })
      if (!result.ok) onFailed('Cancelling the listing', result)
    },
    openAgentSession: async (agentId, cwd, { acpSessionId, title, additionalDirectories }) => {
      const folders = additionalDirectories?.length ? { additionalDirectories: [...additionalDirectories] } : {}
      const result = await api!.historyOpenAgentSession({ agentId, acpSessionId, cwd, title, ...folders })
      if (!result.ok) {
        onFailed('Opening the agent’s session', result)
        return null
      }
      load()
      return result.value.sessionId
    },
    search: async (query) => {
      if (!api || !available || !query.trim()) return []
      const result = await api.historySearch({ query: query.slice(0, 512) })
      if (!result.ok) {
        onFailed('Searching', result)
        return []
      }
      return result.value.hits
    },
  }
  return [{ sessions, problem, showArchived }, actions]
}
