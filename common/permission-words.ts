/** What the words of an agent's permission option mean for how long an answer lasts: main and the window read them alike. */

/**
 * Whether an "always" option's own words keep it to the session ("Yes, allow all edits during this session",
 * claude-agent-acp's file options; Gemini CLI's "Allow for this session"): what the person chose then lasts for this
 * session only, never for later ones.
 */
export function limitedToSession(optionName: string): boolean {
  return /\b(this|the current) (session|conversation|chat)\b/i.test(optionName)
}
