import { useEffect, useState } from 'react'
import type { BosunApi } from '../../../common/contract'
import type { AgentDefinitionView } from '../../../common/contract/agents'
import type { AgentToolsApi } from '../../screens/agents/agent-tools-api'
import { KeyForm } from './KeyForm'

export interface MissingKeysProps {
  /** `onAgentDefinitionsChanged`: a key a login stored elsewhere (the method's own key field) is no longer asked for here. */
  api: Pick<BosunApi, 'listAgentDefinitions'> & Partial<Pick<BosunApi, 'onAgentDefinitionsChanged'>>
  /** The agent tools as `agentTools(api)` gives them (a host without a call answers `not-available`). */
  tools: Pick<AgentToolsApi, 'saveAgentKey' | 'listEnvironmentKeys' | 'useEnvironmentKey'>
  agentId: string
  agentName: string
  keychainAvailable: boolean
  /** Another action is running: the forms wait. */
  disabled?: boolean
  /** The save button's words (what happens after the save). */
  submitLabel: string
  /** A key was stored and the agent restarted with it. */
  onSaved?: (name: string) => void
  /**
   * The agent refused for want of a sign-in (the sign-in dialog): its keys that are set are offered too, to replace,
   * since the one it has may be the one refused (a wrong API key: nothing else offered to change it there).
   */
  replaceSet?: boolean
}

/**
 * The agent's own key variables (its definition's `secretEnv`) that have no value yet, each with a field: an
 * agent such as Gemini CLI accepts a login and then wants its key in the environment. Saving stores the key in
 * the keychain and restarts the agent with it (`saveAgentKey`). Nothing is shown when every key is set.
 */
export function MissingKeys({ api, tools, agentId, agentName, keychainAvailable, disabled = false, submitLabel, onSaved, replaceSet = false }: MissingKeysProps) {
  const [missing, setMissing] = useState<readonly string[]>([])
  /** Of the agent's keys, the ones set (offered to replace with `replaceSet`). */
  const [set, setSet] = useState<readonly string[]>([])
  /** Of those, the ones Bosun's own environment has a value for (names only). */
  const [inEnvironment, setInEnvironment] = useState<readonly string[]>([])
  /** The key being saved, and from where. */
  const [saving, setSaving] = useState<{ name: string; from: 'environment' | 'field' } | null>(null)
  const [problem, setProblem] = useState<string | null>(null)

  useEffect(() => {
    let live = true
    const unset = (agents: readonly AgentDefinitionView[]) => {
      const def = agents.find((a) => a.id === agentId)
      if (!live || !def) return
      const offered = keysOffered(def, true)
      setMissing(offered.missing)
      setSet(offered.replaced)
    }
    void api.listAgentDefinitions(undefined).then((r) => {
      if (r.ok) unset(r.value.agents)
    })
    const off = api.onAgentDefinitionsChanged?.((list) => unset(list.agents))
    void tools.listEnvironmentKeys({ agentId }).then((r) => {
      if (live && r.ok) setInEnvironment(r.value.names)
    })
    return () => {
      live = false
      off?.()
    }
  }, [api, tools, agentId])

  const saved = (name: string) => (r: { ok: true } | { ok: false; error: { message: string } }) => {
    setSaving(null)
    if (!r.ok) return setProblem(`The key was not saved: ${r.error.message}`)
    setMissing((keys) => keys.filter((k) => k !== name))
    onSaved?.(name)
  }

  const replaced = replaceSet ? set.filter((name) => !missing.includes(name)) : []
  if (missing.length === 0 && replaced.length === 0) return null
  const one = missing.length === 1
  if (!keychainAvailable) {
    // No field to type into and no button: nothing typed could be kept (a disabled "Keychain unavailable" field and a
    // disabled Save offered what does not work). What is possible is said instead.
    const names = [...missing, ...replaced]
    return (
      <section className="agents-card missing-keys" aria-label="Keys">
        <h3 className="agents-card-title">With a key</h3>
        <p className="small">
          {agentName} is set up to read{' '}
          {names.map((name, i) => (
            <span key={name}>
              {i > 0 && (i === names.length - 1 ? ' and ' : ', ')}
              <code>{name}</code>
            </span>
          ))}
          . Without the system keychain Bosun cannot keep {names.length === 1 ? 'a key' : 'keys'} (never in plain text), so {agentName} starts
          without {names.length === 1 ? 'it' : 'them'}: sign in another way, or run Bosun where a keychain is available.
        </p>
      </section>
    )
  }
  return (
    <section className="agents-card missing-keys" aria-label="Keys">
      <h3 className="agents-card-title">With a key</h3>
      {missing.length > 0 && (
        <p className="small">
          {agentName} is set up to read {one ? 'a key' : 'keys'} that {one ? 'has' : 'have'} no value yet. If you sign in with a key, paste it
          here.
        </p>
      )}
      {replaced.length > 0 && (
        <p className="small">
          {agentName} has {replaced.map((name, i) => (
            <span key={name}>
              {i > 0 && ', '}
              <code>{name}</code>
            </span>
          ))}{' '}
          from Bosun. If that key was refused (a wrong or expired key), paste the right one here.
        </p>
      )}
      {[...missing, ...replaced].map((name) => (
        <div key={name} className="missing-key">
          {inEnvironment.includes(name) && (
            <div className="missing-key-env">
              <p className="small">
                <code>{name}</code> is set in the environment Bosun was started from.
              </p>
              <button
                type="button"
                className="button button-secondary button-small"
                disabled={!keychainAvailable || disabled || saving !== null}
                onClick={() => {
                  setSaving({ name, from: 'environment' })
                  setProblem(null)
                  void tools.useEnvironmentKey({ agentId, name }).then(saved(name))
                }}
              >
                {saving?.name === name && saving.from === 'environment' ? 'Saving…' : `Use that value for ${agentName}`}
              </button>
            </div>
          )}
          <KeyForm
            names={[name]}
            label={replaced.includes(name) ? `A new value for ${name}` : `The key ${name}`}
            keychainAvailable={keychainAvailable}
            disabled={disabled || saving !== null}
            busy={saving?.name === name && saving.from === 'field'}
            submitLabel={submitLabel}
            busyLabel="Saving…"
            onSubmit={(keyName, value) => {
              setSaving({ name: keyName, from: 'field' })
              setProblem(null)
              void tools.saveAgentKey({ agentId, name: keyName, value }).then(saved(keyName))
            }}
          />
        </div>
      ))}
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
    </section>
  )
}

/**
 * The keys of an agent's definition to offer: those with no value yet, and, when the agent refused for want of a
 * sign-in (`replaceSet`), those set, to replace.
 */
export function keysOffered(def: Pick<AgentDefinitionView, 'secretEnv' | 'secretsSet'>, replaceSet: boolean): { missing: string[]; replaced: string[] } {
  return {
    missing: def.secretEnv.filter((name) => !def.secretsSet[name]),
    replaced: replaceSet ? def.secretEnv.filter((name) => def.secretsSet[name]) : [],
  }
}
