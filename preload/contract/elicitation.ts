// Calls and events of the elicitation domain; declared by the elicitation issue.
export const elicitationCalls = {} as const
export const elicitationEvents = {} as const
