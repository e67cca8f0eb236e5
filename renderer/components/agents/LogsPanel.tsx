import { useEffect, useMemo, useState } from 'react'
import type { BosunApi } from '../../../common/contract'
import { agentTools, failureText } from '../../screens/agents/agent-tools-api'
import { useFollowTail } from '../inspector/use-follow-tail'
import { neutraliseEscapes } from '../transcript/terminal-text'
import { hasHiddenCharactersInCode } from '../permissions/reveal-text'
import { VisibleText } from '../permissions/VisibleText'
import { appendTail, LOG_TAIL_CHARS } from './log-tail'

export interface LogsViewProps {
  text: string
  /** Older output is not shown (main's file or this view's bound cut it). */
  truncated: boolean
  loading: boolean
  problem?: string | null
}

/** The Logs tab: the agent's stderr as plain text (hidden characters as markers), following new lines unless scrolled up. */
export function LogsView({ text, truncated, loading, problem }: LogsViewProps) {
  const clean = useMemo(() => neutraliseEscapes(text), [text])
  // Hidden and direction-changing characters as markers, as in the agent's errors: a right-to-left override made
  // "gnorw" read "wrong". Only when there are any: a log is mostly plain lines, drawn as one text.
  const shown = useMemo(() => (hasHiddenCharactersInCode(clean) ? <VisibleText text={clean} prose code /> : clean), [clean])
  const follow = useFollowTail(clean.length)
  return (
    <div className="logs">
      <div className="logs-toolbar">
        <span className="muted small">
          What the agent writes to stderr, live. {truncated ? 'Older lines are not shown.' : ''}
        </span>
      </div>
      {problem && (
        <p className="field-error agents-problem" role="alert">
          {problem}
        </p>
      )}
      <div className="logs-wrap">
        <pre className="logs-output" role="log" aria-label="Agent log" tabIndex={0} ref={follow.ref} onScroll={follow.onScroll}>
          {shown || <span className="muted">{loading ? 'Loading…' : 'Nothing logged yet.'}</span>}
        </pre>
      </div>
      {/* In a strip of its own under the log, as in the transcript: never over the lines it would hide. */}
      {!follow.following && (
        <div className="jump-latest-bar">
          <button type="button" className="jump-latest" onClick={follow.jumpToEnd}>
            Jump to latest
          </button>
        </div>
      )}
    </div>
  )
}

/** The Logs tab wired to main: the recent log, then every new chunk from `onAgentLog`, bounded. */
export function LogsPanel({ api, agentId, maxChars = LOG_TAIL_CHARS }: { api: BosunApi; agentId: string; maxChars?: number }) {
  const tools = useMemo(() => agentTools(api), [api])
  const [state, setState] = useState({ text: '', truncated: false })
  const [loading, setLoading] = useState(true)
  const [problem, setProblem] = useState<string | null>(null)

  useEffect(() => {
    let live = true
    let loaded = false
    const early: string[] = []
    const add = (chunk: string) =>
      setState((s) => {
        const next = appendTail(s.text, chunk, maxChars)
        return { text: next.text, truncated: s.truncated || next.trimmed }
      })
    const off = tools.onAgentLog((payload) => {
      if (payload.agentId !== agentId) return
      if (loaded) add(payload.text)
      else early.push(payload.text)
    })
    setState({ text: '', truncated: false })
    setLoading(true)
    void tools.getAgentLog({ agentId, maxBytes: maxChars }).then((r) => {
      if (!live) return
      loaded = true
      setLoading(false)
      if (r.ok) setState({ text: appendTail('', r.value.text, maxChars).text, truncated: r.value.truncated })
      else setProblem(failureText(r.error))
      // Chunks that arrived while listing may already be in the text; a repeated line beats a lost one.
      for (const chunk of early.splice(0)) add(chunk)
    })
    return () => {
      live = false
      off()
    }
  }, [tools, agentId, maxChars])

  return <LogsView text={state.text} truncated={state.truncated} loading={loading} problem={problem} />
}
