/** What a v1 refusal (F4) leaves out of the agent's context: the prompt and everything the agent answered to it. */
export const EXCLUDED_NOTE = "Excluded from the agent's context (refused)"
