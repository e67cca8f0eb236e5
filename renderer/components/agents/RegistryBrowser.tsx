import { useCallback, useEffect, useId, useMemo, useState } from 'react'
import type { InstallProgressView, RegistryAgentView, RegistryApi, RegistryListing } from '../../screens/agents/registry-api'

export interface RegistryBrowserProps {
  api: RegistryApi
  /** Open an installed agent on the Agents page. */
  onOpenAgent: (agentId: string) => void
}

type Note = { kind: 'ok' | 'error'; text: string }

const PHASE_LABEL: Record<InstallProgressView['phase'], string> = {
  checking: 'Checking…',
  downloading: 'Downloading',
  verifying: 'Verifying the checksum…',
  extracting: 'Unpacking…',
  saving: 'Saving the agent…',
}

const KIND_LABEL: Record<string, string> = { binary: 'download', npx: 'npx (Node.js)', uvx: 'uvx (Python)' }

const mib = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`

/**
 * The ACP Registry: search, install (progress and cancel), update badge, uninstall, and the registry's
 * address. Every text from the registry is rendered as text; icons only as `<img>` of main's data: URLs.
 */
export function RegistryBrowser({ api, onOpenAgent }: RegistryBrowserProps) {
  const [listing, setListing] = useState<RegistryListing | null>(null)
  const [loadProblem, setLoadProblem] = useState<string | null>(null)
  const [loading, setLoading] = useState(true)
  const [query, setQuery] = useState('')
  const [progress, setProgress] = useState<Record<string, InstallProgressView | undefined>>({})
  const [busy, setBusy] = useState<Record<string, 'install' | 'uninstall' | undefined>>({})
  const [notes, setNotes] = useState<Record<string, Note | undefined>>({})
  const [confirming, setConfirming] = useState<string | null>(null)
  const [icons, setIcons] = useState<Record<string, string | null>>({})
  const searchId = useId()

  const load = useCallback(
    async (refresh: boolean) => {
      setLoading(true)
      // A refresh starts over: last outcomes no longer describe what is shown.
      if (refresh) setNotes({})
      const r = await api.getRegistry(refresh ? { refresh: true } : {})
      setLoading(false)
      if (r.ok) {
        setListing(r.value)
        setLoadProblem(null)
      } else setLoadProblem(r.error.message)
    },
    [api],
  )

  useEffect(() => {
    void load(false)
    return api.onRegistryInstallProgress((p) => setProgress((all) => ({ ...all, [p.registryId]: p })))
  }, [api, load])

  // Icons, once per entry that has one.
  useEffect(() => {
    if (!listing) return
    let live = true
    const wanted = listing.agents.filter((a) => a.hasIcon && !(a.id in icons)).slice(0, 100)
    void (async () => {
      for (const agent of wanted) {
        const r = await api.getRegistryIcon({ registryId: agent.id })
        if (!live) return
        const dataUrl = r.ok && r.value.dataUrl && /^data:image\/(svg\+xml|png);base64,/.test(r.value.dataUrl) ? r.value.dataUrl : null
        setIcons((all) => ({ ...all, [agent.id]: dataUrl }))
      }
    })()
    return () => {
      live = false
    }
    // `icons` is read only to skip entries already fetched.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, listing])

  const shown = useMemo(() => {
    const q = query.trim().toLocaleLowerCase()
    const agents = listing?.agents ?? []
    if (!q) return agents
    return agents.filter((a) => [a.name, a.id, a.description, ...a.authors].some((t) => t.toLocaleLowerCase().includes(q)))
  }, [listing, query])

  const install = async (agent: RegistryAgentView) => {
    setBusy((b) => ({ ...b, [agent.id]: 'install' }))
    setNotes((n) => ({ ...n, [agent.id]: undefined }))
    const r = await api.installRegistryAgent({ registryId: agent.id })
    setBusy((b) => ({ ...b, [agent.id]: undefined }))
    setProgress((p) => ({ ...p, [agent.id]: undefined }))
    if (!r.ok) {
      setNotes((n) => ({ ...n, [agent.id]: { kind: 'error', text: r.error.kind === 'cancelled' ? 'Cancelled. Nothing was installed.' : r.error.message } }))
      return
    }
    setNotes((n) => ({ ...n, [agent.id]: { kind: 'ok', text: r.value.updated ? `Updated to ${r.value.version}.` : `Installed ${r.value.version}.` } }))
    await load(false)
  }

  const uninstall = async (agent: RegistryAgentView) => {
    setConfirming(null)
    setBusy((b) => ({ ...b, [agent.id]: 'uninstall' }))
    const r = await api.uninstallRegistryAgent({ registryId: agent.id })
    setBusy((b) => ({ ...b, [agent.id]: undefined }))
    setNotes((n) => ({ ...n, [agent.id]: r.ok ? { kind: 'ok', text: 'Uninstalled.' } : { kind: 'error', text: r.error.message } }))
    await load(false)
  }

  return (
    <section className="add-agent-section registry-browser" aria-labelledby="registry-title">
      <div className="registry-head">
        <h3 id="registry-title" className="add-agent-section-title">
          ACP Registry
        </h3>
        <label className="sr-only" htmlFor={searchId}>
          Search the registry
        </label>
        <input
          id={searchId}
          className="input registry-search"
          type="search"
          placeholder="Search by name, author or description"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <button type="button" className="button button-secondary button-small" disabled={loading} onClick={() => void load(true)}>
          {loading ? 'Loading…' : 'Refresh'}
        </button>
      </div>

      {listing?.source === 'cache' && (
        <p className="registry-offline small" role="status">
          <strong>Offline:</strong> showing the copy from {new Date(listing.fetchedAt).toLocaleString()}.{' '}
          {listing.offlineReason && <span className="muted">{listing.offlineReason}</span>}
        </p>
      )}
      {loadProblem && !listing && (
        <div role="alert">
          <p className="field-error">Could not load the registry: {loadProblem}</p>
          {/* What to do about it: the reason alone (a host not found) left the person there. */}
          <p className="muted small registry-next">
            Check the network connection, or the registry address below, then press Refresh. Agents found on this computer
            and the presets above do not need it.
          </p>
        </div>
      )}
      {listing && listing.skipped > 0 && (
        <p className="muted small">
          {listing.skipped} {listing.skipped === 1 ? 'entry was' : 'entries were'} left out as invalid.
        </p>
      )}

      {listing && (
        <ul className="registry-list" aria-label="Registry agents">
          {shown.map((agent) => {
            const p = progress[agent.id]
            const state = busy[agent.id]
            const note = notes[agent.id]
            const installed = agent.installed
            return (
              <li key={agent.id} className="registry-item" aria-labelledby={`registry-${agent.id}-name`}>
                <span className="registry-icon" aria-hidden="true">
                  {icons[agent.id] ? <img src={icons[agent.id]!} alt="" width={24} height={24} /> : <span className="registry-icon-letter">{agent.name.slice(0, 1)}</span>}
                </span>
                <div className="registry-text">
                  <div className="registry-title-row">
                    <span id={`registry-${agent.id}-name`} className="registry-name">
                      {agent.name}
                    </span>
                    <span className="muted small">{agent.version}</span>
                    {installed && !installed.updateAvailable && <span className="badge badge-ok">Installed {installed.version}</span>}
                    {installed?.updateAvailable && <span className="badge badge-warn">Update: {installed.version} → {agent.version}</span>}
                  </div>
                  <p className="registry-desc">{agent.description}</p>
                  <p className="registry-meta muted small">
                    {[agent.authors.join(', '), agent.license, agent.usable.length > 0 ? `via ${KIND_LABEL[agent.usable[0]!] ?? agent.usable[0]}` : 'not available for this computer']
                      .filter(Boolean)
                      .join(' · ')}
                  </p>
                  {state === 'install' && p && (
                    <div className="registry-progress" role="status">
                      <span className="small">
                        {PHASE_LABEL[p.phase]}
                        {p.phase === 'downloading' && p.received !== undefined && ` ${mib(p.received)}${p.total ? ` of ${mib(p.total)}` : ''}`}
                      </span>
                      <progress
                        aria-label={`Installing ${agent.name}`}
                        {...(p.phase === 'downloading' && p.total ? { value: p.received ?? 0, max: p.total } : {})}
                      />
                    </div>
                  )}
                  {note && (
                    <p className={note.kind === 'error' ? 'field-error' : 'registry-ok small'} role={note.kind === 'error' ? 'alert' : 'status'}>
                      {note.text}
                    </p>
                  )}
                </div>
                <div className="registry-actions">
                  {state === 'install' ? (
                    <button type="button" className="button button-secondary button-small" onClick={() => void api.cancelRegistryInstall({ registryId: agent.id })}>
                      Cancel
                    </button>
                  ) : installed ? (
                    <>
                      {installed.updateAvailable && (
                        <button type="button" className="button button-primary button-small" disabled={state !== undefined} onClick={() => void install(agent)} aria-label={`Update ${agent.name}`}>
                          Update
                        </button>
                      )}
                      <button type="button" className="button button-secondary button-small" onClick={() => onOpenAgent(installed.agentId)} aria-label={`Open ${agent.name}`}>
                        Open
                      </button>
                      {confirming === agent.id ? (
                        <button type="button" className="button button-danger button-small" onClick={() => void uninstall(agent)} aria-label={`Confirm uninstalling ${agent.name}`}>
                          Remove it
                        </button>
                      ) : (
                        <button type="button" className="button button-secondary button-small" disabled={state !== undefined} onClick={() => setConfirming(agent.id)} aria-label={`Uninstall ${agent.name}`}>
                          {state === 'uninstall' ? 'Removing…' : 'Uninstall'}
                        </button>
                      )}
                    </>
                  ) : (
                    <button
                      type="button"
                      className="button button-primary button-small"
                      disabled={agent.usable.length === 0 || state !== undefined}
                      onClick={() => void install(agent)}
                      aria-label={`Install ${agent.name}`}
                    >
                      Install
                    </button>
                  )}
                </div>
              </li>
            )
          })}
          {shown.length === 0 && <li className="muted small">No agent matches “{query}”.</li>}
        </ul>
      )}
      <RegistryAddress api={api} onChanged={() => void load(true)} />
    </section>
  )
}

/** The registry's address, a setting (empty = the default). */
function RegistryAddress({ api, onChanged }: { api: RegistryApi; onChanged: () => void }) {
  const [url, setUrl] = useState<string | null>(null)
  const [defaultUrl, setDefaultUrl] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const id = useId()
  useEffect(() => {
    void api.getRegistrySettings(undefined).then((r) => {
      if (r.ok) {
        setUrl(r.value.url === r.value.defaultUrl ? '' : r.value.url)
        setDefaultUrl(r.value.defaultUrl)
      }
    })
  }, [api])
  if (url === null) return null
  return (
    <details className="registry-address">
      <summary className="small muted">Registry address</summary>
      <form
        className="registry-address-form"
        onSubmit={(e) => {
          e.preventDefault()
          void api.setRegistrySettings({ url }).then((r) => {
            setProblem(r.ok ? null : r.error.message)
            if (r.ok) onChanged()
          })
        }}
      >
        <label className="field" htmlFor={id}>
          <span className="field-label">Address of registry.json (empty: the official registry)</span>
        </label>
        <div className="registry-address-row">
          <input id={id} className="input mono" type="url" value={url} placeholder={defaultUrl} spellCheck={false} onChange={(e) => setUrl(e.target.value)} />
          <button type="submit" className="button button-secondary button-small">
            Use this address
          </button>
        </div>
        {problem && (
          <p className="field-error" role="alert">
            {problem}
          </p>
        )}
      </form>
    </details>
  )
}
