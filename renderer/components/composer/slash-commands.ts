import type { CommandView } from '../../../common/session/types'

/**
 * The slash-command query in a draft: the text after a leading `/` while the first word is still being
 * typed (no whitespace yet). `null` when the menu should be closed.
 */
export function slashQuery(draft: string): string | null {
  const match = /^\/(\S*)$/.exec(draft)
  return match ? match[1]! : null
}

/**
 * A command as typed: `/` and its name. ACP names commands without the slash (`create_plan`); a name an agent
 * sent with one (`/review`) is typed as it is, never as `//review`.
 */
export function commandText(command: CommandView): string {
  return command.name.startsWith('/') ? command.name : `/${command.name}`
}

/** Commands matching a query: name prefix matches first, then name/description substring matches. */
export function filterCommands(commands: readonly CommandView[], query: string): CommandView[] {
  const q = query.toLowerCase()
  if (q === '') return [...commands]
  const prefix: CommandView[] = []
  const rest: CommandView[] = []
  for (const command of commands) {
    // The query is what follows the typed `/`: matched against the name without its own leading `/`.
    const name = commandText(command).slice(1).toLowerCase()
    if (name.startsWith(q)) prefix.push(command)
    else if (name.includes(q) || command.description.toLowerCase().includes(q)) rest.push(command)
  }
  return [...prefix, ...rest]
}

/** The draft after picking a command: `/name ` ready for its input. */
export function applyCommand(command: CommandView): string {
  return `${commandText(command)} `
}
