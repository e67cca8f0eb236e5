/**
 * The Stop watchdog's notice (issue 13): main adds it when an agent has not ended the turn a few seconds
 * after Stop; the session screen then offers "Stop the agent". Shared so both sides agree on it.
 */
export const STOP_OVERDUE_TITLE = 'The agent has not stopped'
