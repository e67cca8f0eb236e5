import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { toJsonText } from '../common/JsonView'
import { CutLine, MiddleCut } from '../common/MiddleCut'
import { agentTools, failureText, type AgentToolsApi, type InspectorMessage } from '../../screens/agents/agent-tools-api'
import type { BosunApi } from '../../../common/contract'
import { downloadText } from './dom-helpers'
import {
  appendMessages,
  directionOf,
  filterMessages,
  formatBytes,
  formatLatency,
  formatTime,
  INSPECTOR_LIMIT,
  methodLabel,
  NO_SESSION,
  sessionIdsOf,
  type InspectorBuffer,
  type InspectorFilter,
} from './inspector-model'
import { useFollowTail } from './use-follow-tail'
import './inspector.css'

/** Most rows the table renders (the newest matching ones); the filter narrows to older ones. */
export const ROW_LIMIT = 500

const EMPTY: InspectorBuffer = { messages: [], dropped: 0 }

const valueOf = (e: { target: unknown }): string => (e.target as { value: string }).value

export interface InspectorViewProps {
  messages: readonly InspectorMessage[]
  /** Messages main's ring had already dropped, plus any this view let go. */
  dropped: number
  filter: InspectorFilter
  onFilterChange: (filter: InspectorFilter) => void
  selectedSeq: number | null
  onSelect: (seq: number | null) => void
  onExport: () => void
  onClear: () => void
  /** A problem to show above the table (load, export or clear failed). */
  problem?: string | null
  busy?: boolean
}

const KIND_CLASS: Record<InspectorMessage['kind'], string> = {
  request: 'badge-progress',
  response: 'badge-ok',
  notification: 'badge-muted',
  error: 'badge-danger',
  invalid: 'badge-warn',
}

/** The protocol inspector as props in, callbacks out: toolbar, message table and the selected message as JSON text. */
export function InspectorView(props: InspectorViewProps) {
  const { messages, dropped, filter, onFilterChange, selectedSeq, onSelect, onExport, onClear, problem, busy } = props
  const ids = useId()
  const matching = useMemo(() => filterMessages(messages, filter), [messages, filter])
  // Rows in the page are bounded too: at up to ten batches a second, thousands of rows would make typing lag.
  const shown = matching.length > ROW_LIMIT ? matching.slice(matching.length - ROW_LIMIT) : matching
  const sessions = useMemo(() => sessionIdsOf(messages), [messages])
  // Only a message the filter shows: after switching sessions, the pane must not keep another session's message.
  const selected = selectedSeq === null ? undefined : matching.find((m) => m.seq === selectedSeq)
  const follow = useFollowTail(shown.length > 0 ? shown[shown.length - 1]!.seq : 0)
  // The message picked stays in view: its pane opens under the table (a narrow window), which gives up the height the
  // row stood in (picked at the table's foot, it went out of sight).
  const tableRef = useRef<HTMLTableElement>(null)
  const picked = selected?.seq
  useLayoutEffect(() => {
    if (picked !== undefined) tableRef.current?.querySelector('tr[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' })
  }, [picked])

  const move = (delta: number) => {
    if (shown.length === 0) return
    const at = shown.findIndex((m) => m.seq === selectedSeq)
    const next = at < 0 ? (delta > 0 ? 0 : shown.length - 1) : Math.min(shown.length - 1, Math.max(0, at + delta))
    onSelect(shown[next]!.seq)
  }

  return (
    <div className="inspector">
      <div className="inspector-toolbar" role="toolbar" aria-label="Inspector tools">
        <label className="inspector-filter">
          <span className="sr-only">Filter by method</span>
          <input
            className="input mono"
            type="search"
            aria-label="Filter by method"
            placeholder="Filter by method"
            value={filter.method}
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => onFilterChange({ ...filter, method: valueOf(e) })}
          />
        </label>
        <span className="inspector-session">
          <label htmlFor={`${ids}-session`}>
            <span className="field-label">Session</span>
          </label>
          <select
            id={`${ids}-session`}
            className="select"
            value={filter.sessionId}
            onChange={(e) => onFilterChange({ ...filter, sessionId: valueOf(e) })}
          >
            <option value="">All sessions</option>
            <option value={NO_SESSION}>No session</option>
            {sessions.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </span>
        <span className="inspector-count muted small" aria-live="polite">
          {matching.length === messages.length ? `${messages.length} messages` : `${matching.length} of ${messages.length} messages`}
          {shown.length < matching.length ? ` · last ${shown.length} shown` : ''}
          {dropped > 0 ? ` · ${dropped} older dropped` : ''}
        </span>
        {/* Export and Clear stay together at the row's end; when the row is too narrow they go to the next one, together. */}
        <span className="inspector-actions">
          <button type="button" className="button button-small" onClick={onExport} disabled={busy}>
            Export
          </button>
          <button type="button" className="button button-small button-secondary" onClick={onClear} disabled={busy || messages.length === 0}>
            Clear
          </button>
        </span>
      </div>

      {problem && (
        <p className="field-error inspector-problem" role="alert">
          {problem}
        </p>
      )}

      <div className="inspector-split">
        <div className="inspector-table-pane">
          <div className="inspector-table-wrap" ref={follow.ref} onScroll={follow.onScroll}>
            {shown.length === 0 ? (
              <p className="inspector-empty muted">
                {messages.length === 0 ? 'No messages yet. Start the agent or check its connection to see the exchange.' : 'No message matches the filter.'}
              </p>
            ) : (
              <table
                ref={tableRef}
                className="inspector-table"
                role="grid"
                aria-label="Protocol messages"
                aria-rowcount={shown.length + 1}
                onKeyDown={(e) => {
                  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
                    e.preventDefault()
                    move(e.key === 'ArrowDown' ? 1 : -1)
                  }
                }}
              >
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">
                      <span className="sr-only">Direction</span>
                    </th>
                    <th scope="col">Kind</th>
                    <th scope="col">Method</th>
                    <th scope="col">ID</th>
                    <th scope="col">Session</th>
                    <th scope="col" className="num">
                      Latency
                    </th>
                    <th scope="col" className="num">
                      Size
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {shown.map((m) => {
                    const dir = directionOf(m.direction)
                    const isSelected = m.seq === selectedSeq
                    return (
                      <tr
                        key={m.seq}
                        aria-selected={isSelected}
                        tabIndex={isSelected || (selectedSeq === null && m === shown[0]) ? 0 : -1}
                        className={`inspector-row inspector-${m.kind}`}
                        onClick={() => onSelect(m.seq)}
                        onKeyDown={(e) => {
                          if (e.key === 'Enter' || e.key === ' ') {
                            e.preventDefault()
                            onSelect(m.seq)
                          }
                        }}
                      >
                        <td className="mono">{formatTime(m.time)}</td>
                        <td className={`inspector-dir inspector-dir-${m.direction}`}>
                          <span aria-hidden="true">{dir.arrow}</span>
                          <span className="sr-only">{dir.label}</span>
                        </td>
                        <td>
                          <span className={`badge ${KIND_CLASS[m.kind]}`}>{m.kind}</span>
                        </td>
                        <td className="mono inspector-method" title={methodLabel(m) || undefined}>
                          {methodLabel(m)}
                          {m.origin === 'check' && (
                            <span className="inspector-origin" title="From a connection check (a separate, short-lived process)">
                              check
                            </span>
                          )}
                        </td>
                        <td className="mono">{m.id == null ? '' : String(m.id)}</td>
                        {/* On one line, cut in its middle: two long ids with the same start still look apart (the start and
                            the end show), and a UUID no longer made each row five lines tall. Whole in the tooltip. */}
                        <td className="mono inspector-session-cell" title={m.sessionId ?? undefined}>
                          {m.sessionId ? (
                            <CutLine text={m.sessionId}>
                              <MiddleCut text={m.sessionId} tail={8} />
                            </CutLine>
                          ) : null}
                        </td>
                        <td className="mono num">{formatLatency(m.latencyMs)}</td>
                        <td className="mono num">{formatBytes(m.bytes)}</td>
                      </tr>
                    )
                  })}
                </tbody>
              </table>
            )}
          </div>
          {/* Below the table, not over it: a floating button would cover the last rows' cells. */}
          {!follow.following && shown.length > 0 && (
            <div className="inspector-jump-bar">
              <button type="button" className="jump-latest inspector-jump" onClick={follow.jumpToEnd}>
                Jump to latest
              </button>
            </div>
          )}
        </div>

        {/* Nothing picked: one line that says how (the pane stood tall and empty under the table at 700 px high). */}
        <section className={selected ? 'inspector-detail' : 'inspector-detail is-empty'} aria-label="Selected message">
          {selected ? (
            <>
              <header className="inspector-detail-head">
                <span className={`badge ${KIND_CLASS[selected.kind]}`}>{selected.kind}</span>
                <span className="mono">{methodLabel(selected) || '(no method)'}</span>
                <span className="muted small">
                  {directionOf(selected.direction).label}
                  {selected.id != null ? ` · id ${String(selected.id)}` : ''}
                  {selected.origin === 'check' ? ' · from a connection check' : ''}
                  {selected.latencyMs !== undefined ? ` · ${formatLatency(selected.latencyMs)}` : ''}
                  {` · ${formatBytes(selected.bytes)}`}
                </span>
              </header>
              <pre className="inspector-json" tabIndex={0} aria-label={`Message ${selected.seq} as JSON`}>
                {toJsonText(selected.message)}
              </pre>
            </>
          ) : (
            <p className="inspector-empty muted">Pick a message to see it whole: click its row, or use ↑ and ↓ in the table.</p>
          )}
        </section>
      </div>
    </div>
  )
}

export interface InspectorPanelProps {
  api: BosunApi
  agentId: string
  /** How many messages to keep in the page (main keeps its own ring). */
  limit?: number
  /**
   * The browser transport reconnected: main let go of the old connection's watch (a watch belongs to the page's
   * connection), and events sent meanwhile are gone, so the panel watches again and lists anew.
   */
  onDidReconnect?: (listener: () => void) => () => void
}

/** The inspector wired to main: loads the agent's recent messages, follows new ones, exports and clears. */
export function InspectorPanel({ api, agentId, limit = INSPECTOR_LIMIT, onDidReconnect }: InspectorPanelProps) {
  const tools: AgentToolsApi = useMemo(() => agentTools(api), [api])
  const [buffer, setBuffer] = useState<InspectorBuffer>(EMPTY)
  const [filter, setFilter] = useState<InspectorFilter>({ method: '', sessionId: '' })
  const [selectedSeq, setSelectedSeq] = useState<number | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [connection, setConnection] = useState(0)
  useEffect(() => onDidReconnect?.(() => setConnection((n) => n + 1)), [onDidReconnect])

  useEffect(() => {
    let live = true
    // Subscribe before listing so nothing falls in between; batches that arrive first wait for the list,
    // and appendMessages skips what the list already held.
    const pending: InspectorMessage[][] = []
    let loaded = false
    const off = tools.onInspectorMessages((payload) => {
      if (payload.agentId !== agentId) return
      if (loaded) setBuffer((b) => appendMessages(b, payload.messages, limit))
      else pending.push(payload.messages)
    })
    setBuffer(EMPTY)
    // Main sends inspector events only while a view watches this agent.
    void tools.watchInspector({ agentId, watching: true })
    void tools.listInspectorMessages({ agentId, limit }).then((result) => {
      if (!live) return
      loaded = true
      if (!result.ok) setProblem(failureText(result.error))
      setBuffer(() => {
        let b: InspectorBuffer = result.ok ? appendMessages({ messages: [], dropped: result.value.dropped }, result.value.messages, limit) : EMPTY
        for (const batch of pending.splice(0)) b = appendMessages(b, batch, limit)
        return b
      })
    })
    return () => {
      live = false
      off()
      void tools.watchInspector({ agentId, watching: false })
    }
  }, [tools, agentId, limit, connection])

  const exportAll = async () => {
    setBusy(true)
    setProblem(null)
    const result = await tools.exportInspector({ agentId })
    setBusy(false)
    if (!result.ok) setProblem(`Export failed: ${failureText(result.error)}`)
    else downloadText(result.value.fileName, result.value.content, 'application/x-ndjson')
  }
  const clear = async () => {
    setBusy(true)
    setProblem(null)
    const result = await tools.clearInspector({ agentId })
    setBusy(false)
    if (!result.ok) setProblem(`Clear failed: ${failureText(result.error)}`)
    else {
      setBuffer(EMPTY)
      setSelectedSeq(null)
    }
  }

  return (
    <InspectorView
      messages={buffer.messages}
      dropped={buffer.dropped}
      filter={filter}
      onFilterChange={setFilter}
      selectedSeq={selectedSeq}
      onSelect={setSelectedSeq}
      onExport={() => void exportAll()}
      onClear={() => void clear()}
      problem={problem}
      busy={busy}
    />
  )
}
