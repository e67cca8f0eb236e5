import { useEffect, useState } from 'react'
import type { AgentDefinitionView } from '../../../common/contract/agents'
import type { DetectedAgent, RegistryApi } from '../../screens/agents/registry-api'
import { CodeText } from './CodeText'

export interface DetectedAgentsProps {
  api: RegistryApi
  /** A detected agent was added (its new definition). */
  onAdded: (agent: AgentDefinitionView) => void
}

/** The known agents found on PATH, each one click from a ready definition. */
export function DetectedAgents({ api, onAdded }: DetectedAgentsProps) {
  const [found, setFound] = useState<readonly DetectedAgent[] | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [adding, setAdding] = useState<string | null>(null)

  useEffect(() => {
    let live = true
    void api.detectAgents(undefined).then((r) => {
      if (!live) return
      if (!r.ok) {
        setFound([])
        if (r.error.kind !== 'not-available') setProblem(r.error.message)
        return
      }
      setFound(r.value.agents)
      // The list is shown (and each one can be added) while a slow `--version` is still read; its version comes after.
      if (!r.value.agents.some((a) => a.versionPending)) return
      void api.detectAgents({ waitForVersions: true }).then((later) => {
        if (live) setFound((list) => list && withVersions(list, later.ok ? later.value.agents : []))
      })
    })
    return () => {
      live = false
    }
  }, [api])

  const add = async (key: string) => {
    setAdding(key)
    setProblem(null)
    const r = await api.addDetectedAgent({ key })
    setAdding(null)
    if (!r.ok) return setProblem(r.error.message)
    setFound((list) => list?.map((a) => (a.key === key ? { ...a, added: true } : a)) ?? list)
    onAdded(r.value.agent)
  }

  return (
    <section className="add-agent-section" aria-labelledby="detected-title">
      <h3 id="detected-title" className="add-agent-section-title">
        Found on this computer
      </h3>
      {found === null ? (
        <p className="muted small" role="status">
          <span className="spinner small" aria-hidden="true" /> Looking for installed agents…
        </p>
      ) : found.length === 0 ? (
        <p className="muted small">None of the agents Bosun knows (claude-agent-acp, codex-acp, gemini, goose, opencode, qwen, kilo, copilot) is on your PATH.</p>
      ) : (
        <ul className="detected-list" aria-label="Agents found on this computer">
          {found.map((agent) => (
            <li key={agent.key} className="detected-item">
              <div className="detected-text">
                <span className="detected-name">
                  {agent.name}
                  {agent.version ? (
                    <span className="muted small detected-version" title={agent.version}>
                      {' '}
                      {versionShown(agent.version)}
                    </span>
                  ) : (
                    agent.versionPending && (
                      <span className="muted small detected-version" title={`Asking ${agent.commandLine.split(' ')[0]} --version`}>
                        {' '}
                        <span className="spinner small" aria-hidden="true" /> checking its version…
                      </span>
                    )
                  )}
                </span>
                <span className="mono small muted detected-path" title={agent.path}>
                  {agent.commandLine}
                </span>
                {agent.needs.length > 0 && (
                  <span className="small muted">
                    Needs: <CodeText text={agent.needs.join('; ')} />
                  </span>
                )}
              </div>
              {agent.added ? (
                <span className="badge badge-ok">Added</span>
              ) : (
                <button type="button" className="button button-primary button-small" disabled={adding !== null} onClick={() => void add(agent.key)} aria-label={`Add ${agent.name}`}>
                  {adding === agent.key ? 'Adding…' : 'Add'}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
    </section>
  )
}

/**
 * What a found agent's `--version` line shows beside its name: the version number when the line has one
 * (GitHub Copilot CLI prints "GitHub Copilot CLI 1.0.102.", which read "GitHub Copilot GitHub Copilot CLI 1.0.102."),
 * else the line. The whole line stays in the tooltip.
 */
export function versionShown(line: string): string {
  const number = /(?:^|[^\w.])v?(\d+\.\d+(?:\.\d+)*(?:-[0-9A-Za-z][0-9A-Za-z.-]*?)?)(?=\.?(?:$|[\s,;)]))/.exec(line)
  return number ? number[1]! : line
}

/** `list` with the versions a later detection read (one it no longer finds keeps none), nothing pending any more. */
export function withVersions(list: readonly DetectedAgent[], later: readonly DetectedAgent[]): DetectedAgent[] {
  return list.map(({ versionPending: _read, ...agent }) => {
    const again = later.find((a) => a.key === agent.key && a.path === agent.path)
    return again?.version ? { ...agent, version: again.version } : agent
  })
}
