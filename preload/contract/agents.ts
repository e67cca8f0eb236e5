// Calls and events of the agents domain; declared by the agents issue.
export const agentsCalls = {} as const
export const agentsEvents = {} as const
