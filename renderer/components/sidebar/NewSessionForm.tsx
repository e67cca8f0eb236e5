import { useEffect, useId, useRef, useState } from 'react'
import { folderName } from '../../../common/session/title'
import { useAfterPress } from '../common/after-press'
import { Icon } from '../common/icons'
import { refInto } from '../common/ref-into'
import { neutraliseEscapes } from '../transcript/terminal-text'
import { VisibleText } from '../permissions/VisibleText'
import './new-session-form.css'

export interface NewSessionFormProps {
  agents: { agentId: string; name: string }[]
  initialAgentId?: string | undefined
  /** The agent's default folder, pre-filled when the agent is picked (seam: agent definitions). */
  defaultCwdFor: (agentId: string) => string
  /**
   * Resolves to why not (a message, with the added folder main refused when it was one), or `null` on
   * success. `folders`: the added folders (main checks each is a folder).
   */
  onCreate: (agentId: string, cwd: string, folders: string[]) => Promise<string | NewSessionFailure | null>
  onCancel: () => void
  /** Opens the agent's page on Agents: offered when the agent itself failed to start (its log, definition, sign-in). */
  onOpenAgent?: ((agentId: string) => void) | undefined
  /** After this long still starting, the form says why a start may take a while (default {@link SLOW_START_MS}; tests shrink it). */
  slowStartMs?: number
}

/**
 * A start that takes longer than this is told apart: an agent run through npx or uvx is downloaded at its first start,
 * a minute or more with only "Starting…" to look at.
 */
export const SLOW_START_MS = 6_000

export interface NewSessionFailure {
  message: string
  /** The added folder that is not one (main's `data.folder`). */
  folder?: string | undefined
  /** What the agent printed before it failed to start (its stderr tail, and what it wrote on stdout that is not ACP). */
  output?: string | undefined
  /** The agent's error's `data` as JSON, when it holds more than its words: folded under "Details". */
  data?: string | undefined
  /** The agent itself failed (it did not start, or refused the session): its page on Agents is offered. */
  agentAtFault?: boolean | undefined
}

const isAbsolute = (p: string) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p)

/** Pick an agent, an absolute working folder, and any other folders the session may use. */
export function NewSessionForm({ agents, initialAgentId, defaultCwdFor, onCreate, onCancel, onOpenAgent, slowStartMs = SLOW_START_MS }: NewSessionFormProps) {
  const [agentId, setAgentId] = useState(initialAgentId ?? agents[0]?.agentId ?? '')
  const [cwd, setCwd] = useState(() => (agentId ? defaultCwdFor(agentId) : ''))
  // Opened before the agents were known (the app still loading): take the first one when they come, and its
  // folder unless one was typed.
  const firstAgentId = agents[0]?.agentId
  useEffect(() => {
    if (agentId || !firstAgentId) return
    setAgentId(firstAgentId)
    setCwd((typed) => typed || defaultCwdFor(firstAgentId))
  }, [agentId, firstAgentId, defaultCwdFor])
  const [error, setError] = useState<string | null>(null)
  const [badFolder, setBadFolder] = useState<string | null>(null)
  const [output, setOutput] = useState<string | null>(null)
  const [errorData, setErrorData] = useState<string | null>(null)
  // The agent that failed to start (its page is the way on), when the failure was its own.
  const [failedAgent, setFailedAgent] = useState<{ agentId: string; name: string } | null>(null)
  const [pending, setPending] = useState(false)
  // Still starting after a while: say why it may take long, and where to see what the agent does meanwhile.
  const [slow, setSlow] = useState(false)
  useEffect(() => {
    setSlow(false)
    if (!pending) return
    const timer = setTimeout(() => setSlow(true), slowStartMs)
    return () => clearTimeout(timer)
  }, [pending, slowStartMs])
  const errorId = useId()
  // The folder the form opens with is selected: typed over, a path replaces it (typed keys went after it, making
  // "/home/ada/src/home/ada/other"); Enter still starts there.
  const cwdInput = useRef<HTMLInputElement | null>(null)
  useEffect(() => {
    const input = cwdInput.current
    if (input && document.activeElement === input) input.select()
  }, [])
  // Folders beyond the working folder: each row has a stable key, so removing one keeps the others' focus.
  const [folders, setFolders] = useState<{ key: number; path: string }[]>([])
  const nextKey = useRef(0)
  const folderInputs = useRef(new Map<number, HTMLInputElement>())
  // The row being typed in shows its path as typed; the others show the folder's name whole, then the path's end.
  const [editingFolder, setEditingFolder] = useState<number | null>(null)
  const afterPress = useAfterPress()
  const addFolder = () => {
    const key = nextKey.current++
    setFolders((rows) => [...rows, { key, path: '' }])
    requestAnimationFrame(() => folderInputs.current.get(key)?.focus())
  }

  const submit = async () => {
    if (pending) return
    const folder = cwd.trim()
    if (!agentId) return setError('Choose an agent.')
    if (!isAbsolute(folder)) return setError('The working folder must be an absolute path.')
    const added = folders.map((f) => f.path.trim()).filter((p) => p !== '')
    const relative = added.find((p) => !isAbsolute(p))
    setBadFolder(relative ?? null)
    if (relative !== undefined) return setError(`Added folders must be absolute paths: ${relative}`)
    setPending(true)
    setError(null)
    setOutput(null)
    setErrorData(null)
    setFailedAgent(null)
    const failure = await onCreate(agentId, folder, added)
    setPending(false)
    if (!failure) return
    setError(typeof failure === 'string' ? failure : failure.message)
    setBadFolder(typeof failure === 'string' ? null : (failure.folder ?? null))
    setOutput(typeof failure === 'string' ? null : failure.output || null)
    setErrorData(typeof failure === 'string' ? null : failure.data || null)
    const name = agents.find((a) => a.agentId === agentId)?.name
    setFailedAgent(typeof failure !== 'string' && failure.agentAtFault && name !== undefined ? { agentId, name } : null)
  }

  return (
    <form
      className="new-session-form"
      aria-label="New session"
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onCancel()
      }}
    >
      <label className="field">
        <span className="field-label">Agent</span>
        <select
          className="select"
          value={agentId}
          onChange={(e) => {
            setAgentId(e.target.value)
            setCwd(defaultCwdFor(e.target.value))
          }}
        >
          {agents.length === 0 && (
            <option value="" disabled>
              Loading agents…
            </option>
          )}
          {agents.map((a) => (
            <option key={a.agentId} value={a.agentId}>
              {a.name}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field-label">Working folder</span>
        <input
          className="input mono"
          type="text"
          value={cwd}
          placeholder="/path/to/project"
          spellCheck={false}
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => setCwd(e.target.value)}
          // Left, the box showed a long path's start ("/home/ada/src/…") and hid the folder's own name: its end shows.
          onBlur={(e) => showEnd(e.currentTarget)}
          ref={(el) => {
            cwdInput.current = el
            if (el && document.activeElement !== el) showEnd(el)
          }}
        />
      </label>
      <fieldset className="field added-folders">
        <legend className="field-label">Other folders</legend>
        {folders.length === 0 && <p className="added-folders-hint muted">The agent may also read and write files in folders you add.</p>}
        {folders.map((row, i) => {
          const named = row.key !== editingFolder && row.path.trim() !== ''
          return (
          <div className={named ? 'added-folder added-folder-named' : 'added-folder'} key={row.key}>
            {/* Two paths in a row showed the same start ("/home/ada/src/custome") and hid which folders they were. The
                field stays (clicked or reached with Tab, it is there to type in), over this view of it. */}
            <span className="added-folder-field">
            {named && <FolderView path={row.path.trim()} />}
            <input
              ref={refInto(folderInputs.current, row.key)}
              className="input mono"
              type="text"
              value={row.path}
              placeholder="/path/to/another/folder"
              spellCheck={false}
              title={row.path}
              aria-label={`Added folder ${i + 1}`}
              aria-invalid={badFolder !== null && row.path.trim() === badFolder ? true : undefined}
              aria-describedby={badFolder !== null && row.path.trim() === badFolder ? errorId : undefined}
              onChange={(e) => {
                const path = e.target.value
                setFolders((rows) => rows.map((r) => (r.key === row.key ? { ...r, path } : r)))
              }}
              onFocus={() => setEditingFolder(row.key)}
              // Not under a pressed pointer: the row's new height would move the button pressed (Add folder, Start
              // session) before its release, and the click would be lost.
              onBlur={() => afterPress(() => setEditingFolder((key) => (key === row.key ? null : key)))}
            />
            </span>
            <button
              type="button"
              className="icon-button"
              aria-label={row.path.trim() ? `Remove folder ${row.path.trim()}` : `Remove added folder ${i + 1}`}
              title="Remove"
              onClick={() => setFolders((rows) => rows.filter((r) => r.key !== row.key))}
            >
              <Icon name="close" size={14} />
            </button>
          </div>
          )
        })}
        <button type="button" className="link-button added-folders-add" onClick={addFolder}>
          <Icon name="plus" size={13} /> Add folder
        </button>
      </fieldset>
      {error && (
        <p className="field-error" id={errorId} role="alert">
          {/* It may carry the agent's words: their hidden characters show as markers. */}
          <VisibleText text={error} prose />
        </p>
      )}
      {error && errorData && (
        <details className="disclosure new-session-output">
          <summary>Details</summary>
          <pre className="stderr-tail" tabIndex={0} aria-label="The agent's error data">
            <VisibleText text={errorData} prose code />
          </pre>
        </details>
      )}
      {error && output && (
        <details className="disclosure new-session-output">
          <summary>What the agent printed</summary>
          <pre className="stderr-tail" tabIndex={0} aria-label="Agent error output">
            {neutraliseEscapes(output)}
          </pre>
        </details>
      )}
      {error && failedAgent && onOpenAgent && (
        <button type="button" className="link-button new-session-agent-page" onClick={() => onOpenAgent(failedAgent.agentId)}>
          Open {failedAgent.name} on the Agents page
        </button>
      )}
      <div className="button-row">
        {/* Not `disabled` while starting: the focus stays on it (it fell to the page), and a sign-in dialog gives it back here. */}
        <button type="submit" className="button button-primary" disabled={agents.length === 0} aria-disabled={pending || undefined}>
          {pending ? 'Starting…' : 'Start session'}
        </button>
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {/* Below the buttons: Cancel stays where the person may be about to press it. */}
      {pending && slow && (
        <p className="new-session-slow muted" role="status">
          Still starting {agents.find((a) => a.agentId === agentId)?.name ?? 'the agent'}. A first start can take a minute or more while
          the agent is downloaded (npx, uvx); the Agents screen shows its log.
        </p>
      )}
    </form>
  )
}

/**
 * An added folder as a person reads it: its name whole (wrapped if it must be), then the folder it is in, cut at its
 * start so its end shows. Shown only: the field under it holds the path (its tooltip, what a screen reader reads).
 */
function FolderView({ path }: { path: string }) {
  const name = folderName(path)
  const at = path.replace(/[\\/]+$/, '').lastIndexOf(name)
  const parent = at > 0 ? path.slice(0, at) : ''
  return (
    <span className="added-folder-view" aria-hidden="true">
      <span className="added-folder-name">{name}</span>
      {parent && (
        <span className="added-folder-parent">
          <bdi dir="ltr">{parent}</bdi>
        </span>
      )}
    </span>
  )
}

/** Scrolls a one-line field to the end of its text (a path's folder name), where a field left alone shows its start. */
function showEnd(input: HTMLInputElement): void {
  input.scrollLeft = input.scrollWidth
}
