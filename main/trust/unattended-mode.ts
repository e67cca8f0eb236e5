/**
 * Modes whose names say the agent will act without asking the person: Gemini CLI's "YOLO", claude-agent-acp's
 * "Bypass Permissions", codex-acp's "Full Access", and the like. Switching to one widens what runs unasked as much as
 * the auto-approve switch does, so main asks the person first, whoever set it (the page's word is not enough).
 */
import { untitledName } from '../../common/session/title'
import type { ConfigOptionView } from '../../common/session/types'
import { quoteExact, type ConfirmationService } from './confirmation'

// Words agents use for such modes, in a mode's id or name (not its description: "prompts for dangerous operations").
const ACTS_UNASKED = /bypass|yolo|full[\s_-]?access|danger|skip[\s_-]?permissions?|never[\s_-]?ask|don'?t[\s_-]?ask/i

/** Whether a mode (or a mode option's value) says by its id or name that the agent will act without asking. */
export function actsUnasked(choice: { id: string; name?: string | null | undefined }): boolean {
  return ACTS_UNASKED.test(choice.id) || (typeof choice.name === 'string' && ACTS_UNASKED.test(choice.name))
}

/**
 * The name of what setting `option` to `value` would switch the agent to, when that lets it act without asking: a
 * select's value so named (a mode option, or any other), or a boolean option so named turned on. Null otherwise (and
 * for the value it has already).
 */
export function unattendedChoice(option: Pick<ConfigOptionView, 'id' | 'name' | 'type' | 'currentValue' | 'options'>, value: string | boolean): string | null {
  if (option.currentValue === value) return null
  if (option.type === 'select' && typeof value === 'string') {
    const choice = option.options.find((o) => o.value === value)
    return choice && actsUnasked({ id: choice.value, name: choice.name }) ? choice.name || choice.value : null
  }
  if (option.type === 'boolean' && value === true) return actsUnasked(option) ? option.name || option.id : null
  return null
}

/**
 * The name of the legacy mode (`session/set_mode`) `modeId` would switch the session to, when that lets the agent act
 * without asking; null otherwise (an unknown mode, the current one, or one that asks).
 */
export function unattendedMode(modes: { currentModeId: string | null; availableModes: readonly { id: string; name?: string | null }[] } | null | undefined, modeId: string): string | null {
  if (!modes || modes.currentModeId === modeId) return null
  const mode = modes.availableModes.find((m) => m.id === modeId)
  return mode && actsUnasked(mode) ? mode.name || mode.id : null
}

/** Where the mode would apply, for the question. */
export interface UnattendedScope {
  agentName: string
  /** A session's folder and title; absent: every new session of the agent (its default). */
  session?: { cwd: string; title: string | null }
}

/** Asks the person before `modeName` takes effect; true when confirmed. */
export async function confirmUnattendedMode(confirmation: ConfirmationService, modeName: string, scope: UnattendedScope): Promise<boolean> {
  const where = scope.session ? 'in this session' : 'in every session it starts'
  const answer = await confirmation.confirm({
    kind: 'auto-approve',
    title: 'Let the agent act without asking',
    message: `Switch ${quoteExact(scope.agentName)} to ${quoteExact(modeName)}? Its name says the agent will then run commands and change files without asking you, ${where}.`,
    detail: scope.session
      ? [`Session: ${quoteExact(scope.session.title ?? untitledName(scope.session.cwd))}`, `Folder: ${quoteExact(scope.session.cwd)}`].join('\n')
      : `Agent: ${quoteExact(scope.agentName)}\nDefault mode: ${quoteExact(modeName)}`,
    confirmLabel: 'Switch',
  })
  return answer.confirmed
}
