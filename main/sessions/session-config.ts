/** What a session's agent configures (modes, models, options) as Bosun reads it from answers and state. */
import type { NewSessionOutcome } from '../acp/types'
import { boundJson } from '../../common/bounded'
import type { SessionAction, SessionState } from '../../common/session/types'

/** The session's mode: its config option of category `mode` (which supersedes the legacy modes), else the legacy mode. */
export interface ChosenMode {
  configId?: string
  value: string
}

export function chosenMode(state: SessionState): ChosenMode | null {
  const option = state.configOptions.find((o) => o.category === 'mode' && o.type === 'select')
  if (option) return typeof option.currentValue === 'string' ? { configId: option.id, value: option.currentValue } : null
  return typeof state.modes?.currentModeId === 'string' ? { value: state.modes.currentModeId } : null
}

/** The session's model and its name: its config option of category `model` (which supersedes the v1 models), else the v1 model. */
export function currentModel(state: SessionState): { value: string; name: string } | null {
  const option = state.configOptions.find((o) => o.category === 'model' && o.type === 'select')
  if (option) {
    const value = option.currentValue
    return typeof value === 'string' ? { value, name: option.options.find((o) => o.value === value)?.name ?? value } : null
  }
  const id = state.models?.currentModelId
  return typeof id === 'string' ? { value: id, name: state.models?.availableModels.find((m) => m.id === id)?.name ?? id } : null
}

/**
 * What a `session/new`, `load` or `resume` answer configures (modes, models, config options, and the commands, which v2 may
 * send only here, not in an update), bounded; null when it names none of them.
 */
export function configuredBy(outcome: NewSessionOutcome): SessionAction | null {
  if (outcome.modes === undefined && outcome.models === undefined && outcome.configOptions === undefined && outcome.availableCommands === undefined) return null
  return boundJson({
    type: 'session_configured',
    ...(outcome.modes !== undefined ? { modes: outcome.modes } : {}),
    ...(outcome.models !== undefined ? { models: outcome.models } : {}),
    ...(outcome.configOptions !== undefined ? { configOptions: outcome.configOptions } : {}),
    ...(outcome.availableCommands !== undefined ? { availableCommands: outcome.availableCommands } : {}),
  })
}
