/**
 * Modes whose names say the agent will act without asking the person: Gemini CLI's "YOLO", claude-agent-acp's
 * "Bypass Permissions", codex-acp's "Full Access", and the like. Switching to one widens what runs unasked as much as
 * the auto-approve switch does, so main asks the person first, whoever set it (the page's word is not enough).
 */
import { untitledName } from '../../common/session/title'
import { parseConfigOptions } from '../../common/session/reducer/metadata'
import type { ConfigOptionView, SessionState } from '../../common/session/types'
import { quoteCut, quoteExact, type ConfirmationService } from './confirmation'

// Words agents use for such modes, in a mode's id or name (not its description: "prompts for dangerous operations").
const ACTS_UNASKED = /bypass|yolo|full[\s_-]?access|danger|skip[\s_-]?permissions?|never[\s_-]?ask|don'?t[\s_-]?ask/i
/** A select's value that turns an option off: choosing it for an option named "Bypass permissions" widens nothing. */
const TURNS_OFF = /^(off|false|no|none|disabled?)$/i
/** How much of an agent's name for a mode the question quotes. */
const MAX_QUOTED_NAME_CHARS = 200


/**
 * What a switch would choose, when its id or name says the agent then acts without asking: the agent's name for it, its
 * id, and which of the two says so in which word. The question quotes both: an agent may give a mode whose id says
 * "bypassPermissions" a name such as "Ask first".
 */
export interface UnattendedChoice {
  name: string
  id: string
  said: { by: 'id' | 'name'; word: string }
}

/** Whether a mode (or a mode option's value) says by its id or name that the agent will act without asking. */
export const actsUnasked = (choice: { id: string; name?: string | null | undefined }): boolean => unattended(choice.id, choice.name) !== null

function unattended(id: string, name: string | null | undefined): UnattendedChoice | null {
  const byId = ACTS_UNASKED.exec(id)
  const byName = byId || typeof name !== 'string' ? null : ACTS_UNASKED.exec(name)
  const said = byId ? { by: 'id' as const, word: byId[0] } : byName ? { by: 'name' as const, word: byName[0] } : null
  return said ? { name: name || id, id, said } : null
}

/**
 * What setting `option` to `value` would switch the agent to, when that lets it act without asking: a select's value so
 * named (a mode option, or any other), any value but "off" of a select so named, or a boolean option so named turned
 * on. Null otherwise (and for the value it has already).
 */
export function unattendedChoice(option: Pick<ConfigOptionView, 'id' | 'name' | 'type' | 'currentValue' | 'options'>, value: string | boolean): UnattendedChoice | null {
  if (option.currentValue === value) return null
  if (option.type === 'select' && typeof value === 'string') {
    const choice = option.options.find((o) => o.value === value)
    if (!choice) return null
    const own = unattended(choice.value, choice.name)
    if (own) return own
    // An option named for acting unasked ("Bypass permissions": On / Off) widens it with any value but off.
    const named = unattended(option.id, option.name)
    if (!named || TURNS_OFF.test(choice.value) || TURNS_OFF.test(choice.name ?? '')) return null
    return { name: `${named.name}: ${choice.name || choice.value}`, id: `${option.id} = ${choice.value}`, said: named.said }
  }
  if (option.type === 'boolean' && value === true) return unattended(option.id, option.name)
  return null
}

/**
 * What the legacy mode (`session/set_mode`) `modeId` would switch the session to, when that lets the agent act without
 * asking; null otherwise (an unknown mode, the current one, or one that asks).
 */
export function unattendedMode(modes: { currentModeId: string | null; availableModes: readonly { id: string; name?: string | null }[] } | null | undefined, modeId: string): UnattendedChoice | null {
  if (!modes || modes.currentModeId === modeId) return null
  const mode = modes.availableModes.find((m) => m.id === modeId)
  return mode ? unattended(mode.id, mode.name) : null
}

/**
 * An agent's saved default (`defaultMode` when `configId` is undefined, else a `defaultConfigOptions` entry) that lets
 * it act without asking, as far as its ids say: the agent's names are not known when the definition is saved, so a
 * default whose session names it so is asked about when a session would take it.
 */
export function unattendedDefault(configId: string | undefined, value: string | boolean): UnattendedChoice | null {
  if (typeof value === 'boolean') return value && configId !== undefined ? unattended(configId, null) : null
  const own = unattended(value, null)
  if (own || configId === undefined || TURNS_OFF.test(value)) return own
  const named = unattended(configId, null)
  return named && { ...named, name: `${configId} = ${value}`, id: `${configId} = ${value}` }
}

/**
 * The mode or option an agent's own update (`current_mode_update`, `config_option_update`) puts the session in, when
 * its id or name says the agent then acts without asking; `key` names it (`mode:<id>`, `option:<id>=<value>`) to tell
 * it from one the person chose. Null for any other update, or one that leaves no such mode or option current.
 */
export function unattendedUpdate(update: { sessionUpdate: string } & Record<string, unknown>, modes: SessionState['modes'] | undefined): { key: string; choice: UnattendedChoice } | null {
  if (update.sessionUpdate === 'current_mode_update') {
    const id = update.currentModeId
    if (typeof id !== 'string') return null
    const choice = unattended(id, modes?.availableModes.find((m) => m.id === id)?.name)
    return choice && { key: unattendedKey(undefined, id), choice }
  }
  if (update.sessionUpdate !== 'config_option_update') return null
  for (const option of parseConfigOptions(update.configOptions) ?? []) {
    const value = option.currentValue
    if (typeof value !== 'string' && typeof value !== 'boolean') continue
    const choice = unattendedChoice({ ...option, currentValue: null }, value)
    if (choice) return { key: unattendedKey(option.id, value), choice }
  }
  return null
}

/**
 * Whether `update` (a `current_mode_update` or `config_option_update`, the agent's or one Bosun applies for the person)
 * takes the session out of `told`, a mode or option value as {@link unattendedKey} names it. Any other update, or one
 * about the other kind (a mode's update and an option told), leaves it as it was.
 */
export function leavesUnattended(told: string, update: { sessionUpdate: string } & Record<string, unknown>): boolean {
  if (update.sessionUpdate === 'current_mode_update') {
    return told.startsWith('mode:') && typeof update.currentModeId === 'string' && unattendedKey(undefined, update.currentModeId) !== told
  }
  if (update.sessionUpdate !== 'config_option_update' || !told.startsWith('option:')) return false
  const options = parseConfigOptions(update.configOptions)
  if (!options) return false
  return !options.some((o) => (typeof o.currentValue === 'string' || typeof o.currentValue === 'boolean') && unattendedKey(o.id, o.currentValue) === told)
}

/** How {@link unattendedUpdate} names a mode (`configId` undefined) or an option's value the person chose. */
export function unattendedKey(configId: string | undefined, value: string | boolean): string {
  return configId === undefined ? `mode:${String(value)}` : `option:${configId}=${String(value)}`
}

/** Where the mode would apply, for the question. */
export interface UnattendedScope {
  agentName: string
  /** A session's folder and title; absent: every new session of the agent (its default). */
  session?: { cwd: string; title: string | null }
}

/**
 * Asks the person before `choice` takes effect; true when confirmed. The words go by what Bosun saw in the agent's names,
 * never by what the name claims: the agent alone decides what its mode does.
 */
export async function confirmUnattendedMode(confirmation: ConfirmationService, choice: UnattendedChoice, scope: UnattendedScope): Promise<boolean> {
  const where = scope.session ? 'in this session' : 'in every session it starts'
  const named = choice.name === choice.id ? quoteCut(choice.name, MAX_QUOTED_NAME_CHARS) : `${quoteCut(choice.name, MAX_QUOTED_NAME_CHARS)} (id ${quoteCut(choice.id, MAX_QUOTED_NAME_CHARS)})`
  const answer = await confirmation.confirm({
    kind: 'auto-approve',
    title: 'Let the agent act without asking',
    message:
      `Switch ${quoteExact(scope.agentName)} to ${named} ${where}? Its ${choice.said.by} says ${quoteExact(choice.said.word)}, a word agents use for ` +
      'a mode that runs commands and changes files without asking you. What the mode does is up to the agent: Bosun goes by its words only.',
    detail: scope.session
      ? [`Session: ${quoteExact(scope.session.title ?? untitledName(scope.session.cwd))}`, `Folder: ${quoteExact(scope.session.cwd)}`].join('\n')
      : `Agent: ${quoteExact(scope.agentName)}\nDefault mode: ${quoteCut(choice.id, MAX_QUOTED_NAME_CHARS)}`,
    confirmLabel: 'Switch',
  })
  return answer.confirmed
}
