/** What a v1 refusal (F4) leaves out of the agent's context: the prompt and everything the agent answered to it. */
export const EXCLUDED_NOTE = "Excluded from the agent's context (refused)"

/**
 * The agent's output of a refused turn: a dashed rule shows it, and the prompt's note and the turn's note say what it
 * means, so each entry does not repeat it on screen (five times for a short turn); a screen reader hears it on each.
 */
export function ExcludedMark() {
  return <span className="sr-only">{EXCLUDED_NOTE}</span>
}
