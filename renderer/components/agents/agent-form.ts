/**
 * The add/edit agent form's state and its pure transitions (no React): start from a saved agent or a
 * preset, turn the state into the draft main validates and saves. Kept apart from the component so it
 * can be tested without a DOM.
 */
import type { AgentDefinitionView, AgentDraft, AgentPresetView } from '../../../common/contract/agents'

export interface EnvRow {
  /** Stable React key; rows have no identity of their own. */
  key: string
  name: string
  value: string
}

export interface SecretRow {
  key: string
  name: string
  /** A value is stored in the keychain for this name (as main reported; never the value). */
  isSet: boolean
  /** A new value typed here, sent once on save. */
  newValue: string
  /** The password field is open (a new name, or "Replace" on a set one). */
  editing: boolean
}

export interface AgentFormState {
  id?: string
  presetId?: string
  name: string
  command: string
  argsText: string
  env: EnvRow[]
  secrets: SecretRow[]
  defaultCwd: string
  /** '' = no preference. */
  protocolVersion: '' | '1' | '2'
  /** Fields the form does not edit, carried through unchanged. */
  defaultMode?: string
  defaultConfigOptions?: Record<string, string | boolean>
}

let counter = 0
export const rowKey = (): string => `row-${++counter}`

export const emptyEnvRow = (): EnvRow => ({ key: rowKey(), name: '', value: '' })
export const emptySecretRow = (): SecretRow => ({ key: rowKey(), name: '', isSet: false, newValue: '', editing: true })

/** The state for editing `agent`, or a blank form for a new one. */
export function formFromAgent(agent?: AgentDefinitionView): AgentFormState {
  if (!agent) return { name: '', command: '', argsText: '', env: [], secrets: [], defaultCwd: '', protocolVersion: '' }
  const state: AgentFormState = {
    id: agent.id,
    name: agent.name,
    command: agent.command,
    argsText: agent.argsText,
    env: Object.entries(agent.env).map(([name, value]) => ({ key: rowKey(), name, value })),
    secrets: agent.secretEnv.map((name) => ({ key: rowKey(), name, isSet: agent.secretsSet[name] === true, newValue: '', editing: false })),
    defaultCwd: agent.defaultCwd ?? '',
    protocolVersion: agent.protocolVersion ? (String(agent.protocolVersion) as '1' | '2') : '',
  }
  if (agent.presetId) state.presetId = agent.presetId
  if (agent.defaultMode) state.defaultMode = agent.defaultMode
  if (agent.defaultConfigOptions) state.defaultConfigOptions = agent.defaultConfigOptions
  return state
}

/**
 * Fills the form from a preset. The name is replaced only when empty or still another preset's name
 * (so a name the person typed survives); the folder is kept, and so is a protocol preference the person
 * chose (one that came from the previous preset follows the new one: a known v1 agent offers 1 first).
 */
export function applyPreset(state: AgentFormState, preset: AgentPresetView, presets: readonly AgentPresetView[]): AgentFormState {
  const untouchedName = state.name.trim() === '' || presets.some((p) => p.name === state.name)
  const previous = presets.find((p) => p.id === state.presetId)
  const presetVersion = (p: AgentPresetView | undefined): AgentFormState['protocolVersion'] => (p?.protocolVersion ? (String(p.protocolVersion) as '1' | '2') : '')
  const untouchedVersion = state.protocolVersion === '' || state.protocolVersion === presetVersion(previous)
  return {
    ...state,
    protocolVersion: untouchedVersion ? presetVersion(preset) : state.protocolVersion,
    presetId: preset.id,
    name: untouchedName ? (preset.id === 'custom' ? '' : preset.name) : state.name,
    command: preset.command,
    argsText: preset.argsText,
    env: Object.entries(preset.env).map(([name, value]) => ({ key: rowKey(), name, value })),
    secrets: preset.secretEnv.map((name) => ({ key: rowKey(), name, isSet: false, newValue: '', editing: true })),
  }
}

/** The draft sent to `validateAgentDefinition` / `saveAgentDefinition`. */
export function toDraft(state: AgentFormState): AgentDraft {
  const draft: AgentDraft = {
    name: state.name,
    command: state.command,
    argsText: state.argsText,
    env: state.env.map(({ name, value }) => ({ name, value })),
    secretEnv: state.secrets.map((s) => s.name),
    defaultCwd: state.defaultCwd,
  }
  if (state.id) draft.id = state.id
  if (state.presetId) draft.presetId = state.presetId
  if (state.protocolVersion) draft.protocolVersion = state.protocolVersion === '2' ? 2 : 1
  if (state.defaultMode) draft.defaultMode = state.defaultMode
  if (state.defaultConfigOptions) draft.defaultConfigOptions = state.defaultConfigOptions
  return draft
}

/** The secret values typed in this form (write-only: sent once, then forgotten). */
export function secretsToStore(state: AgentFormState): Record<string, string> {
  const out: Record<string, string> = {}
  for (const row of state.secrets) {
    const name = row.name.trim()
    if (name && row.editing && row.newValue) out[name] = row.newValue
  }
  return out
}
