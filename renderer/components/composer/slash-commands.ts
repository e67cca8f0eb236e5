import type { CommandView } from '../../../common/session/types'

/**
 * The slash-command query in a draft: the text after a leading `/` while the first word is still being
 * typed (no whitespace yet), or while the draft is still the start of a command whose name has several words
 * (Gemini CLI's `extensions enable`): "/extensions ena" narrows the menu to it, where the space closed the menu and
 * Enter sent "/extensions ena". A word ended by a space alone ("/extensions ") keeps the menu closed, so Enter sends it.
 * `null` when the menu should be closed.
 */
export function slashQuery(draft: string, commands: readonly CommandView[] = []): string | null {
  const match = /^\/(\S*)$/.exec(draft)
  if (match) return match[1]!
  const words = /^\/(\S+ +\S[^\n]*)$/.exec(draft)?.[1]
  if (words === undefined) return null
  const typed = words.toLowerCase()
  return commands.some((command) => commandText(command).slice(1).toLowerCase().startsWith(typed)) ? words : null
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
