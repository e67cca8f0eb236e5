/** What a session's agent configures (modes, models, options) as Bosun reads it from answers and state. */
import type { NewSessionOutcome } from '../acp/types'
import type { Result } from '../base/errors'
import type { Logger } from '../base/log'
import { boundJson } from '../../common/bounded'
import type { SessionAction, SessionState } from '../../common/session/types'
import { noticeAction } from './session-notices'

/** What setting a session's mode back, and telling of its model, needs of the sessions service. */
export interface SessionSettingsPort {
  state(sessionId: string): SessionState | undefined
  push(sessionId: string, action: SessionAction): void
  setMode(sessionId: string, modeId: string): Promise<Result<undefined>>
  setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<Result<undefined>>
}

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

/**
 * After a resume or load, the session's mode is the one the person had: an agent that answers another (codex-acp
 * resumes every session in its default, "Auto review", which lets a model approve what "Workspace access" asked
 * you about) is asked to set it back before the prompt goes, as far as it still offers it; a refusal is told in
 * the session. Only the mode (what the agent may do without asking), not the other options.
 */
export async function restoreMode(sessions: SessionSettingsPort, logger: Logger, sessionId: string, chosen: ChosenMode | null): Promise<void> {
  const state = chosen ? sessions.state(sessionId) : undefined
  if (!chosen || !state) return
  const told = (what: string, message: string) =>
    sessions.push(sessionId, noticeAction('warning', `The agent resumed this session in another mode and did not take ${what} back`, message))
  if (chosen.configId !== undefined) {
    const option = state.configOptions.find((o) => o.id === chosen.configId && o.type === 'select')
    if (!option || option.currentValue === chosen.value || !option.options.some((o) => o.value === chosen.value)) return
    logger.info(`${sessionId}: resumed in mode ${String(option.currentValue)}, setting ${chosen.value} back`)
    const set = await sessions.setConfigOption(sessionId, option.id, chosen.value)
    if (!set.ok) told(`“${option.options.find((o) => o.value === chosen.value)?.name ?? chosen.value}”`, set.error.message)
    return
  }
  const modes = state.modes
  if (!modes || modes.currentModeId === chosen.value || !modes.availableModes.some((m) => m.id === chosen.value)) return
  logger.info(`${sessionId}: resumed in mode ${modes.currentModeId}, setting ${chosen.value} back`)
  const set = await sessions.setMode(sessionId, chosen.value)
  if (!set.ok) told(`“${modes.availableModes.find((m) => m.id === chosen.value)?.name ?? chosen.value}”`, set.error.message)
}

/**
 * After a resume or load, a model other than the one the session showed is the agent's to choose (unlike the mode,
 * it is not set back), but said: Gemini CLI loads every session with its "Auto" model, and the person's choice of
 * another one changed under the message box as the next prompt went, unremarked.
 */
export function tellModelChanged(sessions: SessionSettingsPort, sessionId: string, had: { value: string; name: string } | null): void {
  const state = had ? sessions.state(sessionId) : undefined
  const now = state ? currentModel(state) : null
  if (!had || !now || now.value === had.value) return
  const title = `The agent continued this session with the model “${now.name}”, not “${had.name}”`
  sessions.push(sessionId, noticeAction('info', title, 'The agent chose it when it took the session back. To use the other one, choose it again under the message box.'))
}
